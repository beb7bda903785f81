"""Schemathesis against the running `mytaxi serve` (issue 15): every operation
of the OpenAPI document, called with generated requests by an administrator,
a dispatcher, a driver and a passenger: no answer is a 5xx, every answer
the document describes matches its schema, a method the document does
not give a path is answered 405 with `Allow`, and a request the document
accepts is never a 400 (positive_data_acceptance: the document's patterns,
lengths and ranges say exactly what the server takes; a well-formed request
that cannot be done is a 422, see schemathesis.toml beside this file).

The service runs on the shipped demo city (Midtown graph, its zones) with a
devices file from `mytaxi-loadgen`; its accounts are made the way an operator
makes them (the first administrator from the command line, the rest through
the API). Logging out and disabling accounts are left out: they would end the
very tokens the run uses.
"""
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from service_process import binary, call

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).resolve().parent / "schemathesis.toml"
PASSWORD = "schema-pass-1"


def binaries():
    mytaxi = binary()
    return mytaxi, mytaxi.parent / "mytaxi-loadgen"




@pytest.fixture(scope="module")
def service(tmp_path_factory):
    mytaxi, loadgen = binaries()
    work = tmp_path_factory.mktemp("schemathesis")
    zones = ROOT / "Zones" / "manhattan" / "zones.geojson"
    graph = work / "midtown.graph"
    subprocess.run([mytaxi, "graph", "build", ROOT / "Maps" / "manhattan-midtown.osm.pbf", "-o", graph,
                    "--time-zone", "America/New_York", "--zones", zones], check=True, capture_output=True)
    subprocess.run([loadgen, "--devices", "20", "--write-devices", work / "devices.csv"], check=True, capture_output=True)
    data = work / "data"
    data.mkdir()
    subprocess.run([mytaxi, "accounts", "create", "--data-dir", data, "--role", "administrator", "--username", "admin",
                    "--password-stdin"], input=PASSWORD, text=True, check=True, capture_output=True)
    listening = open(work / "listening", "w+")
    serve = subprocess.Popen([mytaxi, "serve", "--zones", zones, "--devices", work / "devices.csv", "--data-dir", data,
                              "--graph", graph, "--http-port", "0", "--line-port", "0", "--nmea-port", "0",
                              "--osmand-port", "0", "--teltonika-port", "0", "--gt06-port", "0"],
                             stdout=listening, stderr=open(work / "serve.log", "w"))
    try:
        port = None
        for _ in range(300):
            listening.seek(0)
            for line in listening.read().splitlines():
                parts = line.split()
                if len(parts) == 3 and parts[0] == "listening" and parts[1] == "http":
                    port = int(parts[2].rsplit(":", 1)[1])
            if port or serve.poll() is not None:
                break
            time.sleep(0.1)
        assert port, f"serve did not start: {(work / 'serve.log').read_text()[-2000:]}"
        login = lambda name: call(port, "POST", "/v1/sessions", body={"username": name, "password": PASSWORD})["token"]
        admin = login("admin")
        call(port, "POST", "/v1/accounts", admin, {"role": "dispatcher", "username": "desk", "password": PASSWORD})
        call(port, "POST", "/v1/accounts", admin, {"role": "driver", "username": "TX000001", "password": PASSWORD})
        call(port, "POST", "/v1/accounts", admin, {"role": "passenger", "username": "ada", "email": "ada@example.com",
                                                   "password": PASSWORD})
        yield port, work, {"administrator": admin, "dispatcher": login("desk"), "driver": login("TX000001"),
                     "passenger": login("ada")}
    finally:
        serve.terminate()
        serve.wait(timeout=30)


@pytest.mark.parametrize("role", ["administrator", "dispatcher", "driver", "passenger"])
def test_every_operation_answers_without_a_server_error_and_as_documented(service, role):
    schemathesis = shutil.which("schemathesis")
    if schemathesis is None:
        pytest.skip("schemathesis is not installed: `make test` installs it from PyPI (pip install schemathesis)")
    port, work, tokens = service
    run = subprocess.run([schemathesis, "--config-file", CONFIG, "run", f"http://127.0.0.1:{port}/openapi.json",
                          "-H", f"Authorization: Bearer {tokens[role]}",
                          "--checks", "not_a_server_error,response_schema_conformance,unsupported_method,positive_data_acceptance",
                          "--exclude-path", "/v1/sessions/current", "--exclude-path-regex", "/disable$",
                          "--max-examples", "10", "--seed", "2026", "--workers", "1", "--no-color"],
                         capture_output=True, text=True, timeout=900, cwd=work)
    assert run.returncode == 0, f"schemathesis as {role}:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
