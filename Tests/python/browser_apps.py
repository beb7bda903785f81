"""What the browser tests of the passenger's app (/app) and the driver's
tablet app (/driver) share: `mytaxi serve` started on the demo city
(Manhattan's zones, Midtown's roads with their places and addresses, a
devices file, an administrator), a headless Chromium driven by Selenium
through Debian's chromedriver at a phone's or a tablet's size, the waits
with deadlines, the API calls a test makes besides the page, and the checks
every test makes of a page: its texts, an accessible name on every control,
no error in the browser's console.

MYTAXI_BIN names the binary (default: `swift build`'s), MYTAXI_WEB_ROOT a
folder of the web pages to serve instead of the built-in ones (`serve
--web-root`), MYTAXI_SCREENSHOTS a folder for the tests' screenshots. The
fixture `browser_tools` skips a test, naming the package, when Chromium,
chromedriver, Leaflet or Selenium is missing.
"""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest

from service_process import binary, call, free_port  # noqa: F401 (the tests import them from here too)

# Selenium drives the Debian chromedriver named below: Selenium Manager never
# runs (it would look up and download drivers), and no usage statistics are sent.
os.environ["SE_AVOID_STATS"] = "true"
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    webdriver = None
    ActionChains = By = Keys = None

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "app-pass-1"
LEAFLET = Path("/usr/share/javascript/leaflet/leaflet.js")
MANHATTAN = ROOT / "Zones" / "manhattan" / "zones.geojson"
MIDTOWN = ROOT / "Maps" / "manhattan-midtown.osm.pbf"
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
TABLET = {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}






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


def go_available(port, driver):
    """The driver's taxi joins its zone's queue, once its terminal's fixes put it in a zone (409 until then)."""
    def tried():
        try:
            call(port, "PUT", "/v1/driver/availability", driver, {"available": True})
            return True
        except urllib.error.HTTPError as error:
            if error.code != 409:
                raise
            return False
    wait_until("the taxi is available in its zone", tried, seconds=30)


def wait_for_lines(path, pattern, process, seconds=60):
    """The lines of `path` matching `pattern`, once there is one; fails when `process` ends first."""
    def matching():
        assert process.poll() is None, f"{process.args[0]} ended: {path.read_text()[-2000:] if path.exists() else ''}"
        return [line for line in path.read_text().splitlines() if re.search(pattern, line)] if path.exists() else []
    return wait_until(f"a line matching {pattern} in {path}", matching, seconds=seconds)




def metres_between(a, b):
    """The distance of two (lon, lat) points, near enough for a city."""
    from math import cos, hypot, radians
    return hypot((b[0] - a[0]) * cos(radians((a[1] + b[1]) / 2)), b[1] - a[1]) * 111195


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


class City:
    """A running `mytaxi serve`: its HTTP port (`port`), every listener's port (`ports`), its work folder."""

    def __init__(self, ports, work):
        self.ports = ports
        self.port = ports["http"]
        self.origin = f"http://127.0.0.1:{self.port}"
        self.work = work

    def admin(self):
        return log_in(self.port, "admin")

    def create_account(self, role, username, **fields):
        call(self.port, "POST", "/v1/accounts", self.admin(),
             {"role": role, "username": username, "password": PASSWORD, **fields})


