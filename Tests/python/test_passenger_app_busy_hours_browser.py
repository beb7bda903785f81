"""The passenger's app (/app) telling the pickup zone's busiest hours of the
day (GET /v1/waits' `busyHours`), in a real browser on a phone's screen
(390x844): `mytaxi serve` on Manhattan's zones and Midtown's roads, on a
simulated clock 600 times faster than real time (a service hour is 6 real
seconds), no taxi at all.

The busy hours are real statistics: a passenger asks for a taxi in Murray
Hill twice, then, once the service's clock is in a later hour, once more
(each request cancelled, or closed by the service when it is not confirmed
in time, so that the next may be made; a request is counted when it is
opened). Busy hours count only whole hours before the current one, and a
zone's are read again after ten minutes of the service's time: once the
clock is that far past the last request's hour, the API's busy hours are
final, two hours or more, in the day's order, among the hours of the city's
time zone the requests were made in. The app, at the same pickup, shows
those very hours under the expected wait ("Busiest here: 21–22, 22–23"),
one short line that overlaps nothing and leaves the request button on the
screen; at 350 5th Avenue (Midtown South, no request there) the line is
gone.

The fast clock shortens every timer of the service, a login's too: 12 h of
the service's time (the default) would be 72 real seconds, so the service
is given sessions of a week (--session-lifetime 604800, the longest: 1,008
real seconds). `--clock-rate` takes at most 1000.

Set-up in browser_apps.py (MYTAXI_BIN, MYTAXI_WEB_ROOT, MYTAXI_SCREENSHOTS
for app-busy-hours.png). Skips, naming the package, when Chromium,
chromedriver, Leaflet or Selenium is missing.
"""
import re
import urllib.error
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from browser_apps import (PHONE, Page, PassengerApp, browser_tools, call, chromium,  # noqa: F401
                          log_in, mytaxi_serve, wait_until)

CLOCK_RATE = 600
# BusyHours reads a zone's statistics again after this much of the service's time.
BUSY_HOURS_FRESH_FOR = timedelta(minutes=10)
NEW_YORK = ZoneInfo("America/New_York")
# Where the passenger asks: Murray Hill (zone 170).
STANDING = (-73.9800, 40.7475)
HERE_NAME = "Murray Hill"
# A pickup in a zone nobody asked in: 350 5th Avenue, Midtown South.
QUIET_LABEL, QUIET_NAME = "350 5th Avenue, New York 10118", "Midtown South"
# Where the busy hours' line and its neighbours are on the page, scrolled to its top (arguments[0] "top") or to
# the form's end ("end"): there the request button, which stays in reach above the tabs while the form scrolls,
# is in its own place under the form rather than over it.
LAYOUT = """
    const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
    window.scrollTo(0, arguments[0] === 'top' ? 0 : document.documentElement.scrollHeight);
    return {busy: box('busy-hours'), wait: box('wait-info'), request: box('request'), tabs: box('tabs'),
            lineHeight: parseFloat(getComputedStyle(document.getElementById('busy-hours')).lineHeight),
            viewport: {width: window.innerWidth, height: window.innerHeight},
            scrollWidth: document.documentElement.scrollWidth};"""


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city on the fast clock, with sessions that outlast the test, and a passenger."""
    with mytaxi_serve(tmp_path_factory.mktemp("busy-hours"), {}, clock_rate=CLOCK_RATE,
                      extra=("--session-lifetime", "604800")) as served:
        served.create_account("passenger", "noa", email="noa@example.com")
        yield served


def service_now(port):
    """The service's time (GET /v1/clock)."""
    return datetime.fromisoformat(call(port, "GET", "/v1/clock")["now"].replace("Z", "+00:00"))


def hour_start(moment):
    return moment.replace(minute=0, second=0, microsecond=0)


def waits_here(port, token):
    return call(port, "GET", f"/v1/waits?lon={STANDING[0]}&lat={STANDING[1]}", token)


def ask_and_cancel(port, token):
    """A request for a taxi where the passenger stands (counted as it is opened), then cancelled so that the next
    may be made; on the fast clock the service may have closed it first (its 30 s to confirm are 50 ms)."""
    ride = call(port, "POST", "/v1/rides", token, {"pickup": {"lon": STANDING[0], "lat": STANDING[1]}})
    try:
        call(port, "DELETE", f"/v1/rides/{ride['rideId']}", token)
    except urllib.error.HTTPError as error:
        if error.code != 404:
            raise


