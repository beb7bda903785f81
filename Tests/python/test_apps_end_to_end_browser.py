"""The passenger's app (/app) and the driver's tablet app (/driver) together,
end to end: one `mytaxi serve` on the demo city (Manhattan's zones, Midtown's
roads with their places and addresses) on a simulated clock (10 service
seconds a real second, so that the taxi's drive takes seconds), a passenger
on a phone (390x844) and a driver on a tablet (1280x800), each in a headless
Chromium of its own (two browser contexts), driven by Selenium.

The passenger signs up in the app, opens the confirmation e-mail's link
(read from the outbox by an administrator, as the service's --public-url
writes it) and logs in. The driver, whose account an administrator made for
a taxi of the devices file, logs in on the tablet, makes it the taxi's
terminal (its device id: the app sends the taxi's fixes to /osmand), sends
the device's GPS position at a taxi stand and goes available. The passenger
books by a typed address, taking a suggestion, and sees the expected wait;
the driver's app shows the offer, with the pickup's address, and the driver
accepts it; the passenger sees the taxi's code and its ETA. The driver
presses Drive: the taxi's marker on the passenger's map moves (the
`taxi_position` messages of the push socket) until both apps show the
arrival, the driver's counting down to the ride's `missingClientFrom`. The
driver reports the passenger aboard (the passenger learns it from the push
socket: the ride is not polled) and the ride completed; both see the end.

What is checked is what the users see (the pages' texts, the marker's place
on the page), no error in either browser's console and an accessible name on
every control. Set-up in browser_apps.py: MYTAXI_BIN, MYTAXI_WEB_ROOT, and
MYTAXI_SCREENSHOTS, a folder to save app-arriving.png and driver-driving.png
in.
"""
import re
from datetime import datetime

import pytest

from browser_apps import (PHONE, TABLET, DriverApp, PassengerApp, ServiceClock, browser_tools, call, chromium, log_in,
                          metres_between, mytaxi_serve, wait_until)

CLOCK_RATE = 10
TAXI, DEVICE = "TX900001", "tablet-900001"
# The taxi stand: in Midtown South, the zone of 350 5th Avenue, a few hundred metres' drive from it.
TAXI_STAND = (-73.9880, 40.7460)
PICKUP_LABEL = "350 5th Avenue, New York 10118"
# A place the driver's app names by its coordinates (no address near): the page shows them.
DRIVER_EXPECTED_FAILED_LOADS = [
    r"/v1/places/reverse\?\S* - Failed to load resource: the server responded with a status of 404",
]
# The reads of a ride by its id (GET /v1/rides/{id}) the page made since it was loaded.
RIDES_READ = """return performance.getEntriesByType('resource').map(entry => new URL(entry.name).pathname)
    .filter(path => /^\\/v1\\/rides\\/(?!current$)[^/]+$/.test(path))"""
