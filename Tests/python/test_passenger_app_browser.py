"""The passenger's app (/app) in a real browser, played as a passenger would
on a phone (a 390x844 viewport): `mytaxi serve` on Manhattan's zones and
Midtown's roads (and the places and addresses the graph build stores), on a
simulated clock (3 service seconds a real second, so that the confirmation's
countdown is seen to run on the service's time), the page opened in Debian's
headless Chromium driven by Selenium through Debian's chromedriver.

The passenger signs up in the app (the password rules the service names
are shown at the field), opens the confirmation e-mail's link (read from the
outbox by an administrator, as the service's --public-url writes it), logs
in, types "350 5th Ave", takes the suggestion with the keyboard and sees the
expected wait, then requests a taxi. A driver, played through the API with
its terminal on the line protocol, accepts the offer: the app shows the taxi
and its ETA, then "here", "on your way" and the ride's end, and the history
lists it. Then the queue, from "my location" to a point tapped on the map:
no free taxi, the app counts down to the confirmation deadline, the
passenger confirms and later cancels. Last a
reservation: the 2 to 48 h window checked in the form, a booking made and
cancelled; and a confirmation token pasted by hand. What is checked is what the passenger sees (the page's texts), no
error in the browser's console, and an accessible name on every control.
The taxi and its route to the pickup are checked on the map too, and that
the passenger learns of boarding from the push socket (`passenger_aboard`).

Set-up in browser_apps.py, shared with the driver's app's test and the
end-to-end test: MYTAXI_BIN names the binary (default: `swift build`'s),
MYTAXI_WEB_ROOT a folder of the web pages to serve instead of the built-in
ones (`serve --web-root`), MYTAXI_SCREENSHOTS a folder to save
app-login.png, app-request.png, app-queued.png, app-assigned.png,
app-reservations.png and app-history.png in. Skips, naming the package, when
Chromium, chromedriver, Leaflet or Selenium is missing.
"""
import re
import urllib.error
from datetime import datetime

import pytest

from browser_apps import (PASSWORD, PHONE, ActionChains, Keys, LineTerminal, PassengerApp, ServiceClock, browser_tools, call, chromium,
                          log_in, mytaxi_serve, wait_until)

CLOCK_RATE = 3
TAXI, DEVICE = "TX900001", "terminal-900001"
# Where the taxi waits: in Midtown South, the zone of 350 5th Avenue, a few minutes' drive from it.
TAXI_STAND = (-73.9880, 40.7460)
PICKUP_LABEL = "350 5th Avenue, New York 10118"
# The reads of a ride by its id (GET /v1/rides/{id}) the page made since it was loaded.
RIDES_READ = """return performance.getEntriesByType('resource').map(entry => new URL(entry.name).pathname)
    .filter(path => /^\\/v1\\/rides\\/(?!current$)[^/]+$/.test(path))"""


