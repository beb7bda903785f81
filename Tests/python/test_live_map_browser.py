"""The dispatcher's live map in a real browser (issue 18): `mytaxi serve` on
the demo city with `mytaxi simulate` driving its fleet, the page at `/map`
opened in Debian's headless Chromium, driven by Selenium through Debian's
chromedriver as a dispatcher would: log in, see every zone, the main roads
and the taxis, watch the taxis move, click a zone and read its queues. Then
the same page against a planner's zone set whose names are HTML and script:
they show as text, nothing of them runs, the bearer token is no global, and
the service's Content-Security-Policy blocks inline code that gets into the
page all the same. What is checked is read from the page's DOM
(`execute_script`). Then the phone desk: a caller's ride booked ahead (the
pickup time typed in the city's time, the browser being in another) and
cancelled, a party too large for every taxi refused, a ride booked now
seen in today's phone rides with its state, cancelled, looked up by its id
(ended) and in today's ended rides (on a service without GET
/v1/rides/by-phone: "ended rides unavailable"), with no unexpected error in
the browser's console and a name on every control.
MYTAXI_BIN names the binary (default: `swift build`'s), MYTAXI_WEB_ROOT a
folder of the web pages to serve instead of the built-in ones (`serve
--web-root`). Skips, naming the package, when Chromium, chromedriver,
Leaflet or Selenium is missing (`make test` installs them).
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from browser_apps import browser_tools  # noqa: F401 (a fixture: Chromium, chromedriver, Leaflet and Selenium checked)
from service_process import binary, call

# Selenium drives the Debian chromedriver named below: Selenium Manager never
# runs (it would look up and download drivers), and no usage statistics are sent.
os.environ["SE_AVOID_STATS"] = "true"
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "map-pass-1"
TAXIS = 12
MANHATTAN = ROOT / "Zones" / "manhattan" / "zones.geojson"
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
                           "form-action 'self'")
# Zone names a hostile planner could publish: each would set window.__pwned if the page ran it.
HOSTILE_NAMES = [
    """<img src=x onerror="window.__pwned='img'">""",
    """<script>window.__pwned='script'</script>""",
    """"><svg onload="window.__pwned='svg'">""",
]






def answer_headers(port, path, token=None):
    """The status and headers of `GET path`, an error status included."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def put_in_force(port, token, zones):
    """Uploads the FeatureCollection `zones` as a new zone set version and activates it: the version."""
    version = call(port, "POST", "/v1/zone-sets", token, zones)["version"]
    call(port, "POST", f"/v1/zone-sets/{version}/activation", token)
    return version


def wait_for_lines(path, pattern, process, seconds=60):
    """The lines of `path` matching `pattern`, once there is one; fails when `process` ends first."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        lines = [line for line in path.read_text().splitlines() if re.search(pattern, line)] if path.exists() else []
        if lines:
            return lines
        assert process.poll() is None, f"{process.args[0]} ended: {path.read_text()[-2000:] if path.exists() else ''}"
        time.sleep(0.2)
    raise AssertionError(f"no line matching {pattern} in {path} within {seconds} s")


class Page:
    """The map page in a headless Chromium driven by Selenium; its state is read from the DOM."""

    def __init__(self, driver):
        self.driver = driver

    def js(self, script, *args):
        """What `script` (a function body: `return ...`; `arguments` are `args`) returns in the page."""
        return self.driver.execute_script(script, *args)

    def wait(self, what, script, ok=bool, seconds=60, args=()):
        """What `script` returns, once `ok` of it holds; fails after `seconds` with the last value the page gave."""
        deadline = time.monotonic() + seconds
        while True:
            seen = self.js(script, *args)
            if ok(seen):
                return seen
            if time.monotonic() >= deadline:
                raise AssertionError(f"{what}: not so within {seconds} s; the page gave last: {seen!r}")
            time.sleep(0.25)

    def dispatch(self, selector, kind):
        """Dispatches a mouse event of `kind` on the element `selector` at its middle, as Leaflet reads one."""
        found = self.js("""
            const element = document.querySelector(arguments[0]);
            if (!element) return false;
            const box = element.getBoundingClientRect();
            element.dispatchEvent(new MouseEvent(arguments[1], {bubbles: true, cancelable: true,
              clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}));
            return true;
        """, selector, kind)
        assert found, f"no element {selector} on the page"

    def count(self, selector):
        return self.js("return document.querySelectorAll(arguments[0]).length", selector)


# Counts the messages of every WebSocket the page opens from now on (the page
# looks WebSocket up when it opens its push socket, after the login), so that
# a test knows when the service has the page's socket: its first message, the
# board's state, is sent once the socket is registered. Neither the socket
# nor its address (which holds the token) is kept.
WATCH_PUSH_SOCKETS = """
    if (!window.__pushMessages) {
      const Native = window.WebSocket;
      window.__pushMessages = [];
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          const index = window.__pushMessages.push(0) - 1;
          this.addEventListener('message', () => { window.__pushMessages[index] += 1; });
        }
      };
    }
"""


