"""The driver's tablet app (/driver) in a real browser, played as a driver
would on a landscape tablet (1280x800): `mytaxi serve` on Manhattan's zones
and Midtown's roads, on a simulated clock (10 service seconds a second, so
that the offer's countdown, the fixes' timestamps and the wait for a missing
client are seen in service time), the page opened in Debian's headless
Chromium driven by Selenium through Debian's chromedriver.

The driver logs in with the taxi id, makes the tablet the taxi's terminal
(its device id), puts the taxi on the map ("Move the taxi here", then the
device's GPS position, set through Chromium's geolocation override), goes
available and sees its place in the zone's queue. A passenger (through the
API) asks for a ride nearby: the app shows the offer with the pickup's
address and a countdown, the driver refuses it, and a second taxi (another
driver on the API, its terminal on the line protocol) gets it. A second
passenger's ride is offered next; the driver accepts it, sees the route and
its ETA, "Drive"s the taxi (OsmAnd fixes the page sends to /osmand) until
the service marks it arrived, reports the passenger aboard and the ride
completed, and finds it among today's rides. A third ride's passenger does
not come: after the wait at the pickup (counted down in service time to the
ride's `missingClientFrom`) the driver reports the client missing. A reload
of the page draws the taxi where the service last had it (`position` of
GET /v1/driver). What is checked is what the
driver sees (the page's texts), the service's own account of the rides (the
API), no error in the browser's console, and an accessible name on every
control.

Set-up in browser_apps.py, shared with the passenger's app's test and the
end-to-end test: MYTAXI_BIN names the binary (default: `swift build`'s),
MYTAXI_WEB_ROOT a folder of the web pages to serve instead of the built-in
ones (`serve --web-root`), MYTAXI_SCREENSHOTS a folder to save
driver-login.png, driver-queue.png, driver-offer.png and driver-ride.png in. Skips, naming the package, when Chromium, chromedriver,
Leaflet or Selenium is missing.
"""
import re
import urllib.error

import pytest

from browser_apps import (TABLET, By, DriverApp, Keys, LineTerminal, ServiceClock, browser_tools, call, chromium,
                          coordinates_in, log_in, metres_between, mytaxi_serve, wait_until)

CLOCK_RATE = 10
APP_TAXI, APP_DEVICE = "TX900001", "tablet-900001"
OTHER_TAXI, OTHER_DEVICE = "TX900002", "terminal-900002"
# A failed load the browser logs as an error although the page handles it: a
# place with no address near (the page shows its coordinates).
EXPECTED_FAILED_LOADS = [
    r"/v1/places/reverse\?\S* - Failed to load resource: the server responded with a status of 404",
]


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city's zones and roads, with the accounts: the City."""
    # The offers last 600 service seconds (a minute of real time at 10x) so that the browser has time to show one.
    with mytaxi_serve(tmp_path_factory.mktemp("driver-app"), {APP_DEVICE: APP_TAXI, OTHER_DEVICE: OTHER_TAXI},
                      CLOCK_RATE) as served:
        for taxi in [APP_TAXI, OTHER_TAXI]:
            served.create_account("driver", taxi)
        for passenger in ["ada", "bob"]:
            served.create_account("passenger", passenger, email=f"{passenger}@example.com")
        yield served


@pytest.fixture()
def page(browser_tools, city):
    """The driver's app in a new headless Chromium at a tablet's 1280x800: (DriverApp, City)."""
    with chromium(browser_tools, TABLET, log_output=city.work / "chromedriver.log") as driver:
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": city.origin, "permissions": ["geolocation"]})
        driver.get(city.origin + "/driver")
        yield DriverApp(driver, city.origin), city


def seconds_in(countdown):
    """The seconds of a countdown's "M:SS"."""
    minutes, seconds = re.search(r"(\d+):(\d\d)", countdown).groups()
    return int(minutes) * 60 + int(seconds)


