"""A description of the machine for the report, and the file-descriptor limit a run needs."""

import datetime
import os
import platform
import resource
import time
from pathlib import Path

from .procfs import machine_busy_seconds


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def memory_total_mib() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) // 1024
    return 0


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def busy_cpus(seconds: float = 1.0) -> float:
    """How many CPUs' worth of work the machine did over the next `seconds` (0.5: half a CPU)."""
    before = machine_busy_seconds()
    time.sleep(seconds)
    return (machine_busy_seconds() - before) / seconds


def describe() -> dict[str, str]:
    return {
        "cpus (nproc)": str(os.cpu_count()),
        "cpu model": cpu_model(),
        "memory": f"{memory_total_mib()} MiB",
        "kernel": platform.release(),
        "load average at start": load_average(),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
    }


def raise_open_file_limit(wanted: int) -> int:
    """Raises this process's (and so its children's) RLIMIT_NOFILE towards `wanted`; the hard limit
    too when allowed (root). Returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
        except (ValueError, OSError):
            wanted = hard
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return target
    return soft