def log_in(page, username):
    """Logs in on the map page as `username`, as a person would, and waits until its push socket is open."""
    page.wait("the page loads with Leaflet and asks for a login",
              "return document.readyState === 'complete' && typeof L === 'object' && !document.getElementById('login').hidden")
    page.js(WATCH_PUSH_SOCKETS)
    page.driver.find_element(By.ID, "username").send_keys(username)
    page.driver.find_element(By.ID, "password").send_keys(PASSWORD)
    page.driver.find_element(By.CSS_SELECTOR, "#login button[type=submit]").click()
    page.wait("the login is taken and the board shown",
              "return {board: !document.getElementById('board').hidden,"
              " error: document.getElementById('login-error').textContent}",
              ok=lambda seen: seen["board"])
    page.wait("the page's push socket has the board's state", "return window.__pushMessages",
              ok=lambda counts: any(count > 0 for count in counts))


def click_zone(page, zone):
    """Clicks zone `zone` on the map, its queue lists emptied first so that what they show next is that zone's."""
    page.js("document.getElementById('zone-taxis').replaceChildren(); document.getElementById('nearest').replaceChildren();")
    page.dispatch(f"path.zone-{zone}", "click")


@pytest.fixture(scope="module")
def city(tmp_path_factory):
    """The service and the simulator on the demo city: (HTTP port, work folder)."""
    mytaxi = binary()
    work = tmp_path_factory.mktemp("live-map")
    zones = MANHATTAN
    graph = work / "midtown.graph"
    subprocess.run([mytaxi, "graph", "build", ROOT / "Maps" / "manhattan-midtown.osm.pbf", "-o", graph,
                    "--time-zone", "America/New_York", "--zones", zones], check=True, capture_output=True)
    subprocess.run([mytaxi, "simulate", "devices", "--taxis", str(TAXIS), "-o", work / "devices.csv"], check=True,
                   capture_output=True)
    data = work / "data"
    subprocess.run([mytaxi, "accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "admin",
                    "--password-stdin"], input=PASSWORD, text=True, check=True, capture_output=True)
    serve = subprocess.Popen([mytaxi, "serve", "--zones", zones, "--devices", work / "devices.csv", "--data-dir", data,
                              "--graph", graph, "--http-port", "0", "--line-port", "0", "--nmea-port", "off",
                              "--osmand-port", "off", "--teltonika-port", "0", "--gt06-port", "0",
                              "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000",
                              *(["--web-root", os.environ["MYTAXI_WEB_ROOT"]] if os.environ.get("MYTAXI_WEB_ROOT") else [])],
                             stdout=open(work / "listening", "w"), stderr=open(work / "serve.log", "w"))
    simulate = None
    try:
        for listener in ["http", "line/tcp", "teltonika/tcp", "gt06/tcp"]:
            wait_for_lines(work / "listening", rf"^listening {listener} ", serve)
        ports = {parts[1]: int(parts[2].rsplit(":", 1)[1])
                 for parts in (line.split() for line in (work / "listening").read_text().splitlines()) if len(parts) == 3}
        admin = call(ports["http"], "POST", "/v1/sessions", body={"username": "admin", "password": PASSWORD})["token"]
        call(ports["http"], "POST", "/v1/accounts", admin, {"role": "dispatcher", "username": "desk", "password": PASSWORD})
        simulate = subprocess.Popen([mytaxi, "simulate", "--zones", zones, "--graph", graph,
                                     "--http-port", str(ports["http"]), "--line-port", str(ports["line/tcp"]),
                                     "--teltonika-port", str(ports["teltonika/tcp"]), "--gt06-port", str(ports["gt06/tcp"]),
                                     "--admin", "admin", "--password-stdin", "--taxis", str(TAXIS), "--passengers", "20",
                                     "--requests-per-hour", "240", "--hours", "2", "--speed-up", "20", "--seed", "18",
                                     "--progress-every", "1"],
                                    stdin=subprocess.PIPE, stdout=open(work / "summary", "w"),
                                    stderr=open(work / "simulate.log", "w"), text=True)
        simulate.stdin.write(PASSWORD + "\n")
        simulate.stdin.close()
        (work / "simulate.pid").write_text(str(simulate.pid))
        wait_for_lines(work / "simulate.log", rf"\({TAXIS} went available\)", simulate, seconds=120)
        yield ports["http"], work
    finally:
        if simulate:
            simulate.terminate()
            simulate.wait(timeout=30)
        serve.terminate()
        serve.wait(timeout=30)
    assert "rides:" in (work / "summary").read_text(), "stopped by SIGTERM, the simulator printed its summary"


