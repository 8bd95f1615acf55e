"""The `websocket` scenario's own peers: a WebSocket echo upstream and a one-connection load
generator, small C programs (Benchmarks/tools/) compiled with `cc -O2` into the run directory, so
neither is slower than the proxies between them."""

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

TOOLS_DIR = Path(__file__).resolve().parent.parent / "tools"
# What each tool needs at link time: the echo computes Sec-WebSocket-Accept with libcrypto.
TOOLS = {"ws_echo": ["-lcrypto"], "ws_load": []}


def compile_tools(work_dir: Path) -> dict[str, Path]:
    """Every tool built from its source; a compiler error stops the run with its message."""
    built = {}
    for name, libraries in TOOLS.items():
        binary = work_dir / name
        result = subprocess.run(["cc", "-O2", "-Wall", "-o", str(binary), str(TOOLS_DIR / f"{name}.c"), *libraries],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"bench: cc could not build {name}:\n{result.stderr}")
        built[name] = binary
    return built


@dataclass(frozen=True)
class LoadResult:
    messages: int
    seconds: float
    # CPU time of the load generator itself (user + system), to show it is not the bottleneck.
    cpu_seconds: float

    @property
    def messages_per_second(self) -> float:
        return self.messages / self.seconds if self.seconds else 0.0


def run_load(load: Path, port: int, path: str, seconds: float, window: int, size: int) -> LoadResult:
    """One load run through one WebSocket connection; a failed run raises with its output."""
    command = [str(load), str(port), path, f"{seconds:g}", str(window), str(size)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # wait4 gives this child's own CPU time; its output (one line) waits in the pipe meanwhile.
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    out, err = process.stdout.read(), process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    if process.returncode != 0:
        raise RuntimeError(f"ws_load exited with {process.returncode}: {err.strip() or out.strip()}")
    answer = json.loads(out)
    return LoadResult(answer["messages"], answer["seconds"], usage.ru_utime + usage.ru_stime)


def check_echo(load: Path, port: int, path: str, size: int) -> str | None:
    """One message of `size` bytes each way, compared byte for byte; the problem, or None."""
    result = subprocess.run([str(load), str(port), path, "check", str(size)], capture_output=True, text=True,
                            timeout=10)
    if result.returncode != 0:
        return f"port {port} {path}: {size} B message not echoed byte for byte: {result.stdout}{result.stderr}".strip()
    return None
