"""Finding things in rendered manifests: the gateway's Deployment, its containers, volumes,
preStop sleeps and config, the way the checks need them."""

import re

import yaml

GATEWAY_DEPLOYMENT = "movies"
GATEWAY_CONTAINER = "gatehouse"
APP_CONTAINER = "app"
CONFIG_MAP = "gatehouse-config"
CONFIG_KEY = "gatehouse.yaml"

DURATION_PART = re.compile(r"(\d+)(ms|s|m|h)")
DURATION_SECONDS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}


def find(resources: list, kind: str, name: str) -> dict:
    for resource in resources:
        if resource["kind"] == kind and resource["metadata"]["name"] == name:
            return resource
    raise LookupError(f"no {kind}/{name} in the rendered manifests")


def pod_spec(resources: list) -> dict:
    return find(resources, "Deployment", GATEWAY_DEPLOYMENT)["spec"]["template"]["spec"]


def container(spec: dict, name: str):
    """(container, is_native_sidecar) for the container called `name`."""
    for candidate in spec.get("initContainers", []):
        if candidate["name"] == name:
            return candidate, candidate.get("restartPolicy") == "Always"
    for candidate in spec.get("containers", []):
        if candidate["name"] == name:
            return candidate, False
    raise LookupError(f"no container {name!r} in the Pod")


def every_container(spec: dict) -> list:
    return spec.get("initContainers", []) + spec.get("containers", [])


def pre_stop_sleep_seconds(container_spec: dict) -> float:
    """The seconds a `sleep N` (exec) or `sleep: {seconds: N}` preStop waits; 0 without one."""
    pre_stop = container_spec.get("lifecycle", {}).get("preStop")
    if not pre_stop:
        return 0
    if "sleep" in pre_stop:
        return float(pre_stop["sleep"]["seconds"])
    command = pre_stop.get("exec", {}).get("command", [])
    if len(command) == 2 and command[0] == "sleep":
        return float(command[1])
    raise ValueError(f"{container_spec['name']}: preStop is not a plain sleep: {pre_stop}")


def gateway_config_text(resources: list) -> str:
    return find(resources, "ConfigMap", CONFIG_MAP)["data"][CONFIG_KEY]


def gateway_config(resources: list) -> dict:
    return yaml.safe_load(gateway_config_text(resources))


def duration_seconds(text: str) -> float:
    parts = DURATION_PART.findall(text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        raise ValueError(f"not a duration: {text!r}")
    return sum(int(number) * DURATION_SECONDS[unit] for number, unit in parts)