@pytest.fixture()
def page(browser_tools, city):
    """The map page in a new headless Chromium: (Page, HTTP port, work folder)."""
    chromium, chromedriver = browser_tools
    port, work = city
    profile = tempfile.mkdtemp(prefix="mytaxi-chromium-")
    driver = None
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                         f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(executable_path=chromedriver, log_output=str(work / "chromedriver.log")),
                                  options=options)
        driver.get(f"http://127.0.0.1:{port}/map")
        yield Page(driver), port, work
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_dispatcher_sees_every_zone_the_moving_taxis_and_a_zones_queue(page):
    tab, port, work = page
    log_in(tab, "desk")
    manhattan = json.loads(MANHATTAN.read_text())
    zone_count = len(manhattan["features"])
    tab.wait("every zone is drawn", "return document.querySelectorAll('path.zone').length", ok=lambda n: n == zone_count)
    tab.wait("every taxi is drawn", "return document.querySelectorAll('path.taxi').length", ok=lambda n: n == TAXIS)
    tab.wait("the main roads are drawn", "return document.querySelectorAll('path.road').length", ok=lambda n: n > 0)
    # The first view fits the road map (where the taxis drive: Midtown), not all of Manhattan's zones.
    tab.wait("the roads fill the first view", """
        const map = document.getElementById('map').getBoundingClientRect();
        const boxes = [...document.querySelectorAll('path.road')].map(e => e.getBoundingClientRect());
        const width = Math.max(...boxes.map(b => b.right)) - Math.min(...boxes.map(b => b.left));
        const height = Math.max(...boxes.map(b => b.bottom)) - Math.min(...boxes.map(b => b.top));
        return Math.max(width / map.width, height / map.height);""", ok=lambda covered: covered > 0.45)
    assert tab.js("return !document.getElementById('zone-legend-free').hidden && document.getElementById('zone-legend-wait').hidden"), \
        "the legend of the zones' colours by free taxis shows"

    shapes = "[...document.querySelectorAll('path.taxi')].map(e => e.getAttribute('data-taxi') + ' ' + e.getAttribute('d'))"
    before = tab.js(f"return {shapes}")
    tab.wait("taxis move on the map (the taxis drawn elsewhere than at first)",
             f"const before = new Set(arguments[0]); return {shapes}.filter(s => !before.has(s)).map(s => s.split(' ')[0])",
             ok=lambda moved: len(moved) >= 2, seconds=90, args=(before,))

    # A zone whose taxi queue the service says is not empty is clicked on the page (a queue may change
    # between the read and the click: another such zone is tried then).
    token = call(port, "POST", "/v1/sessions", body={"username": "desk", "password": PASSWORD})["token"]
    taxis_in_line = None
    for _ in range(5):
        zones = sorted({taxi["position"]["zoneId"] for taxi in call(port, "GET", "/v1/fleet", token)
                        if taxi["state"] == "available" and taxi["position"].get("zoneId")})
        queued = [zone for zone in zones if call(port, "GET", f"/v1/zones/{zone}/queue", token)["taxis"]]
        assert queued, "the simulator's drivers are in the zones' queues"
        zone = queued[0]
        click_zone(tab, zone)
        tab.wait(f"the panel names zone {zone}", "return document.getElementById('zone-title').textContent",
                 ok=lambda title: title.startswith(f"Zone {zone}:"))
        taxis_in_line = tab.wait(f"zone {zone}'s taxis in line are listed",
                                 "return [...document.querySelectorAll('#zone-taxis li')].map(e => e.textContent)")
        if not taxis_in_line[0].startswith("no "):
            break
    assert all(re.match(r"TX\d{6} \(free since", item) for item in taxis_in_line), taxis_in_line
    passengers = tab.js("return [...document.querySelectorAll('#zone-passengers li')].map(e => [e.textContent, e.className])")
    assert all(name == "empty" for text, name in passengers if text == "nobody waiting"), \
        f"an empty list is a note, not item 1: {passengers}"

    tab.driver.find_element(By.CSS_SELECTOR, "input[name=colour][value=wait]").click()
    assert tab.js("return document.getElementById('zone-legend-free').hidden && !document.getElementById('zone-legend-wait').hidden"), \
        "the legend follows the colouring chosen"
    waits = tab.wait("zones coloured by the expected wait",
                     "return [...document.querySelectorAll('path.zone')].map(e => e.getAttribute('data-wait')).filter(w => w)")
    assert all(int(wait) >= 0 for wait in waits), f"zones coloured by the expected wait: {waits}"
    nearest = tab.wait("the nearest zones with free taxis are listed",
                       "return [...document.querySelectorAll('#nearest li')].map(e => e.textContent)")
    assert re.match(r"\S+ .*: TX\d{6}, \d+ min", nearest[0]), nearest
    if os.environ.get("MYTAXI_MAP_SCREENSHOT"):
        tab.driver.save_screenshot(os.environ["MYTAXI_MAP_SCREENSHOT"])

    # A planner's new zone set put in force (hot reload): the board says so and the page draws the new zones.
    admin = call(port, "POST", "/v1/sessions", body={"username": "admin", "password": PASSWORD})["token"]
    try:
        put_in_force(port, admin, dict(manhattan, features=manhattan["features"][:20]))
        tab.wait("the map draws the zone set now in force", "return document.querySelectorAll('path.zone').length",
                 ok=lambda n: n == 20)
        assert tab.js("return document.getElementById('zone-panel').hidden"), "the panel of a zone of the old set is closed"
    finally:
        put_in_force(port, admin, manhattan)


