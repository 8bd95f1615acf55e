"""One upstream endpoint as its own process, for the endpoint and resilience suite.

    python3 endpoint_upstream.py HOST PORT

Answers GraphQL POSTs and GETs on any path with {"data":{"endpoint":PORT}}, `/health` with 200
(or 503 when told), and counts what it got. Side routes, called directly (not through the
gateway): `GET /_stats` (requests, queries, mutations — a mutation is a side effect, counted when
its request is read, even when the answer is then cut — resets), `POST /_mode` with JSON
{"delay_ms": n, "reset_every": n (cut every n-th request with an RST, 0 never), "status": n,
"healthy": bool}. `EndpointProcess` starts, kills and restarts it from a test.
"""

import json
import socket
import struct
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.queries = 0
        self.mutations = 0
        self.resets = 0
        self.delay_ms = 0
        self.reset_every = 0
        self.status = 200
        self.healthy = True


STATE = State()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _answer(self, status: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _cut(self) -> None:
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def _graphql(self, text: str) -> None:
        is_mutation = text.lstrip().startswith("mutation")
        with STATE.lock:
            STATE.requests += 1
            if is_mutation:
                STATE.mutations += 1
            else:
                STATE.queries += 1
            cut = STATE.reset_every > 0 and STATE.requests % STATE.reset_every == 0
            if cut:
                STATE.resets += 1
            delay, status = STATE.delay_ms, STATE.status
        if cut:
            return self._cut()
        if delay:
            time.sleep(delay / 1000)
        self._answer(status, {"data": {"endpoint": self.server.server_address[1]}})

    def do_GET(self):
        if self.path == "/health":
            return self._answer(200 if STATE.healthy else 503, {"healthy": STATE.healthy})
        if self.path == "/_stats":
            with STATE.lock:
                return self._answer(200, {"requests": STATE.requests, "queries": STATE.queries,
                                          "mutations": STATE.mutations, "resets": STATE.resets})
        self._graphql(self.path)

    def do_POST(self):
        body = self._body()
        if self.path == "/_mode":
            mode = json.loads(body or b"{}")
            with STATE.lock:
                for key, value in mode.items():
                    setattr(STATE, key, value)
            return self._answer(200, {"ok": True})
        try:
            text = json.loads(body).get("query", "")
        except ValueError:
            text = ""
        self._graphql(text)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def main() -> None:
    host, port = sys.argv[1], int(sys.argv[2])
    Server((host, port), Handler).serve_forever()


# MARK: - From a test


class EndpointProcess:
    """One endpoint process on `host:port`; `kill()` stops it at once, `start()` brings it back."""

    def __init__(self, port: int, host: str = "127.0.0.1"):
        self.host = host
        self.port = port
        self.process = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), self.host, str(self.port)],
                                        stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((self.host, self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.02)
        raise TimeoutError(f"endpoint {self.base} did not start")

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stats(self) -> dict:
        return httpx.get(f"{self.base}/_stats", timeout=5).json()

    def mode(self, **settings) -> None:
        httpx.post(f"{self.base}/_mode", json=settings, timeout=5).raise_for_status()


if __name__ == "__main__":
    main()
