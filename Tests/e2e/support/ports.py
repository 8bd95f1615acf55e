"""Free TCP ports on 127.0.0.1 and waiting for a listener."""

import socket
import time


def free_port() -> int:
    """A port nothing listens on right now (the kernel's pick, released at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def port_accepts(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_for_port(port: int, timeout: float = 10.0, host: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if port_accepts(port, host):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing accepted on {host}:{port} within {timeout}s")
