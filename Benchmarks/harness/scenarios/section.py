"""A scenario's results: its tables with a sentence on how to read each, the machine header, notes,
and every wrk run, as terminal text and as a RESULTS.md section."""

from dataclasses import dataclass, field

from ..report import RUN_HEADERS, run_row
from ..rounds import NOISY_OTHER_CPU_PERCENT, Run, Summary
from ..tables import markdown_table, text_table

MIB = 1024
OTHER_CPU_HEADER = "other CPU %"
NOISE_NOTE = (f"{OTHER_CPU_HEADER}: what the rest of the machine used during the rounds, in percent of one "
              f"CPU; rounds above {NOISY_OTHER_CPU_PERCENT:.0f}% are left out of the medians when the case "
              "has a quieter one (the rounds column says how many were used).")


@dataclass(frozen=True)
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]
    # How to read the table; printed under its title.
    caption: str = ""


@dataclass
class ScenarioReport:
    title: str
    # The question the scenario answers, as the issue put it.
    question: str
    machine: dict[str, str]
    command: str
    settings: dict[str, str]
    versions: dict[str, str]
    tables: list[Table] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)


# MARK: - Cells

def change(value: float, base: float, digits: int = 1) -> str:
    """`value - base` with its sign, and the change in percent: "+3.2 (+11%)"."""
    difference = value - base
    percent = f" ({difference / base * 100:+.0f}%)" if base else ""
    return f"{difference:+.{digits}f}{percent}"


def rps(summary: Summary) -> str:
    return f"{summary.requests_per_second:.0f}"


def milliseconds(microseconds: float) -> str:
    return f"{microseconds / 1000:.2f}"


def cpu(summary: Summary) -> str:
    return f"{summary.cpu_us_per_request:.1f}"


# MARK: - Rendering

def as_text(report: ScenarioReport) -> str:
    parts = [report.title]
    for table in report.tables:
        parts.append(f"{table.title}\n{text_table(table.headers, table.rows)}")
    parts.extend(report.notes)
    parts.extend(f"CRASH: {crash}" for crash in report.crashes)
    return "\n\n".join(parts)


def as_markdown(report: ScenarioReport) -> str:
    header = {**report.machine, "command": f"`{report.command}`", **report.settings, **report.versions}
    parts = [f"## {report.title}", report.question,
             "### Machine and run\n\n" + markdown_table(["item", "value"],
                                                       [[key, value] for key, value in header.items()])]
    for table in report.tables:
        sentences = [table.caption] if table.caption else []
        if OTHER_CPU_HEADER in table.headers:
            sentences.append(NOISE_NOTE)
        caption = " ".join(sentences) + "\n\n" if sentences else ""
        parts.append(f"### {table.title}\n\n{caption}{markdown_table(table.headers, table.rows)}")
    if report.notes or report.crashes:
        parts.append("### Notes\n\n" + "\n".join(f"- {note}" for note in report.notes)
                     + "".join(f"\n\n```\nCRASH: {crash}\n```" for crash in report.crashes))
    if report.runs:  # scenarios with a load generator of their own table their rounds themselves
        parts.append("### Raw rows (every wrk run)\n\n"
                     + markdown_table(RUN_HEADERS, [run_row(run) for run in report.runs]))
    return "\n\n".join(parts) + "\n"
