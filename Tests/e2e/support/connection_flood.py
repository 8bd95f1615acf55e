"""Many client connections at once, driven by one epoll: open, watch which the gateway closes,
and release them. Also the gateway process's CPU time and descriptor count from /proc."""

import errno
import os
import resource
import select
import socket
import time


def raise_descriptor_limit(wanted: int) -> tuple:
    """Raises this process's RLIMIT_NOFILE to at least `wanted` (root may raise the hard limit);
    returns the previous limits, for restoring."""
    previous = resource.getrlimit(resource.RLIMIT_NOFILE)
    soft, hard = previous
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
    return previous


def process_cpu_seconds(pid: int) -> float:
    """User plus system CPU time of `pid` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class Flood:
    """`count` non-blocking connections to 127.0.0.1:`port`."""

    def __init__(self, port: int, count: int):
        self.port = port
        self.sockets = []
        self.poller = select.epoll()
        self.closed_by_peer = set()
        self.failed = 0
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            code = sock.connect_ex(("127.0.0.1", port))
            if code not in (0, errno.EINPROGRESS):
                self.failed += 1
                sock.close()
                continue
            self.sockets.append(sock)
            self.poller.register(sock.fileno(), select.EPOLLIN | select.EPOLLRDHUP)
        self.by_fd = {sock.fileno(): sock for sock in self.sockets}

    def watch(self, seconds: float) -> None:
        """Notes every connection the gateway closes within `seconds`."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for fd, events in self.poller.poll(0.1):
                if fd in self.closed_by_peer:
                    continue
                sock = self.by_fd[fd]
                try:
                    data = sock.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed_by_peer.add(fd)
                    self.poller.unregister(fd)

    @property
    def still_open(self) -> int:
        return len(self.sockets) - len(self.closed_by_peer)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()
        self.poller.close()
        self.sockets = []


# MARK: - A flood in a child process (each process has its own descriptor limit)


class FloodProcess:
    """Runs `Flood(port, count)` in a child Python process: it opens the connections, watches
    them for `watch` seconds, reports, and holds them until `release()`."""

    def __init__(self, port: int, count: int, watch: float):
        import subprocess
        import sys

        self.process = subprocess.Popen(
            [sys.executable, __file__, str(port), str(count), str(watch)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def report(self, timeout: float = 60.0) -> dict:
        """{"opened", "failed", "closed_by_peer", "still_open"} once the watch is over."""
        import json

        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"flood process ended with {self.process.wait(timeout)}")
        return json.loads(line)

    def release(self) -> None:
        try:
            self.process.stdin.write("release\n")
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        self.process.wait(timeout=30)


def _child(port: int, count: int, watch: float) -> None:
    import json
    import sys

    raise_descriptor_limit(min(count + 100, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    flood = Flood(port, count)
    flood.watch(watch)
    print(json.dumps({"opened": len(flood.sockets), "failed": flood.failed,
                      "closed_by_peer": len(flood.closed_by_peer), "still_open": flood.still_open}),
          flush=True)
    sys.stdin.readline()
    flood.close()


if __name__ == "__main__":
    import sys

    _child(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]))
