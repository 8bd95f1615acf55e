"""Benchmarks/RESULTS.md holds one section per scenario. A run rewrites only the sections of the
scenarios it ran and keeps the others, so numbers from separate runs sit in one file, each
section with its own machine, date and command."""

import re
from pathlib import Path

TITLE = "# Gatehouse benchmark results"
INTRO = ("Written by `Benchmarks/bench.py`; see `Benchmarks/README.md` for what each number means. "
         "Each section comes from its own run (`--scenario NAME`) and names its machine, date and command.")
# The order sections appear in, whatever order they were run in.
SECTION_ORDER = ["standard", "persisted", "tls", "gzip"]

_BEGIN = "<!-- bench section: {name} -->"
_END = "<!-- end of bench section: {name} -->"
_SECTION = re.compile(r"<!-- bench section: (?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)\n"
                      r"<!-- end of bench section: (?P=name) -->", re.DOTALL)


def read_sections(text: str) -> dict[str, str]:
    """The marked sections of a results file. A file written before sections existed holds the
    standard run alone; it is kept as that section."""
    sections = {match.group("name"): match.group("body") for match in _SECTION.finditer(text)}
    if not sections and text.startswith(TITLE):
        legacy = text[len(TITLE):].strip()
        if legacy:
            sections["standard"] = legacy
    return sections


def write_section(path: Path, name: str, markdown: str) -> None:
    """Replaces (or adds) the section `name` of the results file at `path`."""
    sections = read_sections(path.read_text()) if path.exists() else {}
    sections[name] = markdown.strip()
    order = SECTION_ORDER + sorted(set(sections) - set(SECTION_ORDER))
    parts = [TITLE, INTRO]
    parts += [f"{_BEGIN.format(name=key)}\n{sections[key]}\n{_END.format(name=key)}"
              for key in order if key in sections]
    path.write_text("\n\n".join(parts) + "\n")