def spans(hours):
    """What the app shows for these hours of the day."""
    return "Busiest here: " + ", ".join(f"{hour}–{hour + 1}" for hour in hours)


def test_the_pickup_zones_busiest_hours_under_the_expected_wait(browser_tools, city):
    noa = log_in(city.port, "noa")
    assert waits_here(city.port, noa)["busyHours"] == [], "a new service has counted no request"

    # Two requests, then one more in a later hour of the service's clock.
    started = service_now(city.port)
    ask_and_cancel(city.port, noa)
    ask_and_cancel(city.port, noa)
    first_hour_over = hour_start(service_now(city.port)) + timedelta(hours=1)
    wait_until("the service's clock is in the next hour", lambda: service_now(city.port) >= first_hour_over)
    ask_and_cancel(city.port, noa)
    last = service_now(city.port)

    # Final once the last request's hour is whole and the zone's busy hours were read again after it.
    settled = hour_start(last) + timedelta(hours=1) + BUSY_HOURS_FRESH_FOR

    def busy_hours():
        now = service_now(city.port)
        return now, waits_here(city.port, noa)["busyHours"]
    _, busy = wait_until("the zone's busy hours are counted", busy_hours,
                         lambda seen: seen[0] >= settled and seen[1])
    hours = [busy_hour["hour"] for busy_hour in busy]
    asked_in = {(hour_start(started) + timedelta(hours=step)).astimezone(NEW_YORK).hour
                for step in range(int((last - hour_start(started)) / timedelta(hours=1)) + 1)}
    assert len(hours) >= 2 and hours == sorted(hours) and set(hours) <= asked_in, (busy, asked_in)

    with chromium(browser_tools, PHONE) as browser:
        browser.get(city.origin + "/app")
        tab = PassengerApp(browser, city.origin)
        tab.log_in("noa")
        assert not tab.shown("busy-hours"), "no line before a pickup is chosen"

        # The pickup where the phone is ("my location"): Murray Hill's wait, and its busy hours under it.
        tab.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": tab.origin, "permissions": ["geolocation"]})
        tab.driver.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                   {"latitude": STANDING[1], "longitude": STANDING[0], "accuracy": 10})
        tab.tap("#locate")
        tab.wait_text("the expected wait where the passenger stands", "wait-info",
                      lambda text: text.startswith("Expected wait:") and text.endswith(f"({HERE_NAME})"))
        tab.wait_shown("the busy hours are shown", "busy-hours")
        text = tab.text("busy-hours")
        assert text == spans(hours), (text, busy)
        assert re.fullmatch(r"Busiest here: \d{1,2}–\d{1,2}(, \d{1,2}–\d{1,2}){1,2}", text), text
        assert tab.find("#busy-hours").get_attribute("role") == "status", "told as the expected wait is"
        assert [busy_hour["hour"] for busy_hour in waits_here(city.port, noa)["busyHours"]] == hours, "still the same"

        # One short line under the wait: the request button is still on the phone's screen at the page's top, and at
        # the form's end the line sits between the wait and the button, overlapping neither, no wider than the screen.
        top = tab.js(LAYOUT, "top")
        assert 0 <= top["request"]["top"] and top["request"]["bottom"] <= top["tabs"]["top"] <= top["viewport"]["height"], \
            f"the button on screen: {top}"
        end = tab.js(LAYOUT, "end")
        busy_box, wait_box, request, tabs = end["busy"], end["wait"], end["request"], end["tabs"]
        assert busy_box["height"] <= end["lineHeight"] + 1, f"one line: {end}"
        assert wait_box["bottom"] <= busy_box["top"] and busy_box["bottom"] <= request["top"], f"between, overlapping neither: {end}"
        assert 0 <= busy_box["top"] and request["bottom"] <= tabs["top"], f"both on screen: {end}"
        assert busy_box["right"] <= end["viewport"]["width"] and end["scrollWidth"] <= end["viewport"]["width"], end
        tab.assert_named_controls("home, with the busy hours")
        Page.screenshot(tab, "app-busy-hours.png")  # as scrolled, not at the page's top as PassengerApp's are

        # A pickup in a zone nobody asked in: no busy hours, no line.
        tab.choose_suggestion("pickup", "350 5th Ave", QUIET_LABEL)
        tab.wait_text("the expected wait at the new pickup", "wait-info",
                      lambda text: text.startswith("Expected wait:") and text.endswith(f"({QUIET_NAME})"))
        wait_until("the busy hours' line is gone", lambda: not tab.shown("busy-hours"))
        assert tab.text("busy-hours") == ""
        assert tab.console_errors() == []