class Driver:
    """The taxi's driver, played through the driver API."""

    def __init__(self, port):
        self.port = port
        self.token = log_in(port, TAXI)

    def call(self, method, path, body=None):
        return call(self.port, method, path, self.token, body)

    def set_available(self, available):
        """Joins (or leaves) the zone's queue, once the terminal's fixes put the taxi in a zone."""
        def tried():
            try:
                self.call("PUT", "/v1/driver/availability", {"available": available})
                return True
            except urllib.error.HTTPError as error:
                if error.code != 409:
                    raise
                return False
        wait_until(f"the taxi is {'available' if available else 'unavailable'}", tried, seconds=30)

    def accept_offer(self):
        """Waits for an offer and takes it: the ride's id."""
        offer = wait_until("the taxi is offered the ride", lambda: self.call("GET", "/v1/driver").get("offer"))
        self.call("POST", "/v1/driver/offer/accept")
        return offer["rideId"]


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city, the taxi reporting on the line protocol, its driver logged in: (City, Driver)."""
    # Offers last 600 service seconds, so that the driver played here never misses one.
    with mytaxi_serve(tmp_path_factory.mktemp("passenger-app"), {DEVICE: TAXI}, CLOCK_RATE) as served:
        served.create_account("driver", TAXI)
        served.create_account("passenger", "ada", email="ada@example.com")
        terminal = LineTerminal(served.ports["line/tcp"], DEVICE, TAXI_STAND, ServiceClock(served.port))
        try:
            yield served, Driver(served.port)
        finally:
            terminal.stop()


@pytest.fixture()
def app(browser_tools, city):
    """The passenger's app in a new headless Chromium on a phone's 390x844 screen: (PassengerApp, port, Driver)."""
    served, driver_api = city
    with chromium(browser_tools, PHONE) as browser:
        browser.get(served.origin + "/app")
        yield PassengerApp(browser, served.origin), served.port, driver_api


def test_a_passenger_signs_up_calls_a_taxi_and_rides_to_the_end(app):
    tab, port, driver = app
    driver.set_available(True)
    tab.wait_shown("the app opens on the login", "screen-login")
    wait_until("Leaflet and the app's script are loaded", lambda: tab.js("return typeof L === 'object' && document.readyState === 'complete'"))
    tab.assert_named_controls("login")
    assert tab.driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})["installabilityErrors"] == [], \
        "the app can be installed (its manifest and icon)"
    tab.screenshot("app-login.png")

    # Sign up: the rules the service names are shown at their fields, then "check your e-mail".
    tab.tap("#go-register")
    tab.wait_shown("the sign-up form", "screen-register")
    tab.type("#register-username", "zoe")
    tab.type("#register-email", "zoe@example.com")
    tab.type("#register-password", "short")
    tab.tap("#register-form button[type=submit]")
    problem = tab.wait_text("the password's rules are named at the field", "register-password-error",
                            lambda text: "8 characters" in text)
    assert "digit" in problem, problem
    assert tab.text("register-error") == "Please correct the fields above."
    tab.assert_named_controls("sign-up")
    tab.type("#register-password", PASSWORD)
    tab.tap("#register-form button[type=submit]")
    tab.wait_shown("the app asks to check the e-mail", "screen-confirm")
    assert tab.text("confirm-title") == "Check your e-mail"
    assert "zoe@example.com" in tab.text("confirm-note")

    # The e-mail's link opens the app, which confirms the address; then the login.
    tab.open_confirmation_link(port, "zoe@example.com")
    assert tab.find("#login-username").get_attribute("value") == "zoe"
    tab.log_in("zoe")

    # The pickup by address, a suggestion taken with the keyboard; the expected wait before asking.
    tab.choose_suggestion("pickup", "350 5th Ave", PICKUP_LABEL)
    wait = tab.wait_text("the expected wait at the pickup is shown", "wait-info", lambda text: text.startswith("Expected wait:"))
    assert "Midtown South" in wait, wait
    tab.assert_named_controls("home")
    tab.screenshot("app-request.png")

    # The request; the driver accepts the offer: the taxi and its ETA.
    tab.tap("#request")
    tab.wait_shown("the ride is followed", "ride")
    ride_id = driver.accept_offer()
    tab.wait_text("the taxi is on its way", "ride-status", lambda text: text == f"Taxi {TAXI} is on its way")
    detail = tab.wait_text("the ETA is shown", "ride-detail", lambda text: re.fullmatch(r"Arrives in about \d+ min\.|Arriving now\.", text))
    assert tab.text("ride-places") == f"From {PICKUP_LABEL}", tab.text("ride-places")
    wait_until("the taxi is drawn on the map", lambda: tab.js("return document.querySelectorAll('.taxi-marker').length") == 1)
    wait_until("its way to the pickup is drawn", lambda: tab.js("return document.querySelectorAll('path.route-toPickup').length") > 0)
    tab.assert_named_controls("ride")
    tab.screenshot("app-assigned.png")
    assert detail

    # A reload finds the ride again (the push socket's first message).
    tab.driver.refresh()
    tab.wait_text("the reloaded app shows the ride again", "ride-status", lambda text: text == f"Taxi {TAXI} is on its way")
    assert tab.shown("ride") and not tab.shown("request-form")

    # The ride's steps, reported by the driver, each shown.
    driver.call("POST", "/v1/driver/ride/arrived")
    tab.wait_text("the taxi is here", "ride-status", lambda text: text == f"Your taxi {TAXI} is here")
    driver.call("POST", "/v1/driver/ride/aboard")
    tab.wait_text("the passenger is on the way", "ride-status", lambda text: text == "On your way")
    assert not tab.shown("cancel-ride"), "no cancelling once aboard"
    assert tab.js(RIDES_READ) == [], "each step is pushed (passenger_aboard too): the ride is not polled"
    driver.call("POST", "/v1/driver/ride/completed")
    tab.wait_text("the ride's summary", "summary-text",
                  lambda text: text == f"Your ride with taxi {TAXI} is complete. Thank you for riding with mytaxi.")
    assert tab.shown("request-form") and not tab.shown("ride"), "back to asking for a taxi"

    # The history lists it.
    tab.tap("#tabs a[data-screen=history]")
    entries = wait_until("the history lists the ride", lambda: tab.js(
        "return [...document.querySelectorAll('#history-past li')].map(li => li.textContent)"),
        lambda seen: any(f"Completed · taxi {TAXI}" in entry and f"From {PICKUP_LABEL}" in entry for entry in seen))
    assert len(entries) == 1, entries
    assert call(port, "GET", f"/v1/rides/{ride_id}", log_in(port, "zoe"))["outcome"] == "completed"
    tab.assert_named_controls("history")
    assert tab.console_errors([r"/v1/passengers - Failed to load resource: the server responded with a status of 400"]) == []


def test_a_queued_request_is_confirmed_in_time_then_cancelled(app):
    tab, port, driver = app
    driver.set_available(False)
    tab.log_in("ada")
    # The pickup where the phone is ("my location"), the destination a tap on the map: both named.
    tab.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": tab.origin, "permissions": ["geolocation"]})
    tab.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 40.74844, "longitude": -73.98566, "accuracy": 10})
    tab.tap("#locate")
    pickup = wait_until("my location is named as the pickup", lambda: tab.find("#pickup").get_attribute("value"))
    assert re.search(r"Street|Avenue|Broadway|Plaza", pickup), pickup
    tab.wait_text("the expected wait there is shown", "wait-info", lambda text: text.startswith("Expected wait:"))
    tab.tap("input[name=tap-sets][value=destination]")
    ActionChains(tab.driver).move_to_element_with_offset(tab.find("#map"), 0, -80).click().perform()
    destination = wait_until("the point tapped is named as the destination", lambda: tab.find("#destination").get_attribute("value"))
    assert re.search(r"Street|Avenue|Broadway|Plaza", destination), destination
    tab.wait_text("the drive there is shown", "drive-info", lambda text: text.startswith("The drive: about "))
    tab.tap("#request")
    tab.wait_text("no free taxi: the passenger is queued", "ride-status", lambda text: text == "You are number 1 in the queue")
    tab.wait_text("the countdown to the confirmation's deadline", "countdown", lambda text: text.startswith("Confirm within "))
    # The expected wait the service tells of a queued ride; with no taxi on duty in the zone, it does not know one.
    assert re.fullmatch(r"Expected wait: (about \d+ (s|min)|a taxi should be free any moment)\.|Waiting for a free taxi\.",
                        tab.text("ride-detail")), tab.text("ride-detail")
    # The deadline is 30 service seconds from the request: counted on the service's clock (3x), not the browser's.
    ada = log_in(port, "ada")
    ride = call(port, "GET", "/v1/rides/current", ada)
    deadline = datetime.fromisoformat(ride["confirmBy"].replace("Z", "+00:00")).timestamp()
    service_clock = ServiceClock(port)
    countdown = tab.text("countdown")
    left = deadline - service_clock.now()
    shown = int(re.search(r"within (\d+) s", countdown).group(1))
    assert 0 < shown <= 30 and abs(shown - left) <= 3, f"{countdown!r}: {left:.1f} service seconds were left"
    tab.assert_named_controls("queued")
    tab.screenshot("app-queued.png")
    tab.tap("#confirm-wait")
    tab.wait_text("the wait is confirmed", "ride-detail", lambda text: text.startswith("Confirmed: you keep your place in the queue."))
    assert not tab.shown("confirm-box")
    wait_until("the confirmation's deadline passes", lambda: service_clock.now() > deadline + 1, seconds=30)
    assert call(port, "GET", f"/v1/rides/{ride['rideId']}", ada)["status"] == "queued", "confirmed: still waiting after the deadline"
    assert tab.text("ride-status") == "You are number 1 in the queue"

    tab.tap("#cancel-ride")
    tab.wait_text("the cancellation is told", "summary-text", lambda text: text == "You cancelled the ride.")
    assert call(port, "GET", f"/v1/rides/{ride['rideId']}", ada)["outcome"] == "cancelled"
    assert tab.console_errors() == []


def test_a_reservation_is_made_within_its_window_and_cancelled(app):
    tab, port, driver = app
    tab.log_in("ada")
    tab.tap("#tabs a[data-screen=reservations]")
    tab.wait_shown("the reservations screen", "screen-reservations")
    assert tab.text("reservation-window").startswith("Book 2 to 48 hours ahead: between ")
    tab.wait_text("no booking yet", "reservation-list", lambda text: text == "No booking yet.")
    tab.choose_suggestion("reservation-pickup", "350 5th Ave", PICKUP_LABEL)
    destination = tab.choose_suggestion("reservation-destination", "Penn Station", "Penn Station")

    # An hour ahead is too soon: the form says so and sends nothing.
    soon = tab.js("""
        const hour = new Date(Date.now() + 3600e3);
        const pad = (n) => String(n).padStart(2, '0');
        return `${hour.getFullYear()}-${pad(hour.getMonth() + 1)}-${pad(hour.getDate())}T${pad(hour.getHours())}:${pad(hour.getMinutes())}`;""")
    clock = ServiceClock(port)
    tab.js("document.getElementById('reservation-time').value = arguments[0]", soon)
    tab.tap("#reservation-form button[type=submit]")
    tab.wait_text("the window is named", "reservation-error", lambda text: text.startswith("A taxi can be booked 2 to 48 hours ahead"))
    ada = log_in(port, "ada")
    assert call(port, "GET", "/v1/reservations", ada) == []

    # Three hours ahead on the service's clock: booked, listed, then cancelled.
    later = tab.js("""
        const at = new Date(arguments[0] * 1000 + 3 * 3600e3);
        const pad = (n) => String(n).padStart(2, '0');
        return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;""",
                   clock.now())
    tab.js("document.getElementById('reservation-time').value = arguments[0]", later)
    tab.tap("#reservation-form button[type=submit]")
    result = tab.wait_text("the booking is confirmed", "reservation-result", lambda text: text.startswith("Booked for "))
    assert f"{PICKUP_LABEL} to " in result, result
    item = wait_until("the booking is listed", lambda: tab.js(
        "return [...document.querySelectorAll('#reservation-list li')].map(li => li.textContent)"),
        lambda seen: len(seen) == 1 and "Booked" in seen[0] and f"From {PICKUP_LABEL}" in seen[0])
    assert f"to {destination}" in item[0], item
    [booked] = call(port, "GET", "/v1/reservations", ada)
    assert booked["status"] == "booked"
    tab.assert_named_controls("reservations")
    tab.screenshot("app-reservations.png")

    tab.tap("#reservation-list button")
    tab.wait_text("the cancellation is told", "reservation-result", lambda text: text == "The booking is cancelled.")
    tab.wait_text("the list is empty again", "reservation-list", lambda text: text == "No booking yet.")
    assert call(port, "GET", "/v1/reservations", ada) == []

    tab.tap("#tabs a[data-screen=history]")
    past = wait_until("the history shows the cancelled booking and the cancelled ride", lambda: tab.js(
        "return [...document.querySelectorAll('#history-past li')].map(li => li.textContent)"),
        lambda seen: any("Booking cancelled" in entry or "Cancelled" in entry for entry in seen))
    assert past
    tab.screenshot("app-history.png")
    tab.tap("#tabs a[data-screen=profile]")
    assert tab.wait_text("the profile names the passenger", "profile-username", lambda text: text == "ada")
    tab.type("#password-current", "not-my-pass-1!")
    tab.type("#password-new", "n3w-pass-word" + Keys.ENTER)
    tab.wait_text("a wrong current password is refused in the service's words", "password-result",
                  lambda text: "current password is not this account's" in text)
    tab.type("#password-current", PASSWORD)
    tab.type("#password-new", "n3w-pass-word" + Keys.ENTER)
    tab.wait_text("the password is changed", "password-result", lambda text: text.startswith("The password is changed"))
    with pytest.raises(urllib.error.HTTPError) as ended:
        call(port, "GET", "/v1/reservations", ada)
    assert ended.value.code == 401, "the passenger's other login (the test's own) has ended"
    assert call(port, "POST", "/v1/sessions", body={"username": "ada", "password": "n3w-pass-word"})["token"]
    tab.assert_named_controls("profile")
    tab.tap("#logout")
    tab.wait_shown("logged out: the login", "screen-login")
    assert tab.text("login-note") == "You are logged out."
    assert tab.console_errors([r"/v1/account/password - Failed to load resource: the server responded with a status of 422"]) == []


def test_the_confirmation_token_pasted_by_hand(app):
    tab, port, driver = app
    call(port, "POST", "/v1/passengers", body={"username": "max", "email": "max@example.com", "password": PASSWORD})
    admin = log_in(port, "admin")
    mail = wait_until("the confirmation e-mail is in the outbox", lambda: [
        email for email in call(port, "GET", "/v1/outbox?limit=10", admin) if email["to"] == "max@example.com"])[0]
    token = re.search(r"#confirm=(\S+)", mail["body"]).group(1)
    tab.wait_shown("the app opens on the login", "screen-login")
    tab.tap("#go-token")
    tab.wait_shown("the token form", "screen-confirm")
    tab.type("#confirm-token", "not-a-token" + Keys.ENTER)
    tab.wait_text("an unknown token is refused in the service's words", "confirm-error",
                  lambda text: "unknown, already used or expired" in text)
    tab.assert_named_controls("confirmation")
    tab.type("#confirm-token", token + Keys.ENTER)
    tab.wait_text("the account is confirmed", "login-note", lambda text: text == "The address max@example.com is confirmed: you can log in.")
    tab.log_in("max")
    assert tab.text("profile-username") == "max"
    assert tab.console_errors([r"/v1/passengers/confirmations - Failed to load resource: the server responded with a status of 422"]) == []
