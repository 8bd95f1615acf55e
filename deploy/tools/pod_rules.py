"""What every rendered layout must keep, beyond the API schema: the gateway's probes on the admin
port, the shutdown timeline that lets a drain finish, locked-down containers, a writable /tmp,
zero-downtime rollouts and a disruption budget. Each rule returns the problems it found."""

import pod_parts as parts

ADMIN_PORT_NAME = "admin"
PROBE_PATHS = {"startupProbe": "/healthz", "readinessProbe": "/readyz", "livenessProbe": "/healthz"}
TEMP_DIR = "/tmp"
# The shortest preStop that outlasts a typical endpoints propagation (1-5 s).
MIN_ENDPOINT_PROPAGATION_SECONDS = 5
# What the manifests budget for the app's own graceful shutdown after its SIGTERM.
APP_SHUTDOWN_BUDGET_SECONDS = 10


def check(resources: list) -> list:
    spec = parts.pod_spec(resources)
    config = parts.gateway_config(resources)
    return (probe_problems(spec, config) + shutdown_problems(spec, config)
            + security_problems(resources) + temp_dir_problems(spec) + rollout_problems(resources))


def probe_problems(spec: dict, config: dict) -> list:
    gateway, _ = parts.container(spec, parts.GATEWAY_CONTAINER)
    admin_port = int(config["server"]["admin_listen"].rsplit(":", 1)[1])
    ports = {port.get("name"): port["containerPort"] for port in gateway.get("ports", [])}
    problems = []
    if ports.get(ADMIN_PORT_NAME) != admin_port:
        problems.append(f"port {ADMIN_PORT_NAME!r} is {ports.get(ADMIN_PORT_NAME)}, "
                        f"server.admin_listen says {admin_port}")
    for probe, path in PROBE_PATHS.items():
        get = gateway.get(probe, {}).get("httpGet", {})
        if (get.get("path"), get.get("port")) != (path, ADMIN_PORT_NAME):
            problems.append(f"{probe}: wants GET {path} on port {ADMIN_PORT_NAME!r}, has {get}")
    return problems


def shutdown_problems(spec: dict, config: dict) -> list:
    """Native sidecar: the gateway drains after the app has exited, and the app's preStop holds
    the Pod in service. Classic: both are signalled at once, so the gateway's preStop holds it
    and the app's preStop must outlast the gateway's whole drain."""
    gateway, native = parts.container(spec, parts.GATEWAY_CONTAINER)
    app, _ = parts.container(spec, parts.APP_CONTAINER)
    drain = parts.duration_seconds(config["server"].get("drain_timeout", "20s"))
    grace = spec.get("terminationGracePeriodSeconds", 30)
    gateway_sleep, app_sleep = parts.pre_stop_sleep_seconds(gateway), parts.pre_stop_sleep_seconds(app)
    problems = []
    if native:
        if gateway_sleep:
            problems.append("a native sidecar's preStop only delays its drain: the Pod is out of "
                            "the endpoints long before the sidecar is signalled")
        holding, finished = app_sleep, app_sleep + APP_SHUTDOWN_BUDGET_SECONDS + drain
    else:
        holding, finished = gateway_sleep, max(gateway_sleep + drain,
                                               app_sleep + APP_SHUTDOWN_BUDGET_SECONDS)
        if app_sleep < gateway_sleep + drain:
            problems.append(f"the app's preStop ({app_sleep:g}s) ends before the gateway's drain "
                            f"can ({gateway_sleep:g}s preStop + {drain:g}s drain_timeout)")
    if holding < MIN_ENDPOINT_PROPAGATION_SECONDS:
        problems.append(f"the preStop holding the Pod in service sleeps {holding:g}s, under the "
                        f"{MIN_ENDPOINT_PROPAGATION_SECONDS}s endpoints propagation")
    if grace <= finished:
        problems.append(f"terminationGracePeriodSeconds {grace} is not above the shutdown's "
                        f"{finished:g}s (preStop, app shutdown, drain_timeout {drain:g}s)")
    return problems


def security_problems(resources: list) -> list:
    problems = []
    for deployment in (r for r in resources if r["kind"] == "Deployment"):
        spec = deployment["spec"]["template"]["spec"]
        pod = spec.get("securityContext", {})
        for each in parts.every_container(spec):
            context = each.get("securityContext", {})
            where = f"{deployment['metadata']['name']}/{each['name']}"
            if not context.get("runAsNonRoot", pod.get("runAsNonRoot")):
                problems.append(f"{where}: runAsNonRoot is not set")
            if context.get("readOnlyRootFilesystem") is not True:
                problems.append(f"{where}: readOnlyRootFilesystem is not true")
            if context.get("allowPrivilegeEscalation") is not False:
                problems.append(f"{where}: allowPrivilegeEscalation is not false")
            if context.get("capabilities", {}).get("drop") != ["ALL"]:
                problems.append(f"{where}: capabilities do not drop ALL")
            seccomp = context.get("seccompProfile", pod.get("seccompProfile", {}))
            if seccomp.get("type") != "RuntimeDefault":
                problems.append(f"{where}: seccompProfile is not RuntimeDefault")
    return problems


def temp_dir_problems(spec: dict) -> list:
    gateway, _ = parts.container(spec, parts.GATEWAY_CONTAINER)
    mounts = {mount["mountPath"]: mount["name"] for mount in gateway.get("volumeMounts", [])}
    volumes = {volume["name"]: volume for volume in spec.get("volumes", [])}
    if "emptyDir" not in volumes.get(mounts.get(TEMP_DIR), {}):
        return [f"{TEMP_DIR} (server.temp_dir) is not an emptyDir on the gateway"]
    return []


def rollout_problems(resources: list) -> list:
    deployment = parts.find(resources, "Deployment", parts.GATEWAY_DEPLOYMENT)
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    problems = []
    rolling = deployment["spec"].get("strategy", {}).get("rollingUpdate", {})
    if rolling.get("maxUnavailable") != 0 or not rolling.get("maxSurge"):
        problems.append(f"rollingUpdate must be maxUnavailable 0 with a surge, is {rolling}")
    budgets = [r for r in resources if r["kind"] == "PodDisruptionBudget"
               and r["spec"]["selector"]["matchLabels"].items() <= labels.items()]
    if not budgets:
        problems.append("no PodDisruptionBudget selects the gateway's Pods")
    return problems
