"""Starts the movies upstream (support/movies_upstream.py) and reads what it received."""

import json
import subprocess
import sys
from pathlib import Path

import httpx

from .child_process import terminate
from .ports import free_port, wait_for_port

SERVER_SCRIPT = Path(__file__).with_name("movies_upstream.py")


class MoviesUpstream:
    def __init__(self, log_path: Path):
        self.port = free_port()
        self.log_path = Path(log_path)
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER_SCRIPT), "--port", str(self.port)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            wait_for_port(self.port, timeout=20)
        except TimeoutError:
            self.stop()
            raise RuntimeError(f"movies upstream did not start; log:\n{self.log_path.read_text()}")
        self.http = httpx.Client(base_url=self.url, timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def clear(self) -> None:
        self.http.delete("/_requests").raise_for_status()

    def requests(self) -> list:
        """Every request since the last clear: method, target, headers, body (text)."""
        response = self.http.get("/_requests")
        response.raise_for_status()
        return response.json()

    def only_request(self) -> dict:
        """The one request received since the last clear, with its body parsed as JSON."""
        received = self.requests()
        assert len(received) == 1, f"the upstream received {len(received)} requests: {received!r}"
        entry = received[0]
        entry["json"] = json.loads(entry["body"]) if entry["body"] else None
        return entry

    def stop(self) -> None:
        terminate(self.process)
        self.log.close()


def header_values(entry: dict, name: str) -> list:
    return [value for key, value in entry["headers"] if key.lower() == name.lower()]
