"""An upstream that records what it receives: the persisted-operations checks point a Gatehouse at
it to see the request the gateway really sends (method, path, body) before any load."""

import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class CapturedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class CaptureUpstream:
    """Answers every request with `reply` (200, application/json) and keeps the requests in order.
    Use as a context manager: the server runs on a thread of its own until the block ends."""

    def __init__(self, reply: bytes):
        self.reply = reply
        self.requests: list[CapturedRequest] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def take(self) -> list[CapturedRequest]:
        """The requests received since the last call."""
        with self._lock:
            taken, self.requests = self.requests, []
        return taken

    def __enter__(self) -> "CaptureUpstream":
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()

    # MARK: - Handler

    def _record(self, request: CapturedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _handler_class(self):
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            # Keep-alive, as the gateway's pool expects of an upstream.
            protocol_version = "HTTP/1.1"

            def _handle(self) -> None:
                upstream._record(CapturedRequest(self.command, self.path,
                                                 {name.lower(): value for name, value in self.headers.items()},
                                                 self._read_body()))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(upstream.reply)))
                self.end_headers()
                self.wfile.write(upstream.reply)

            def _read_body(self) -> bytes:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    body = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            return body
                        body += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            do_GET = do_POST = _handle

            def log_message(self, format, *args) -> None:
                pass

        return Handler
