"""deploy/grafana/gatehouse.json: valid JSON, a dashboard with panels, and every metric its
queries use either exported by the gateway today (a `# TYPE` line in
Sources/GatehouseCore/Observability/) or listed here as being added, with a panel that says so."""

import json
import re
from pathlib import Path

METRIC_NAME = re.compile(r"\bgatehouse_[a-z_]+")
TYPE_LINE = re.compile(r"# TYPE (gatehouse_[a-z_]+) ")
# Families written by a helper that takes the name and the type (`family("gatehouse_x", type: …)`).
NAMED_FAMILY = re.compile(r'"(gatehouse_[a-z_]+)", type: "')
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")
# Families of features not built yet: their panels stay empty until then and must say "coming"
# in the title. Every family the gateway exports today has its panel.
COMING: set = set()
COMING_MARK = "(coming)"


def exported_metrics(sources: Path) -> set:
    names = set()
    for swift in sources.rglob("*.swift"):
        text = swift.read_text()
        names.update(TYPE_LINE.findall(text))
        names.update(NAMED_FAMILY.findall(text))
    return names


def panels(dashboard: dict) -> list:
    found = []
    for panel in dashboard.get("panels", []):
        found.append(panel)
        found.extend(panel.get("panels", []))
    return found


def check(dashboard_path: Path, sources: Path) -> list:
    try:
        dashboard = json.loads(dashboard_path.read_text())
    except json.JSONDecodeError as error:
        return [f"{dashboard_path}: not JSON: {error}"]
    exported = exported_metrics(sources)
    problems, used = [], set()
    graphs = [panel for panel in panels(dashboard) if panel.get("type") != "row"]
    if not graphs:
        problems.append(f"{dashboard_path}: no panels")
    for panel in graphs:
        expressions = [target.get("expr", "") for target in panel.get("targets", [])]
        if not any(expressions):
            problems.append(f"panel {panel.get('title')!r}: no query")
        for expression in expressions:
            for name in METRIC_NAME.findall(expression):
                family = _family(name, exported | COMING)
                used.add(family)
                if family not in exported and family not in COMING:
                    problems.append(f"panel {panel.get('title')!r}: {name} is not a metric the "
                                    f"gateway exports")
                elif family in COMING and family not in exported and \
                        COMING_MARK not in panel.get("title", ""):
                    problems.append(f"panel {panel.get('title')!r}: {family} is not exported yet; "
                                    f"say {COMING_MARK} in the title")
    problems += [f"no panel shows {name}" for name in sorted(exported - used)]
    for name in sorted(COMING & exported):
        print(f"    {name} is exported now: drop {COMING_MARK} from its panels and from COMING")
    return problems


def _family(name: str, known: set) -> str:
    if name in known:
        return name
    for suffix in HISTOGRAM_SUFFIXES:
        if name.endswith(suffix) and name[: -len(suffix)] in known:
            return name[: -len(suffix)]
    return name
