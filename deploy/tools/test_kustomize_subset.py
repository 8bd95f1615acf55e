"""The kustomize stand-in on small layouts written for the test."""

import textwrap

import pytest

import kustomize_subset

CONFIG_MAP = """\
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: "1", b: "2"}
"""


def write(directory, files: dict):
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(textwrap.dedent(text))
    return directory


def test_overlay_patches_the_base_resources(tmp_path):
    base = write(tmp_path / "base", {"kustomization.yaml": "resources: [cm.yaml]\n",
                                     "cm.yaml": CONFIG_MAP})
    overlay = write(tmp_path / "overlay", {
        "kustomization.yaml": """\
            resources: [../base]
            patches:
              - path: merge.yaml
              - path: ops.yaml
                target: {version: v1, kind: ConfigMap, name: settings}
            """,
        "merge.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {b: '3'}\n",
        "ops.yaml": "- {op: add, path: /data/c, value: '4'}\n"})
    assert base.is_dir()
    assert kustomize_subset.render(overlay) == [
        {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"},
         "data": {"a": "1", "b": "3", "c": "4"}}]


@pytest.mark.parametrize("kustomization, message", [
    ("resources: [cm.yaml]\nnamePrefix: x-\n", "does not implement: namePrefix"),
    ("resources: [cm.yaml, cm.yaml]\n", "defined twice"),
    ("resources: [cm.yaml]\npatches: [{path: ops.yaml}]\n", "needs a target"),
    ("resources: [cm.yaml]\npatches: [{path: ops.yaml, target: {kind: Secret}}]\n", "no resource matches"),
    ("resources: [cm.yaml]\npatches: [{path: ops.yaml, target: {kind: ConfigMap, labelSelector: a=b}}]\n",
     "not implemented"),
])
def test_what_it_cannot_render_is_an_error(tmp_path, kustomization, message):
    layout = write(tmp_path, {"kustomization.yaml": kustomization, "cm.yaml": CONFIG_MAP,
                              "ops.yaml": "- {op: remove, path: /data/a}\n"})
    with pytest.raises(kustomize_subset.KustomizeError, match=message):
        kustomize_subset.render(layout)
