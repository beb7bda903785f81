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
not come: after the wait at the pickup (counted down in service time) the
driver reports the client missing. What is checked is what the
driver sees (the page's texts), the service's own account of the rides (the
API), no error in the browser's console, and an accessible name on every
control.

Set-up as in test_live_map_browser.py: MYTAXI_BIN names the binary
(default: `swift build`'s), MYTAXI_WEB_ROOT a folder of the web pages to
serve instead of the built-in ones (`serve --web-root`), MYTAXI_SCREENSHOTS a
folder to save driver-login.png, driver-queue.png, driver-offer.png and
driver-ride.png in. Skips, naming the package, when Chromium, chromedriver,
Leaflet or Selenium is missing.
"""
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

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
PASSWORD = "driver-pass-1"
CLOCK_RATE = 10
LEAFLET = Path("/usr/share/javascript/leaflet/leaflet.js")
MANHATTAN = ROOT / "Zones" / "manhattan" / "zones.geojson"
MIDTOWN = ROOT / "Maps" / "manhattan-midtown.osm.pbf"
APP_TAXI, APP_DEVICE = "TX900001", "tablet-900001"
OTHER_TAXI, OTHER_DEVICE = "TX900002", "terminal-900002"
# A failed load the browser logs as an error although the page handles it: a
# place with no address near (the page shows its coordinates).
EXPECTED_FAILED_LOADS = [
    r"/v1/places/reverse\?\S* - Failed to load resource: the server responded with a status of 404",
]


def binary():
    explicit = os.environ.get("MYTAXI_BIN")
    if explicit:
        return Path(explicit)
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    return Path(bin_dir) / "mytaxi"


def call(port, method, path, token=None, body=None):
    """The JSON answer of one API call (urllib's HTTPError on an error status)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


def log_in(port, username):
    return call(port, "POST", "/v1/sessions", body={"username": username, "password": PASSWORD})["token"]


def wait_until(what, probe, ok=bool, seconds=60):
    """What `probe()` returns once `ok` of it holds; fails after `seconds` with the last value."""
    deadline = time.monotonic() + seconds
    while True:
        seen = probe()
        if ok(seen):
            return seen
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not so within {seconds} s; last seen: {seen!r}")
        time.sleep(0.25)


def wait_for_lines(path, pattern, process, seconds=60):
    """The lines of `path` matching `pattern`, once there is one; fails when `process` ends first."""
    def matching():
        assert process.poll() is None, f"{process.args[0]} ended: {path.read_text()[-2000:] if path.exists() else ''}"
        return [line for line in path.read_text().splitlines() if re.search(pattern, line)] if path.exists() else []
    return wait_until(f"a line matching {pattern} in {path}", matching, seconds=seconds)


class LineTerminal:
    """A taxi terminal on the line protocol: reports `position` every real second, in service time, until stopped."""

    def __init__(self, port, device, position, service_now):
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.device, self.position, self.service_now = device, position, service_now
        self.sequence = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.report, daemon=True)
        self.thread.start()

    def report(self):
        while not self.stopped.is_set():
            self.sequence += 1
            lon, lat = self.position
            line = f"MT1,{self.device},{self.sequence},{int(self.service_now())},{lat:.7f},{lon:.7f},0,0,A\n"
            self.connection.sendall(line.encode())
            self.connection.recv(4096)
            self.stopped.wait(1)

    def stop(self):
        self.stopped.set()
        self.thread.join(timeout=10)
        self.connection.close()


class Page:
    """The driver's app in a headless Chromium driven by Selenium; what it shows is read from the DOM."""

    def __init__(self, driver):
        self.driver = driver

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, element_id):
        return self.js("return document.getElementById(arguments[0]).textContent", element_id)

    def shown(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return !!e && !e.closest('[hidden]')", element_id)

    def wait_text(self, what, element_id, ok, seconds=60):
        return wait_until(what, lambda: self.text(element_id), ok, seconds)

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def screenshot(self, name):
        folder = os.environ.get("MYTAXI_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.driver.save_screenshot(str(Path(folder) / name))

    def controls_without_a_name(self):
        """The visible controls with no accessible name (a label, aria-label(ledby), title or text)."""
        return self.js("""
            const name = (e) => (e.getAttribute('aria-label') || '').trim()
              || (e.getAttribute('aria-labelledby') || '').split(' ').map(id => document.getElementById(id)?.textContent || '').join('').trim()
              || [...(e.labels || [])].map(l => l.textContent).join('').trim()
              || (e.getAttribute('title') || '').trim()
              || (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) ? '' : e.textContent.trim());
            return [...document.querySelectorAll('button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"])')]
              .filter(e => e.getClientRects().length > 0 && !name(e))
              .map(e => e.outerHTML.slice(0, 120));
        """)

    def console_errors(self):
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"
                and not any(re.search(pattern, entry["message"]) for pattern in EXPECTED_FAILED_LOADS)]


@pytest.fixture(scope="module")
def browser_tools():
    """Chromium and chromedriver from Debian, Leaflet, Selenium: checked before the service is started."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Chromium is not installed: `make test` installs Debian's chromium")
    chromedriver = shutil.which("chromedriver")
    if chromedriver is None:
        pytest.skip("chromedriver is not installed: `make test` installs Debian's chromium-driver")
    if not LEAFLET.exists():
        pytest.skip("Leaflet is not installed: `make test` installs Debian's libjs-leaflet")
    if webdriver is None:
        pytest.skip("Selenium is not installed: `make test` installs selenium from PyPI")
    return chromium, chromedriver


@pytest.fixture(scope="module")
def city(browser_tools, tmp_path_factory):
    """`mytaxi serve` on the demo city's zones and roads, with the accounts: (ports, work folder)."""
    mytaxi = binary()
    if not mytaxi.exists():
        pytest.skip(f"no mytaxi binary at {mytaxi}: build it, or name it with MYTAXI_BIN")
    for needed in [MANHATTAN, MIDTOWN]:
        if not needed.exists():
            pytest.skip(f"{needed.relative_to(ROOT)} is missing")
    work = tmp_path_factory.mktemp("driver-app")
    graph = work / "midtown.graph"
    subprocess.run([mytaxi, "graph", "build", MIDTOWN, "-o", graph, "--time-zone", "America/New_York",
                    "--zones", MANHATTAN], check=True, capture_output=True)
    (work / "devices.csv").write_text(f"device_id,taxi_id\n{APP_DEVICE},{APP_TAXI}\n{OTHER_DEVICE},{OTHER_TAXI}\n")
    data = work / "data"
    subprocess.run([mytaxi, "accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "admin",
                    "--password-stdin"], input=PASSWORD, text=True, check=True, capture_output=True)
    web_root = os.environ.get("MYTAXI_WEB_ROOT")
    # The offers last 600 service seconds (a minute of real time at 10x) so that the browser has time to show one.
    serve = subprocess.Popen([mytaxi, "serve", "--zones", MANHATTAN, "--devices", work / "devices.csv", "--data-dir", data,
                              "--graph", graph, "--http-port", "0", "--line-port", "0", "--nmea-port", "off",
                              "--osmand-port", "0", "--teltonika-port", "off", "--gt06-port", "off",
                              "--clock-rate", str(CLOCK_RATE), "--offer-timeout", "600",
                              "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000",
                              *(["--web-root", web_root] if web_root else [])],
                             stdout=open(work / "listening", "w"), stderr=open(work / "serve.log", "w"))
    try:
        for listener in ["http", "line/tcp"]:
            wait_for_lines(work / "listening", rf"^listening {listener} ", serve)
        ports = {parts[1]: int(parts[2].rsplit(":", 1)[1])
                 for parts in (line.split() for line in (work / "listening").read_text().splitlines()) if len(parts) == 3}
        port = ports["http"]
        admin = log_in(port, "admin")
        for taxi in [APP_TAXI, OTHER_TAXI]:
            call(port, "POST", "/v1/accounts", admin, {"role": "driver", "username": taxi, "password": PASSWORD})
        for passenger in ["ada", "bob"]:
            call(port, "POST", "/v1/accounts", admin, {"role": "passenger", "username": passenger,
                                                       "email": f"{passenger}@example.com", "password": PASSWORD})
        yield ports, work
    finally:
        serve.terminate()
        serve.wait(timeout=30)


@pytest.fixture()
def page(browser_tools, city):
    """The driver's app in a new headless Chromium at a tablet's 1280x800: (Page, ports, work folder)."""
    chromium, chromedriver = browser_tools
    ports, work = city
    profile = tempfile.mkdtemp(prefix="mytaxi-chromium-")
    driver = None
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,800",
                         f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(executable_path=chromedriver, log_output=str(work / "chromedriver.log")),
                                  options=options)
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        origin = f"http://127.0.0.1:{ports['http']}"
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["geolocation"]})
        driver.get(origin + "/driver")
        yield Page(driver), ports, work
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def coordinates_in(text):
    """The (lon, lat) of the first "LAT, LON" in `text`."""
    lat, lon = re.search(r"(-?\d+\.\d+), (-?\d+\.\d+)", text).groups()
    return float(lon), float(lat)


