"""An operator's day with the running service (issue: running a city's taxi
service day to day), end to end against `mytaxi serve` on the demo city: a
dispatcher who forgot the password sets a new one from the e-mail; an
administrator registers a new taxi and its terminal through the API, and the
terminal streams at once, without a restart or SIGHUP; the device is moved
to another taxi, then retired, and its fixes are refused from then on; the
console lists what the store keeps while the service runs; the audit log
names every change and who made it. Then a ride is served, and last week's
figures of its zone (in JSON and as a spreadsheet's CSV) and the driver's
month show it.

Uses the set-up of browser_apps.py (no browser): MYTAXI_BIN names the binary.
"""
import re
import subprocess
import urllib.error
import urllib.request

from browser_apps import PASSWORD, LineTerminal, ServiceClock, binary, call, go_available, log_in, mytaxi_serve, wait_until

MIDTOWN_PARK = (-73.9855, 40.7580)


def reset_token(mail):
    return max(re.findall(r"[A-Za-z0-9_-]{40,}", mail["body"]), key=len)


def test_an_account_reset_and_a_taxi_added_streaming_without_restart(tmp_path):
    with mytaxi_serve(tmp_path, {"dev-1": "T1"}, clock_rate=1) as city:
        admin = city.admin()
        city.create_account("dispatcher", "desk", email="desk@example.org")

        call(city.port, "POST", "/v1/password-resets", body={"email": "desk@example.org"})
        mail = call(city.port, "GET", "/v1/outbox", admin)[0]
        assert mail["to"] == "desk@example.org" and mail["subject"] == "Set a new mytaxi password"
        assert f"http://127.0.0.1:{city.port}/app#reset=" in mail["body"], "the link goes to the service's own address"
        call(city.port, "POST", "/v1/password-resets/confirmations", body={"token": reset_token(mail), "newPassword": "n3w-desk-pass"})
        desk = call(city.port, "POST", "/v1/sessions", body={"username": "desk", "password": "n3w-desk-pass"})["token"]
        try:
            log_in(city.port, "desk")
            raise AssertionError("the old password still logs in")
        except urllib.error.HTTPError as refused:
            assert refused.code == 401

        taxi = call(city.port, "POST", "/v1/taxis", admin, {"taxiId": "T50", "plate": "5T50", "seats": 6})
        assert taxi["source"] == "store" and taxi["seats"] == 6
        call(city.port, "POST", "/v1/devices", admin, {"deviceId": "term-50", "taxiId": "T50", "protocol": "line"})
        terminal = LineTerminal(city.ports["line/tcp"], "term-50", MIDTOWN_PARK, ServiceClock(city.port))
        try:
            seen = wait_until("the new taxi's first fix", lambda: probe(city.port, desk, "T50"))
            assert abs(seen["lon"] - MIDTOWN_PARK[0]) < 1e-4 and abs(seen["lat"] - MIDTOWN_PARK[1]) < 1e-4

            call(city.port, "POST", "/v1/taxis", admin, {"taxiId": "T51"})
            call(city.port, "PATCH", "/v1/devices/term-50", admin, {"taxiId": "T51"})
            wait_until("the moved device's fixes under its new taxi", lambda: probe(city.port, desk, "T51"))

            refused_before = unknown_device_refusals(city.port)
            call(city.port, "POST", "/v1/devices/term-50/retire", admin)
            wait_until("the retired device's fixes refused", lambda: unknown_device_refusals(city.port), lambda n: n > refused_before)
        finally:
            terminal.stop()

        listed = subprocess.run([binary(), "devices", "list", "--data-dir", city.work / "data"],
                                capture_output=True, text=True, check=True).stdout.splitlines()
        assert listed == ["taxi T50: 5T50, 6 seats", "taxi T51: no plate, 4 seats", "  device term-50, line, retired"]

        actions = [(entry["actor"], entry["action"], entry["target"]) for entry in call(city.port, "GET", "/v1/audit", admin)]
        assert actions[:5] == [("admin", "device.retire", "term-50"), ("admin", "device.edit", "term-50"), ("admin", "taxi.create", "T51"),
                               ("admin", "device.create", "term-50"), ("admin", "taxi.create", "T50")]


