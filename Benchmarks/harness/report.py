"""The numbers a run produced, the ratios and goals derived from them, as a text table for the
terminal and as Markdown for Benchmarks/RESULTS.md."""

from dataclasses import dataclass, field

from . import gateway_headers
from .idle import IdleResult
from .rounds import Run, Summary
from .tables import markdown_table as _markdown_table
from .tables import text_table as _text_table

MIB = 1024

# The jwt section's `auth: none` rows, by the algorithm whose token they are sent: each JWT route
# is judged against the same request on a route that checks nothing.
NONE_WITH_TOKEN = {"HS256": "none + HS256 token", "RS256": "none + RS256 token"}


@dataclass(frozen=True)
class Goal:
    name: str
    measured: str
    # None: not measured in this run.
    passed: bool | None


@dataclass
class Report:
    mode: str
    command: str
    machine: dict[str, str]
    versions: dict[str, str]
    settings: dict[str, str]
    summaries: list[Summary] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    idle: list[IdleResult] = field(default_factory=list)
    start_rss_kib: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)

    def summary(self, section: str, body: str, label: str) -> Summary | None:
        for summary in self.summaries:
            if (summary.section, summary.body, summary.label) == (section, body, label):
                return summary
        return None


# MARK: - Ratios and goals

def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def _rps(report: Report, section: str, body: str, label: str) -> float | None:
    summary = report.summary(section, body, label)
    return summary.requests_per_second if summary else None


def ratios(report: Report) -> list[tuple[str, float]]:
    rows = []

    def add(name: str, value: float | None) -> None:
        if value is not None:
            rows.append((name, value))

    for body in ("100B", "8KiB", "64KiB"):
        gatehouse = report.summary("proxy", body, "gatehouse")
        if gatehouse is None:
            continue
        for peer in ("nginx", gateway_headers.TARGET, "haproxy", "direct"):
            add(f"{body} req/s gatehouse/{peer}", _ratio(gatehouse.requests_per_second,
                                                         _rps(report, "proxy", body, peer)))
        # The goals judge the plain nginx; nginx+headers shows the same with equal header work.
        for peer in ("nginx", gateway_headers.TARGET):
            nginx = report.summary("proxy", body, peer)
            if nginx:
                add(f"{body} CPU µs/req gatehouse/{peer}", _ratio(gatehouse.cpu_us_per_request, nginx.cpu_us_per_request))
                add(f"{body} p99 gatehouse/{peer}", _ratio(gatehouse.p99_us, nginx.p99_us))
    # Each JWT route over the `auth: none` route sent the same token (NONE_WITH_TOKEN).
    for proxy in ("gatehouse", "haproxy"):
        for algorithm in ("HS256", "RS256"):
            add(f"JWT req/s {proxy} {algorithm}/none", _ratio(_rps(report, "jwt", "100B", f"{proxy} {algorithm}"),
                                                             _rps(report, "jwt", "100B", f"{proxy} {NONE_WITH_TOKEN[algorithm]}")))
    add("JWT req/s gatehouse RS256 remote keys/none", _ratio(_rps(report, "jwt", "100B", "gatehouse RS256 remote keys"),
                                                            _rps(report, "jwt", "100B", f"gatehouse {NONE_WITH_TOKEN['RS256']}")))
    for algorithm in ("HS256", "RS256"):
        add(f"JWT req/s gatehouse/haproxy {algorithm}",
            _ratio(_rps(report, "jwt", "100B", f"gatehouse {algorithm}"),
                   _rps(report, "jwt", "100B", f"haproxy {algorithm}")))
    one, two = (report.summary("workers", "100B", "gatehouse 1 worker"),
                report.summary("workers", "100B", "gatehouse 2 workers"))
    if one and two:
        add("workers CPU µs/req 2/1", _ratio(two.cpu_us_per_request, one.cpu_us_per_request))
        add("workers req/s 2/1", _ratio(two.requests_per_second, one.requests_per_second))
    return rows


