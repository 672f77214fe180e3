"""``minesolver serve`` through the real entry point: it listens where it says, and a busy
port is one line."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.request


def test_serve_listens_on_localhost_and_says_where() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "minesolver", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={"PYTHONUNBUFFERED": "1", **os.environ},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        with urllib.request.urlopen(f"http://127.0.0.1:{match.group(1)}/api", timeout=10) as r:
            assert r.status == 200 and b"strategies" in r.read()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_reports_a_busy_port_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "minesolver", "serve", "--port", str(port)],
            capture_output=True, text=True, timeout=30, check=False,
        )
    assert result.returncode == 2
    assert result.stderr.startswith("minesolver: error: cannot listen on 127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1
