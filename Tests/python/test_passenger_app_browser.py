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
Where the service has the taxi's position for the passenger (the ride's
`taxi`, GET /v1/rides/{id}/route in its OpenAPI document), the taxi and its
route are checked on the map too.

Set-up as in test_live_map_browser.py: MYTAXI_BIN names the binary
(default: `swift build`'s), MYTAXI_WEB_ROOT a folder of the web pages to
serve instead of the built-in ones (`serve --web-root`), MYTAXI_SCREENSHOTS a
folder to save app-login.png, app-request.png, app-queued.png,
app-assigned.png, app-reservations.png and app-history.png in. Skips, naming
the package, when Chromium, chromedriver, Leaflet or Selenium is missing.
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
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "rider-pass-1"
CLOCK_RATE = 3
LEAFLET = Path("/usr/share/javascript/leaflet/leaflet.js")
MANHATTAN = ROOT / "Zones" / "manhattan" / "zones.geojson"
MIDTOWN = ROOT / "Maps" / "manhattan-midtown.osm.pbf"
TAXI, DEVICE = "TX900001", "terminal-900001"
# Where the taxi waits: in Midtown South, the zone of 350 5th Avenue, a few minutes' drive from it.
TAXI_STAND = (-73.9880, 40.7460)
PICKUP_LABEL = "350 5th Avenue, New York 10118"


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
        time.sleep(0.2)


def wait_for_lines(path, pattern, process, seconds=60):
    """The lines of `path` matching `pattern`, once there is one; fails when `process` ends first."""
    def matching():
        assert process.poll() is None, f"{process.args[0]} ended: {path.read_text()[-2000:] if path.exists() else ''}"
        return [line for line in path.read_text().splitlines() if re.search(pattern, line)] if path.exists() else []
    return wait_until(f"a line matching {pattern} in {path}", matching, seconds=seconds)


def free_port():
    """A TCP port free now, for a service that must know its own address before it starts (--public-url)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServiceClock:
    """The service's time (GET /v1/clock), carried forward at its rate."""

    def __init__(self, port):
        clock = call(port, "GET", "/v1/clock")
        self.read_at = time.time()
        self.service_at = datetime.fromisoformat(clock["now"].replace("Z", "+00:00")).timestamp()
        self.rate = clock["rate"]

    def now(self):
        return self.service_at + (time.time() - self.read_at) * self.rate


class LineTerminal:
    """A taxi terminal on the line protocol: reports `position` every real second, in service time, until stopped."""

    def __init__(self, port, device, position, clock):
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.device, self.position, self.clock = device, position, clock
        self.sequence = 0
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.report, daemon=True)
        self.thread.start()

    def report(self):
        while not self.stopped.is_set():
            self.sequence += 1
            lon, lat = self.position
            line = f"MT1,{self.device},{self.sequence},{int(self.clock.now())},{lat:.7f},{lon:.7f},0,0,A\n"
            self.connection.sendall(line.encode())
            self.connection.recv(4096)
            self.stopped.wait(1)

    def stop(self):
        self.stopped.set()
        self.thread.join(timeout=10)
        self.connection.close()


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


# Counts the messages of every WebSocket the page opens from now on, so that a
# test knows when the page's push socket is registered (its first message, the
# state, is sent then). Neither the socket nor its address (the token) is kept.
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