def test_a_driver_shift_refused_offer_ride_driven_to_the_end_and_missing_client(page):
    tab, city = page
    port = city.port
    admin = log_in(port, "admin")
    clock = ServiceClock(port)
    assert clock.rate == CLOCK_RATE

    # Log in with the taxi id: the taxi goes on duty, unavailable.
    wait_until("the page asks for a login", lambda: tab.shown("login") and tab.js("return typeof L === 'object'"))
    tab.screenshot("driver-login.png")
    tab.log_in(APP_TAXI)
    assert tab.text("state-text").startswith("Unavailable")
    assert tab.text("rides-today") == "No ride yet today"
    wait_until("the map draws the roads and the zones' outlines",
               lambda: tab.js("return [document.querySelectorAll('path.road').length, document.querySelectorAll('path.zone').length]"),
               lambda counts: all(counts))

    # The tablet as the taxi's terminal: its device id, then a place chosen on the map (Enter: the map's centre).
    tab.use_as_terminal(APP_DEVICE)
    tab.driver.find_element(By.ID, "map").send_keys(Keys.ENTER)
    move = tab.driver.find_element(By.ID, "move-here")
    wait_until("the map's centre is chosen", lambda: move.is_enabled())
    start = coordinates_in(move.text)
    move.click()
    position = tab.wait_text("the taxi is where the driver put it", "position-text",
                             lambda text: text.startswith("Sent by this device: "))
    assert metres_between(coordinates_in(position), start) < 1, position
    assert tab.js("return document.querySelectorAll('path.own-taxi').length") == 1, "the taxi is on the map"
    zone = call(port, "GET", f"/v1/zones/at?lon={start[0]}&lat={start[1]}", admin)["zoneId"]
    tab.wait_text("the service puts the taxi in the zone of its position", "queue-text",
                  lambda text: text == f"In zone {zone}")
    # The device's GPS position, a few metres on.
    gps = (start[0] + 0.00005, start[1] + 0.00003)
    tab.send_gps_position(gps)

    # A reload: the app draws the taxi where the service last had it, and goes on repeating that position.
    tab.driver.refresh()
    tab.wait_text("the reloaded app shows the taxi", "taxi-title", lambda text: text == f"Taxi {APP_TAXI}")
    position = tab.wait_text("the taxi's last position, as the service has it", "position-text",
                             lambda text: text.startswith("Last position: "))
    assert metres_between(coordinates_in(position), gps) < 1, position
    assert tab.js("return document.querySelectorAll('path.own-taxi').length") == 1, "the taxi is on the map"

    # Available: first in the zone's queue; the second taxi, on its own terminal, joins behind it.
    tab.click("availability")
    tab.wait_text("the taxi is first in its zone's queue", "queue-text",
                  lambda text: text == f"Place 1 in the queue of zone {zone}")
    assert tab.text("state-text") == "Available"
    assert tab.js("return document.getElementById('availability').getAttribute('aria-pressed')") == "true"
    tab.screenshot("driver-queue.png")
    other = LineTerminal(city.ports["line/tcp"], OTHER_DEVICE, (gps[0] + 0.0002, gps[1]), clock)
    try:
        other_driver = log_in(port, OTHER_TAXI)
        wait_until("the second taxi reports from the zone", lambda: call(port, "GET", "/v1/driver", other_driver),
                   lambda state: state.get("zoneId") == zone and not state["stale"])
        assert call(port, "PUT", "/v1/driver/availability", other_driver, {"available": True})["queuePosition"] == 2

        # A passenger asks for a ride a few hundred metres on along the roads: the app's taxi is offered it.
        route = call(port, "GET", f"/v1/route?from={gps[0]},{gps[1]}&to={gps[0] + 0.004},{gps[1] + 0.003}", admin)
        pickup = next(({"lon": lon, "lat": lat} for lon, lat in route["geometry"]["coordinates"]
                       if metres_between(gps, (lon, lat)) > 250
                       and call(port, "GET", f"/v1/zones/at?lon={lon}&lat={lat}", admin)["zoneId"] == zone), None)
        assert pickup, f"a point of zone {zone} on the roads 250 m or more from the taxi: {route['geometry']}"
        destination = {"lon": gps[0] - 0.006, "lat": gps[1] - 0.004}
        first = call(port, "POST", "/v1/rides", log_in(port, "ada"), {"pickup": pickup, "destination": destination})
        assert first["status"] == "offered", first
        try:
            address = call(port, "GET", f"/v1/places/reverse?lon={pickup['lon']}&lat={pickup['lat']}", admin)["label"]
        except urllib.error.HTTPError:
            address = f"{pickup['lat']:.5f}, {pickup['lon']:.5f}"
        wait_until("the offer is shown", lambda: tab.shown("offer"))
        tab.wait_text("the offer names the pickup's address", "offer-pickup", lambda text: text == address)
        tab.wait_text("the offer tells the way to the pickup and on", "offer-route",
                      lambda text: re.fullmatch(r"To the pickup: \d+ (s|min), \d+ m\. Then to the destination: \d+ (s|min), [\d.]+ k?m", text))
        countdown = tab.wait_text("the offer counts down", "offer-countdown", lambda text: text.startswith("Answer within "))
        # 600 service seconds, shown as minutes and seconds of service time, which runs 10 times faster.
        later = tab.wait_text("the countdown runs in service time", "offer-countdown", lambda text: text != countdown)
        assert 0 < seconds_in(countdown) - seconds_in(later) <= 30, (countdown, later)
        assert tab.text("state-text") == "Ride offered"
        tab.screenshot("driver-offer.png")

        # Refused: the ride goes to the second taxi, which takes it.
        tab.click("refuse")
        wait_until("the offer is gone", lambda: not tab.shown("offer"))
        offered = wait_until("the second taxi is offered the ride", lambda: call(port, "GET", "/v1/driver", other_driver),
                             lambda state: state.get("offer", {}).get("rideId") == first["rideId"])
        assert offered["state"] == "offered"
        assert call(port, "POST", "/v1/driver/offer/accept", other_driver)["ride"]["rideId"] == first["rideId"]
        tab.wait_text("the app's taxi is back in the queue", "queue-text",
                      lambda text: text == f"Place 1 in the queue of zone {zone}")

        # The next ride: accepted, its route and ETA shown.
        bob = log_in(port, "bob")
        second = call(port, "POST", "/v1/rides", bob, {"pickup": pickup, "destination": destination})
        assert second["status"] == "offered", second
        wait_until("the second offer is shown", lambda: tab.shown("offer"))
        tab.wait_text("the second offer names the pickup's address", "offer-pickup", lambda text: text == address)
        tab.click("accept")
        wait_until("the ride is shown", lambda: tab.shown("ride"))
        assert not tab.shown("offer")
        assert tab.text("ride-title") == f"Ride {second['rideId']}"
        assert tab.text("ride-status") == "On the way to the pickup"
        assert tab.text("state-text") == "On a ride"
        eta = tab.wait_text("the route's ETA is shown", "ride-route", lambda text: text.startswith("To the pickup: "))
        assert re.fullmatch(r"To the pickup: \d+ (s|min), \d+ m\. Then to the destination: \d+ (s|min), [\d.]+ k?m", eta), eta
        wait_until("the route to the pickup is drawn", lambda: tab.js("return document.querySelectorAll('path.route-to-pickup').length"))
        assert tab.js("return document.querySelectorAll('path.route-to-destination').length") == 1
        assert call(port, "GET", "/v1/rides/current", bob)["taxiId"] == APP_TAXI
        tab.screenshot("driver-ride.png")

        # Drive: the page's fixes take the taxi to the pickup, where the service marks it arrived.
        tab.click("drive")
        assert tab.driver.find_element(By.ID, "drive").text == "Stop driving (demo)"
        tab.wait_text("the service marks the taxi arrived", "ride-status",
                      lambda text: text == "At the pickup: waiting for the passenger", seconds=90)
        assert call(port, "GET", "/v1/rides/current", bob)["status"] == "arrived"
        waiting = tab.wait_text("the wait before a missing client can be reported", "missing-client-countdown",
                                lambda text: text.startswith("Missing client can be reported in "))
        assert re.fullmatch(r"Missing client can be reported in [45]:\d\d", waiting), waiting
        assert not tab.driver.find_element(By.ID, "missing-client").is_enabled()

        tab.click("aboard")
        tab.wait_text("the passenger is aboard", "ride-status",
                      lambda text: text == "Passenger aboard: on the way to the destination")
        wait_until("the service has the passenger aboard", lambda: call(port, "GET", "/v1/rides/current", bob)["status"],
                   lambda status: status == "aboard")
        tab.click("completed")
        wait_until("the ride is over", lambda: not tab.shown("ride"))
        tab.wait_text("the ride is among today's rides", "rides-today",
                      lambda text: f"{second['rideId']}, completed: from {address}" in text)
        assert tab.text("state-text") == "Available"
        history = call(port, "GET", f"/v1/rides/{second['rideId']}", bob)
        assert (history["status"], history["outcome"]) == ("ended", "completed"), history

        # A ride whose passenger does not come: once the wait at the pickup is over, "Missing client" ends it.
        third = call(port, "POST", "/v1/rides", bob, {"pickup": pickup})
        assert third["status"] == "offered", third
        wait_until("the third offer is shown", lambda: tab.shown("offer"))
        assert tab.text("offer-destination") == "none given"
        tab.click("accept")
        wait_until("the ride is shown", lambda: tab.shown("ride"))
        tab.click("drive")
        tab.wait_text("the taxi is marked arrived", "ride-status",
                      lambda text: text == "At the pickup: waiting for the passenger", seconds=90)
        missing = tab.driver.find_element(By.ID, "missing-client")
        wait_until("the wait for the passenger is over (300 service seconds)", lambda: missing.is_enabled(), seconds=60)
        assert tab.text("missing-client-countdown") == ""
        missing.click()
        wait_until("the ride is over", lambda: not tab.shown("ride"))
        tab.wait_text("the ride is among today's rides", "rides-today",
                      lambda text: f"{third['rideId']}, client missing: from {address}" in text)
        history = call(port, "GET", f"/v1/rides/{third['rideId']}", bob)
        assert (history["status"], history["outcome"]) == ("ended", "client_missing"), history

        assert tab.controls_without_a_name() == [], "every control has an accessible name"
        assert tab.console_errors(EXPECTED_FAILED_LOADS) == [], "no error in the browser's console"
    finally:
        other.stop()