def test_the_roads_the_fleet_taught_are_coloured_against_the_profile(page):
    """SPEC R4: the service learns travel times from the simulated taxis' fixes alone, and the map's
    "Road speeds learned from the fleet" colours each road whose learned time differs from the
    profile's: red or orange slower, green faster, with both speeds in its tooltip."""
    tab, port, work = page
    log_in(tab, "desk")
    tab.wait("the main roads are drawn", "return document.querySelectorAll('path.road').length", ok=lambda n: n > 0)
    assert tab.js("return document.getElementById('road-speeds-legend').hidden"), "no road-speed legend before it is asked for"
    tab.driver.find_element(By.ID, "road-speeds").click()
    # While nothing is learned yet the layer is asked for again, as a dispatcher would tick it again.
    drawn = tab.wait("roads the fleet taught are coloured", """
        const box = document.getElementById('road-speeds');
        if (document.getElementById('road-speeds-note').textContent.includes('nothing learned yet')) {
          box.dispatchEvent(new Event('change'));
        }
        return {strokes: [...document.querySelectorAll('path.road-speed')].map(e => e.getAttribute('stroke')),
                note: document.getElementById('road-speeds-note').textContent,
                legend: !document.getElementById('road-speeds-legend').hidden};""",
        ok=lambda seen: len(seen["strokes"]) > 0, seconds=150)
    assert drawn["legend"], drawn
    assert re.fullmatch(rf" \({len(drawn['strokes'])} road segments, (learned|live) speeds\)", drawn["note"]), drawn["note"]
    assert set(drawn["strokes"]) <= {"#b71c1c", "#ef6c00", "#2e7d32"}, f"slower red or orange, faster green: {drawn}"
    token = call(port, "POST", "/v1/sessions", body={"username": "desk", "password": PASSWORD})["token"]
    learned = call(port, "GET", "/v1/roads/speeds", token)["features"]
    assert learned and all(abs(road["properties"]["ratio"] - 1) > 0.05 for road in learned), learned[:3]
    tab.dispatch("path.road-speed", "mouseover")
    tooltip = tab.wait("a coloured road tells its learned and profile speeds",
                       "return document.querySelector('.leaflet-tooltip')?.textContent ?? ''",
                       ok=lambda text: re.fullmatch(r"[\d.]+ km/h \(profile [\d.]+ km/h\)", text))
    assert tooltip
    tab.driver.find_element(By.ID, "road-speeds").click()
    tab.wait("unticked, the layer and its legend go", "return [document.querySelectorAll('path.road-speed').length,"
             " document.getElementById('road-speeds-legend').hidden]", ok=lambda seen: seen == [0, True])


def test_street_names_show_at_street_zoom_and_the_login_lasts_the_tab(page):
    tab, port, work = page
    log_in(tab, "desk")
    tab.wait("the main roads are drawn", "return document.querySelectorAll('path.road').length", ok=lambda n: n > 0)
    assert tab.count(".street-name") == 0, "no street names at the first, city-wide view"
    names = []
    for _ in range(5):
        tab.driver.find_element(By.CSS_SELECTOR, "a.leaflet-control-zoom-in").click()
        try:
            names = tab.wait("street names are written at street zoom",
                             "return [...document.querySelectorAll('.street-name span')].map(e => e.textContent)",
                             ok=lambda seen: len(seen) > 0, seconds=5)
            break
        except AssertionError:
            continue
    assert any(re.search(r"(Street|Avenue|Broadway)", name) for name in names), f"Midtown's streets are named: {names}"
    assert tab.count(".street-name span *") == 0, "a street name is text, no element made of it"
    tab.wait("street names turn along their streets",
             "return [...document.querySelectorAll('.street-name span')].map(e => e.style.transform)",
             ok=lambda transforms: all("rotate(" in t for t in transforms))

    # A reload keeps the login (this tab's session); "Log out" ends it.
    tab.driver.refresh()
    tab.wait("the reloaded page shows the board without asking again",
             "return {board: !document.getElementById('board').hidden, login: !document.getElementById('login').hidden,"
             " zones: document.querySelectorAll('path.zone').length}",
             ok=lambda seen: seen["board"] and not seen["login"] and seen["zones"] > 0)
    tab.driver.find_element(By.ID, "logout").click()
    tab.wait("after logging out the page asks for a login",
             "return document.readyState === 'complete' && !document.getElementById('login').hidden"
             " && document.getElementById('board').hidden")
    tab.driver.refresh()
    tab.wait("a reload after logging out still asks for a login",
             "return document.readyState === 'complete' && !document.getElementById('login').hidden"
             " && document.getElementById('board').hidden")


def test_a_phone_booking_by_address_with_suggestions_and_a_choice_among_candidates(page):
    tab, port, work = page
    log_in(tab, "desk")
    tab.driver.find_element(By.ID, "caller-phone").send_keys("+1 212 555 0199")
    pickup = tab.driver.find_element(By.ID, "pickup-address")
    pickup.send_keys("350 5th av")
    tab.wait("the pickup field suggests the address as it is typed",
             "return [...document.querySelectorAll('#pickup-suggestions option')].map(o => o.value)",
             ok=lambda options: "350 5th Avenue, New York 10118" in options)
    # A name the map gives many places (Starbucks): the service asks which, listing candidates.
    tab.driver.find_element(By.ID, "destination-address").send_keys("Starbucks ")
    tab.driver.find_element(By.CSS_SELECTOR, "#booking button[type=submit]").click()
    candidates = tab.wait("the ambiguous destination comes back with its candidates",
                          "return [...document.querySelectorAll('#booking-candidates button')].map(b => b.textContent)",
                          ok=lambda buttons: len(buttons) >= 2)
    assert all(candidate.startswith("Starbucks") for candidate in candidates), candidates
    assert "places" in tab.js("return document.getElementById('booking-result').textContent")
    assert tab.js("return document.getElementById('booking-choices-title').textContent") == "Which destination?"
    tab.driver.find_element(By.CSS_SELECTOR, "#booking-candidates button").click()
    assert tab.js("return document.getElementById('destination-address').value") == candidates[0].split(" (")[0]
    tab.driver.find_element(By.CSS_SELECTOR, "#booking button[type=submit]").click()
    result = tab.wait("the ride is booked, the pickup read back as understood",
                      "return document.getElementById('booking-result').textContent",
                      ok=lambda text: text.startswith("Ride R"))
    assert "for +1 212 555 0199" in result and "pickup 350 5th Avenue, New York 10118" in result, result
    ride = result.split()[1]
    tab.wait("the booked ride is among the open rides",
             "return [...document.querySelectorAll('#open-rides li')].map(li => li.textContent)",
             ok=lambda rides: any(line.startswith(ride + " ") and "phone:+12125550199" in line for line in rides))
    # A click on the map names the place, to take as the next pickup.
    click_zone(tab, "161")
    named = tab.wait("the point clicked is named", "return document.getElementById('clicked-place').textContent",
                     ok=lambda text: text.startswith("Clicked: "))
    tab.driver.find_element(By.ID, "use-as-pickup").click()
    assert tab.js("return document.getElementById('pickup-address').value") == named[len("Clicked: "):]


