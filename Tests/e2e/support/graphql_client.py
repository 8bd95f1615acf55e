"""Starts the strawberry upstream (support/graphql_upstream.py) and talks to it."""

import json
import subprocess
import sys
from pathlib import Path

import httpx

from .child_process import terminate
from .ports import free_port, wait_for_port

SERVER_SCRIPT = Path(__file__).with_name("graphql_upstream.py")


class GraphQLUpstream:
    def __init__(self, log_path: Path):
        self.port = free_port()
        self.log = open(log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER_SCRIPT), "--port", str(self.port)],
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            wait_for_port(self.port, timeout=20)
        except TimeoutError:
            self.stop()
            raise RuntimeError(f"GraphQL upstream did not start; log:\n{Path(log_path).read_text()}")
        self.http = httpx.Client(base_url=self.url, timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def host_header(self) -> str:
        return f"127.0.0.1:{self.port}"

    def clear(self) -> None:
        """Forgets the recorded requests."""
        self.http.delete("/_requests").raise_for_status()

    def requests(self) -> list:
        """Every request received since the last clear, oldest first."""
        response = self.http.get("/_requests")
        response.raise_for_status()
        return response.json()

    def connections_used(self) -> int:
        """Distinct TCP connections that carried the requests recorded since the last clear."""
        return len({tuple(entry["client"]) for entry in self.requests()})

    def stop(self) -> None:
        terminate(self.process)
        self.log.close()


def received_headers(entry: dict, name: str) -> list:
    """Values of header `name` (any case) in one recorded request."""
    return [value for key, value in entry["headers"] if key.lower() == name.lower()]


def graphql_post(client: httpx.Client, query: str, variables=None, path: str = "/graphql",
                 headers=None) -> httpx.Response:
    """POSTs a GraphQL document as JSON through `client` (usually one aimed at the gateway)."""
    payload = {"query": query}
    if variables is not None:
        payload["variables"] = variables
    return client.post(path, content=json.dumps(payload).encode(),
                       headers={"Content-Type": "application/json", **(headers or {})})


def graphql_body(query: str, variables=None) -> bytes:
    payload = {"query": query}
    if variables is not None:
        payload["variables"] = variables
    return json.dumps(payload).encode()
