"""The planners' view of the live map (/map) in a real browser: the zones
coloured by a statistic of the days chosen (GET /v1/stats/zones). `mytaxi
serve` on the demo city (Manhattan's zones, Midtown's roads), one taxi
reporting on the line protocol, its driver and a passenger played through
the API: one ride requested, accepted, driven and completed, and a second
one requested and cancelled by the passenger while it is offered, both
picked up at 350 5th Avenue, so that its zone (Midtown South) counts 2
requests and 1 ride served.

A planner, whose account an administrator made, logs in on the map in
Debian's headless Chromium driven by Selenium and chooses "statistic":
the days default to the 7 days to the service's today; the pickup's zone
holds 2 requests in its `data-stat`, every zone the service counted nothing
in holds "", and every zone's value is what GET /v1/stats/zones answers the
planner for the same days (the page and the API agree); the legend names
the statistic, the days and the values of each colour, the tooltip the
zone's value. "rides served" colours by the figures already read (no new
read, nor one with each fleet refresh); a stretch too long shows the
service's words in the status line and clears the colours; "free taxis"
brings its own legend back. No control lacks a name, and the console holds
no error but the refusals the test provokes: a planner's map makes none of
the dispatchers' calls (the open rides, the phone desk, the push socket).

Set-up in browser_apps.py: MYTAXI_BIN names the binary, MYTAXI_WEB_ROOT a
folder of the web pages to serve instead of the built-in ones (`serve
--web-root`), MYTAXI_SCREENSHOTS a folder to save map-statistics.png in.
Skips, naming the package, when Chromium, chromedriver, Leaflet or Selenium
is missing.
"""
import json
import urllib.error
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from browser_apps import (MANHATTAN, PASSWORD, TABLET, By, LineTerminal, Page, ServiceClock, browser_tools, call, go_available,  # noqa: F401
                          chromium, log_in, mytaxi_serve, wait_until)

CLOCK_RATE = 1
TAXI, DEVICE = "TX900001", "terminal-900001"
# Where the taxi waits: in Midtown South, a few minutes' drive from the pickup.
TAXI_STAND = (-73.9880, 40.7460)
# 350 5th Avenue, in Midtown South.
PICKUP = {"lon": -73.98566, "lat": 40.74844}
NEW_YORK = ZoneInfo("America/New_York")
# Counts the page's reads of the statistics from now on (the page looks fetch up at each call).
COUNT_STATISTICS_READS = """
    if (!window.__statisticsReads) {
      const native = window.fetch;
      window.__statisticsReads = [];
      window.fetch = (input, init) => {
        if (String(input).startsWith('/v1/stats/zones')) window.__statisticsReads.push(String(input));
        return native(input, init);
      };
    }
"""
# Every zone drawn, by its id (its class zone-ID), with its data-stat (null when it has none).
ZONE_STATS = """
    const stats = {};
    for (const path of document.querySelectorAll('path.zone')) {
      const id = path.getAttribute('class').split(' ').find(name => name.startsWith('zone-')).slice(5);
      stats[id] = path.getAttribute('data-stat');
    }
    return stats;"""
