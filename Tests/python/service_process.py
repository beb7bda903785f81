"""What every Python test that runs `mytaxi` needs: the binary to run
(MYTAXI_BIN, else `swift build`'s), a free loopback port to give it, and
one call to its API with the JSON answer.
"""

import json
import os
import socket
import subprocess
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def binary():
    """The `mytaxi` binary: MYTAXI_BIN, else the one `swift build` made."""
    explicit = os.environ.get("MYTAXI_BIN")
    if explicit:
        return Path(explicit)
    bin_dir = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
    return Path(bin_dir) / "mytaxi"


def free_port():
    """A loopback port free now, for a service the test starts."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
