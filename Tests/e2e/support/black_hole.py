"""A loopback port that never completes a TCP handshake: a listener whose accept queue is full.

Linux drops a SYN when the listener's accept queue is full, so a connect() to the port hangs
until the caller's own timeout, as it would for a host that has vanished. Everything stays on
127.0.0.1: no unroutable address is ever contacted.
"""

import socket
import time


class BlackHole:
    def __init__(self):
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(0)
        self.port = self.listener.getsockname()[1]
        self.fillers = []
        self._fill_queue()

    def _fill_queue(self, attempts: int = 8) -> None:
        """Connects until a connect() no longer completes; those completed fill the queue."""
        for _ in range(attempts):
            probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            probe.settimeout(0.3)
            try:
                probe.connect(("127.0.0.1", self.port))
            except (socket.timeout, BlockingIOError):
                probe.close()
                return
            self.fillers.append(probe)
        raise RuntimeError("the accept queue never filled")

    def swallows_connections(self, timeout: float = 0.3) -> bool:
        """True when a new connect() gets no answer within `timeout`."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.settimeout(timeout)
            started = time.monotonic()
            try:
                probe.connect(("127.0.0.1", self.port))
            except socket.timeout:
                return time.monotonic() - started >= timeout * 0.9
            except OSError:
                return False
            return False

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        for filler in self.fillers:
            filler.close()
        self.listener.close()
