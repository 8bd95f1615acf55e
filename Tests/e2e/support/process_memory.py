"""A process's memory from /proc/<pid>/status: the resident set now (VmRSS), its high-water
mark (VmHWM), and a sampler that records the largest VmRSS seen while a test runs.
"""

import os
import threading
from pathlib import Path

import pytest

MIB = 1024 * 1024

# `make test-asan` and `make test-tsan` run the suite against sanitizer builds: AddressSanitizer's
# redzones and quarantine of freed memory, and ThreadSanitizer's shadow memory, are resident
# memory a bound on the gateway's own does not count. The release build answers for those
# bounds in `make test`.
bounds_resident_memory = pytest.mark.skipif(
    "ASAN_OPTIONS" in os.environ or "TSAN_OPTIONS" in os.environ,
    reason="resident memory is not the gateway's own under a sanitizer")


def status_kib(pid: int, field: str) -> int:
    """A `kB` field of /proc/<pid>/status, e.g. VmRSS or VmHWM, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(f"{field} not in /proc/{pid}/status")


def resident_bytes(pid: int) -> int:
    return status_kib(pid, "VmRSS") * 1024


def peak_resident_bytes(pid: int) -> int:
    return status_kib(pid, "VmHWM") * 1024


class ResidentSampler:
    """Polls VmRSS every `interval` seconds on a thread; use as a context manager."""

    def __init__(self, pid: int, interval: float = 0.005):
        self.pid = pid
        self.interval = interval
        self.peak = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.peak = max(self.peak, resident_bytes(self.pid))
                self.samples += 1
            except (OSError, KeyError):
                return
            self._stop.wait(self.interval)

    def __enter__(self) -> "ResidentSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
