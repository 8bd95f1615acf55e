#!/usr/bin/env python3
"""Soak: the release gateway under mixed traffic for a while (default 10 minutes) in front of the
real GraphQL upstream of the e2e suite (strawberry on uvicorn).

Traffic, all on 127.0.0.1 and bounded in time:
  valid     keep-alive clients sending queries (GET and POST, public and API-key doors); every
            answer is checked against the name it asked for
  invalid   rows the conformance table refuses, sent whole; each must get its 4xx and a close
  slow      slowloris heads and bodies that must end in 408, and clients that vanish mid-request
Every 10 s the gateway's RSS and descriptor count are printed. At the end the traffic stops, the
gateway is given its timeouts to settle, and the run passes when: the gateway never died and
exits 0 on SIGTERM, every valid request was answered correctly, RSS grew by less than 25 % (and
less than 32 MiB) from the first sample after warm-up, and the descriptor count is back at its
starting value.

  python3 scripts/soak.py [--duration 600] [--json summary.json]
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

E2E = Path(__file__).resolve().parents[1] / "Tests" / "e2e"
sys.path.insert(0, str(E2E))

from conformance.table import CASES  # noqa: E402
from support.gateway import Gateway, base_config  # noqa: E402
from support.graphql_client import GraphQLUpstream  # noqa: E402
from support.raw_http import ConnectionClosed, RawClient  # noqa: E402

HOST = b"Host: soak.test\r\n"
API_KEY = "soak-key-1"
WARM_UP = 10.0

# MARK: - Process measurements


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def pooled_upstream_connections(upstream_port: int) -> int:
    """Established connections to the upstream: the gateway's pool (nothing else connects)."""
    output = subprocess.run(["ss", "-tnH", "state", "established", f"dport = :{upstream_port}"],
                            capture_output=True, text=True).stdout
    return len(output.splitlines())


# MARK: - Traffic


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []

    def add(self, kind: str, ok: bool, detail: str = "") -> None:
        with self.lock:
            good, bad = self.counts.get(kind, (0, 0))
            self.counts[kind] = (good + ok, bad + (not ok))
            if not ok and len(self.failures) < 50:
                self.failures.append(f"{kind}: {detail}")


