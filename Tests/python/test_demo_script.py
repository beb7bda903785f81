"""`make demo` (Tools/demo.sh) on the built binary, for a short while
(DEMO_DURATION): the service, a small simulated fleet and its passengers.
What a newcomer sees must hold: the live summary shows the taxis and rides
served, and every example `curl` call it prints works against the running
service. Needs curl (make deps installs it)."""
import json
import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from service_process import binary, free_port

ROOT = Path(__file__).resolve().parents[2]
TAXIS = 12
LIVE_LINE = re.compile(r"\): (\d+) taxis, (\d+) free, (\d+) rides open \(waiting, on the way or aboard\), (\d+) rides served, p50 wait")






def example_calls(output):
    """The shell commands of the demo's "Try, in another terminal:" block, continuation lines joined."""
    block = output.split("Try, in another terminal:\n", 1)[1].split("Ctrl-C stops", 1)[0]
    commands, pending = [], ""
    for line in block.splitlines():
        line = pending + line.strip()
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if line:
            commands.append(line)
    return commands


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed (Debian package curl; make deps installs it)")
def test_the_demo_shows_taxis_and_served_rides_and_its_example_calls_work(tmp_path):
    output_path = tmp_path / "demo.out"
    environment = dict(os.environ, DEMO_PORT=str(free_port()), DEMO_TAXIS=str(TAXIS), DEMO_PASSENGERS="20",
                       DEMO_REQUESTS_PER_HOUR="600", DEMO_SPEED_UP="30", DEMO_HOURS="2", DEMO_DURATION="40",
                       DEMO_WAITS_CSV=str(tmp_path / "waits.csv"))
    with open(output_path, "w") as output:
        demo = subprocess.Popen([ROOT / "Tools" / "demo.sh", binary().parent], cwd=ROOT, env=environment,
                                stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while "Ctrl-C stops" not in output_path.read_text():
            assert demo.poll() is None, f"the demo ended early:\n{output_path.read_text()[-3000:]}"
            assert time.time() < deadline, f"the demo did not start within 120 s:\n{output_path.read_text()[-3000:]}"
            time.sleep(0.5)
        calls = example_calls(output_path.read_text())
        token_line = calls[0]
        assert token_line.startswith("TOKEN=$(curl")
        token = subprocess.run(["bash", "-c", token_line + ' && printf %s "$TOKEN"'], capture_output=True, text=True,
                               check=True).stdout
        assert token, "the printed login gives a token"
        curls = calls[1:]
        assert len(curls) == 8, curls
        answers = {}
        for command in curls:
            strict = command.replace("curl -s ", "curl -sf ", 1)
            answer = subprocess.run(["bash", "-c", strict], env=dict(os.environ, TOKEN=token), capture_output=True, text=True)
            assert answer.returncode == 0, f"{command}: curl exit {answer.returncode} {answer.stdout} {answer.stderr}"
            answers[command] = json.loads(answer.stdout)
            assert answers[command] is not None, f"{command}: {answer.stdout}"
        park = next(answer for command, answer in answers.items() if "Bryant Park" in command)
        assert park["meetingPoint"]["walkRouted"] is True and park["meetingPoint"]["walkS"] > 0, park
        walk = next(answer for command, answer in answers.items() if "mode=foot" in command)
        assert walk["mode"] == "foot", walk
        own_taxi = next(line.strip() for line in output_path.read_text().splitlines() if line.strip().startswith("exec 3<>/dev/tcp/"))
        ack = subprocess.run(["bash", "-c", own_taxi], capture_output=True, text=True, timeout=30)
        assert ack.stdout.strip() == "ACK,1", f"your own taxi's first fix is acknowledged: {own_taxi}: {ack.stdout} {ack.stderr}"
        assert re.search(r"line \d+ \(MT1\), Teltonika \d+, GT06 \d+", output_path.read_text()), "the ingest ports are printed"
        apps = re.findall(r"(http://127\.0\.0\.1:\d+/(?:map|app|driver))\s+log in as (\w+)", output_path.read_text())
        assert [login for _, login in apps] == ["dispatcher", "ada", "TX900001"], f"the three apps with their logins: {apps}"
        for url, login in apps:
            with urllib.request.urlopen(url, timeout=30) as page:
                assert page.status == 200 and "text/html" in page.headers["Content-Type"], url
            token_of = json.dumps({"username": login, "password": "demo-pass-1"}).encode()
            request = urllib.request.Request(url.rsplit("/", 1)[0] + "/v1/sessions", data=token_of,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as session:
                assert json.load(session)["token"], f"{login} logs in with the printed password"
        assert demo.wait(timeout=120) == 0
    finally:
        if demo.poll() is None:
            demo.terminate()
            demo.wait(timeout=60)
    output = output_path.read_text()
    live = [tuple(int(n) for n in found.groups()) for found in LIVE_LINE.finditer(output)]
    assert live, f"no live summary line:\n{output[-3000:]}"
    assert max(taxis for taxis, _, _, _ in live) == TAXIS + 1, f"every simulated taxi shows, and your own: {live}"
    assert max(served for _, _, _, served in live) >= 1, f"rides are served: {live}"
    assert "Stopping: the simulator, then the service." in output
    assert re.search(r"rides: \d+ requested", output), "the simulator's summary is printed at the end"
    served = int(re.search(r"rides: \d+ requested \(\d+ queued\), \d+ refused by the service, (\d+) served", output).group(1))
    waits = (tmp_path / "waits.csv").read_text().splitlines()
    assert waits[0] == "ride_id,zone_id,requested_at,told_wait_s,wait_s,queued,refusals,taxi_was_moving,drive_s", waits[:2]
    assert 1 <= len(waits) - 1 <= served, f"DEMO_WAITS_CSV has a line per ride asked for now and served ({served} served): {waits}"
