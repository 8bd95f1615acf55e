"""A local identity provider's key endpoint over https (a test CA from support/certificates.py):
`/jwks` serves a JWK Set that tests rotate, `/.well-known/openid-configuration` names it.
It can fail (HTTP 500), hang (never answer) or be stopped, and counts its requests by path.
"""

import json
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .jwt_keys import jwk_set

HANG_SECONDS = 30.0
DISCOVERY_PATH = "/.well-known/openid-configuration"


class JWKSServer:
    def __init__(self, credential, keys=(), cache_control: str = None):
        self.lock = threading.Lock()
        self.keys = list(keys)
        self.cache_control = cache_control
        self.mode = "ok"  # ok | fail | hang
        self.counts = {}
        self.stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server._answer(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(credential.cert_file), str(credential.key_file))
        self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    @property
    def issuer(self) -> str:
        return f"https://localhost:{self.port}"

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/jwks"

    # MARK: - Test-facing API

    def set_keys(self, *keys) -> None:
        with self.lock:
            self.keys = list(keys)

    def set_mode(self, mode: str) -> None:
        with self.lock:
            self.mode = mode

    def count(self, path: str = "/jwks") -> int:
        with self.lock:
            return self.counts.get(path, 0)

    def wait_for_count(self, at_least: int, path: str = "/jwks", timeout: float = 10.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.count(path) >= at_least:
                return self.count(path)
            time.sleep(0.05)
        raise AssertionError(f"{path} fetched {self.count(path)} times, wanted {at_least}")

    def stop(self) -> None:
        self.stopping.set()
        self.httpd.shutdown()
        self.httpd.server_close()

    # MARK: - Serving

    def _answer(self, handler) -> None:
        path = handler.path
        with self.lock:
            self.counts[path] = self.counts.get(path, 0) + 1
            mode, keys, cache_control = self.mode, list(self.keys), self.cache_control
        if mode == "hang":
            self.stopping.wait(HANG_SECONDS)
            return
        if mode == "fail":
            return self._send(handler, 500, b"internal error", "text/plain")
        if path == DISCOVERY_PATH:
            body = json.dumps({"issuer": self.issuer, "jwks_uri": self.jwks_url}).encode()
            return self._send(handler, 200, body)
        if path == "/jwks":
            return self._send(handler, 200, json.dumps(jwk_set(*keys)).encode(), cache_control=cache_control)
        self._send(handler, 404, b"not found", "text/plain")

    @staticmethod
    def _send(handler, status: int, body: bytes, content_type: str = "application/json",
              cache_control: str = None) -> None:
        handler.send_response(status)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        if cache_control:
            handler.send_header("Cache-Control", cache_control)
        handler.end_headers()
        handler.wfile.write(body)