def valid_traffic(port: int, stop: threading.Event, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    client = None
    while not stop.is_set():
        try:
            if client is None or rng.random() < 0.02:
                if client:
                    client.close()
                client = RawClient(port, timeout=10)
            name = f"n{rng.randrange(1 << 30)}"
            query = f'{{ hello(name: "{name}") }}'
            secure = rng.random() < 0.5
            path = "/secure" if secure else "/graphql"
            key = f"X-Api-Key: {API_KEY}\r\n".encode() if secure else b""
            if rng.random() < 0.5:
                client.send(f"GET {path}?query={quote(query)} HTTP/1.1\r\n".encode() + HOST + key + b"\r\n")
            else:
                body = json.dumps({"query": query}).encode()
                client.send(f"POST {path} HTTP/1.1\r\n".encode() + HOST + key
                            + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
            response = client.read_response(timeout=10)
            ok = response.status == 200 and response.json() == {"data": {"hello": f"Hello, {name}!"}}
            tally.add("valid", ok, f"{response.status} {response.body[:120]!r}")
        except (OSError, ConnectionClosed, TimeoutError, AssertionError, ValueError) as error:
            tally.add("valid", False, repr(error))
            client = None


# Refusals that do not depend on the routes (the soak gateway has other doors than the table's).
PROTOCOL_CODES = {"BAD_REQUEST", "URI_TOO_LONG", "HEADERS_TOO_LARGE", "PAYLOAD_TOO_LARGE"}
REFUSED = [case for case in CASES if case.closes is True and not case.forwarded and case.statuses
           and case.code in PROTOCOL_CODES and not case.half_close and not case.known_bug]


def invalid_traffic(port: int, stop: threading.Event, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        case = rng.choice(REFUSED)
        try:
            with RawClient(port, timeout=10) as client:
                try:
                    client.send(case.data.replace(b"gatehouse.test", b"soak.test"))
                except OSError:
                    pass
                response = client.read_response(timeout=10, method=case.method)
                ok = 400 <= response.status < 500 and client.is_closed(timeout=5)
                tally.add("invalid", ok, f"{case.id}: {response.status}")
        except (OSError, ConnectionClosed, TimeoutError, AssertionError) as error:
            tally.add("invalid", False, f"{case.id}: {error!r}")
        stop.wait(0.01)


def slow_traffic(port: int, stop: threading.Event, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        kind = rng.choice(["slow-head", "slow-body", "vanish"])
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            if kind == "vanish":
                sock.sendall(b"POST /graphql HTTP/1.1\r\n" + HOST + b"Content-Length: 100\r\n\r\n{\"q")
                sock.close()
                tally.add("slow", True)
                continue
            sock.sendall(b"POST /graphql HTTP/1.1\r\n" + HOST
                         + (b"Content-Length: 1000\r\n\r\n" if kind == "slow-body" else b""))
            started = time.monotonic()
            sock.settimeout(0.3)
            answer = b""
            while time.monotonic() - started < 6 and not stop.is_set():
                try:
                    sock.send(b"x" if kind == "slow-body" else b"X-Slow: 1\r\n")
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    answer += chunk
                except socket.timeout:
                    continue
                except OSError:
                    break
            sock.close()
            if not stop.is_set():
                tally.add("slow", answer.startswith(b"HTTP/1.1 408 "), f"{kind}: {answer[:60]!r}")
        except OSError as error:
            tally.add("slow", False, f"{kind}: {error!r}")


# MARK: - Main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=600.0, help="seconds of traffic")
    parser.add_argument("--valid-clients", type=int, default=4)
    parser.add_argument("--json", type=Path, help="write the summary here")
    arguments = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="gatehouse-soak-"))
    upstream = GraphQLUpstream(workdir / "upstream.log")
    gateway = Gateway(workdir / "gateway", lambda port, admin: {**base_config(
        port, admin, header_timeout="2s", body_timeout="2s", idle_timeout="5s", access_log="off",
        workers=2, upstreams={"app": {"url": f"{upstream.url}/graphql", "timeout": "5s"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"},
                {"path": "/secure", "upstream": "app", "auth": "keys", "upstream_path": "/graphql"}]),
        "auth": {"keys": {"type": "api_key", "header": "X-Api-Key", "keys": [API_KEY]}}}).start()
    pid = gateway.process.pid
    tally, stop = Tally(), threading.Event()
    workers = [threading.Thread(target=valid_traffic, args=(gateway.port, stop, tally, i), daemon=True)
               for i in range(arguments.valid_clients)]
    workers += [threading.Thread(target=invalid_traffic, args=(gateway.port, stop, tally, 100), daemon=True),
                threading.Thread(target=slow_traffic, args=(gateway.port, stop, tally, 200), daemon=True),
                threading.Thread(target=slow_traffic, args=(gateway.port, stop, tally, 201), daemon=True)]
    descriptors_at_start = descriptors(pid)
    for worker in workers:
        worker.start()

    started = time.monotonic()
    samples = []
    rss_start = None
    while time.monotonic() - started < arguments.duration and gateway.running:
        time.sleep(min(10.0, max(0.1, arguments.duration - (time.monotonic() - started))))
        if not gateway.running:
            break
        sample = {"t": round(time.monotonic() - started), "rss_kib": rss_kib(pid), "fds": descriptors(pid),
                  **{k: v[0] for k, v in tally.counts.items()}}
        samples.append(sample)
        if rss_start is None and sample["t"] >= WARM_UP:
            rss_start = sample["rss_kib"]
        print("soak: " + "  ".join(f"{k}={v}" for k, v in sample.items()), flush=True)

    stop.set()
    for worker in workers:
        worker.join(timeout=15)
    crashed = not gateway.running
    time.sleep(6.0)  # idle_timeout 5 s: every client connection the traffic left is closed by now
    rss_end = rss_kib(pid) if not crashed else 0
    pooled = pooled_upstream_connections(upstream.port)
    descriptors_at_end = descriptors(pid) - pooled if not crashed else -1
    exit_code = gateway.stop()
    upstream.stop()

    rss_start = rss_start or (samples[0]["rss_kib"] if samples else rss_end)
    growth = rss_end - rss_start
    problems = []
    if crashed or exit_code != 0:
        problems.append(f"the gateway {'died' if crashed else 'exited ' + str(exit_code)}; "
                        f"stderr tail:\n{gateway.stderr_text()[-2000:]}")
    valid_ok, valid_bad = tally.counts.get("valid", (0, 0))
    if valid_bad or not valid_ok:
        problems.append(f"{valid_bad} of {valid_ok + valid_bad} valid requests were not answered correctly")
    for kind in ("invalid", "slow"):
        good, bad = tally.counts.get(kind, (0, 0))
        if bad:
            problems.append(f"{bad} of {good + bad} {kind} exchanges went wrong")
    if growth > max(rss_start * 0.25, 0) or growth > 32 * 1024:
        problems.append(f"RSS grew from {rss_start} KiB to {rss_end} KiB")
    if descriptors_at_end != descriptors_at_start:
        problems.append(f"descriptors: {descriptors_at_start} at the start, {descriptors_at_end} at the end "
                        f"(not counting {pooled} pooled upstream connections)")

    summary = {"duration_s": arguments.duration, "counts": tally.counts, "rss_start_kib": rss_start,
               "rss_end_kib": rss_end, "descriptors_start": descriptors_at_start,
               "descriptors_end": descriptors_at_end, "pooled_upstream": pooled, "exit_code": exit_code, "problems": problems,
               "failures": tally.failures[:20], "samples": samples}
    if arguments.json:
        arguments.json.write_text(json.dumps(summary, indent=1))
    print(f"soak: {arguments.duration:.0f}s; " + ", ".join(f"{k} {g} ok/{b} bad" for k, (g, b) in tally.counts.items())
          + f"; RSS {rss_start} -> {rss_end} KiB; descriptors {descriptors_at_start} -> {descriptors_at_end} "
          f"(+{pooled} pooled upstream); exit {exit_code}")
    for failure in tally.failures[:10]:
        print(f"soak: failure {failure}")
    for problem in problems:
        print(f"soak: PROBLEM {problem}")
    print("soak: passed" if not problems else "soak: FAILED")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
