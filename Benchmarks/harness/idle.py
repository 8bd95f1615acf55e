"""Memory per idle keep-alive connection: open many connections to a proxy, send one request on each
and keep them open, then compare the proxy's resident memory with what it was before."""

import socket
import struct
import time
from dataclasses import dataclass

from . import procfs
from .peers import Target

BATCH = 100
_RST_ON_CLOSE = struct.pack("ii", 1, 0)


@dataclass(frozen=True)
class IdleResult:
    label: str
    connections: int
    rss_before_kib: int
    rss_after_kib: int
    closed_by_server: int
    failed: int

    @property
    def bytes_per_connection(self) -> float:
        opened = self.connections - self.failed
        return (self.rss_after_kib - self.rss_before_kib) * 1024 / opened if opened else 0.0


def _request(path: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def _read_response(sock: socket.socket) -> int:
    """The status of one Content-Length framed response, read whole; 0 when the peer closed early."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return 0
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            return 0
        rest += chunk
    return status


def _closed_by_peer(sock: socket.socket) -> bool:
    # Non-blocking: with a timeout set, Python would wait for data instead of saying there is none.
    sock.settimeout(0)
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def measure_idle(target: Target, label: str, count: int, path: str, body: bytes,
                 settle_s: float = 2.0) -> IdleResult:
    pid = target.measured_pid
    request = _request(path, body)
    time.sleep(settle_s)
    before = procfs.rss_kib(pid)
    sockets: list[socket.socket] = []
    failed = 0
    try:
        while len(sockets) + failed < count:
            batch = []
            for _ in range(min(BATCH, count - len(sockets) - failed)):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                # Close with a reset: thousands of TIME_WAIT sockets would outlive the run.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RST_ON_CLOSE)
                sock.settimeout(10)
                try:
                    sock.connect(("127.0.0.1", target.service.port))
                    sock.sendall(request)
                    batch.append(sock)
                except OSError:
                    sock.close()
                    failed += 1
            for sock in batch:
                try:
                    status = _read_response(sock)
                except OSError:
                    status = 0
                if status == 200:
                    sockets.append(sock)
                else:
                    sock.close()
                    failed += 1
        time.sleep(settle_s)
        after = procfs.rss_kib(pid)
        closed = sum(1 for sock in sockets if _closed_by_peer(sock))
        return IdleResult(label, count, before, after, closed, failed)
    finally:
        for sock in sockets:
            sock.close()
        time.sleep(settle_s / 2)
