"""Runs wrk with a script from conf/ (conf/post.lua unless a case names another) and reads the
result line conf/bench_result.lua prints."""

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .templates import CONF_DIR

POST_SCRIPT = CONF_DIR / "post.lua"
RESULT_PREFIX = "BENCH-JSON "


@dataclass(frozen=True)
class WrkResult:
    requests: int
    duration_s: float
    bytes_read: int
    socket_errors: int
    status_errors: int
    timeouts: int
    p50_us: int
    p90_us: int
    p99_us: int
    p999_us: int
    max_us: int
    raw: str

    @property
    def requests_per_second(self) -> float:
        return self.requests / self.duration_s if self.duration_s > 0 else 0.0

    @property
    def bytes_per_response(self) -> float:
        """Bytes wrk read per completed request: status line, headers and body as sent."""
        return self.bytes_read / self.requests if self.requests else 0.0

    @property
    def errors(self) -> int:
        """Requests that failed: socket errors and answers other than 2xx/3xx."""
        return self.socket_errors + self.status_errors


class WrkError(RuntimeError):
    pass


def run_wrk(wrk: str, url: str, duration_s: float, connections: int, threads: int = 1,
            authorization: str | None = None, timeout_s: float = 5.0, script: Path = POST_SCRIPT,
            headers: tuple[str, ...] = ()) -> WrkResult:
    """One wrk run; `headers` are "Name: value" lines added to every request (wrk -H)."""
    command = [wrk, f"-t{threads}", f"-c{connections}", f"-d{duration_s:g}s",
               f"--timeout={timeout_s:g}s", "--latency", "-s", str(script)]
    for header in headers:
        command += ["-H", header]
    command.append(url)
    env = dict(os.environ)
    env.pop("BENCH_AUTHORIZATION", None)
    # Scripts rendered into a run directory find bench_result.lua here; ";;" keeps the defaults.
    env["LUA_PATH"] = f"{CONF_DIR}/?.lua;;"
    if authorization:
        env["BENCH_AUTHORIZATION"] = authorization
    completed = subprocess.run(command, capture_output=True, text=True, env=env,
                               timeout=duration_s + timeout_s + 30)
    raw = completed.stdout + completed.stderr
    return parse_wrk_output(raw)


def parse_wrk_output(raw: str) -> WrkResult:
    for line in raw.splitlines():
        if line.startswith(RESULT_PREFIX):
            data = json.loads(line[len(RESULT_PREFIX):])
            break
    else:
        raise WrkError(f"no result line in wrk output:\n{raw}")
    return WrkResult(
        requests=data["requests"],
        duration_s=data["duration_us"] / 1e6,
        bytes_read=data["bytes"],
        socket_errors=data["connect_errors"] + data["read_errors"] + data["write_errors"],
        status_errors=data["status_errors"],
        timeouts=data["timeouts"],
        p50_us=data["p50_us"],
        p90_us=data["p90_us"],
        p99_us=data["p99_us"],
        p999_us=data["p999_us"],
        max_us=data["max_us"],
        raw="\n".join(line for line in raw.splitlines() if not line.startswith(RESULT_PREFIX)),
    )
