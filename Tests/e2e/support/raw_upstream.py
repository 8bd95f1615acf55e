"""A scriptable upstream on raw sockets: it records every byte it receives, per connection,
and answers each request the way the current behavior says — a normal JSON 200, a reset,
garbage, silence, an HTML 503, and so on. Tests switch behaviors with `reset(behavior)`.
"""

import socket
import struct
import threading
import time
from dataclasses import dataclass, field

# MARK: - What the upstream saw


@dataclass
class ReceivedRequest:
    method: str
    target: str
    version: str
    headers: list  # [(name, value)] as received
    body: bytes

    def header(self, name: str):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


@dataclass
class UpstreamConnection:
    sock: socket.socket
    received: bytearray = field(default_factory=bytearray)
    requests: list = field(default_factory=list)
    alive: bool = True
    buffer: bytes = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def wait_for_peer_close(self, stop: threading.Event, limit: float = 30.0) -> None:
        """Reads (and records) until the peer closes, the server stops or `limit` passes."""
        deadline = time.monotonic() + limit
        self.sock.settimeout(0.1)
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                return
            if not chunk:
                return
            self.received += chunk


# MARK: - Behaviors: (connection, request, stop_event) -> True to keep the connection open


def response_bytes(status: int = 200, body: bytes = b'{"data":{"ok":true}}',
                   headers=None, reason: str = None) -> bytes:
    reasons = {200: "OK", 401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests",
               500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}
    pairs = list(headers if headers is not None else [("Content-Type", "application/json")])
    if not any(k.lower() in ("content-length", "transfer-encoding") for k, _ in pairs):
        pairs.append(("Content-Length", str(len(body))))
    head = f"HTTP/1.1 {status} {reason or reasons.get(status, 'Status')}\r\n"
    head += "".join(f"{k}: {v}\r\n" for k, v in pairs) + "\r\n"
    return head.encode("latin-1") + body


def respond(status: int = 200, body: bytes = b'{"data":{"ok":true}}', headers=None,
            close_after: bool = False):
    data = response_bytes(status, body, headers)

    def behave(conn, request, stop):
        conn.send(data)
        return not close_after

    return behave


def respond_raw(data: bytes, close_after: bool = True):
    def behave(conn, request, stop):
        conn.send(data)
        return not close_after

    return behave


def never_answer():
    def behave(conn, request, stop):
        conn.wait_for_peer_close(stop)
        return False

    return behave


def reset_before_headers():
    def behave(conn, request, stop):
        conn.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        return False

    return behave


def delayed(seconds: float, then):
    def behave(conn, request, stop):
        stop.wait(seconds)
        return then(conn, request, stop)

    return behave


# MARK: - The server


class RawUpstream:
    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(128)
        self.port = self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.stop_event = threading.Event()
        self.behavior = respond()
        self.connections = []
        self.accepted = 0
        self.threads = []
        accept_thread = threading.Thread(target=self._accept_loop, daemon=True)
        accept_thread.start()
        self.threads.append(accept_thread)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # MARK: - Test-facing API

    def reset(self, behavior=None) -> None:
        """Forgets what was received and accepted so far and sets how requests are answered."""
        with self.lock:
            self.behavior = behavior or respond()
            self.connections = [c for c in self.connections if c.alive]
            for connection in self.connections:
                connection.received.clear()
                connection.requests.clear()
            self.accepted = 0

    @property
    def bytes_received(self) -> int:
        with self.lock:
            return sum(len(c.received) for c in self.connections)

    def wait_for_bytes(self, at_least: int = 1, timeout: float = 5.0) -> int:
        """`bytes_received` once it reaches `at_least`: the gateway may answer its client before
        this upstream's threads have read what the gateway already wrote to them."""
        deadline = time.monotonic() + timeout
        while self.bytes_received < at_least and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.bytes_received

    @property
    def requests(self) -> list:
        with self.lock:
            return [r for c in self.connections for r in c.requests]

    @property
    def connections_accepted(self) -> int:
        with self.lock:
            return self.accepted

    def stop(self) -> None:
        self.stop_event.set()
        self.listener.close()
        with self.lock:
            for connection in self.connections:
                try:
                    connection.sock.close()
                except OSError:
                    pass

    # MARK: - Serving

    def _accept_loop(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stop_event.is_set():
            try:
                sock, _ = self.listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            connection = UpstreamConnection(sock)
            with self.lock:
                self.connections.append(connection)
                self.accepted += 1
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            thread.start()

    def _serve(self, connection: UpstreamConnection) -> None:
        try:
            while not self.stop_event.is_set():
                request = self._read_request(connection)
                if request is None:
                    break
                with self.lock:
                    connection.requests.append(request)
                    behavior = self.behavior
                if not behavior(connection, request, self.stop_event):
                    break
        except OSError:
            pass
        finally:
            connection.alive = False
            try:
                connection.sock.close()
            except OSError:
                pass

    def _recv(self, connection: UpstreamConnection) -> bool:
        connection.sock.settimeout(0.2)
        while not self.stop_event.is_set():
            try:
                chunk = connection.sock.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                return False
            with self.lock:
                connection.received += chunk
            connection.buffer += chunk
            return True
        return False

    def _read_request(self, connection: UpstreamConnection):
        while b"\r\n\r\n" not in connection.buffer:
            if not self._recv(connection):
                return None
        head, _, connection.buffer = connection.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = (lines[0].split(" ") + ["", "", ""])[:3]
        headers = []
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers.append((name, value.strip(" \t")))
        request = ReceivedRequest(parts[0], parts[1], parts[2], headers, b"")
        if (request.header("transfer-encoding") or "").lower() == "chunked":
            request.body = self._read_chunked(connection)
        else:
            length = int(request.header("content-length") or 0)
            while len(connection.buffer) < length:
                if not self._recv(connection):
                    return None
            request.body, connection.buffer = connection.buffer[:length], connection.buffer[length:]
        return request

    def _read_chunked(self, connection: UpstreamConnection) -> bytes:
        body = b""
        while True:
            while b"\r\n" not in connection.buffer:
                if not self._recv(connection):
                    return body
            size_line, _, connection.buffer = connection.buffer.partition(b"\r\n")
            size = int(size_line.split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while b"\r\n" not in connection.buffer:
                    if not self._recv(connection):
                        return body
                while True:
                    line, _, connection.buffer = connection.buffer.partition(b"\r\n")
                    if not line:
                        return body
                    while b"\r\n" not in connection.buffer:
                        if not self._recv(connection):
                            return body
            while len(connection.buffer) < size + 2:
                if not self._recv(connection):
                    return body
            body += connection.buffer[:size]
            connection.buffer = connection.buffer[size + 2:]
