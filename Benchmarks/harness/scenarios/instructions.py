"""instructions: Gatehouse's own user-space work per request, counted by callgrind, for the routes
the other scenarios time — auth none (with 100 B, 8 KiB and 64 KiB answers), HS256, RS256 (file
and remote key set) beside auth none sent the same token, the persisted route uncached, a cache
hit, a cache miss next to the uncached route sent the same `Cache-Control: no-cache`, and the open
route next to a limit in memory and in Redis — and the same count for the nginx and haproxy peers
proxying the standard run's 100 B POST.

Timings on a small shared machine move by 10–20 % from round to round (the scheduler, other
tenants, where each process lands); an instruction count does not. So a change to the request
path is judged here first, and the timed scenarios say what it is worth end to end. What this
cannot see: the kernel (system calls, TCP), cache misses and the cost of each instruction — a
request's system calls are counted apart (`strace -c`, `perf stat -e 'syscalls:*'`). Under
valgrind OpenSSL runs without the SHA extensions of the CPU, so the rows that take a SHA-256
digest (cache key, ETag) count it several times dearer than it is.

Each Gatehouse, and each peer (nginx as one process, without its master; haproxy), runs under
`valgrind --tool=callgrind` with instrumentation off; per case: wrk warms the route
(connections, memos, the verified-token cache), then counting is switched on for a fixed run of
wrk, off again, and the counts are dumped (`callgrind_control`)."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import fixtures, tools
from ..fixtures import BODY_PATHS, HS_PATH, RS_PATH, RS_REMOTE_PATH
from ..peers import Target
from ..rounds import Case
from ..templates import render_to
from ..tools import log
from ..wrk import WrkResult, run_wrk
from . import persisted
from .cache import CALL, NO_CACHE
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text
from .stores import start_redis

NAME = "instructions"
# The peers counted beside Gatehouse, by the label of their rows.
PEERS = ("nginx", "haproxy")
TITLE = "Instructions per request: Gatehouse's user-space work, counted by callgrind"
QUESTION = ("What one request costs Gatehouse in user-space instructions on each route the timed "
            "scenarios measure, and what the same proxied request costs nginx and haproxy — a count "
            "that does not move with the machine's noise, so a change to the request path shows here "
            "even when the timed rounds cannot tell it apart.")
CONNECTIONS = 4
WARM_SECONDS = 1.0
COUNT_SECONDS = 3.0
# valgrind starts a program some twenty times slower than it runs natively.
READY_TIMEOUT = 120.0


@dataclass(frozen=True)
class Count:
    case: Case
    # The label of the route this one adds to (itself for a baseline).
    baseline: str
    requests: int
    instructions: int
    errors: int

    @property
    def per_request(self) -> float:
        return self.instructions / self.requests if self.requests else 0.0


def planned_seconds(args) -> float:
    return 15 * (WARM_SECONDS + COUNT_SECONDS + 1) + 5 * 20


def run(context: ScenarioContext) -> Outcome:
    valgrind = tools.ensure_optional_program("valgrind", "valgrind")
    control = tools.ensure_optional_program("callgrind_control", "valgrind")
    machine_info = context.describe_machine()
    bodies = fixtures.write_bodies(context.work_dir / "bodies")
    credentials = fixtures.make_credentials(context.work_dir)
    peers = context.peers(bodies["100B"], credentials)
    upstream = peers.start_upstream()
    redis = start_redis(context)

    def under_callgrind(name: str) -> list[str]:
        log(f"instructions: starting {name} under callgrind")
        return [valgrind, "--tool=callgrind", "--instr-atstart=no", "--trace-children=no",
                f"--callgrind-out-file={context.work_dir / f'callgrind.{name}'}.%p"]

    def counted(name: str, template: str, extra: dict | None = None) -> Target:
        return peers.start_gatehouse(name, 1, template, extra=extra, wrapper=under_callgrind(name),
                                     ready_timeout=READY_TIMEOUT)

    gatehouse = counted("gatehouse", "gatehouse.yaml")
    operations_dir = persisted.held_operations_dir(context)
    cached = counted("gatehouse-cache", "cache/gatehouse.yaml",
                     {"OPERATIONS_DIR": operations_dir, "CACHE_STORE": ""})
    limited = counted("gatehouse-stores", "stores/gatehouse.yaml", {"REDIS_PORT": redis.service.port})
    nginx = peers.start_nginx(wrapper=under_callgrind("nginx"), ready_timeout=READY_TIMEOUT)
    # valgrind keeps a few descriptors for itself, so haproxy cannot raise its limit to the
    # harness's own; four connections need far fewer.
    haproxy = peers.start_haproxy(with_jwt=False, extra={"FD_LIMIT": 4096, "HAPROXY_MAXCONN": 1000},
                                  wrapper=under_callgrind("haproxy"), ready_timeout=READY_TIMEOUT)

    hs, rs = f"Bearer {credentials.hs_token}", f"Bearer {credentials.rs_token}"
    get = render_to("persisted/request.lua", {"METHOD": "GET", "BODY": ""}, context.work_dir / "get.lua")
    none = "auth none"
    none_hs, none_rs = "auth none + HS256 token", "auth none + RS256 token"
    uncached = "persisted GET, uncached"
    uncached_no_cache = "persisted GET, uncached, no-cache"
    open_route = "open route"
    cases = [  # each with the route it adds to
        (Case(none, gatehouse, BODY_PATHS["100B"]), none),
        (Case("auth none, 8 KiB", gatehouse, BODY_PATHS["8KiB"]), none),
        (Case("auth none, 64 KiB", gatehouse, BODY_PATHS["64KiB"]), none),
        # The JWT routes beside `auth: none` sent the same token: what verifying adds.
        (Case(none_hs, gatehouse, BODY_PATHS["100B"], hs), none),
        (Case("HS256", gatehouse, HS_PATH, hs), none_hs),
        (Case(none_rs, gatehouse, BODY_PATHS["100B"], rs), none),
        (Case("RS256 (key file)", gatehouse, RS_PATH, rs), none_rs),
        (Case("RS256 (remote key set)", gatehouse, RS_REMOTE_PATH, rs), none_rs),
        (Case(uncached, cached, f"/ops/{CALL}", script=get), uncached),
        (Case("cache hit", cached, f"/cached/{CALL}", script=get), uncached),
        # The miss's own baseline sends its request, header and all (as in the cache scenario).
        (Case(uncached_no_cache, cached, f"/ops/{CALL}", script=get, headers=(NO_CACHE,)), uncached_no_cache),
        (Case("cache miss (no-cache)", cached, f"/cached/{CALL}", script=get, headers=(NO_CACHE,)),
         uncached_no_cache),
        (Case(open_route, limited, "/open"), open_route),
        (Case("limit in memory", limited, "/memory"), open_route),
        (Case("limit in Redis", limited, "/redis"), open_route),
        # The peers, on the request the standard run loads them with (each its own baseline).
        (Case(PEERS[0], nginx, BODY_PATHS["100B"]), PEERS[0]),
        (Case(PEERS[1], haproxy, BODY_PATHS["100B"]), PEERS[1]),
    ]
    counts = [count(context, control, case, baseline) for case, baseline in cases]

    context.finish_machine(machine_info)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"wrk -t1 -c{CONNECTIONS}: {WARM_SECONDS:g} s to warm each route, then "
                 f"{COUNT_SECONDS:g} s counted (valgrind --tool=callgrind, user space only)"},
        context.versions("wrk", commands={"valgrind": [valgrind, "--version"]}),
        tables=[counts_table([item for item in counts if item.case.label not in PEERS]), peers_table(counts, none)],
        notes=context.notes + [
            "Instructions are each proxy's own, in user space: Gatehouse's on its worker and every "
            "other thread, nginx's in its one process (no master under callgrind), haproxy's on its "
            "one thread. The kernel's work for the same request (system calls, TCP) is not in them.",
            "SHA-256 (cache keys, ETags) runs without the CPU's SHA extensions under valgrind: the "
            "cache rows count it several times dearer than it is.",
            f"With {CONNECTIONS} connections one Redis script call carries at most {CONNECTIONS} "
            "requests' limit stages (some 18 under the stores scenario's 64 connections), so the "
            "Redis row counts a larger share of each call than a loaded gateway pays."])
    return Outcome(as_text(report), as_markdown(report), False)


def count(context: ScenarioContext, control: str, case: Case, baseline: str) -> Count:
    """Warms the route, counts one fixed wrk run, and reads the dump it leaves."""
    url = f"http://127.0.0.1:{case.target.service.port}{case.path}"
    load = dict(authorization=case.authorization, headers=case.headers, script=case.script)
    wrk = context.programs["wrk"]
    run_wrk(wrk, url, WARM_SECONDS, CONNECTIONS, **load)
    pid = str(case.target.measured_pid)
    callgrind(control, "--zero", pid)
    callgrind(control, "--instr=on", pid)
    result: WrkResult = run_wrk(wrk, url, COUNT_SECONDS, CONNECTIONS, **load)
    callgrind(control, "--instr=off", pid)
    before = set(dumps(context.work_dir))
    callgrind(control, "--dump", pid)
    new = sorted(set(dumps(context.work_dir)) - before, key=lambda path: path.stat().st_mtime)
    if not new:
        raise SystemExit(f"bench: callgrind wrote no dump for {case.label}")
    instructions = dumped_instructions(new[-1])
    counted_case = Count(case, baseline, result.requests, instructions, result.errors)
    log(f"instructions: {case.label}: {counted_case.per_request:,.0f} per request ({result.requests} requests)")
    return counted_case


def callgrind(control: str, option: str, pid: str) -> None:
    subprocess.run([control, option, pid], check=True, capture_output=True, timeout=60)


def dumps(directory: Path) -> list[Path]:
    return [path for path in directory.glob("callgrind.*") if path.is_file()]


def dumped_instructions(dump: Path) -> int:
    """The `totals:` line of one dump: every instruction counted since the last zeroing."""
    for line in dump.read_text(errors="replace").splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise SystemExit(f"bench: {dump} has no totals line")


def counts_table(counts: list[Count]) -> Table:
    by_label = {item.case.label: item for item in counts}
    rows = []
    for item in counts:
        base = by_label.get(item.baseline)
        compared = base is not None and base is not item and base.per_request
        change = (f"{item.per_request - base.per_request:+,.0f} ({item.per_request / base.per_request:.2f}×)"
                  if compared else "—")
        rows.append([item.case.label, f"{item.requests}", f"{item.per_request:,.0f}", change,
                     item.baseline if compared else "—", str(item.errors)])
    return Table("Per route", ["route", "requests counted", "instructions per request", "vs baseline",
                               "baseline", "errors"], rows,
                 "User-space instructions Gatehouse ran per request (callgrind), each route next to "
                 "the route it adds to.")


def peers_table(counts: list[Count], gatehouse_label: str) -> Table:
    by_label = {item.case.label: item for item in counts}
    gatehouse = by_label[gatehouse_label]
    rows = [[f"gatehouse ({gatehouse_label})", f"{gatehouse.requests}", f"{gatehouse.per_request:,.0f}", "—",
             str(gatehouse.errors)]]
    for label in PEERS:
        peer = by_label[label]
        ratio = f"{gatehouse.per_request / peer.per_request:.2f}" if peer.per_request else "—"
        rows.append([label, f"{peer.requests}", f"{peer.per_request:,.0f}", ratio, str(peer.errors)])
    return Table("Against the peers", ["proxy", "requests counted", "instructions per request",
                                       "gatehouse ÷ this", "errors"], rows,
                 "The same request (the standard run's 100 B POST, conf/post.lua) through each proxy "
                 "in front of the same upstream: user-space instructions per request. The kernel's "
                 "share is not in them.")