@contextmanager
def mytaxi_serve(work, devices, clock_rate, offer_timeout=600, extra=()):
    """`mytaxi serve` on the demo city's zones and roads in `work`, `devices` ({device id: taxi id}) in its
    devices file, an administrator `admin`, on the simulated clock `clock_rate`, an offer lasting
    `offer_timeout` service seconds, the line and OsmAnd protocols on, e-mails' links to its own address
    (--public-url), and `extra` flags: the City, until the block ends."""
    mytaxi = binary()
    if not mytaxi.exists():
        pytest.skip(f"no mytaxi binary at {mytaxi}: build it, or name it with MYTAXI_BIN")
    for needed in [MANHATTAN, MIDTOWN]:
        if not needed.exists():
            pytest.skip(f"{needed.relative_to(ROOT)} is missing")
    graph = work / "midtown.graph"
    subprocess.run([mytaxi, "graph", "build", MIDTOWN, "-o", graph, "--time-zone", "America/New_York",
                    "--zones", MANHATTAN], check=True, capture_output=True)
    (work / "devices.csv").write_text("device_id,taxi_id\n" + "".join(f"{device},{taxi}\n" for device, taxi in devices.items()))
    data = work / "data"
    subprocess.run([mytaxi, "accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "admin",
                    "--password-stdin"], input=PASSWORD, text=True, check=True, capture_output=True)
    web_root = os.environ.get("MYTAXI_WEB_ROOT")
    port = free_port()
    serve = subprocess.Popen([mytaxi, "serve", "--zones", MANHATTAN, "--devices", work / "devices.csv", "--data-dir", data,
                              "--graph", graph, "--http-port", str(port), "--line-port", "0", "--nmea-port", "off",
                              "--osmand-port", "0", "--teltonika-port", "off", "--gt06-port", "off",
                              "--clock-rate", str(clock_rate), "--offer-timeout", str(offer_timeout),
                              "--public-url", f"http://127.0.0.1:{port}",
                              "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000",
                              *(["--web-root", web_root] if web_root else []), *extra],
                             stdout=open(work / "listening", "w"), stderr=open(work / "serve.log", "w"))
    try:
        for listener in ["http", "line/tcp"]:
            wait_for_lines(work / "listening", rf"^listening {listener} ", serve)
        ports = {parts[1]: int(parts[2].rsplit(":", 1)[1])
                 for parts in (line.split() for line in (work / "listening").read_text().splitlines()) if len(parts) == 3}
        yield City(ports, work)
    finally:
        serve.terminate()
        serve.wait(timeout=30)


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


@contextmanager
def chromium(browser_tools, screen, log_output=None):
    """A new headless Chromium of its own (its own profile: a browser context of its own) showing `screen`
    (PHONE or TABLET), its console kept for `console_errors`: the Selenium driver, until the block ends."""
    binary_path, chromedriver = browser_tools
    profile = tempfile.mkdtemp(prefix="mytaxi-chromium-")
    browser = None
    try:
        options = webdriver.ChromeOptions()
        options.binary_location = binary_path
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={screen['width']},{screen['height']}",
                         f"--user-data-dir={profile}", "--no-first-run", "--disable-background-networking",
                         "--disable-component-update"]:
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        service = Service(executable_path=chromedriver, **({"log_output": str(log_output)} if log_output else {}))
        browser = webdriver.Chrome(service=service, options=options)
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", screen)
        yield browser
    finally:
        if browser:
            browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


# Counts the messages of every WebSocket the page opens from now on, by kind,
# so that a test knows when the page's push socket is registered (its first
# message, the state, is sent then) and what the service pushed. Neither the
# socket nor its address (the token) is kept.
WATCH_PUSH_SOCKETS = """
    if (!window.__pushMessages) {
      const Native = window.WebSocket;
      window.__pushMessages = [];
      window.__pushKinds = {};
      window.WebSocket = class extends Native {
        constructor(...args) {
          super(...args);
          const index = window.__pushMessages.push(0) - 1;
          this.addEventListener('message', (event) => {
            window.__pushMessages[index] += 1;
            let kind = '?';
            try { kind = JSON.parse(event.data).kind; } catch (error) {}
            window.__pushKinds[kind] = (window.__pushKinds[kind] || 0) + 1;
          });
        }
      };
    }
"""


class Page:
    """An app in a headless Chromium driven by Selenium; what it shows is read from the DOM."""

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

    def click(self, element_id):
        self.driver.find_element(By.ID, element_id).click()

    def watch_push(self):
        """Counts the push socket's messages from now on (before the login that opens it)."""
        self.js(WATCH_PUSH_SOCKETS)

    def pushed_kinds(self):
        """How many messages of each kind the page's push sockets got since `watch_push`."""
        return self.js("return window.__pushKinds || {}")

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


