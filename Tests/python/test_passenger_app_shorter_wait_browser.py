"""The passenger's app (/app) suggesting a shorter wait a short walk away, in
a real browser on a phone's screen (390x844): `mytaxi serve` on Manhattan's
zones and Midtown's roads, one free taxi in Midtown South, its terminal on
the line protocol. The passenger stands in Murray Hill, a block from Midtown
South, where no taxi is free: the app shows the expected wait there and "A
taxi sooner: walk ... to Midtown South, taxi there in about ...", marks the
stop on the map, and "Walk there" makes that stop the pickup: the wait shown
is then Midtown South's, the suggestion and its mark are gone, and a request
is made from that stop. What is checked is what the passenger sees, an
accessible name on every control and no error in the browser's console.

Set-up in browser_apps.py (MYTAXI_BIN, MYTAXI_WEB_ROOT, MYTAXI_SCREENSHOTS
for app-shorter-wait.png). Skips, naming the package, when Chromium,
chromedriver, Leaflet or Selenium is missing.
"""
import re
import urllib.error

import pytest

from browser_apps import (PHONE, LineTerminal, PassengerApp, ServiceClock, browser_tools, call, chromium,  # noqa: F401
                          log_in, metres_between, mytaxi_serve, wait_until)

TAXI, DEVICE = "TX900002", "terminal-900002"
# The free taxi: in Midtown South (zone 164), by 5th Avenue and 33rd Street.
TAXI_STAND = (-73.9880, 40.7460)
# Where the passenger stands: Murray Hill, about 190 m from Midtown South, no free taxi in the zone.
STANDING = (-73.9800, 40.7475)
SOONER_ZONE, SOONER_NAME, HERE_NAME = "164", "Midtown South", "Murray Hill"


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city, the taxi reporting from its stand and available, a passenger: the City."""
    with mytaxi_serve(tmp_path_factory.mktemp("shorter-wait"), {DEVICE: TAXI}, clock_rate=1) as served:
        served.create_account("driver", TAXI)
        served.create_account("passenger", "lea", email="lea@example.com")
        terminal = LineTerminal(served.ports["line/tcp"], DEVICE, TAXI_STAND, ServiceClock(served.port))
        try:
            driver = log_in(served.port, TAXI)

            def available():
                try:
                    call(served.port, "PUT", "/v1/driver/availability", driver, {"available": True})
                    return True
                except urllib.error.HTTPError as error:
                    if error.code != 409:
                        raise
                    return False
            wait_until("the taxi is available (its fixes put it in a zone)", available, seconds=30)
            yield served
        finally:
            terminal.stop()


def test_walking_to_the_next_zone_for_a_taxi_sooner(browser_tools, city):
    lea = log_in(city.port, "lea")
    waits = call(city.port, "GET", f"/v1/waits?lon={STANDING[0]}&lat={STANDING[1]}", lea)
    assert waits["name"] == HERE_NAME, waits
    sooner = waits["shorterWaits"][0] if waits["shorterWaits"] else None
    assert sooner and sooner["zoneId"] == SOONER_ZONE, f"{SOONER_NAME} is the first suggestion: {waits}"

    with chromium(browser_tools, PHONE) as browser:
        browser.get(city.origin + "/app")
        tab = PassengerApp(browser, city.origin)
        tab.log_in("lea")
        # The pickup where the phone is ("my location"): Murray Hill, the taxi sooner in Midtown South.
        tab.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": tab.origin, "permissions": ["geolocation"]})
        tab.driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                   {"latitude": STANDING[1], "longitude": STANDING[0], "accuracy": 10})
        tab.tap("#locate")
        here = tab.wait_text("the expected wait where the passenger stands", "wait-info",
                             lambda text: text.startswith("Expected wait:") and text.endswith(f"({HERE_NAME})"))
        tab.wait_shown("a taxi sooner is suggested", "shorter-wait")
        text = tab.text("shorter-wait-text")
        assert re.fullmatch(rf"A taxi sooner: walk \d+ (s|min) to {SOONER_NAME}, taxi there in about \d+ (s|min)", text), text
        assert tab.js("return document.querySelectorAll('path.mark-sooner').length") == 1, "the stop is marked on the map"
        tab.assert_named_controls("home, with a taxi sooner")
        tab.screenshot("app-shorter-wait.png")

        # "Walk there": the stop becomes the pickup, its wait is Midtown South's, nothing sooner is left to suggest.
        before = tab.find("#pickup").get_attribute("value")
        tab.tap("#walk-there")
        moved = tab.wait_text("the wait shown is the suggested zone's", "wait-info",
                              lambda text: re.fullmatch(rf"Expected wait: about \d+ (s|min) \({SOONER_NAME}\)", text))
        assert moved != here
        wait_until("the suggestion is gone", lambda: not tab.shown("shorter-wait"))
        assert tab.js("return document.querySelectorAll('path.mark-sooner').length") == 0, "its mark is gone"
        assert tab.js("return document.querySelectorAll('path.mark-pickup').length") == 1
        pickup = wait_until("the stop is named as the pickup", lambda: tab.find("#pickup").get_attribute("value"),
                            lambda value: value and value != before)

        # The request is made from the stop walked to.
        tab.tap("#request")
        tab.wait_shown("the ride is followed", "ride")
        ride = call(city.port, "GET", "/v1/rides/current", lea)
        assert metres_between((ride["pickup"]["lon"], ride["pickup"]["lat"]), (sooner["lon"], sooner["lat"])) < 5, (ride, sooner)
        assert pickup
        assert tab.console_errors() == []
