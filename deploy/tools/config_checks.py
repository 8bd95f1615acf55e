"""`gatehouse check` on the config a layout ships, laid out as the Pod would see it: the
ConfigMap's items at their paths under the gateway's mount, the gateway's environment taken from
the rendered Secrets, `--config` from the container's args."""

import copy
import subprocess
import tempfile
from pathlib import Path

import pod_parts as parts

# What the shared-redis overlay may add to the base config, and nothing else.
STORE_TOP_LEVEL_KEYS = ("stores", "cache")
STORE_ROUTE_KEYS = ("rate_limit", "cache")


def check(resources: list, gatehouse: str) -> list:
    """Problems with the layout's config, as `gatehouse check` reports them."""
    with tempfile.TemporaryDirectory(prefix="gatehouse-config-") as root:
        config_path, env = _lay_out(resources, Path(root))
        result = subprocess.run([gatehouse, "check", "--config", str(config_path)],
                                capture_output=True, text=True, env=env, timeout=30,
                                stdin=subprocess.DEVNULL)
    lines = {line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()}
    lines = {line.replace(root, "<mount>") for line in lines}
    return [] if result.returncode == 0 else [f"gatehouse check failed: {line}" for line in sorted(lines)]


def store_additions_problems(base: list, overlay: list) -> list:
    """The overlay's config must be the base's plus its store keys: nothing else may drift."""
    stripped = copy.deepcopy(parts.gateway_config(overlay))
    for key in STORE_TOP_LEVEL_KEYS:
        stripped.pop(key, None)
    for route in stripped.get("routes", []):
        for key in STORE_ROUTE_KEYS:
            route.pop(key, None)
    if stripped != parts.gateway_config(base):
        return ["overlays/shared-redis/gatehouse-config.yaml differs from base/configmap.yaml in "
                "more than its stores, cache and rate limits"]
    return []


def _lay_out(resources: list, root: Path):
    spec = parts.pod_spec(resources)
    gateway, _ = parts.container(spec, parts.GATEWAY_CONTAINER)
    config_map = parts.find(resources, "ConfigMap", parts.CONFIG_MAP)
    volumes = {volume["name"]: volume for volume in spec["volumes"]}
    mount_path = None
    for mount in gateway["volumeMounts"]:
        source = volumes[mount["name"]].get("configMap", {})
        if source.get("name") != parts.CONFIG_MAP:
            continue
        mount_path = mount["mountPath"].rstrip("/")
        for item in source["items"]:
            target = root / item["path"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(config_map["data"][item["key"]].replace(mount_path + "/", f"{root}/"))
    if mount_path is None:
        raise LookupError(f"the gateway does not mount ConfigMap {parts.CONFIG_MAP}")
    arguments = gateway.get("args", [])
    config_in_pod = arguments[arguments.index("--config") + 1]
    environment = _environment(resources, gateway)
    # The layout's Service names resolve inside the cluster only: here they stand for loopback,
    # through the gateway's hosts-file hook (README, "Upstream endpoints and resilience").
    hosts = root / "hosts"
    hosts.write_text("".join(f"127.0.0.1 {name}\n" for name in _service_names(resources)))
    environment["GATEHOUSE_HOSTS_FILE"] = str(hosts)
    return Path(config_in_pod.replace(mount_path + "/", f"{root}/")), environment


def _service_names(resources: list) -> list:
    return [resource["metadata"]["name"] for resource in resources if resource.get("kind") == "Service"]


def _environment(resources: list, gateway: dict) -> dict:
    env = {"PATH": "/usr/bin:/bin"}
    for variable in gateway.get("env", []):
        if "value" in variable:
            env[variable["name"]] = variable["value"]
            continue
        reference = variable["valueFrom"]["secretKeyRef"]
        secret = parts.find(resources, "Secret", reference["name"])
        env[variable["name"]] = secret["stringData"][reference["key"]]
    return env