def goals(report: Report) -> list[Goal]:
    found = dict(ratios(report))
    result = []

    def ratio_goal(name: str, key: str, passes) -> None:
        value = found.get(key)
        result.append(Goal(name, f"{value:.2f}×" if value is not None else "not measured",
                           passes(value) if value is not None else None))

    for body in ("100B", "8KiB"):
        ratio_goal(f"{body}: gatehouse req/s ≥ 1.10× nginx", f"{body} req/s gatehouse/nginx", lambda v: v >= 1.10)
        ratio_goal(f"{body}: gatehouse CPU µs/req ≤ 0.90× nginx", f"{body} CPU µs/req gatehouse/nginx",
                   lambda v: v <= 0.90)
        ratio_goal(f"{body}: gatehouse p99 ≤ nginx", f"{body} p99 gatehouse/nginx", lambda v: v <= 1.0)
    ratio_goal("100B: gatehouse req/s ≥ 1.0× haproxy", "100B req/s gatehouse/haproxy", lambda v: v >= 1.0)
    ratio_goal("64KiB: gatehouse req/s ≥ 1.0× nginx", "64KiB req/s gatehouse/nginx", lambda v: v >= 1.0)
    ratio_goal("JWT HS256 route ≥ 0.95× auth: none (same token sent)", "JWT req/s gatehouse HS256/none", lambda v: v >= 0.95)
    ratio_goal("JWT RS256 route ≥ 0.85× auth: none (same token sent)", "JWT req/s gatehouse RS256/none", lambda v: v >= 0.85)
    ratio_goal("JWT RS256 with a remote key set (jwks_url) ≥ 0.97× auth: none (same token sent)",
               "JWT req/s gatehouse RS256 remote keys/none", lambda v: v >= 0.97)
    ratio_goal("workers: 2 CPU µs/req within 10% of 1 worker", "workers CPU µs/req 2/1", lambda v: v <= 1.10)

    idle = next((item for item in report.idle if item.label == "gatehouse"), None)
    result.append(Goal("idle keep-alive memory ≤ 2 KiB per connection",
                       f"{idle.bytes_per_connection / 1024:.2f} KiB" if idle else "not measured",
                       idle.bytes_per_connection <= 2048 if idle else None))
    start = report.start_rss_kib.get("gatehouse")
    result.append(Goal("gatehouse RSS at start ≤ 16 MiB",
                       f"{start / MIB:.1f} MiB" if start is not None else "not measured",
                       start <= 16 * MIB if start is not None else None))
    return result


def _verdict(goal: Goal) -> str:
    return "—" if goal.passed is None else ("PASS" if goal.passed else "FAIL")


# MARK: - Rows

SUMMARY_HEADERS = ["section", "body", "target", "rounds", "req/s", "p50 ms", "p99 ms",
                   "CPU µs/req", "upstream CPU µs/req", "wrk CPU µs/req", "idle CPU %", "switches/req",
                   "upstream switches/req", "RSS MiB", "VmHWM MiB", "errors", "other CPU %"]


def _summary_row(summary: Summary) -> list[str]:
    return [summary.section, summary.body, summary.label, summary.rounds_text,
            f"{summary.requests_per_second:.0f}", f"{summary.p50_us / 1000:.2f}",
            f"{summary.p99_us / 1000:.2f}", f"{summary.cpu_us_per_request:.1f}",
            f"{summary.upstream_cpu_us_per_request:.1f}", f"{summary.wrk_cpu_us_per_request:.1f}",
            f"{summary.idle_cpu_percent:.0f}", f"{summary.switches_per_request:.3f}",
            f"{summary.upstream_switches_per_request:.3f}", f"{summary.rss_kib / MIB:.1f}",
            f"{summary.hwm_kib / MIB:.1f}", str(summary.errors), f"{summary.other_cpu_percent:.0f}"]


RUN_HEADERS = ["section", "body", "target", "round", "requests", "seconds", "req/s", "p50 ms",
               "p90 ms", "p99 ms", "p99.9 ms", "max ms", "CPU µs/req", "upstream CPU µs/req",
               "wrk CPU µs/req", "idle CPU %", "switches/req", "upstream switches/req", "RSS MiB",
               "socket errors", "non-2xx", "timeouts", "other CPU %"]