class Page:
    """The passenger's app in a headless Chromium driven by Selenium; what it shows is read from the DOM."""

    def __init__(self, driver, origin):
        self.driver = driver
        self.origin = origin

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def text(self, element_id):
        return self.js("return document.getElementById(arguments[0]).textContent", element_id)

    def shown(self, element_id):
        return self.js("const e = document.getElementById(arguments[0]); return !!e && !e.closest('[hidden]')", element_id)

    def wait_text(self, what, element_id, ok, seconds=60):
        return wait_until(what, lambda: self.text(element_id), ok, seconds)

    def wait_shown(self, what, element_id, seconds=60):
        wait_until(what, lambda: self.shown(element_id), seconds=seconds)

    def find(self, selector):
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def tap(self, selector):
        """Scrolls the element to the screen's middle (clear of the tab bar) and clicks it, as a finger would."""
        element = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def type(self, selector, text):
        element = self.find(selector)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.clear()
        element.send_keys(text)

    def screenshot(self, name):
        folder = os.environ.get("MYTAXI_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.js("window.scrollTo(0, 0)")
            self.driver.save_screenshot(str(Path(folder) / name))

    def controls_without_a_name(self):
        """The visible controls with no accessible name (a label, aria-label(ledby), title or text)."""
        return self.js("""
            const name = (e) => (e.getAttribute('aria-label') || '').trim()
              || (e.getAttribute('aria-labelledby') || '').split(' ').map(id => document.getElementById(id)?.textContent || '').join('').trim()
              || [...(e.labels || [])].map(l => l.textContent).join('').trim()
              || (e.getAttribute('title') || '').trim()
              || (['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName) ? '' : e.textContent.trim());
            return [...document.querySelectorAll('button, input, select, textarea, summary, a[href], [tabindex]:not([tabindex="-1"]), [role=option]')]
              .filter(e => e.getClientRects().length > 0 && !name(e))
              .map(e => e.outerHTML.slice(0, 120));
        """)

    def assert_named_controls(self, screen):
        assert self.controls_without_a_name() == [], f"every control on the {screen} screen has an accessible name"

    def console_errors(self, expected_failed_loads=()):
        """The browser's errors, but for loads the test made fail on purpose (the page shows the service's words)."""
        return [entry for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"
                and not any(re.search(pattern, entry["message"]) for pattern in expected_failed_loads)]

    def log_in(self, username):
        """Logs in as `username` from the login screen and waits for the home screen and its push socket."""
        self.wait_shown("the app asks for a login", "screen-login")
        self.js(WATCH_PUSH_SOCKETS)
        self.type("#login-username", username)
        self.type("#login-password", PASSWORD + Keys.ENTER)
        self.wait_shown("the login is taken: the home screen", "screen-home")
        wait_until("the push socket has the passenger's state", lambda: self.js("return window.__pushMessages"),
                   lambda counts: any(count > 0 for count in counts))

    def choose_suggestion(self, field_id, typed, label):
        """Types `typed` into the address field and takes the first suggestion starting with `label` with the
        keyboard: the field's value then, the suggestion's label."""
        self.type(f"#{field_id}", typed)
        options = wait_until(f"{field_id} suggests {label}",
                             lambda: self.js("return [...document.querySelectorAll('[role=option]')].map(o => o.textContent)"),
                             lambda seen: any(option.startswith(label) for option in seen))
        field = self.find(f"#{field_id}")
        index = next(index for index, option in enumerate(options) if option.startswith(label))
        for _ in range(index + 1):
            field.send_keys(Keys.ARROW_DOWN)
        active = self.js("const id = document.getElementById(arguments[0]).getAttribute('aria-activedescendant');"
                         " return id && document.getElementById(id).textContent", field_id)
        assert active == options[index], "the suggestion reached with the keyboard is the active one"
        field.send_keys(Keys.ENTER)
        value = field.get_attribute("value")
        assert value.startswith(label) and options[index].startswith(value), (value, options[index])
        return value


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
    """`mytaxi serve` on the demo city's zones and roads, the taxi reporting, its driver logged in: (port, Driver)."""
    mytaxi = binary()
    if not mytaxi.exists():
        pytest.skip(f"no mytaxi binary at {mytaxi}: build it, or name it with MYTAXI_BIN")
    for needed in [MANHATTAN, MIDTOWN]:
        if not needed.exists():
            pytest.skip(f"{needed.relative_to(ROOT)} is missing")
    work = tmp_path_factory.mktemp("passenger-app")
    graph = work / "midtown.graph"
    subprocess.run([mytaxi, "graph", "build", MIDTOWN, "-o", graph, "--time-zone", "America/New_York",
                    "--zones", MANHATTAN], check=True, capture_output=True)
    (work / "devices.csv").write_text(f"device_id,taxi_id\n{DEVICE},{TAXI}\n")
    data = work / "data"
    subprocess.run([mytaxi, "accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "admin",
                    "--password-stdin"], input=PASSWORD, text=True, check=True, capture_output=True)
    web_root = os.environ.get("MYTAXI_WEB_ROOT")
    port = free_port()
    # Offers last 600 service seconds, so that the driver played here never misses one.
    serve = subprocess.Popen([mytaxi, "serve", "--zones", MANHATTAN, "--devices", work / "devices.csv", "--data-dir", data,
                              "--graph", graph, "--http-port", str(port), "--line-port", "0", "--nmea-port", "off",
                              "--osmand-port", "off", "--teltonika-port", "off", "--gt06-port", "off",
                              "--clock-rate", str(CLOCK_RATE), "--offer-timeout", "600",
                              "--public-url", f"http://127.0.0.1:{port}",
                              "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000",
                              *(["--web-root", web_root] if web_root else [])],
                             stdout=open(work / "listening", "w"), stderr=open(work / "serve.log", "w"))
    terminal = None
    try:
        for listener in ["http", "line/tcp"]:
            wait_for_lines(work / "listening", rf"^listening {listener} ", serve)
        ports = {parts[1]: int(parts[2].rsplit(":", 1)[1])
                 for parts in (line.split() for line in (work / "listening").read_text().splitlines()) if len(parts) == 3}
        admin = log_in(port, "admin")
        call(port, "POST", "/v1/accounts", admin, {"role": "driver", "username": TAXI, "password": PASSWORD})
        call(port, "POST", "/v1/accounts", admin, {"role": "passenger", "username": "ada", "email": "ada@example.com",
                                                   "password": PASSWORD})
        terminal = LineTerminal(ports["line/tcp"], DEVICE, TAXI_STAND, ServiceClock(port))
        yield port, Driver(port)
    finally:
        if terminal:
            terminal.stop()
        serve.terminate()
        serve.wait(timeout=30)


@pytest.fixture()
def app(browser_tools, city):
    """The passenger's app in a new headless Chromium on a phone's 390x844 screen: (Page, port, Driver)."""
    chromium, chromedriver = browser_tools
    port, driver_api = city
    profile = tempfile.mkdtemp(prefix="mytaxi-chromium-")
    browser = None
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
                         f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        browser = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        origin = f"http://127.0.0.1:{port}"
        browser.get(origin + "/app")
        yield Page(browser, origin), port, driver_api
    finally:
        if browser:
            browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def service_has_taxi_positions(port):
    """Whether the service tells a passenger where the assigned taxi is (the ride's route in its document)."""
    return "/v1/rides/{rideId}/route" in call(port, "GET", "/openapi.json")["paths"]


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
    admin = log_in(port, "admin")
    mail = wait_until("the confirmation e-mail is in the outbox", lambda: [
        email for email in call(port, "GET", "/v1/outbox?limit=10", admin) if email["to"] == "zoe@example.com"])[0]
    link = re.search(r"http://\S+/app#confirm=\S+", mail["body"]).group(0)
    assert link.startswith(f"{tab.origin}/app#confirm="), link
    tab.driver.get(link)
    tab.wait_text("the app says the account is confirmed", "login-note",
                  lambda text: text == "Your account is confirmed: you can log in.")
    assert tab.shown("screen-login")
    assert "confirm=" not in tab.driver.current_url, "the token is not left in the address bar"
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
    if service_has_taxi_positions(port):
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
    tab.tap("#logout")
    tab.wait_shown("logged out: the login", "screen-login")
    assert tab.text("login-note") == "You are logged out."
    assert tab.console_errors() == []


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
    tab.wait_text("the account is confirmed", "login-note", lambda text: text == "Your account is confirmed: you can log in.")
    tab.log_in("max")
    assert tab.text("profile-username") == "max"
    assert tab.console_errors([r"/v1/passengers/confirmations - Failed to load resource: the server responded with a status of 422"]) == []
