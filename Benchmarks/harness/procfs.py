"""Per-process CPU time and memory from /proc: the only numbers the report attributes to a target."""

import os
import resource
import threading
from pathlib import Path

CLOCK_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of the whole process (all its threads), in seconds."""
    text = Path(f"/proc/{pid}/stat").read_text()
    # The command name (field 2) may contain spaces; fields after its closing ")" are fixed.
    fields = text[text.rindex(")") + 2:].split()
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / CLOCK_TICKS_PER_SECOND


def context_switches(pid: int) -> int:
    """Voluntary + involuntary context switches of all the process's threads so far: each is the
    process going to sleep (nothing to do) or being preempted, and each costs the machine CPU."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    total += int(line.split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


def machine_busy_seconds() -> float:
    """CPU time all CPUs spent on anything but idling since boot, in seconds (/proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal (guest time is already within user).
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / CLOCK_TICKS_PER_SECOND


def waited_children_cpu_seconds() -> float:
    """utime + stime of this process's finished, waited-for children (each wrk run once it ends)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def status_kib(pid: int, key: str) -> int:
    """A "kB" line of /proc/<pid>/status, e.g. VmRSS or VmHWM; 0 when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        pass
    return 0


def rss_kib(pid: int) -> int:
    return status_kib(pid, "VmRSS")


def peak_rss_kib(pid: int) -> int:
    return status_kib(pid, "VmHWM")


def children(pid: int) -> list[int]:
    """Direct children of pid (nginx workers of a master), found by their parent pid."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except (FileNotFoundError, ProcessLookupError):
            continue
        parent = int(text[text.rindex(")") + 2:].split()[1])
        if parent == pid:
            found.append(int(entry.name))
    return sorted(found)


class RSSSampler:
    """Samples VmRSS of one process on a background thread while a round runs; VmHWM cannot be
    reset between rounds, so the sampled maximum is the per-round peak."""

    def __init__(self, pid: int, interval: float = 0.2):
        self.pid = pid
        self.interval = interval
        self.max_kib = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "RSSSampler":
        self.max_kib = rss_kib(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()
        self.max_kib = max(self.max_kib, rss_kib(self.pid))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.max_kib = max(self.max_kib, rss_kib(self.pid))
