"""The Pod rules on the shipped layouts, and on copies of the base broken one way at a time."""

import copy
from pathlib import Path

import pytest

import kustomize_subset
import pod_parts
import pod_rules

KUBERNETES = Path(__file__).resolve().parents[1] / "kubernetes"
BASE = kustomize_subset.render(KUBERNETES / "base")
CLASSIC = kustomize_subset.render(KUBERNETES / "overlays" / "classic-sidecar")


def spec_of(resources):
    return pod_parts.pod_spec(resources)


def gateway_of(resources):
    return pod_parts.container(spec_of(resources), pod_parts.GATEWAY_CONTAINER)[0]


def app_of(resources):
    return pod_parts.container(spec_of(resources), pod_parts.APP_CONTAINER)[0]


def broken(resources, change):
    copied = copy.deepcopy(resources)
    change(copied)
    return copied


@pytest.mark.parametrize("layout", [BASE, CLASSIC], ids=["base", "classic-sidecar"])
def test_shipped_layouts_keep_every_rule(layout):
    assert pod_rules.check(layout) == []


@pytest.mark.parametrize("layout, change, problem", [
    (BASE, lambda r: spec_of(r).update(terminationGracePeriodSeconds=30),
     "terminationGracePeriodSeconds 30 is not above the shutdown's 40s"),
    (BASE, lambda r: app_of(r)["lifecycle"]["preStop"]["exec"].update(command=["sleep", "2"]),
     "sleeps 2s, under the 5s endpoints propagation"),
    (BASE, lambda r: gateway_of(r).update(lifecycle={"preStop": {"sleep": {"seconds": 5}}}),
     "a native sidecar's preStop only delays its drain"),
    (CLASSIC, lambda r: app_of(r)["lifecycle"]["preStop"]["exec"].update(command=["sleep", "10"]),
     "the app's preStop (10s) ends before the gateway's drain can"),
    (BASE, lambda r: gateway_of(r)["readinessProbe"]["httpGet"].update(path="/healthz"),
     "readinessProbe: wants GET /readyz"),
    (BASE, lambda r: gateway_of(r)["securityContext"].update(readOnlyRootFilesystem=False),
     "movies/gatehouse: readOnlyRootFilesystem is not true"),
    (BASE, lambda r: app_of(r)["securityContext"]["capabilities"].update(drop=["NET_RAW"]),
     "movies/app: capabilities do not drop ALL"),
    (BASE, lambda r: gateway_of(r).update(volumeMounts=gateway_of(r)["volumeMounts"][:1]),
     "/tmp (server.temp_dir) is not an emptyDir"),
    (BASE, lambda r: pod_parts.find(r, "Deployment", "movies")["spec"]["strategy"]
     ["rollingUpdate"].update(maxUnavailable=1),
     "rollingUpdate must be maxUnavailable 0"),
    (BASE, lambda r: r.remove(pod_parts.find(r, "PodDisruptionBudget", "movies")),
     "no PodDisruptionBudget"),
])
def test_each_broken_rule_is_reported(layout, change, problem):
    problems = pod_rules.check(broken(layout, change))
    assert any(problem in found for found in problems), problems
