"""Checks every deployment layout under deploy/kubernetes: renders it (kustomize_subset.py),
validates each document against the Kubernetes API schema of the stated version (strict: an
unknown field is an error), applies the Pod rules (pod_rules.py), runs `gatehouse check` on the
config it ships (config_checks.py), and checks the Grafana dashboard (dashboard_check.py).
The rendered manifests are written to --out for inspection.

    python3 deploy/tools/validate.py --gatehouse .build/release/gatehouse
"""

import argparse
import sys
from pathlib import Path

import kubernetes_validate

import config_checks
import dashboard_check
import kustomize_subset
import pod_rules

REPO_ROOT = Path(__file__).resolve().parents[2]
KUBERNETES = REPO_ROOT / "deploy" / "kubernetes"
# Native sidecars (restartable init containers) are on by default from Kubernetes 1.29.
NATIVE_SIDECAR_VERSION = "1.29.0"
# The oldest API schema kubernetes-validate ships; the classic-sidecar overlay is for clusters
# before 1.29 and must be valid there too.
OLDEST_CHECKED_VERSION = "1.25.0"

# layout -> the Kubernetes versions it must be valid for.
LAYOUTS = {
    "base": [NATIVE_SIDECAR_VERSION],
    "overlays/classic-sidecar": [OLDEST_CHECKED_VERSION, NATIVE_SIDECAR_VERSION],
    "overlays/shared-redis": [NATIVE_SIDECAR_VERSION],
}


def schema_problems(resources: list, version: str) -> list:
    problems = []
    for resource in resources:
        try:
            kubernetes_validate.validate(resource, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            problems.append(f"{kustomize_subset.resource_id(resource)} (Kubernetes {version}): "
                            f"{error.message} at {'/'.join(map(str, error.path))}")
    return problems


def check_layout(name: str, gatehouse: str, out: Path, rendered: dict) -> list:
    versions = LAYOUTS[name]
    resources = kustomize_subset.render(KUBERNETES / name)
    rendered[name] = resources
    target = out / (name.replace("/", "-") + ".yaml")
    target.write_text(kustomize_subset.dump(resources))
    problems = []
    for version in versions:
        problems += schema_problems(resources, version)
    problems += pod_rules.check(resources)
    problems += config_checks.check(resources, gatehouse)
    print(f"  {name}: {len(resources)} documents, Kubernetes {', '.join(versions)} "
          f"-> {target.relative_to(REPO_ROOT) if target.is_relative_to(REPO_ROOT) else target}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gatehouse", required=True, help="the gatehouse binary for `check`")
    parser.add_argument("--out", default=str(REPO_ROOT / ".build" / "deploy"),
                        help="where the rendered manifests go")
    arguments = parser.parse_args()
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)

    problems, rendered = [], {}
    for name in LAYOUTS:
        problems += [f"{name}: {problem}"
                     for problem in check_layout(name, arguments.gatehouse, out, rendered)]
    problems += config_checks.store_additions_problems(rendered["base"],
                                                       rendered["overlays/shared-redis"])
    dashboard = REPO_ROOT / "deploy" / "grafana" / "gatehouse.json"
    problems += dashboard_check.check(dashboard, REPO_ROOT / "Sources" / "GatehouseCore")
    print(f"  {dashboard.relative_to(REPO_ROOT)}: checked")
    for problem in problems:
        print(f"FAIL {problem}", file=sys.stderr)
    print(f"validate: {len(LAYOUTS)} layouts, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