# The distance on the page between the taxi's marker and the pickup's.
TAXI_TO_PICKUP_ON_SCREEN = """
    const centre = (element) => { const box = element.getBoundingClientRect(); return [box.x + box.width / 2, box.y + box.height / 2]; };
    const taxi = document.querySelector('.taxi-marker'), pickup = document.querySelector('path.mark-pickup');
    if (!taxi || !pickup) return null;
    const [a, b] = [centre(taxi), centre(pickup)];
    return Math.hypot(a[0] - b[0], a[1] - b[1]);"""


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` with the tablet's device in its devices file and the taxi's driver account made by an administrator."""
    with mytaxi_serve(tmp_path_factory.mktemp("apps-end-to-end"), {DEVICE: TAXI}, CLOCK_RATE) as served:
        served.create_account("driver", TAXI)
        yield served


@pytest.fixture()
def apps(browser_tools, city):
    """The passenger's app on a phone and the driver's app on a tablet, each in its own Chromium: (PassengerApp, DriverApp)."""
    with chromium(browser_tools, PHONE) as phone, chromium(browser_tools, TABLET) as tablet:
        phone.get(city.origin + "/app")
        tablet.get(city.origin + "/driver")
        yield PassengerApp(phone, city.origin), DriverApp(tablet, city.origin)


def test_a_passenger_books_in_the_app_and_a_driver_serves_the_ride_in_the_tablet_app(city, apps):
    passenger, driver = apps
    port = city.port
    admin = log_in(port, "admin")
    zone = call(port, "GET", f"/v1/zones/at?lon={TAXI_STAND[0]}&lat={TAXI_STAND[1]}", admin)["zoneId"]

    # The driver: logs in with the taxi id, makes the tablet the taxi's terminal, sends its GPS position, goes available.
    driver.log_in(TAXI)
    assert driver.text("state-text").startswith("Unavailable")
    driver.use_as_terminal(DEVICE)
    driver.send_gps_position(TAXI_STAND)
    driver.wait_text("the service puts the taxi in the stand's zone", "queue-text", lambda text: text == f"In zone {zone}")
    driver.click("availability")
    driver.wait_text("the taxi is first in its zone's queue", "queue-text", lambda text: text == f"Place 1 in the queue of zone {zone}")
    assert driver.text("state-text") == "Available"
    driver.assert_named_controls("driver's status")

    # The passenger: signs up, confirms the address by the e-mail's link, logs in.
    passenger.wait_shown("the app opens on the login", "screen-login")
    passenger.sign_up("zoe", "zoe@example.com")
    passenger.open_confirmation_link(port, "zoe@example.com")
    passenger.log_in("zoe")

    # The pickup by a typed address and a suggestion; the expected wait; the request.
    passenger.choose_suggestion("pickup", "350 5th Ave", PICKUP_LABEL)
    passenger.wait_text("the expected wait at the pickup is shown", "wait-info", lambda text: text.startswith("Expected wait: about "))
    passenger.assert_named_controls("passenger's request")
    passenger.tap("#request")
    passenger.wait_shown("the ride is followed", "ride")

    # The driver's app shows the offer, with the pickup's address and a countdown; the driver accepts it.
    driver.wait_shown("the offer is shown", "offer")
    driver.wait_text("the offer names the pickup's address", "offer-pickup", lambda text: text == PICKUP_LABEL)
    driver.wait_text("the offer counts down", "offer-countdown", lambda text: text.startswith("Answer within "))
    driver.wait_text("the offer tells the way to the pickup", "offer-route", lambda text: text.startswith("To the pickup: "))
    driver.assert_named_controls("offer")
    driver.click("accept")
    driver.wait_shown("the ride is shown", "ride")
    ride_id = re.fullmatch(r"Ride (\S+)", driver.text("ride-title")).group(1)
    assert driver.text("ride-status") == "On the way to the pickup"
    driver.wait_text("the way to the pickup is shown", "ride-route", lambda text: text.startswith("To the pickup: "))

    # The passenger sees the taxi's code and its ETA, and the taxi on the map.
    passenger.wait_text("the taxi is on its way", "ride-status", lambda text: text == f"Taxi {TAXI} is on its way")
    passenger.wait_text("the ETA is shown", "ride-detail", lambda text: re.fullmatch(r"Arrives in about \d+ min\.|Arriving now\.", text))
    assert passenger.text("ride-places") == f"From {PICKUP_LABEL}"
    start = wait_until("the taxi is drawn on the passenger's map", passenger.taxi_on_screen)
    wait_until("its way to the pickup is drawn", lambda: passenger.js("return document.querySelectorAll('path.route-toPickup').length"))
    start_to_pickup = passenger.js(TAXI_TO_PICKUP_ON_SCREEN)
    # (A notice that beats the request's answer has the ride read once: it is not read again, the pushes tell the rest.)
    reads_of_the_ride = passenger.js(RIDES_READ)
    passenger.assert_named_controls("passenger's ride")

    # Drive: the tablet's fixes take the taxi to the pickup; the passenger's marker follows them.
    driver.click("drive")
    assert driver.find("#drive").text == "Stop driving (demo)"
    moved = wait_until("the taxi's marker moves on the passenger's map", passenger.taxi_on_screen, lambda seen: seen and seen != start)
    passenger.screenshot("app-arriving.png")
    driver.screenshot("driver-driving.png")
    seen = {tuple(start), tuple(moved)}

    def arrival_shown():
        where = passenger.taxi_on_screen()
        if where:
            seen.add(tuple(where))
        return passenger.text("ride-status")
    passenger.wait_text("the passenger is told the taxi is here", "ride-status",
                        lambda text: arrival_shown() == f"Your taxi {TAXI} is here", seconds=90)
    assert len(seen) >= 3, f"the marker moved step by step: {seen}"
    assert passenger.js(TAXI_TO_PICKUP_ON_SCREEN) < start_to_pickup, "the taxi came nearer the pickup on the map"
    assert passenger.pushed_kinds().get("taxi_position", 0) >= 3, passenger.pushed_kinds()
    assert passenger.text("ride-detail") in ("It waits at the pickup.", "It waits at the meeting point.")

    # The driver's app shows the arrival too, and counts down to the ride's missingClientFrom (300 service seconds).
    driver.wait_text("the driver's app shows the arrival", "ride-status", lambda text: text == "At the pickup: waiting for the passenger")
    countdown = driver.wait_text("the wait before a missing client may be reported", "missing-client-countdown",
                                 lambda text: text.startswith("Missing client can be reported in "))
    ride = call(port, "GET", "/v1/driver", log_in(port, TAXI))["ride"]
    missing_from = datetime.fromisoformat(ride["missingClientFrom"].replace("Z", "+00:00")).timestamp()
    left = missing_from - ServiceClock(port).now()
    minutes, seconds = map(int, re.fullmatch(r"Missing client can be reported in (\d):(\d\d)", countdown).groups())
    assert abs(minutes * 60 + seconds - left) <= 30, f"{countdown!r}: {left:.0f} service seconds were left"
    assert not driver.find("#missing-client").is_enabled()
    position = call(port, "GET", f"/v1/taxis/{TAXI}", admin)
    assert metres_between((position["lon"], position["lat"]), TAXI_STAND) > 100, "the tablet drove the taxi away from the stand"

    # Aboard, then completed: both see each step and the end.
    driver.click("aboard")
    driver.wait_text("the driver's app shows the passenger aboard", "ride-status",
                     lambda text: text == "Passenger aboard: on the way to the destination")
    passenger.wait_text("the passenger is told of being aboard", "ride-status", lambda text: text == "On your way")
    assert passenger.pushed_kinds().get("passenger_aboard") == 1, passenger.pushed_kinds()
    assert passenger.js(RIDES_READ) == reads_of_the_ride, "each step is pushed: the passenger's app does not poll the ride"
    driver.click("completed")
    passenger.wait_text("the passenger sees the end", "summary-text",
                        lambda text: text == f"Your ride with taxi {TAXI} is complete. Thank you for riding with mytaxi.")
    assert passenger.shown("request-form") and not passenger.shown("ride")
    wait_until("the driver's ride is over", lambda: not driver.shown("ride"))
    driver.wait_text("the driver sees the ride among today's rides", "rides-today",
                     lambda text: f"{ride_id}, completed: from {PICKUP_LABEL}" in text)
    driver.wait_text("the taxi is available again", "state-text", lambda text: text == "Available")

    passenger.assert_named_controls("passenger's end of the ride")
    driver.assert_named_controls("driver's end of the ride")
    assert passenger.console_errors() == [], "no error in the passenger's browser console"
    assert driver.console_errors(DRIVER_EXPECTED_FAILED_LOADS) == [], "no error in the driver's browser console"
