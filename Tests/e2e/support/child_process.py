"""Stopping the helper processes a test starts (upstreams, the load balancer)."""

import subprocess

STOP_TIMEOUT = 5.0


def terminate(process: subprocess.Popen, timeout: float = STOP_TIMEOUT) -> None:
    """SIGTERM and wait; SIGKILL when it is still running after `timeout`."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