NEW_YORK = ZoneInfo("America/New_York")
CALLER = "+1 212 555 0142"
# The page's calls to GET /v1/rides/by-phone answered 404 in the page itself, as a service without the call
# answers, but without a failed load that Chromium would log as a console error.
NO_RIDES_BY_PHONE = """
    const native = window.fetch;
    window.fetch = (input, init) => String(input).startsWith('/v1/rides/by-phone')
      ? Promise.resolve(new Response('{"detail": "no such call"}', {status: 404, headers: {'Content-Type': 'application/problem+json'}}))
      : native(input, init);
"""
CONTROLS_WITHOUT_A_NAME = """
    const name = (e) => (e.getAttribute('aria-label') || '').trim()
      || (e.getAttribute('aria-labelledby') || '').split(' ').map(id => document.getElementById(id)?.textContent || '').join('').trim()
      || [...(e.labels || [])].map(l => l.textContent).join('').trim()
      || (e.getAttribute('title') || '').trim()
      || (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) ? '' : e.textContent.trim());
    return [...document.querySelectorAll('#side button, #side input, #side select, #side textarea, #side a[href]')]
      .filter(e => e.getClientRects().length > 0 && !name(e)).map(e => e.outerHTML.slice(0, 120));
"""


@contextmanager
def simulator_paused(work):
    """The simulated fleet stopped (SIGSTOP), so that no taxi takes a ride booked meanwhile: it stays open."""
    pid = int((work / "simulate.pid").read_text())
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def city_time_input(moment):
    """`moment` as a datetime-local value in New York's time."""
    return moment.astimezone(NEW_YORK).strftime("%Y-%m-%dT%H:%M")


def city_time_shown(moment):
    """`moment` as the map shows a time: New York's, "Sat 5 Dec, 14:05"."""
    local = moment.astimezone(NEW_YORK)
    return local.strftime("%a ") + str(local.day) + local.strftime(" %b, %H:%M")