# The one load failure the test provokes: the too long stretch it asks for (422).
EXPECTED_FAILED_LOADS = [
    r"/v1/stats/zones\S* - Failed to load resource: the server responded with a status of 422",
]


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` with the taxi reporting from its stand; its driver, a passenger and a planner made by an administrator."""
    with mytaxi_serve(tmp_path_factory.mktemp("map-statistics"), {DEVICE: TAXI}, CLOCK_RATE) as served:
        served.create_account("driver", TAXI)
        served.create_account("passenger", "ada", email="ada@example.com")
        served.create_account("planner", "plan")
        terminal = LineTerminal(served.ports["line/tcp"], DEVICE, TAXI_STAND, ServiceClock(served.port))
        try:
            yield served
        finally:
            terminal.stop()


def offered(port, driver, ride):
    """Waits until the taxi is offered `ride`."""
    wait_until(f"the taxi is offered {ride}", lambda: (call(port, "GET", "/v1/driver", driver).get("offer") or {}).get("rideId"),
               lambda seen: seen == ride)


def zone_statistics(port, token, first_day, last_day):
    """GET /v1/stats/zones by day for the days `first_day` to `last_day` (dates), as the page asks for them."""
    return call(port, "GET", f"/v1/stats/zones?from={first_day.isoformat()}&to={(last_day + timedelta(days=1)).isoformat()}"
                f"&bucket=day", token)


def service_today(port):
    """The service's today in the city (New York)."""
    return datetime.fromtimestamp(ServiceClock(port).now(), timezone.utc).astimezone(NEW_YORK).date()


def test_a_planner_colours_the_zones_by_requests_and_the_page_agrees_with_the_api(city, browser_tools):
    port = city.port
    planner = log_in(port, "plan")
    zone = call(port, "GET", f"/v1/zones/at?lon={PICKUP['lon']}&lat={PICKUP['lat']}", planner)["zoneId"]
    driver, ada = log_in(port, TAXI), log_in(port, "ada")

    # One ride served to the end, one cancelled by the passenger while it is offered.
    go_available(port, driver)
    served = call(port, "POST", "/v1/rides", ada, {"pickup": PICKUP})["rideId"]
    offered(port, driver, served)
    call(port, "POST", "/v1/driver/offer/accept", driver)
    for step in ["arrived", "aboard", "completed"]:
        call(port, "POST", f"/v1/driver/ride/{step}", driver)
    cancelled = call(port, "POST", "/v1/rides", ada, {"pickup": PICKUP})["rideId"]
    offered(port, driver, cancelled)
    call(port, "DELETE", f"/v1/rides/{cancelled}", ada)
    today = service_today(port)
    totals = wait_until("the service counts both requests and the ride served in the pickup's zone",
                        lambda: {z["zoneId"]: z["total"] for z in zone_statistics(port, planner, today - timedelta(days=6), today)["zones"]},
                        lambda seen: zone in seen and seen[zone]["requests"] == 2 and seen[zone]["served"] == 1
                        and seen[zone]["cancelled"]["byPassenger"] == 1)
    assert totals[zone]["waitP50S"] >= 0, totals[zone]

    with chromium(browser_tools, TABLET) as browser:
        browser.get(city.origin + "/map")
        tab = Page(browser, city.origin)
        wait_until("the map asks for a login", lambda: tab.js(
            "return document.readyState === 'complete' && typeof L === 'object' && !document.getElementById('login').hidden"))
        tab.js(COUNT_STATISTICS_READS)
        browser.find_element(By.ID, "username").send_keys("plan")
        browser.find_element(By.ID, "password").send_keys(PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login button[type=submit]").click()
        zone_count = len(json.loads(MANHATTAN.read_text())["features"])
        wait_until("the board shows every zone", lambda: tab.js("return document.querySelectorAll('path.zone').length"),
                   lambda drawn: drawn == zone_count)
        assert tab.shown("zone-legend-free") and not tab.shown("zone-legend-statistic") and not tab.shown("statistic-choice"), \
            "free taxis is the colouring at first"
        assert tab.js("return window.__statisticsReads") == [], "no statistics are read before they are asked for"
        assert not tab.shown("dispatch-desk"), "the phone desk and the open rides are the dispatchers'"

        # "statistic", requests (the first choice): the 7 days to the service's today, read once.
        before = service_today(port)
        tab.find("input[name=colour][value=statistic]").click()
        assert tab.shown("statistic-choice") and tab.shown("zone-legend-statistic") and not tab.shown("zone-legend-free")
        assert tab.js("return document.getElementById('statistic-name').value") == "requests"
        days = wait_until("the days counted are shown", lambda: tab.js(
            "return [document.getElementById('statistic-from').value, document.getElementById('statistic-to').value]"),
            lambda seen: all(seen))
        first_day, last_day = (datetime.strptime(day, "%Y-%m-%d").date() for day in days)
        assert last_day in {before, service_today(port)}, f"the days end on the service's today: {days}"
        assert first_day == last_day - timedelta(days=6), f"7 days: {days}"
        wait_until("the pickup's zone holds its 2 requests",
                   lambda: tab.js("return document.querySelector(arguments[0]).getAttribute('data-stat')", f"path.zone-{zone}"),
                   lambda value: value == "2")

        # The page and the API agree, zone by zone: the value the service counted, "" where it counted nothing.
        answer = zone_statistics(port, planner, first_day, last_day)
        counted = {z["zoneId"]: z for z in answer["zones"]}
        shown = tab.js(ZONE_STATS)
        assert len(shown) == zone_count
        assert shown == {z: str(counted[z]["total"]["requests"]) if z in counted else "" for z in shown}, \
            f"the page's requests per zone are the API's: {shown} against {answer['zones']}"
        assert counted[zone]["total"]["requests"] == 2
        assert sum(value == "" for value in shown.values()) >= zone_count - len(counted) > 0, "zones with no figure are left empty"
        legend = tab.text("zone-legend-statistic")
        assert legend.startswith(f"Zones, requests, {first_day} to {last_day}:") and "2" in legend, legend
        swatches = tab.js("return [...document.querySelectorAll('#zone-legend-statistic span')].map(s => s.style.backgroundColor)")
        assert len(swatches) >= 2 and swatches[-1] == "rgb(189, 189, 189)", f"steps, then grey for no figure: {swatches}"
        fill = tab.js("return document.querySelector(arguments[0]).getAttribute('fill')", f"path.zone-{zone}")
        assert fill != "#bdbdbd", "the zone with figures is not grey"
        assert tab.js("return [...document.querySelectorAll('path.zone')].filter(p => p.getAttribute('data-stat') === '')"
                      ".every(p => p.getAttribute('fill') === '#bdbdbd')"), "every zone with no figure is grey"

        # The zone's tooltip tells its value.
        tab.js("""const path = document.querySelector(arguments[0]); const box = path.getBoundingClientRect();
                  path.dispatchEvent(new MouseEvent('mouseover', {bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));""",
               f"path.zone-{zone}")
        wait_until("the zone's tooltip tells its requests", lambda: tab.js(
            "return [...document.querySelectorAll('.leaflet-tooltip')].map(t => t.textContent)"),
            lambda tips: tips == [f"{counted[zone]['name']} — requests: 2"])
        tab.screenshot("map-statistics.png")

        # Another statistic colours by the figures read; the fleet's refreshes read nothing.
        reads = tab.js("return window.__statisticsReads.length")
        assert reads == 1, tab.js("return window.__statisticsReads")
        select = browser.find_element(By.ID, "statistic-name")
        select.find_element(By.CSS_SELECTOR, "option[value=served]").click()
        wait_until("the pickup's zone holds its ride served",
                   lambda: tab.js("return document.querySelector(arguments[0]).getAttribute('data-stat')", f"path.zone-{zone}"),
                   lambda value: value == "1")
        assert tab.text("zone-legend-statistic").startswith(f"Zones, rides served, {first_day} to {last_day}:")
        status = tab.text("fleet-status")
        tab.wait_text("the fleet is read again", "fleet-status", lambda text: text != status, seconds=15)
        assert tab.js("return window.__statisticsReads.length") == reads, "the statistics are read once per choice"
        assert tab.controls_without_a_name() == [], "every control has an accessible name"

        # A stretch too long for days: the service's words in the status line, no colour left.
        set_day = """const input = document.getElementById(arguments[0]); input.value = arguments[1];
                     input.dispatchEvent(new Event('change', {bubbles: true}));"""
        tab.js(set_day, "statistic-from", "2020-01-01")
        try:
            zone_statistics(port, planner, datetime(2020, 1, 1).date(), last_day)
            raise AssertionError("the service takes a stretch of years by day")
        except urllib.error.HTTPError as refused:
            assert refused.code == 422
            detail = json.loads(refused.read())["detail"]
        tab.wait_text("the status line says why", "status", lambda text: text.endswith(f"Cannot read the statistics: {detail}"))
        assert set(tab.js(ZONE_STATS).values()) == {""}, "no zone keeps a value of days not read"
        tab.js(set_day, "statistic-from", first_day.isoformat())
        wait_until("the days chosen again are read again",
                   lambda: [tab.js("return document.querySelector(arguments[0]).getAttribute('data-stat')", f"path.zone-{zone}"),
                            tab.text("statistics-problem")],
                   lambda seen: seen == ["1", ""])

        # Back to free taxis: its legend, no statistic's.
        tab.find("input[name=colour][value=free]").click()
        assert tab.shown("zone-legend-free") and not tab.shown("zone-legend-statistic") and not tab.shown("statistic-choice")
        wait_until("the zones are coloured by free taxis again", lambda: tab.js(
            "return document.querySelector(arguments[0]).getAttribute('data-free')", f"path.zone-{zone}"), lambda value: value is not None)
        assert tab.js("return document.querySelector(arguments[0]).getAttribute('fill-opacity')", f"path.zone-{zone}") == "0.35"
        assert tab.console_errors(EXPECTED_FAILED_LOADS) == []


# The page's reads of the statistics answered in the page itself with `arguments[0]` (a ZoneStatistics document),
# so that the scale is seen over many zones and values without weeks of rides.
ANSWER_STATISTICS = """
    const answer = arguments[0];
    const native = window.fetch;
    window.fetch = (input, init) => String(input).startsWith('/v1/stats/zones')
      ? Promise.resolve(new Response(JSON.stringify(answer), {status: 200, headers: {'Content-Type': 'application/json'}}))
      : native(input, init);
"""
# Each swatch of the statistic's legend: its colour and the words after it.
LEGEND_STEPS = """return [...document.querySelectorAll('#zone-legend-statistic span')]
    .map(swatch => [swatch.style.backgroundColor, swatch.nextSibling.textContent])"""


def figures(requests, **optional):
    """A zone's total with `requests` and no other count, and the optional figures given."""
    return {"requests": requests, "bookings": 0, "offers": 0, "accepted": 0, "refused": 0, "timedOut": 0, "queued": 0, "served": 0,
            "clientMissing": 0, "cancelled": {"byPassenger": 0, "notConfirmed": 0, "outsideZones": 0}, **optional}


def test_the_scale_steps_by_quartiles_with_their_values_in_the_legend(city, browser_tools):
    """Eight zones' figures (answered in the page): requests in four blue steps by quartiles, each step's values in
    the legend; the median wait in four orange to red steps in minutes and seconds, grey where a zone has none; the
    zone's value in its tooltip and its panel; the days of the answer shown as the days chosen."""
    zones = [feature for feature in json.loads(MANHATTAN.read_text())["features"]][:8]
    ids = [str(feature["id"]) for feature in zones]
    requests = [0, 1, 2, 3, 5, 8, 13, 40]
    waits = [None, 60, None, 105, 170, None, 600, 1250]
    answer = {"from": "2026-11-23T00:00:00-05:00", "to": "2026-11-30T00:00:00-05:00", "bucket": "day", "timeZone": "America/New_York",
              "zones": [{"zoneId": zone, "total": figures(count, **({"waitP50S": wait} if wait is not None else {}), taxisAvailable=1.25),
                         "buckets": []} for zone, count, wait in zip(ids, requests, waits)]}
    with chromium(browser_tools, TABLET) as browser:
        browser.get(city.origin + "/map")
        tab = Page(browser, city.origin)
        wait_until("the map asks for a login", lambda: tab.js(
            "return document.readyState === 'complete' && typeof L === 'object' && !document.getElementById('login').hidden"))
        tab.js(ANSWER_STATISTICS, answer)
        browser.find_element(By.ID, "username").send_keys("plan")
        browser.find_element(By.ID, "password").send_keys(PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login button[type=submit]").click()
        wait_until("the board shows the zones", lambda: tab.js("return document.querySelectorAll('path.zone').length"),
                   lambda drawn: drawn > len(ids))
        tab.find("input[name=colour][value=statistic]").click()
        wait_until("the days of the answer are shown as chosen", lambda: tab.js(
            "return [document.getElementById('statistic-from').value, document.getElementById('statistic-to').value]"),
            lambda seen: seen == ["2026-11-23", "2026-11-29"])
        steps = wait_until("the legend steps the requests by quartiles", lambda: tab.js(LEGEND_STEPS), lambda seen: len(seen) == 5)
        assert steps == [["rgb(239, 243, 255)", "0–1"], ["rgb(189, 215, 231)", "2–3"], ["rgb(107, 174, 214)", "5–8"],
                         ["rgb(33, 113, 181)", "13–40"], ["rgb(189, 189, 189)", "no figure"]], steps
        assert tab.text("zone-legend-statistic").startswith("Zones, requests, 2026-11-23 to 2026-11-29:")
        shown = tab.js(ZONE_STATS)
        assert {zone: shown[zone] for zone in ids} == {zone: str(count) for zone, count in zip(ids, requests)}
        assert {value for zone, value in shown.items() if zone not in ids} == {""}
        fills = tab.js("return arguments[0].map(id => document.querySelector('path.zone-' + id).getAttribute('fill'))", ids)
        assert fills == ["#eff3ff", "#eff3ff", "#bdd7e7", "#bdd7e7", "#6baed6", "#6baed6", "#2171b5", "#2171b5"], fills

        # The median wait: longer is darker; the zones with no wait are grey, with no value.
        browser.find_element(By.CSS_SELECTOR, "#statistic-name option[value=waitP50S]").click()
        steps = wait_until("the legend steps the waits", lambda: tab.js(LEGEND_STEPS), lambda seen: seen[0][1] == "1:00–1:45")
        assert steps == [["rgb(254, 240, 217)", "1:00–1:45"], ["rgb(253, 204, 138)", "2:50"], ["rgb(252, 141, 89)", "10:00"],
                         ["rgb(215, 48, 31)", "20:50"], ["rgb(189, 189, 189)", "no figure"]], steps
        assert tab.text("zone-legend-statistic").startswith("Zones, median wait (min:s), 2026-11-23 to 2026-11-29:")
        shown = tab.js(ZONE_STATS)
        assert [shown[zone] for zone in ids] == ["" if wait is None else str(wait) for wait in waits]
        fills = tab.js("return arguments[0].map(id => document.querySelector('path.zone-' + id).getAttribute('fill'))", ids)
        assert fills == ["#bdbdbd", "#fef0d9", "#bdbdbd", "#fef0d9", "#fdcc8a", "#bdbdbd", "#fc8d59", "#d7301f"], fills
        name = str(zones[3]["properties"]["name"])
        tab.js("""const path = document.querySelector(arguments[0]); const box = path.getBoundingClientRect();
                  path.dispatchEvent(new MouseEvent('mouseover', {bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));
                  path.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));""",
               f"path.zone-{ids[3]}")
        wait_until("the zone's tooltip tells its median wait", lambda: tab.js(
            "return [...document.querySelectorAll('.leaflet-tooltip')].map(t => t.textContent)"),
            lambda tips: tips == [f"{name} — median wait: 1:45 min"])
        tab.wait_text("the zone's panel tells its median wait", "zone-statistic",
                      lambda text: text == "median wait: 1:45 min (2026-11-23 to 2026-11-29)")
        assert tab.shown("zone-statistic")

        # An average reads to two decimals.
        browser.find_element(By.CSS_SELECTOR, "#statistic-name option[value=taxisAvailable]").click()
        tab.wait_text("the panel tells the taxis available on average", "zone-statistic",
                      lambda text: text == "taxis available on average: 1.25 (2026-11-23 to 2026-11-29)")
        assert tab.js(LEGEND_STEPS) == [["rgb(33, 113, 181)", "1.25"], ["rgb(189, 189, 189)", "no figure"]], \
            "one value: one step, the darkest"
        tab.find("input[name=colour][value=wait]").click()
        assert not tab.shown("zone-statistic") and tab.shown("zone-legend-wait") and not tab.shown("zone-legend-statistic")
        errors = [entry for entry in tab.console_errors() if "Failed to load resource" not in entry["message"]]
        assert errors == [], f"no script error in the browser's console: {errors}"
