"""Renders a kustomization directory as `kustomize build` (or `kubectl kustomize`) would, for the
subset deploy/kubernetes uses: `resources` (files and other kustomization directories) and
`patches` (strategic-merge patches, and JSON patches with a `target`). Debian has no kustomize
package and the test machines reach no other registry, so this stands in for it; any other
kustomization field is refused rather than ignored, so the layouts cannot outgrow it unnoticed.

    python3 deploy/tools/kustomize_subset.py deploy/kubernetes/overlays/shared-redis
"""

import sys
from pathlib import Path

import yaml

import json_patch
import strategic_merge

KUSTOMIZATION_FILE = "kustomization.yaml"
SUPPORTED_FIELDS = {"apiVersion", "kind", "resources", "patches"}
TARGET_FIELDS = {"group", "version", "kind", "name", "namespace"}


class KustomizeError(ValueError):
    pass


def render(directory) -> list:
    """Every resource of the kustomization in `directory`, patched, in resource order."""
    directory = Path(directory)
    kustomization = yaml.safe_load((directory / KUSTOMIZATION_FILE).read_text())
    unsupported = set(kustomization) - SUPPORTED_FIELDS
    if unsupported:
        raise KustomizeError(f"{directory / KUSTOMIZATION_FILE}: fields this renderer does not "
                             f"implement: {', '.join(sorted(unsupported))}")
    resources = []
    for entry in kustomization.get("resources", []):
        path = directory / entry
        if path.is_dir():
            resources.extend(render(path))
        else:
            resources.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    _check_unique(resources, directory)
    for entry in kustomization.get("patches", []):
        resources = _apply_patch(resources, directory, entry)
    return resources


class _ReadableDumper(yaml.SafeDumper):
    """Writes multi-line strings (the ConfigMap's files) as `|` blocks, as they were written."""


_ReadableDumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
    "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None))


def dump(resources: list) -> str:
    """The rendered resources as one multi-document YAML stream."""
    return yaml.dump_all(resources, Dumper=_ReadableDumper, sort_keys=False, allow_unicode=True)


def resource_id(resource: dict) -> str:
    return f"{resource['kind']}/{resource['metadata']['name']}"


def _check_unique(resources: list, directory: Path) -> None:
    seen = set()
    for resource in resources:
        identity = (resource.get("apiVersion"), resource_id(resource))
        if identity in seen:
            raise KustomizeError(f"{directory}: {resource_id(resource)} is defined twice")
        seen.add(identity)


def _apply_patch(resources: list, directory: Path, entry: dict) -> list:
    patch_path = directory / entry["path"]
    patch = yaml.safe_load(patch_path.read_text())
    target = entry.get("target")
    if isinstance(patch, list):
        if target is None:
            raise KustomizeError(f"{patch_path}: a JSON patch needs a target")
        apply = lambda resource: json_patch.apply(resource, patch)  # noqa: E731
    else:
        target = target or {"kind": patch["kind"], "name": patch["metadata"]["name"]}
        apply = lambda resource: strategic_merge.merge(resource, patch)  # noqa: E731
    unknown = set(target) - TARGET_FIELDS
    if unknown:
        raise KustomizeError(f"{patch_path}: target selectors not implemented: {sorted(unknown)}")
    matched, patched = 0, []
    for resource in resources:
        if _matches(resource, target):
            matched += 1
            try:
                resource = apply(resource)
            except ValueError as error:
                raise KustomizeError(f"{patch_path} on {resource_id(resource)}: {error}") from None
        patched.append(resource)
    if matched == 0:
        raise KustomizeError(f"{patch_path}: no resource matches the target {target}")
    return patched


def _matches(resource: dict, target: dict) -> bool:
    group, _, version = resource["apiVersion"].rpartition("/")
    actual = {"group": group, "version": version, "kind": resource["kind"],
              "name": resource["metadata"]["name"],
              "namespace": resource["metadata"].get("namespace")}
    return all(actual[field] == wanted for field, wanted in target.items())


def main(arguments: list) -> int:
    if len(arguments) != 1:
        print("usage: kustomize_subset.py DIRECTORY", file=sys.stderr)
        return 2
    print(dump(render(arguments[0])), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