def test_last_weeks_figures_of_a_zone_and_a_drivers_month(tmp_path):
    # A service minute a real second: the minute samples of the queues count the driver's time on duty.
    with mytaxi_serve(tmp_path, {"dev-1": "T1"}, clock_rate=60) as city:
        admin = city.admin()
        city.create_account("driver", "T1")
        city.create_account("passenger", "ada", email="ada@example.com")
        terminal = LineTerminal(city.ports["line/tcp"], "dev-1", MIDTOWN_PARK, ServiceClock(city.port))
        try:
            driver = log_in(city.port, "T1")
            go_available(city.port, driver)
            passenger = log_in(city.port, "ada")
            ride = call(city.port, "POST", "/v1/rides", passenger, {"pickup": {"lon": MIDTOWN_PARK[0], "lat": MIDTOWN_PARK[1]}})
            wait_until("the offer", lambda: call(city.port, "GET", "/v1/driver", driver).get("offer"))
            call(city.port, "POST", "/v1/driver/offer/accept", driver)
            # The terminal stands at the pickup: the service marks the taxi arrived by itself (within 20 m).
            wait_until("the taxi marked arrived", lambda: call(city.port, "GET", "/v1/driver", driver),
                       lambda state: (state.get("ride") or {}).get("status") == "arrived")
            for step in ["ride/aboard", "ride/completed"]:
                call(city.port, "POST", f"/v1/driver/{step}", driver)
            wait_until("a few minutes on duty counted", lambda: call(city.port, "GET", "/v1/drivers/T1/report", driver),
                       lambda report: report["hoursOnDuty"] >= 0.05)
        finally:
            terminal.stop()

        zone = call(city.port, "GET", "/v1/zones/at?lon=%f&lat=%f" % MIDTOWN_PARK, admin)["zoneId"]
        week = call(city.port, "GET", f"/v1/stats/zones?zone={zone}", admin)
        assert week["bucket"] == "day" and [z["zoneId"] for z in week["zones"]] == [zone]
        total = week["zones"][0]["total"]
        assert (total["requests"], total["offers"], total["accepted"], total["served"], total["refused"]) == (1, 1, 1, 1, 0), total
        assert total["waitP50S"] is not None and total["taxisAvailable"] > 0, total

        request = urllib.request.Request(f"http://127.0.0.1:{city.port}/v1/stats/zones?format=csv",
                                         headers={"Authorization": f"Bearer {admin}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.headers["Content-Type"].startswith("text/csv")
            rows = answer.read().decode().splitlines()
        assert rows[0].startswith("zone_id,zone_name,start,requests,bookings,offers,accepted,refused")
        assert any(row.startswith(f"{zone},") and row.split(",")[3] == "1" for row in rows[1:]), rows

        month = call(city.port, "GET", "/v1/drivers/T1/report", admin)
        assert (month["offers"], month["accepted"], month["completed"], month["refused"], month["clientMissing"]) == (1, 1, 1, 0, 0), month
        assert month["hoursOnDuty"] >= 0.05 and month["kilometres"] >= 0 and month["shifts"][0]["taxiId"] == "T1", month
        assert ride["status"] == "offered"


def unknown_device_refusals(port):
    """How many line-protocol fixes the service refused as from no registered device, from /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    found = re.search(r'^mytaxi_fixes_rejected_total\{(?=[^}]*protocol="line")(?=[^}]*reason="unknown_device")[^}]*\} (\d+)', text, re.M)
    return int(found.group(1)) if found else 0


def probe(port, token, taxi):
    """The taxi's live position, None while it has none."""
    try:
        return call(port, "GET", f"/v1/taxis/{taxi}", token)
    except urllib.error.HTTPError as missing:
        if missing.code == 404:
            return None
        raise
