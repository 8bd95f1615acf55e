"""A raw HTTP/1.1 client over one socket: sends exact bytes, reads responses strictly.

The gateway's framing is what is under test, so nothing here normalizes: header names keep
their case, bodies are read by Content-Length, chunked coding or connection close exactly as
the response head says, and a closed or reset connection is reported as such.
"""

import socket
import time
from dataclasses import dataclass, field


@dataclass
class RawResponse:
    version: str
    status: int
    reason: str
    headers: list = field(default_factory=list)  # [(name, value)] as received
    body: bytes = b""
    head_bytes: bytes = b""

    def header(self, name: str):
        """The first value of `name` (any case), or None."""
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def header_values(self, name: str) -> list:
        return [value for key, value in self.headers if key.lower() == name.lower()]

    @property
    def wants_close(self) -> bool:
        tokens = ",".join(self.header_values("connection")).lower()
        return "close" in [t.strip() for t in tokens.split(",")]

    def json(self):
        import json

        return json.loads(self.body)


class ConnectionClosed(Exception):
    """The peer closed (or reset) the connection before a whole response arrived."""


class RawClient:
    """One client connection to 127.0.0.1:port."""

    def __init__(self, port: int, timeout: float = 10.0, host: str = "127.0.0.1"):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.timeout = timeout
        self.buffer = b""

    # MARK: - Sending

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, method: str, target: str, headers=None, body: bytes = b"",
                version: str = "HTTP/1.1", host: str = "gatehouse.test") -> None:
        """Sends one well-formed request; `headers` is a list of (name, value) pairs."""
        lines = [f"{method} {target} {version}"]
        pairs = list(headers or [])
        if host is not None and not any(k.lower() == "host" for k, _ in pairs):
            pairs.insert(0, ("Host", host))
        if body and not any(k.lower() in ("content-length", "transfer-encoding") for k, _ in pairs):
            pairs.append(("Content-Length", str(len(body))))
        lines += [f"{k}: {v}" for k, v in pairs]
        self.send(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)

    # MARK: - Receiving

    def _fill(self, deadline: float) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("no complete response in time")
        self.sock.settimeout(remaining)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout as error:
            raise TimeoutError("no complete response in time") from error
        except ConnectionResetError as error:
            raise ConnectionClosed("connection reset") from error
        if not chunk:
            raise ConnectionClosed("connection closed")
        self.buffer += chunk

    def _take_line(self, deadline: float) -> bytes:
        while b"\r\n" not in self.buffer:
            self._fill(deadline)
        line, _, self.buffer = self.buffer.partition(b"\r\n")
        return line

    def _take(self, count: int, deadline: float) -> bytes:
        while len(self.buffer) < count:
            self._fill(deadline)
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def read_head(self, timeout: float = None) -> RawResponse:
        deadline = time.monotonic() + (timeout or self.timeout)
        while b"\r\n\r\n" not in self.buffer:
            self._fill(deadline)
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        version, status, reason = (lines[0].decode("latin-1").split(" ", 2) + ["", ""])[:3]
        if not version.startswith("HTTP/") or not status.isdigit() or len(status) != 3:
            raise AssertionError(f"malformed status line {lines[0][:100]!r}")
        headers = []
        for line in lines[1:]:
            name, _, value = line.decode("latin-1").partition(":")
            headers.append((name, value.strip(" \t")))
        return RawResponse(version, int(status), reason, headers, head_bytes=head + b"\r\n\r\n")

    def read_response(self, timeout: float = None, method: str = "GET",
                      skip_interim: bool = True) -> RawResponse:
        """Reads one response; 1xx interim responses are skipped unless asked for."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            response = self.read_head(max(deadline - time.monotonic(), 0.001))
            if 100 <= response.status < 200 and response.status != 101:
                if skip_interim:
                    continue
                return response
            break
        response.body = self._read_body(response, method, deadline)
        return response

    def _read_body(self, response: RawResponse, method: str, deadline: float) -> bytes:
        if method == "HEAD" or response.status in (204, 304) or 100 <= response.status < 200:
            return b""
        encoding = (response.header("transfer-encoding") or "").lower()
        if encoding:
            if encoding != "chunked":
                raise AssertionError(f"unexpected Transfer-Encoding {encoding!r}")
            return self._read_chunked(deadline)
        length = response.header("content-length")
        if length is not None:
            return self._take(int(length), deadline)
        return self._read_until_close(deadline)

    def _read_chunked(self, deadline: float) -> bytes:
        body = b""
        while True:
            size_line = self._take_line(deadline)
            size = int(size_line.split(b";")[0].strip(), 16)
            if size == 0:
                while self._take_line(deadline):
                    pass  # trailer fields up to the empty line
                return body
            body += self._take(size, deadline)
            if self._take(2, deadline) != b"\r\n":
                raise AssertionError("chunk not followed by CRLF")

    def _read_until_close(self, deadline: float) -> bytes:
        while True:
            try:
                self._fill(deadline)
            except ConnectionClosed:
                data, self.buffer = self.buffer, b""
                return data

    # MARK: - Connection state

    def is_closed(self, timeout: float = 2.0) -> bool:
        """True when the peer closes (EOF or reset) within `timeout` without sending more bytes.

        Bytes that arrive instead are kept in the buffer and the answer is False.
        """
        if self.buffer:
            return False
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            return False
        except (ConnectionResetError, BrokenPipeError):
            return True
        if chunk:
            self.buffer += chunk
            return False
        return True

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def one_shot(port: int, data: bytes, timeout: float = 5.0, method: str = "GET"):
    """Sends `data` on a new connection and returns (response, closed_afterwards)."""
    with RawClient(port, timeout=timeout) as client:
        client.send(data)
        response = client.read_response(timeout=timeout, method=method)
        return response, client.is_closed(timeout=2.0)


def send_with_close(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Sends `data` and shuts down the sending side, then reads until the server closes.
    TCP_CORK holds the bytes until the shutdown, so they and the FIN arrive in one segment: the
    server learns of the end of the client's input together with the requests."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received