def run_row(run: Run) -> list[str]:
    wrk = run.wrk
    return [run.section, run.body, run.label, str(run.round + 1), str(wrk.requests),
            f"{wrk.duration_s:.2f}", f"{wrk.requests_per_second:.0f}", f"{wrk.p50_us / 1000:.3f}",
            f"{wrk.p90_us / 1000:.3f}", f"{wrk.p99_us / 1000:.3f}", f"{wrk.p999_us / 1000:.3f}",
            f"{wrk.max_us / 1000:.3f}", f"{run.cpu_us_per_request:.2f}",
            f"{run.upstream_cpu_us_per_request:.2f}", f"{run.wrk_cpu_us_per_request:.2f}",
            f"{run.idle_cpu_percent:.0f}", f"{run.switches_per_request:.3f}",
            f"{run.upstream_switches_per_request:.3f}", f"{run.rss_kib / MIB:.1f}",
            str(wrk.socket_errors), str(wrk.status_errors), str(wrk.timeouts), f"{run.other_cpu_percent:.0f}"]


IDLE_HEADERS = ["target", "connections", "RSS before MiB", "RSS after MiB", "KiB per connection",
                "closed by server", "failed"]


def _idle_row(item: IdleResult) -> list[str]:
    return [item.label, str(item.connections), f"{item.rss_before_kib / MIB:.1f}",
            f"{item.rss_after_kib / MIB:.1f}", f"{item.bytes_per_connection / 1024:.2f}",
            str(item.closed_by_server), str(item.failed)]


# MARK: - Text

def as_text(report: Report) -> str:
    parts = [_text_table(SUMMARY_HEADERS, [_summary_row(summary) for summary in report.summaries])]
    if report.start_rss_kib:
        parts.append("RSS at start: " + ", ".join(f"{label} {kib / MIB:.1f} MiB"
                                                   for label, kib in report.start_rss_kib.items()))
    if report.idle:
        parts.append(_text_table(IDLE_HEADERS, [_idle_row(item) for item in report.idle]))
    parts.append("\n".join(f"{name:<40} {value:6.2f}" for name, value in ratios(report)))
    parts.append("\n".join(f"{_verdict(goal):<5} {goal.name:<52} {goal.measured}" for goal in goals(report)))
    parts.extend(report.notes)
    parts.extend(f"CRASH: {crash}" for crash in report.crashes)
    return "\n\n".join(parts)


# MARK: - Markdown

SECTION_TITLE = "Standard run: proxy, JWT, workers, idle"


def as_markdown(report: Report) -> str:
    """The run's section of RESULTS.md (harness/results_file.py places it in the file)."""
    sections = [
        f"## {SECTION_TITLE}",
        "### Machine and run\n\n" + _markdown_table(
            ["item", "value"], [[key, value] for key, value in
                       {**report.machine, "mode": report.mode, "command": f"`{report.command}`",
                        **report.settings, **report.versions}.items()]),
        "### Per target (median over rounds)\n\n" + _markdown_table(
            SUMMARY_HEADERS, [_summary_row(summary) for summary in report.summaries]),
        "### Ratios\n\n" + _markdown_table(["ratio", "value"],
                                          [[name, f"{value:.2f}"] for name, value in ratios(report)]),
        "### Goals\n\n" + _markdown_table(["goal", "measured", "result"],
                                         [[goal.name, goal.measured, _verdict(goal)] for goal in goals(report)]),
    ]
    if report.start_rss_kib:
        sections.append("### RSS at start\n\n" + _markdown_table(
            ["target", "VmRSS MiB"], [[label, f"{kib / MIB:.1f}"] for label, kib in report.start_rss_kib.items()]))
    if report.idle:
        sections.append("### Idle keep-alive connections\n\n" + _markdown_table(
            IDLE_HEADERS, [_idle_row(item) for item in report.idle]))
    if report.notes or report.crashes:
        sections.append("### Notes\n\n" + "\n".join(f"- {note}" for note in report.notes)
                        + "".join(f"\n\n```\nCRASH: {crash}\n```" for crash in report.crashes))
    sections.append("### Raw rows (every wrk run)\n\n" + _markdown_table(
        RUN_HEADERS, [run_row(run) for run in report.runs]))
    return "\n\n".join(sections) + "\n"
