"""Persisted operations (issue 4): what the name lookup, the APQ hash lookup and GET translation
cost per request next to a plain proxied POST, in the same run on the same Gatehouse.

Each request shape is first sent through a Gatehouse whose upstream records what it receives
(harness/capture.py): the baseline and free-form bodies must arrive untouched, the calls by name,
by hash and by GET as a POST of the stored document with the expected variables. Then the shapes
are loaded in interleaved rounds against the nginx upstream."""

import hashlib
import http.client
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import fixtures
from ..capture import CaptureUpstream, CapturedRequest
from ..peers import Peers, Target
from ..rounds import Case, RoundRunner, Summary
from ..templates import CONF_DIR, render_to
from ..tools import log
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text, change, cpu, milliseconds, rps

NAME = "persisted"
TITLE = "Persisted operations: name lookup, APQ and GET translation next to a plain POST"
QUESTION = ("Issue 4: the cost per request of the name lookup and of GET translation next to a plain "
            "proxied POST, side by side in the same run. One Gatehouse (1 worker), one route per "
            "`persisted` policy, the nginx upstream answering every POST with the same 100 B body.")
OPERATION = "listMoviesByGenre"
OPERATION_FILE = CONF_DIR / "persisted" / f"{OPERATION}.graphql"
SECTION = "persisted"
BODY_LABEL = "100B"


@dataclass(frozen=True)
class Shape:
    """One way a client asks for the operation, and what the upstream must receive for it."""

    label: str
    route: str
    method: str
    # Request path with its query string.
    target: str
    body: str
    # None: the body reaches the upstream untouched; otherwise the stored document is sent with
    # these variables.
    stored_variables: dict | None


def shapes(file_text: str) -> list[Shape]:
    """The shapes in table order; the first is the baseline the others are compared with."""
    query = " ".join(file_text.split())
    free_form = json.dumps({"query": query, "variables": {"genre": "drama"}}, separators=(",", ":"))
    digest = hashlib.sha256(file_text.encode()).hexdigest()
    apq = json.dumps({"variables": {"genre": "drama"},
                      "extensions": {"persistedQuery": {"version": 1, "sha256Hash": digest}}},
                     separators=(",", ":"))
    by_name = json.dumps({"operationName": OPERATION, "variables": {"genre": "drama"}}, separators=(",", ":"))
    return [
        Shape("plain POST (baseline)", "/graphql (persisted: off)", "POST", "/graphql", free_form, None),
        Shape("free-form POST", "/graphql-allow (persisted: allow)", "POST", "/graphql-allow", free_form, None),
        Shape("POST by name", "/graphql-allow (persisted: allow)", "POST", "/graphql-allow", by_name,
              {"genre": "drama"}),
        Shape("POST APQ hash", "/graphql-allow (persisted: allow)", "POST", "/graphql-allow", apq,
              {"genre": "drama"}),
        Shape("GET translated", "/ops/* (persisted: only)", "GET", f"/ops/{OPERATION}?genre=drama&limit=5", "",
              {"genre": "drama", "limit": 5}),
    ]


def planned_seconds(args) -> float:
    return 5 * (args.warmup + args.rounds * args.duration)


# MARK: - The run

def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    small_body = fixtures.json_body(fixtures.BODY_SIZES[BODY_LABEL])
    operations_dir = held_operations_dir(context)
    file_text = OPERATION_FILE.read_text()
    request_shapes = shapes(file_text)
    peers = context.peers(small_body)
    extra = {"OPERATIONS_DIR": operations_dir}

    problems = check_forwarding(context, peers, request_shapes, file_text, extra)
    upstream = peers.start_upstream()
    gatehouse = peers.start_gatehouse("gatehouse", workers=1, template="persisted/gatehouse.yaml", extra=extra)
    problems += check_answers(gatehouse, request_shapes, small_body.encode())
    if problems:
        raise SystemExit("bench: the persisted shapes do not behave as they must:\n  " + "\n  ".join(problems))
    log("persisted: every shape reaches the upstream as it must")

    runner = RoundRunner(context.load_settings(), upstream)
    cases = [Case(shape.label, gatehouse, shape.target, script=write_script(context.work_dir, index, shape))
             for index, shape in enumerate(request_shapes)]
    runner.run_section(SECTION, [BODY_LABEL], {BODY_LABEL: cases}, args.rounds)

    context.finish_machine(machine_info)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 thread, {args.connections} connections, one script per shape "
                "(conf/persisted/request.lua rendered with the shape's method and body)",
         "operation": f"`{' '.join(file_text.split())}`",
         **context.round_settings()},
        context.versions("nginx", "wrk"),
        tables=[shape_table(runner.summaries(), request_shapes)],
        runs=runner.runs, notes=context.notes + ([exit_note] if exit_note else []), crashes=runner.crashes)
    return Outcome(as_text(report), as_markdown(report), bool(runner.crashes))


