"""Strategic-merge patches, as `kubectl patch` and kustomize apply them to the fields these
manifests patch: maps merge key by key, `null` deletes a key, lists of named things (containers,
init containers, volumes, environment variables, volume mounts) merge element by element on
their merge key, and every other list is replaced whole. `$patch: delete` on a list element
removes the element with that key."""

import copy

# The patchMergeKey of each list field the Kubernetes API merges by key (from the API's
# `x-kubernetes-patch-merge-key`), limited to the fields found in Pod templates here.
MERGE_KEYS = {
    "containers": "name",
    "initContainers": "name",
    "ephemeralContainers": "name",
    "volumes": "name",
    "env": "name",
    "volumeMounts": "mountPath",
    "imagePullSecrets": "name",
}


def merge(base, patch):
    """A merged deep copy; neither argument is changed."""
    return _merge(copy.deepcopy(base), patch, field=None)


def _merge(base, patch, field):
    if isinstance(base, dict) and isinstance(patch, dict):
        for key, value in patch.items():
            if value is None:
                base.pop(key, None)
            elif key in base:
                base[key] = _merge(base[key], value, key)
            else:
                base[key] = _strip_directives(copy.deepcopy(value))
        return base
    if isinstance(base, list) and isinstance(patch, list) and field in MERGE_KEYS:
        return _merge_keyed_list(base, patch, MERGE_KEYS[field])
    return _strip_directives(copy.deepcopy(patch))


def _merge_keyed_list(base: list, patch: list, key: str) -> list:
    for element in patch:
        if key not in element:
            raise ValueError(f"list element without its merge key {key!r}: {element!r}")
        matches = [index for index, item in enumerate(base) if item.get(key) == element[key]]
        if element.get("$patch") == "delete":
            for index in reversed(matches):
                del base[index]
        elif matches:
            base[matches[0]] = _merge(base[matches[0]], element, None)
        else:
            base.append(_strip_directives(copy.deepcopy(element)))
    return base


def _strip_directives(value):
    if isinstance(value, dict):
        return {key: _strip_directives(item) for key, item in value.items() if key != "$patch"}
    if isinstance(value, list):
        return [_strip_directives(item) for item in value]
    return value
