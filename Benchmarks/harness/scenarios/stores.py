"""stores: what a rate limit costs per request when its state is in this process's memory and
when it is in Redis (through hiredis on the worker's loop, one EVALSHA for the requests of one
loop iteration), next to the same route without a limit, in the same run on the same Gatehouse.

A redis-server of the run's own (no persistence, a free port) holds the shared state. The limit
allows a million requests per second on one key, so it never refuses: the rows measure asking.
Before the rounds every route must answer 200 with the upstream's body, the limited ones with
the RateLimit fields, and Redis must have run the script (its EVALSHA count)."""

import http.client
import subprocess
from dataclasses import dataclass

from .. import fixtures
from ..checks import REQUEST_BODY
from ..peers import Target
from ..rounds import Case, RoundRunner, Summary
from ..services import free_ports
from ..tools import log
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text, change, cpu, milliseconds, rps

NAME = "stores"
TITLE = "Stores: a rate limit in memory and in Redis next to the open route"
QUESTION = ("The cost per request of a rate limit whose state is in Redis (one EVALSHA round trip "
            "for the requests of one loop iteration, hiredis on the worker's loop) next to the same "
            "limit in memory and to the route without a limit; goal: the Redis route at ≥ 0.85× the "
            "open route's req/s. One Gatehouse (1 worker), one redis-server, the nginx upstream "
            "answering 100 B.")
SECTION = "stores"
BODY_LABEL = "100B"
GOAL_RATIO = 0.85


@dataclass(frozen=True)
class Row:
    label: str
    path: str
    limited: bool


ROWS = [Row("open route", "/open", False), Row("limit in memory", "/memory", True),
        Row("limit in Redis", "/redis", True)]


def planned_seconds(args) -> float:
    return len(ROWS) * (args.warmup + args.rounds * args.duration)


# MARK: - The run

def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    peers = context.peers(fixtures.json_body(fixtures.BODY_SIZES["100B"]))
    upstream = peers.start_upstream()
    redis = start_redis(context)
    gatehouse = peers.start_gatehouse("gatehouse", 1, "stores/gatehouse.yaml",
                                      extra={"REDIS_PORT": redis.service.port})

    problems = check_routes(gatehouse, peers.settings.small_body.encode())
    if not problems and evalsha_calls(context, redis) == 0:
        problems.append("Redis ran no EVALSHA: the /redis route did not use the store")
    if problems:
        raise SystemExit("bench: the stores routes do not answer as they must:\n  " + "\n  ".join(problems))
    log("stores: every route answers; the Redis route runs its script")

    runner = RoundRunner(context.load_settings(), upstream)
    cases = [Case(row.label, gatehouse, row.path, helper_pids=(redis.measured_pid,)) for row in ROWS]
    runner.run_section(SECTION, [BODY_LABEL], {BODY_LABEL: cases}, args.rounds)

    context.finish_machine(machine_info)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 thread, {args.connections} connections, POST of a GraphQL query (conf/post.lua)",
         "limit": "key: route, rate: 1000000/s (never refuses); Redis store timeout 1s, on_failure: closed",
         **context.round_settings()},
        context.versions("nginx", "wrk", commands={"redis-server": [context.programs["redis-server"], "--version"]}),
        tables=[stores_table(runner.summaries())],
        runs=runner.runs,
        notes=context.notes + ["CPU µs/req counts Gatehouse only; redis-server's own CPU is not in it. "
                               "The machine is shared: numbers are indicative."]
              + ([exit_note] if exit_note else []),
        crashes=runner.crashes)
    return Outcome(as_text(report), as_markdown(report), bool(runner.crashes))


def start_redis(context: ScenarioContext) -> Target:
    (port,) = free_ports(1)
    command = [context.programs["redis-server"], "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", str(context.work_dir), "--daemonize", "no"]
    service = context.services.start("redis-server", command, port)
    return Target("redis", service, service.pid)


def evalsha_calls(context: ScenarioContext, redis: Target) -> int:
    info = subprocess.run([context.programs["redis-cli"], "-p", str(redis.service.port), "INFO", "commandstats"],
                          capture_output=True, text=True, timeout=10).stdout
    for line in info.splitlines():
        if line.startswith("cmdstat_evalsha:"):
            return int(line.split("calls=")[1].split(",")[0])
    return 0


# MARK: - Checks

def check_routes(gatehouse: Target, expected: bytes) -> list[str]:
    problems = []
    for row in ROWS:
        connection = http.client.HTTPConnection("127.0.0.1", gatehouse.service.port, timeout=10)
        try:
            connection.request("POST", row.path, body=REQUEST_BODY, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if response.status != 200 or body != expected:
            problems.append(f"{row.path}: status {response.status}, {len(body)} body bytes")
        elif row.limited != (response.getheader("RateLimit") is not None):
            problems.append(f"{row.path}: RateLimit field {response.getheader('RateLimit')!r}")
    return problems


# MARK: - Table

HEADERS = ["route", "req/s", "req/s vs open", "p50 ms", "p99 ms", "p99 vs open", "CPU µs/req",
           "CPU µs/req vs open", "errors", "other CPU %", "rounds"]


def stores_table(summaries: list[Summary]) -> Table:
    by_label = {summary.label: summary for summary in summaries if summary.section == SECTION}
    base = by_label.get(ROWS[0].label)
    table_rows = []
    for row in ROWS:
        summary = by_label.get(row.label)
        if summary is None:
            continue
        compared = base is not None and summary is not base
        table_rows.append([
            row.label, rps(summary),
            change(summary.requests_per_second, base.requests_per_second, 0) if compared else "—",
            milliseconds(summary.p50_us), milliseconds(summary.p99_us),
            change(summary.p99_us, base.p99_us) if compared else "—",
            cpu(summary), change(summary.cpu_us_per_request, base.cpu_us_per_request) if compared else "—",
            str(summary.errors), f"{summary.other_cpu_percent:.0f}", summary.rounds_text])
    redis = by_label.get(ROWS[2].label)
    verdict = "—"
    if base is not None and redis is not None and base.requests_per_second > 0:
        ratio = redis.requests_per_second / base.requests_per_second
        verdict = f"{ratio:.2f}× the open route ({'PASS' if ratio >= GOAL_RATIO else 'FAIL'} against ≥ {GOAL_RATIO}×)"
    return Table("Per route (median over rounds)", HEADERS, table_rows,
                 f"Redis route req/s: {verdict}. CPU µs/req is Gatehouse's own CPU time per request.")