def five_minutes_up(moment):
    """`moment` rounded up to the next multiple of 5 minutes, as the phone desk rounds a booking's earliest time."""
    step = 300
    return datetime.fromtimestamp(-(-moment.timestamp() // step) * step, timezone.utc)


def items(tab, list_id):
    return tab.js("return [...document.getElementById(arguments[0]).querySelectorAll('li')].map(li => li.textContent)", list_id)


def test_the_phone_desk_books_ahead_lists_todays_phone_rides_and_looks_a_ride_up(page):
    """A caller's ride booked ahead (its time typed in the city's time while the browser is in Tokyo's) and
    cancelled; a ride booked now seen in today's phone rides with its state, cancelled, looked up by its id
    (ended), and the caller looked up by the number. Where the service answers GET /v1/rides/by-phone, the
    ended ride shows in today's list; where not, the list says so and the console stays clean."""
    tab, port, work = page
    desk = call(port, "POST", "/v1/sessions", body={"username": "desk", "password": PASSWORD})["token"]
    try:
        call(port, "GET", "/v1/rides/by-phone?days=1", desk)
        rides_by_phone = True
    except urllib.error.HTTPError:
        rides_by_phone = False
    tab.driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
    tab.wait("the page loads", "return document.readyState === 'complete'")
    if not rides_by_phone:
        tab.js(NO_RIDES_BY_PHONE)
    log_in(tab, "desk")
    assert tab.js("return Intl.DateTimeFormat().resolvedOptions().timeZone") == "Asia/Tokyo"
    tab.wait("the city's time zone is read from the service", "return document.getElementById('pickup-time-zone').textContent",
             ok=lambda text: text == "New York time")

    # Later, chosen from the keyboard: the pickup time field and the 2-48 h rule show, the destination is required.
    driver = tab.driver
    driver.find_element(By.ID, "caller-phone").send_keys(CALLER)
    driver.find_element(By.ID, "when-now").send_keys(Keys.ARROW_RIGHT)
    shown = tab.js("""return {checked: document.getElementById('when-later').checked,
        field: !document.getElementById('pickup-time-field').hidden, rule: document.getElementById('pickup-time-rule').textContent,
        value: document.getElementById('pickup-time').value, min: document.getElementById('pickup-time').min,
        destination: document.getElementById('destination-address').required,
        submit: document.getElementById('booking-submit').textContent}""")
    assert shown["checked"] and shown["field"] and shown["destination"] and shown["submit"] == "Book ahead", shown
    now = datetime.now(timezone.utc)
    earliest = now + timedelta(hours=2)
    assert re.fullmatch(r"Book 2 to 48 hours ahead: between .+ and .+ \(New York time\)\.", shown["rule"]), shown["rule"]
    # The page rounds its earliest time up to 5 minutes, from its own moment a little before this one: near
    # midnight that may be the next day's 00:00.
    days = {city_time_shown(five_minutes_up(moment))[:10] for moment in (earliest - timedelta(seconds=30), earliest)}
    assert any(day in shown["rule"] for day in days), (shown["rule"], days)
    assert city_time_input(earliest)[:13] <= shown["min"] <= city_time_input(earliest + timedelta(minutes=10)), shown
    assert shown["value"] > shown["min"], "a time in the window is offered"
    assert tab.js(CONTROLS_WITHOUT_A_NAME) == [], "every control of the side panel has an accessible name"

    set_time = """const input = document.getElementById('pickup-time'); input.value = arguments[0];
                  input.dispatchEvent(new Event('input', {bubbles: true})); input.dispatchEvent(new Event('change', {bubbles: true}));"""
    driver.find_element(By.ID, "pickup-address").send_keys("350 5th Avenue, New York 10118")
    driver.find_element(By.ID, "destination-address").send_keys("11 West 42nd Street, New York 10036")
    tab.wait("the destination is suggested as typed",
             "return [...document.querySelectorAll('#destination-suggestions option')].map(o => o.value)",
             ok=lambda options: "11 West 42nd Street, New York 10036" in options)
    # One hour ahead breaks the rule: the field's own check stops the form, the service is not asked.
    tab.js(set_time, city_time_input(now + timedelta(hours=1)))
    driver.find_element(By.ID, "booking-submit").click()
    assert tab.js("""const input = document.getElementById('pickup-time');
        return [input.validity.rangeUnderflow, input.validationMessage !== '', document.getElementById('booking-result').textContent]""") \
        == [True, True, ""]
    pickup_at = (now + timedelta(hours=3, minutes=5)).replace(second=0, microsecond=0)
    pickup_at -= timedelta(minutes=pickup_at.minute % 5)
    tab.js(set_time, city_time_input(pickup_at))
    seats = driver.find_element(By.ID, "seats")
    seats.clear()
    seats.send_keys("2")
    driver.find_element(By.ID, "booking-submit").click()
    result = tab.wait("the booking ahead is made", "return document.getElementById('booking-result').textContent",
                      ok=lambda text: text.startswith("Booking V"))
    reservation = result.split()[1]
    assert result.startswith(f"Booking {reservation} for {CALLER}: pickup {city_time_shown(pickup_at)} at 350 5th Avenue"), result
    assert "to 11 West 42nd Street" in result and result.endswith(", 2 seats"), result
    booked = call(port, "GET", "/v1/reservations?callerPhone=" + urllib.parse.quote(CALLER), desk)
    assert [(b["reservationId"], b["passengerId"], b["seats"]) for b in booked] == [(reservation, "phone:+12125550142", 2)], booked
    assert datetime.fromisoformat(booked[0]["pickupAt"].replace("Z", "+00:00")) == pickup_at, \
        f"the time typed is New York's, not the browser's (Tokyo): {booked[0]['pickupAt']} for {pickup_at}"
    line = tab.wait("the booking is listed among the bookings ahead", "return [...document.querySelectorAll('#phone-bookings li')].map(li => li.textContent)",
                    ok=lambda lines: any(line.startswith(reservation + " ") for line in lines))
    assert f"{reservation} for +12125550142: pickup {city_time_shown(pickup_at)}, booked, 2 seats Cancel" in line, line
    if os.environ.get("MYTAXI_PHONE_DESK_SCREENSHOT"):
        tab.driver.save_screenshot(os.environ["MYTAXI_PHONE_DESK_SCREENSHOT"])
    # Cancelled from the keyboard.
    driver.find_element(By.CSS_SELECTOR, f"#phone-bookings button[aria-label='Cancel booking {reservation}']").send_keys(Keys.ENTER)
    tab.wait("the booking is cancelled and gone from the list",
             "return [document.getElementById('phone-desk-result').textContent,"
             " [...document.querySelectorAll('#phone-bookings li')].map(li => li.textContent)]",
             ok=lambda seen: seen[0] == f"Booking {reservation} cancelled." and not any(l.startswith(reservation + " ") for l in seen[1]))
    assert call(port, "GET", "/v1/reservations?callerPhone=" + urllib.parse.quote(CALLER), desk) == []

    # A ride now, for a party of 1, while no simulated taxi answers: it stays open, listed with its state.
    driver.find_element(By.ID, "when-later").send_keys(Keys.ARROW_LEFT)
    assert tab.js("return document.getElementById('pickup-time-field').hidden && !document.getElementById('destination-address').required")
    assert tab.js("return document.getElementById('seats').value") == "1", "the party size is back to 1 after a booking"
    # A party larger than every taxi: the service's refusal names the largest.
    driver.find_element(By.ID, "pickup-address").send_keys("350 5th Avenue, New York 10118")
    seats.clear()
    seats.send_keys("6")
    driver.find_element(By.ID, "booking-submit").click()
    refusal = tab.wait("a party of 6 is refused", "return document.getElementById('booking-result').textContent",
                       ok=lambda text: text.startswith("no taxi"))
    assert refusal.startswith("no taxi of the fleet seats 6 passengers (the largest seats 4)"), refusal
    seats.clear()
    seats.send_keys("1")
    with simulator_paused(work):
        driver.find_element(By.ID, "booking-submit").click()
        result = tab.wait("the ride is booked", "return document.getElementById('booking-result').textContent",
                          ok=lambda text: text.startswith("Ride R"))
        ride = result.split()[1]
        line = tab.wait("the caller's ride is among today's open phone rides, with its state",
                        "return [...document.querySelectorAll('#phone-open li')].map(li => li.textContent)",
                        ok=lambda lines: any(line.startswith(ride + " ") for line in lines))
        assert re.search(rf"{ride} for \+12125550142: (queued|offered|assigned|arrived) \(", " ".join(line)), line
        # The list is read again with the fleet every 3 s: a button focused there keeps the focus.
        tab.js("arguments[0].focus()", driver.find_element(By.CSS_SELECTOR, f"#phone-open button[aria-label='Cancel ride {ride}']"))
        status = tab.js("return document.getElementById('status').textContent")
        tab.wait("the fleet and the open rides are read again", "return document.getElementById('status').textContent",
                 ok=lambda text: text != status, seconds=10)
        assert tab.js("return document.activeElement.getAttribute('aria-label')") == f"Cancel ride {ride}"
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        tab.wait("the ride is cancelled and gone from the open ones",
                 "return [document.getElementById('phone-desk-result').textContent,"
                 " [...document.querySelectorAll('#phone-open li')].map(li => li.textContent)]",
                 ok=lambda seen: seen[0] == f"Ride {ride} cancelled." and not any(l.startswith(ride + " ") for l in seen[1]))

    # The caller rings back with the ride's id: it ended, cancelled.
    lookup = driver.find_element(By.ID, "lookup-query")
    lookup.send_keys(ride + Keys.ENTER)
    found = tab.wait("the ride is looked up by its id", "return document.getElementById('lookup-result').textContent",
                     ok=lambda text: text.startswith(ride + " "))
    assert re.fullmatch(rf"{ride} for \+12125550142; ended, cancelled at \w{{3}} \d+ \w{{3}}, \d\d:\d\d(; .+)?\.", found), found
    ended_at = call(port, "GET", f"/v1/rides/{ride}", desk)["endedAt"]
    assert city_time_shown(datetime.fromisoformat(ended_at.replace("Z", "+00:00"))) in found, (found, ended_at)
    lookup.clear()
    lookup.send_keys(CALLER + Keys.ENTER)
    found = tab.wait("the caller is looked up by the number", "return document.getElementById('lookup-result').textContent",
                     ok=lambda text: text.startswith(CALLER + ": "))
    if rides_by_phone:
        assert re.fullmatch(rf"{re.escape(CALLER)}: 0 open, \d+ ended today, 0 booked ahead\.", found), found
        assert any(line.startswith(f"{ride} for +12125550142: ended, cancelled at ") for line in items(tab, "lookup-list"))
        lines = tab.wait("the ended ride is among today's phone rides", "return [...document.querySelectorAll('#phone-ended li')].map(li => li.textContent)",
                         ok=lambda lines: any(line.startswith(f"{ride} for +12125550142: ended, cancelled at ") for line in lines))
        assert any(line.startswith(f"{reservation} for +12125550142: ended, booking cancelled at ") for line in lines), lines
    else:
        assert found == f"{CALLER}: 0 open, ended rides unavailable, 0 booked ahead.", found
        assert items(tab, "phone-ended") == ["ended rides unavailable"]
    assert tab.js("return document.querySelectorAll('#side script, #side img, [onerror], [onload]').length") == 0
    if os.environ.get("MYTAXI_PHONE_DESK_SCREENSHOT"):
        tab.js("document.getElementById('side').scrollTop = document.getElementById('side').scrollHeight")
        tab.driver.save_screenshot(os.environ["MYTAXI_PHONE_DESK_SCREENSHOT"].replace(".png", "-lookup.png"))
    if rides_by_phone:
        # A service without the call (as before it was added): the page, loaded again, says the ended rides are
        # unavailable and asks no more; the open rides and the lookups still work.
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": NO_RIDES_BY_PHONE})
        driver.refresh()
        tab.wait("the reloaded page says the ended rides are unavailable",
                 "return [...document.querySelectorAll('#phone-ended li')].map(li => li.textContent)",
                 ok=lambda lines: lines == ["ended rides unavailable"])
        lookup = driver.find_element(By.ID, "lookup-query")
        lookup.send_keys(CALLER + Keys.ENTER)
        found = tab.wait("the caller is looked up by the number", "return document.getElementById('lookup-result').textContent",
                         ok=lambda text: text.startswith(CALLER + ": "))
        assert found == f"{CALLER}: 0 open, ended rides unavailable, 0 booked ahead.", found
    # The one failed load is the refused party's, shown in the service's words above.
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
              and not re.search(r"/v1/rides - Failed to load resource: .* status of 422", entry["message"])]
    assert errors == [], f"no error in the browser's console: {errors}"


def test_hostile_zone_names_show_as_text_and_the_policy_blocks_injected_script(page):
    tab, port, work = page
    admin = call(port, "POST", "/v1/sessions", body={"username": "admin", "password": PASSWORD})["token"]
    call(port, "POST", "/v1/accounts", admin, {"role": "planner", "username": "planner", "password": PASSWORD})
    planner = call(port, "POST", "/v1/sessions", body={"username": "planner", "password": PASSWORD})["token"]
    manhattan = json.loads(MANHATTAN.read_text())
    hostile = json.loads(json.dumps(manhattan))
    names = {}
    for feature, name in zip(hostile["features"], HOSTILE_NAMES):
        feature["properties"]["name"] = name
        names[str(feature["id"])] = name

    # Every violation of the page's policy from here on, whoever caused it.
    tab.js("""
        window.__violations = [];
        document.addEventListener('securitypolicyviolation', (event) => window.__violations.push({
          violatedDirective: event.violatedDirective, effectiveDirective: event.effectiveDirective,
          blockedURI: event.blockedURI, sample: event.sample}));
    """)
    log_in(tab, "desk")
    tab.wait("the zones are drawn", "return document.querySelectorAll('path.zone').length", ok=lambda n: n > 0)
    tab.js("document.querySelectorAll('path.zone').forEach(path => path.setAttribute('data-before-upload', ''))")

    try:
        put_in_force(port, planner, hostile)
        tab.wait("the page draws the planner's zone set in place of the one before",
                 "return {before: document.querySelectorAll('path.zone[data-before-upload]').length,"
                 " drawn: document.querySelectorAll('path.zone:not([data-before-upload])').length}",
                 ok=lambda seen: seen == {"before": 0, "drawn": len(hostile["features"])})

        tooltips = """return [...document.querySelectorAll('.leaflet-tooltip')].map(tip =>
            ({text: tip.textContent, elements: [...tip.querySelectorAll('*')].map(e => e.tagName.toLowerCase())}))"""
        for zone, name in names.items():
            tab.wait("no tooltip is open", tooltips, ok=lambda seen: seen == [])
            tab.dispatch(f"path.zone-{zone}", "mouseover")
            shown = tab.wait(f"zone {zone}'s tooltip opens", tooltips, ok=lambda seen: len(seen) > 0)
            assert shown == [{"text": name, "elements": ["span"]}], \
                f"zone {zone}'s tooltip shows its name as text, no element made of it: {shown}"
            assert tab.js("return window.__pwned") is None, "nothing of the zone's name ran"
            tab.dispatch(f"path.zone-{zone}", "mouseout")
        assert tab.count(".leaflet-tooltip img, .leaflet-tooltip svg, .leaflet-tooltip script") == 0

        for zone, name in names.items():
            click_zone(tab, zone)
            title = tab.wait(f"the panel names zone {zone}", "return document.getElementById('zone-title').textContent",
                             ok=lambda text: text.startswith(f"Zone {zone}:"))
            assert title == f"Zone {zone}: {name}", "the zone's name is shown as it was written"
            assert tab.js("return document.getElementById('zone-title').childElementCount") == 0
            tab.wait(f"zone {zone}'s nearest zones with free taxis are listed",
                     "return [...document.querySelectorAll('#nearest li')].map(e => e.textContent)")
        assert tab.count("#side img, #side svg, #side script") == 0, "no element was made of a zone's name in the panel"
        assert tab.count("[onerror], [onload]") == 0, "no markup of a zone's name got into the page"
        assert tab.js("return window.__pwned") is None, "nothing of the zones' names ran"
        assert tab.js("return window.__violations") == [], "nothing on the page did what its policy forbids"
        assert tab.js("return typeof token") == "undefined", "the bearer token is no global"

        # Inline code that gets into the page all the same is blocked by the policy, and the browser says so.
        tab.js("""document.body.insertAdjacentHTML('beforeend', '<img id="probe" src="data:," onerror="window.__pwned = \\'inline\\'">')""")
        violations = tab.wait("the policy reports the blocked inline handler", "return window.__violations",
                              ok=lambda seen: any(v["violatedDirective"].startswith("script-src")
                                                  and v["effectiveDirective"].startswith("script-src") for v in seen))
        assert tab.js("return window.__pwned") is None, f"the inline handler did not run: {violations}"
    finally:
        put_in_force(port, planner, manhattan)

    desk = call(port, "POST", "/v1/sessions", body={"username": "desk", "password": PASSWORD})["token"]
    for path, token in [("/map", None), ("/map/map.js", None), ("/map/map-phone-desk.js", None), ("/map/map.css", None), ("/v1/fleet", desk),
                        ("/v1/fleet", None)]:
        status, headers = answer_headers(port, path, token)
        assert headers.get("Content-Security-Policy") == CONTENT_SECURITY_POLICY, f"{path} ({status}): {dict(headers)}"
        assert headers.get("X-Content-Type-Options") == "nosniff", f"{path} ({status}): {dict(headers)}"