def held_operations_dir(context: ScenarioContext) -> Path:
    """The run's `operations.dir`, holding the one operation file."""
    operations_dir = context.work_dir / "operations"
    operations_dir.mkdir()
    shutil.copy(OPERATION_FILE, operations_dir / OPERATION_FILE.name)
    return operations_dir


def write_script(work_dir: Path, index: int, shape: Shape) -> Path:
    # The body goes into a single-quoted Lua string; JSON from json.dumps has no quote or newline
    # that would end it, and escapes no character with a backslash here.
    if "'" in shape.body or "\\" in shape.body:
        raise ValueError(f"{shape.label}: body not fit for a Lua string literal")
    return render_to("persisted/request.lua", {"METHOD": shape.method, "BODY": shape.body},
                     work_dir / f"persisted-shape-{index}.lua")


# MARK: - Checks

def send(port: int, shape: Shape) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        headers = {"Accept": "application/json"}
        if shape.body:
            headers["Content-Type"] = "application/json"
        connection.request(shape.method, shape.target, body=shape.body.encode() or None, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def check_forwarding(context: ScenarioContext, peers: Peers, request_shapes: list[Shape], file_text: str,
                     extra: dict) -> list[str]:
    """Every shape through a Gatehouse in front of a recording upstream."""
    problems = []
    with CaptureUpstream(b'{"data":{"captured":true}}') as capture:
        checker = peers.start_gatehouse("gatehouse-check", workers=1, template="persisted/gatehouse.yaml",
                                        extra={**extra, "UPSTREAM_PORT": capture.port})
        try:
            for shape in request_shapes:
                status, body = send(checker.service.port, shape)
                received = capture.take()
                if status != 200 or body != capture.reply:
                    problems.append(f"{shape.label}: status {status}, body {body[:200]!r} (not the upstream's)")
                elif len(received) != 1:
                    problems.append(f"{shape.label}: the upstream received {len(received)} requests, expected 1")
                else:
                    problems += forwarding_problems(shape, received[0], file_text)
        finally:
            context.services.stop(checker.service)
    return problems


def forwarding_problems(shape: Shape, request: CapturedRequest, file_text: str) -> list[str]:
    found = []
    if (request.method, request.path) != ("POST", "/small"):
        found.append(f"{shape.label}: upstream got {request.method} {request.path}, expected POST /small")
    if shape.stored_variables is None:
        if request.body != shape.body.encode():
            found.append(f"{shape.label}: body not forwarded untouched: {request.body[:200]!r}")
        return found
    try:
        sent = json.loads(request.body)
    except ValueError:
        return found + [f"{shape.label}: upstream body is not JSON: {request.body[:200]!r}"]
    if " ".join(str(sent.get("query", "")).split()) != " ".join(file_text.split()):
        found.append(f"{shape.label}: upstream query is not the stored document: {sent.get('query')!r}")
    if sent.get("variables") != shape.stored_variables:
        found.append(f"{shape.label}: upstream variables {sent.get('variables')!r}, "
                     f"expected {shape.stored_variables!r}")
    return found


def check_answers(gatehouse: Target, request_shapes: list[Shape], expected: bytes) -> list[str]:
    """The benchmarked Gatehouse answers every shape with the nginx upstream's body."""
    problems = []
    for shape in request_shapes:
        status, body = send(gatehouse.service.port, shape)
        if status != 200 or body != expected:
            problems.append(f"{shape.label} via the nginx upstream: status {status}, body {body[:200]!r}")
    return problems


# MARK: - Table

SHAPE_HEADERS = ["shape", "request", "route", "req/s", "req/s vs baseline", "p50 ms", "p99 ms",
                 "CPU µs/req", "CPU µs/req vs baseline", "upstream CPU µs/req", "errors",
                 "other CPU %", "rounds"]


def shape_table(summaries: list[Summary], request_shapes: list[Shape]) -> Table:
    by_label = {summary.label: summary for summary in summaries if summary.section == SECTION}
    baseline = by_label.get(request_shapes[0].label)
    rows = []
    for shape in request_shapes:
        summary = by_label.get(shape.label)
        if summary is None:
            continue
        request = f"{shape.method} {shape.target}"
        if baseline is None or summary is baseline:
            versus_rps = versus_cpu = "—"
        else:
            versus_rps = change(summary.requests_per_second, baseline.requests_per_second, 0)
            versus_cpu = change(summary.cpu_us_per_request, baseline.cpu_us_per_request)
        rows.append([shape.label, request, shape.route, rps(summary), versus_rps,
                     milliseconds(summary.p50_us), milliseconds(summary.p99_us), cpu(summary), versus_cpu,
                     f"{summary.upstream_cpu_us_per_request:.1f}", str(summary.errors),
                     f"{summary.other_cpu_percent:.0f}", summary.rounds_text])
    return Table("Per request shape (median over rounds)", SHAPE_HEADERS, rows,
                 "CPU µs/req is Gatehouse's own CPU time per request (all threads, /proc/<pid>/stat); the "
                 "change against the plain POST is what the lookup or translation adds per request. "
                 "The upstream column shows the stored document costs the upstream about the same.")
