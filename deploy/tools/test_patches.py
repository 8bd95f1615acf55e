"""The two patch kinds the kustomize stand-in applies, as kustomize applies them."""

import pytest

import json_patch
import strategic_merge

POD = {"spec": {"initContainers": [{"name": "gatehouse", "restartPolicy": "Always"}],
                "containers": [{"name": "app", "env": [{"name": "A", "value": "1"}]}]}}


@pytest.mark.parametrize("operations, expected", [
    ([{"op": "add", "path": "/spec/containers/-", "value": {"name": "b"}}],
     {"spec": {**POD["spec"], "containers": [*POD["spec"]["containers"], {"name": "b"}]}}),
    ([{"op": "move", "from": "/spec/initContainers/0", "path": "/spec/containers/0"},
      {"op": "remove", "path": "/spec/initContainers"}],
     {"spec": {"containers": [{"name": "gatehouse", "restartPolicy": "Always"},
                              *POD["spec"]["containers"]]}}),
    ([{"op": "replace", "path": "/spec/containers/0/env/0/value", "value": "2"}],
     {"spec": {**POD["spec"], "containers": [{"name": "app", "env": [{"name": "A", "value": "2"}]}]}}),
    ([{"op": "copy", "from": "/spec/containers/0/env", "path": "/spec/env"}],
     {"spec": {**POD["spec"], "env": [{"name": "A", "value": "1"}]}}),
    ([{"op": "test", "path": "/spec/containers/0/name", "value": "app"}], POD),
])
def test_json_patch_applies_every_operation(operations, expected):
    assert json_patch.apply(POD, operations) == expected
    assert POD["spec"]["initContainers"][0]["name"] == "gatehouse", "the input was changed"


@pytest.mark.parametrize("operation", [
    {"op": "test", "path": "/spec/containers/0/name", "value": "gatehouse"},
    {"op": "remove", "path": "/spec/containers/5"},
    {"op": "replace", "path": "/spec/missing/key", "value": 1},
    {"op": "add", "path": "spec", "value": 1},
])
def test_json_patch_refuses_what_does_not_apply(operation):
    with pytest.raises(json_patch.PatchError):
        json_patch.apply(POD, [operation])


@pytest.mark.parametrize("patch, expected", [
    # Named lists merge element by element; the other fields of a merged element stay.
    ({"spec": {"containers": [{"name": "app", "env": [{"name": "B", "value": "2"}]}]}},
     {"spec": {**POD["spec"], "containers": [
         {"name": "app", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]}}),
    # A new name is appended.
    ({"spec": {"initContainers": [{"name": "other"}]}},
     {"spec": {**POD["spec"], "initContainers": [*POD["spec"]["initContainers"], {"name": "other"}]}}),
    # $patch: delete removes the element; null removes a key.
    ({"spec": {"initContainers": [{"name": "gatehouse", "$patch": "delete"}]}},
     {"spec": {**POD["spec"], "initContainers": []}}),
    ({"spec": {"initContainers": None}}, {"spec": {"containers": POD["spec"]["containers"]}}),
    # Lists without a merge key are replaced whole.
    ({"spec": {"args": ["x"]}}, {"spec": {**POD["spec"], "args": ["x"]}}),
])
def test_strategic_merge(patch, expected):
    assert strategic_merge.merge(POD, patch) == expected
