"""The dispatcher's live map in a real browser (issue 18): `mytaxi serve` on
the demo city with `mytaxi simulate` driving its fleet, the page at `/map`
opened in Debian's headless Chromium and driven over its DevTools protocol
as a dispatcher would: log in, see every zone, the main roads and the taxis, watch the taxis
move, click a zone and read its queues. What is checked is read from the
page's DOM. Skips when Chromium, Leaflet or the WebSocket client is missing
(`make test` installs them).
"""
import base64
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "map-pass-1"
TAXIS = 12
LEAFLET = Path("/usr/share/javascript/leaflet/leaflet.js")


def binary():
    explicit = os.environ.get("MYTAXI_BIN")
    if explicit:
        return Path(explicit)
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    return Path(bin_dir) / "mytaxi"


def call(port, method, path, token=None, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=None if body is None else json.dumps(body).encode())
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read() or b"null")


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
    """One Chromium tab driven over the DevTools protocol: evaluate JavaScript, read the result."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0

    def evaluate(self, expression):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": "Runtime.evaluate",
                                     "params": {"expression": expression, "returnByValue": True, "awaitPromise": True}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                result = message["result"]
                assert "exceptionDetails" not in result, f"{expression}: {result['exceptionDetails']}"
                return result["result"].get("value")

    def screenshot(self, path):
        """Saves what the tab shows as a PNG."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": "Page.captureScreenshot", "params": {"format": "png"}}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                Path(path).write_bytes(base64.b64decode(message["result"]["data"]))
                return

    def wait_until(self, expression, seconds=60):
        """The value of `expression` once truthy; fails after `seconds`."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.5)
        raise AssertionError(f"the page never made true: {expression}")


@pytest.fixture(scope="module")
def city(tmp_path_factory):
    """The service and the simulator on the demo city: (HTTP port, work folder)."""
    mytaxi = binary()
    work = tmp_path_factory.mktemp("live-map")
    zones = ROOT / "Zones" / "manhattan" / "zones.geojson"
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
                              "--bcrypt-cost", "4", "--login-limit", "1000", "--registration-limit", "1000"],
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
def page(city):
    """A headless Chromium tab on the map page."""
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("Chromium is not installed: `make test` installs Debian's chromium")
    if not LEAFLET.exists():
        pytest.skip("Leaflet is not installed: `make test` installs Debian's libjs-leaflet")
    websocket = pytest.importorskip("websocket", reason="the WebSocket client is missing: `make test` installs websocket-client")
    port, work = city
    profile = tempfile.mkdtemp(prefix="mytaxi-chromium-")
    browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
                                f"--user-data-dir={profile}", "--window-size=1280,900", f"http://127.0.0.1:{port}/map"],
                               stdout=subprocess.DEVNULL, stderr=open(work / "chromium.log", "w"))
    try:
        devtools = wait_for_lines(work / "chromium.log", r"DevTools listening on ws://", browser)[0]
        debug_port = int(re.search(r"ws://[^:]+:(\d+)/", devtools).group(1))
        deadline = time.time() + 30
        while True:
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{debug_port}/json/list", timeout=10))
            tabs = [target for target in targets if target.get("type") == "page" and "/map" in target.get("url", "")]
            if tabs or time.time() > deadline:
                break
            time.sleep(0.2)
        assert tabs, f"no tab on the map: {targets}"
        socket = websocket.create_connection(tabs[0]["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        try:
            yield Page(socket), port, work
        finally:
            socket.close()
    finally:
        browser.terminate()
        browser.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)


def test_the_dispatcher_sees_every_zone_the_moving_taxis_and_a_zones_queue(page):
    tab, port, work = page
    tab.wait_until("document.readyState === 'complete' && typeof L === 'object'")
    tab.evaluate(f"""
        document.getElementById('username').value = 'desk';
        document.getElementById('password').value = '{PASSWORD}';
        document.getElementById('login').requestSubmit();
    """)
    zone_count = len(json.loads((ROOT / "Zones" / "manhattan" / "zones.geojson").read_text())["features"])
    assert tab.wait_until(f"document.querySelectorAll('path.zone').length === {zone_count}"), "every zone is drawn"
    assert tab.wait_until(f"document.querySelectorAll('path.taxi').length === {TAXIS}"), "every taxi is drawn"
    assert tab.wait_until("document.querySelectorAll('path.road').length > 0"), "the main roads are drawn"

    shapes = "JSON.stringify([...document.querySelectorAll('path.taxi')].map(e => e.getAttribute('data-taxi') + ' ' + e.getAttribute('d')))"
    before = set(json.loads(tab.evaluate(shapes)))
    assert tab.wait_until(f"(() => {{ const before = new Set({json.dumps(sorted(before))});"
                          f" return JSON.parse({shapes}).filter(s => !before.has(s)).length >= 2; }})()", seconds=90), \
        "taxis move on the map"

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
        tab.evaluate(f"""
            (() => {{
              const path = document.querySelector('path.zone-{zone}');
              const box = path.getBoundingClientRect();
              path.dispatchEvent(new MouseEvent('click', {{bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2}}));
            }})()
        """)
        title = tab.wait_until(f"(document.getElementById('zone-title').textContent.startsWith('Zone {zone}:')"
                               " && document.getElementById('zone-title').textContent)")
        assert title.startswith(f"Zone {zone}:")
        taxis_in_line = tab.wait_until("[...document.querySelectorAll('#zone-taxis li')].map(e => e.textContent)")
        if not taxis_in_line[0].startswith("no "):
            break
    assert all(re.match(r"TX\d{6} \(free since", item) for item in taxis_in_line), taxis_in_line
    tab.evaluate("document.querySelector('input[name=colour][value=wait]').click()")
    waits = tab.wait_until("(() => { const waits = [...document.querySelectorAll('path.zone')].map(e => e.getAttribute('data-wait'))"
                           ".filter(w => w); return waits.length ? waits : null; })()")
    assert all(int(wait) >= 0 for wait in waits), f"zones coloured by the expected wait: {waits}"
    nearest = tab.wait_until("[...document.querySelectorAll('#nearest li')].map(e => e.textContent)")
    assert nearest and re.match(r"\S+ .*: TX\d{6}, \d+ min", nearest[0]), nearest
    if os.environ.get("MYTAXI_MAP_SCREENSHOT"):
        tab.screenshot(os.environ["MYTAXI_MAP_SCREENSHOT"])

    # A planner's new zone set put in force (hot reload): the board says so and the page draws the new zones.
    manhattan = json.loads((ROOT / "Zones" / "manhattan" / "zones.geojson").read_text())
    fewer = dict(manhattan, features=manhattan["features"][:20])
    admin = call(port, "POST", "/v1/sessions", body={"username": "admin", "password": PASSWORD})["token"]
    version = call(port, "POST", "/v1/zone-sets", admin, fewer)["version"]
    call(port, "POST", f"/v1/zone-sets/{version}/activation", admin)
    assert tab.wait_until("document.querySelectorAll('path.zone').length === 20"), "the map draws the zone set now in force"
