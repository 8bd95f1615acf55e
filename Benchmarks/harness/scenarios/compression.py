"""gzip (issue 7): what compressing a 64 KiB JSON answer costs per request in nginx and in
Gatehouse, at the same settings (level 1, 1 KiB threshold, application/json), in the same run.

The upstream is the standard one, serving a realistic 64 KiB GraphQL answer (harness/catalog.py)
at /64k in place of the standard run's padded body. Each proxy is loaded with and without
`Accept-Encoding: gzip`. Before the rounds, one curl per target and encoding checks that the
compressed answers inflate to exactly the upstream's body and notes the bytes on the wire."""

import gzip
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import fixtures
from ..checks import REQUEST_BODY
from ..catalog import catalog_json
from ..peers import Target
from ..rounds import Case, RoundRunner, Summary
from ..tools import log
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text, change, cpu, milliseconds, rps

NAME = "gzip"
TITLE = "gzip: compressing a 64 KiB JSON answer, nginx and Gatehouse"
QUESTION = ("Issue 7: gzip cost per request on a 64 KiB JSON response for nginx (`gzip on; "
            "gzip_comp_level 1; gzip_types application/json; gzip_min_length 1024; gzip_proxied any;`) "
            "and Gatehouse (compression on by default: level 1, min 1 KiB), with and without "
            "`Accept-Encoding: gzip` in the same run. 1 worker each.")
SECTION = "gzip"
BODY_LABEL = "64KiB"
PATH = "/64k"
GZIP = "gzip"
IDENTITY = "identity"
ACCEPT_GZIP = "Accept-Encoding: gzip"


@dataclass(frozen=True)
class Encoded:
    """One row: a target asked with or without Accept-Encoding: gzip."""

    target: Target
    encoding: str

    @property
    def label(self) -> str:
        return f"{self.target.name} {self.encoding}"


@dataclass(frozen=True)
class WireSize:
    """What one curl saw: body bytes as sent (compressed or not) and head bytes."""

    body: int
    head: int


def planned_seconds(args) -> float:
    return 5 * (args.warmup + args.rounds * args.duration)


# MARK: - The run

def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    body = catalog_json()
    bodies_dir = context.work_dir / "bodies"
    bodies_dir.mkdir()
    (bodies_dir / "64k.json").write_text(body)

    peers = context.peers(fixtures.json_body(fixtures.BODY_SIZES["100B"]))
    upstream = peers.start_upstream()
    nginx = peers.start_nginx("gzip/proxy-nginx.conf")
    gatehouse = peers.start_gatehouse("gatehouse", 1, "gzip/gatehouse.yaml")
    rows = [Encoded(upstream, IDENTITY), Encoded(nginx, IDENTITY), Encoded(nginx, GZIP),
            Encoded(gatehouse, IDENTITY), Encoded(gatehouse, GZIP)]

    problems, sizes = check_encodings(context.programs["curl"], rows, body.encode(),
                                      context.work_dir / "curl")
    if problems:
        raise SystemExit("bench: the gzip targets do not answer as they must:\n  " + "\n  ".join(problems))
    log("gzip: every compressed answer inflates to the upstream's body")

    runner = RoundRunner(context.load_settings(), upstream)
    cases = [Case(row.label, row.target, PATH, headers=(ACCEPT_GZIP,) if row.encoding == GZIP else ())
             for row in rows]
    runner.run_section(SECTION, [BODY_LABEL], {BODY_LABEL: cases}, args.rounds)

    context.finish_machine(machine_info)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 thread, {args.connections} connections, POST of a GraphQL query (conf/post.lua), "
                f"`-H '{ACCEPT_GZIP}'` on the gzip rows",
         "body": f"{len(body)} bytes of GraphQL JSON (harness/catalog.py); gzip -1 in Python: "
                 f"{len(gzip.compress(body.encode(), 1))} bytes",
         **context.round_settings()},
        context.versions("nginx", "wrk"),
        tables=[encoding_table(runner.summaries(), rows, sizes)],
        runs=runner.runs, notes=context.notes + ([exit_note] if exit_note else []), crashes=runner.crashes)
    return Outcome(as_text(report), as_markdown(report), bool(runner.crashes))


# MARK: - Checks