def seconds_in(countdown):
    """The seconds of a countdown's "M:SS"."""
    minutes, seconds = re.search(r"(\d+):(\d\d)", countdown).groups()
    return int(minutes) * 60 + int(seconds)


def metres_between(a, b):
    from math import cos, hypot, radians
    return hypot((b[0] - a[0]) * cos(radians((a[1] + b[1]) / 2)), b[1] - a[1]) * 111195


def test_a_driver_shift_refused_offer_ride_driven_to_the_end_and_missing_client(page):
    tab, ports, work = page
    port = ports["http"]
    admin = log_in(port, "admin")
    clock = call(port, "GET", "/v1/clock")
    assert clock["rate"] == CLOCK_RATE
    clock_read_at = time.time()
    clock_now = datetime.fromisoformat(clock["now"].replace("Z", "+00:00")).timestamp()

    def service_now():
        return clock_now + (time.time() - clock_read_at) * CLOCK_RATE

    # Log in with the taxi id: the taxi goes on duty, unavailable.
    wait_until("the page asks for a login", lambda: tab.shown("login") and tab.js("return typeof L === 'object'"))
    tab.screenshot("driver-login.png")
    tab.driver.find_element(By.ID, "taxi-id").send_keys(APP_TAXI.lower())
    tab.driver.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
    tab.wait_text("the app shows the taxi", "taxi-title", lambda text: text == f"Taxi {APP_TAXI}")
    tab.wait_text("the push socket is open", "connection", lambda text: text == "Connected")
    assert tab.text("state-text").startswith("Unavailable")
    assert tab.text("rides-today") == "No ride yet today"
    wait_until("the map draws the roads and the zones' outlines",
               lambda: tab.js("return [document.querySelectorAll('path.road').length, document.querySelectorAll('path.zone').length]"),
               lambda counts: all(counts))

    # The tablet as the taxi's terminal: its device id, then a place chosen on the map (Enter: the map's centre).
    tab.driver.find_element(By.CSS_SELECTOR, "#position-settings summary").click()
    tab.driver.find_element(By.ID, "device-id").send_keys(APP_DEVICE)
    tab.click("save-device")
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
    tab.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": gps[1], "longitude": gps[0], "accuracy": 5})
    tab.click("use-gps")
    position = tab.wait_text("the device's GPS position is sent", "position-text",
                             lambda text: metres_between(coordinates_in(text), gps) < 1)
    tab.click("use-gps")
    tab.driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})

    # Available: first in the zone's queue; the second taxi, on its own terminal, joins behind it.
    tab.click("availability")
    tab.wait_text("the taxi is first in its zone's queue", "queue-text",
                  lambda text: text == f"Place 1 in the queue of zone {zone}")
    assert tab.text("state-text") == "Available"
    assert tab.js("return document.getElementById('availability').getAttribute('aria-pressed')") == "true"
    tab.screenshot("driver-queue.png")
    other = LineTerminal(ports["line/tcp"], OTHER_DEVICE, (gps[0] + 0.0002, gps[1]), service_now)
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
        assert tab.console_errors() == [], "no error in the browser's console"
    finally:
        other.stop()