class PassengerApp(Page):
    """The passenger's app (/app) on a phone."""

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
        if os.environ.get("MYTAXI_SCREENSHOTS"):
            self.js("window.scrollTo(0, 0)")
        super().screenshot(name)

    def log_in(self, username, password=PASSWORD):
        """Logs in as `username` from the login screen and waits for the home screen and its push socket."""
        self.wait_shown("the app asks for a login", "screen-login")
        self.watch_push()
        self.type("#login-username", username)
        self.type("#login-password", password + Keys.ENTER)
        self.wait_shown("the login is taken: the home screen", "screen-home")
        wait_until("the push socket has the passenger's state", lambda: self.js("return window.__pushMessages"),
                   lambda counts: any(count > 0 for count in counts))

    def sign_up(self, username, email):
        """Signs up from the login screen, as far as "check your e-mail"."""
        self.tap("#go-register")
        self.wait_shown("the sign-up form", "screen-register")
        self.type("#register-username", username)
        self.type("#register-email", email)
        self.type("#register-password", PASSWORD)
        self.tap("#register-form button[type=submit]")
        self.wait_shown("the app asks to check the e-mail", "screen-confirm")
        assert self.text("confirm-title") == "Check your e-mail"
        assert email in self.text("confirm-note")

    def open_confirmation_link(self, port, email):
        """Opens the link of the confirmation e-mail sent to `email` (read by an administrator from the outbox of
        the service on `port`): the app confirms the address and asks for the login."""
        admin = log_in(port, "admin")
        mail = wait_until("the confirmation e-mail is in the outbox", lambda: [
            sent for sent in call(port, "GET", "/v1/outbox?limit=10", admin) if sent["to"] == email])[0]
        link = re.search(r"http://\S+/app#confirm=\S+", mail["body"]).group(0)
        assert link.startswith(f"{self.origin}/app#confirm="), link
        self.driver.get(link)
        self.wait_text("the app says the address is confirmed", "login-note",
                       lambda text: text == f"The address {email} is confirmed: you can log in.")
        assert self.shown("screen-login")
        assert "confirm=" not in self.driver.current_url, "the token is not left in the address bar"

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

    def taxi_on_screen(self):
        """Where the taxi's marker is on the page (x, y of its centre), or None when none is drawn."""
        return self.js("""
            const marker = document.querySelector('.taxi-marker');
            if (!marker) return null;
            const box = marker.getBoundingClientRect();
            return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];""")


class DriverApp(Page):
    """The driver's tablet app (/driver)."""

    def log_in(self, taxi):
        """Logs in with the taxi id (typed in lower case: the app reads it in capitals) and waits for the push socket."""
        wait_until("the page asks for a login", lambda: self.shown("login") and self.js("return typeof L === 'object'"))
        self.watch_push()
        self.driver.find_element(By.ID, "taxi-id").send_keys(taxi.lower())
        self.driver.find_element(By.ID, "password").send_keys(PASSWORD + Keys.ENTER)
        self.wait_text("the app shows the taxi", "taxi-title", lambda text: text == f"Taxi {taxi}")
        self.wait_text("the push socket is open", "connection", lambda text: text == "Connected")

    def use_as_terminal(self, device):
        """Makes the tablet the taxi's terminal: its device id, under "This device as the taxi's terminal"."""
        self.find("#position-settings summary").click()
        self.driver.find_element(By.ID, "device-id").send_keys(device)
        self.click("save-device")

    def send_gps_position(self, point):
        """The device's GPS position `point` (lon, lat), set through Chromium's geolocation override, sent once;
        the text that says it was sent."""
        self.driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": self.origin, "permissions": ["geolocation"]})
        self.driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": point[1], "longitude": point[0], "accuracy": 5})
        self.click("use-gps")
        sent = self.wait_text("the device's GPS position is sent", "position-text",
                              lambda text: text.startswith("Sent by this device: ") and metres_between(coordinates_in(text), point) < 1)
        self.click("use-gps")
        self.driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
        return sent


def coordinates_in(text):
    """The (lon, lat) of the first "LAT, LON" in `text`."""
    lat, lon = re.search(r"(-?\d+\.\d+), (-?\d+\.\d+)", text).groups()
    return float(lon), float(lat)