def curl(program: str, url: str, encoding: str, directory: Path,
         name: str) -> tuple[int, dict[str, str], bytes, WireSize]:
    """One POST with curl, the body kept as sent (no --compressed)."""
    directory.mkdir(exist_ok=True)
    head_file, body_file = directory / f"{name}.head", directory / f"{name}.body"
    command = [program, "-sS", "-o", str(body_file), "-D", str(head_file),
               "-w", "%{http_code} %{size_download} %{size_header}",
               "-H", "Content-Type: application/json", "--data-binary", REQUEST_BODY.decode()]
    if encoding == GZIP:
        command += ["-H", ACCEPT_GZIP]
    completed = subprocess.run(command + [url], capture_output=True, text=True, timeout=30)
    if completed.returncode != 0:
        raise SystemExit(f"bench: curl {url} failed: {completed.stderr.strip()}")
    status, body_size, head_size = (int(value) for value in completed.stdout.split())
    headers = {}
    for line in head_file.read_text(errors="replace").splitlines()[1:]:
        name_part, _, value = line.partition(":")
        if value:
            headers[name_part.strip().lower()] = value.strip()
    return status, headers, body_file.read_bytes(), WireSize(body_size, head_size)


def check_encodings(curl_program: str, rows: list[Encoded], expected: bytes,
                    directory: Path) -> tuple[list[str], dict[str, WireSize]]:
    problems, sizes = [], {}
    for row in rows:
        url = f"http://127.0.0.1:{row.target.service.port}{PATH}"
        status, headers, body, size = curl(curl_program, url, row.encoding, directory,
                                           row.label.replace(" ", "-"))
        sizes[row.label] = size
        content_encoding = headers.get("content-encoding", "")
        if status != 200:
            problems.append(f"{row.label}: status {status}")
        elif row.encoding == IDENTITY and (content_encoding or body != expected):
            problems.append(f"{row.label}: Content-Encoding {content_encoding!r}, {len(body)} body bytes, "
                            f"expected the upstream's {len(expected)} bytes as they are")
        elif row.encoding == GZIP:
            if content_encoding != GZIP:
                problems.append(f"{row.label}: Content-Encoding {content_encoding!r}, expected gzip")
            elif inflate(body) != expected:
                problems.append(f"{row.label}: the gzip body does not inflate to the upstream's body")
            elif "accept-encoding" not in headers.get("vary", "").lower():
                problems.append(f"{row.label}: no Vary: Accept-Encoding")
    return problems, sizes


def inflate(body: bytes) -> bytes | None:
    try:
        return gzip.decompress(body)
    except (OSError, EOFError):
        return None


# MARK: - Table

ENCODING_HEADERS = ["target", "Accept-Encoding", "req/s", "req/s vs identity", "p50 ms", "p99 ms",
                    "CPU µs/req", "CPU µs/req vs identity", "upstream CPU µs/req", "body bytes",
                    "bytes/response", "errors", "other CPU %", "rounds"]


def encoding_table(summaries: list[Summary], rows: list[Encoded], sizes: dict[str, WireSize]) -> Table:
    by_label = {summary.label: summary for summary in summaries if summary.section == SECTION}
    table_rows = []
    for row in rows:
        summary = by_label.get(row.label)
        if summary is None:
            continue
        plain = by_label.get(Encoded(row.target, IDENTITY).label)
        if row.encoding == IDENTITY or plain is None:
            versus_rps = versus_cpu = "—"
        else:
            versus_rps = change(summary.requests_per_second, plain.requests_per_second, 0)
            versus_cpu = change(summary.cpu_us_per_request, plain.cpu_us_per_request)
        accept = GZIP if row.encoding == GZIP else "—"
        table_rows.append([row.target.name, accept, rps(summary), versus_rps, milliseconds(summary.p50_us),
                           milliseconds(summary.p99_us), cpu(summary), versus_cpu,
                           f"{summary.upstream_cpu_us_per_request:.1f}", str(sizes[row.label].body),
                           f"{summary.bytes_per_response:.0f}", str(summary.errors),
                           f"{summary.other_cpu_percent:.0f}", summary.rounds_text])
    return Table("Per target and encoding (median over rounds)", ENCODING_HEADERS, table_rows,
                 "CPU µs/req is the target's own CPU time per request (nginx: its worker; direct: the "
                 "upstream worker); the change against the same target without Accept-Encoding is what "
                 "compressing costs per response. Body bytes: the body as sent, from curl before the "
                 "rounds; bytes/response: everything wrk read per response (head, chunk framing, body).")
