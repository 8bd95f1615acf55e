"""The admin listener: health, readiness, Prometheus metrics and the /status document."""

import re
import time
from datetime import datetime, timezone

import httpx
import pytest

from support.gateway import graphql_door_config, run_cli
from support.graphql_client import graphql_post
from support.raw_http import RawClient

# In the smoke subset (pytest -m smoke): run against the statically linked build too.
pytestmark = pytest.mark.smoke

REQUIRED_METRICS = [
    "gatehouse_requests_total",
    "gatehouse_request_duration_seconds",
    "gatehouse_upstream_requests_total",
    "gatehouse_connections_active",
    "gatehouse_auth_failures_total",
]


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(
        lambda port, admin: graphql_door_config(port, admin, f"{graphql_upstream.url}/graphql"))


def samples(text: str, name: str) -> list:
    """[(labels dict, value)] for every sample of metric `name`."""
    found = []
    for line in text.splitlines():
        match = re.match(rf"^{re.escape(name)}(\{{(.*)\}})?\s+(\S+)", line)
        if match:
            labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(2) or ""))
            found.append((labels, float(match.group(3))))
    return found


def request_count(gateway, route_fragment: str, status: str) -> float:
    return sum(value for labels, value in samples(gateway.metrics_text(), "gatehouse_requests_total")
               if route_fragment in labels.get("route", "") and labels.get("status") == status)


# MARK: - Health


def test_healthz_is_200(gateway):
    assert httpx.get(f"{gateway.admin_url}/healthz", timeout=2).status_code == 200


def test_readyz_is_200_while_serving(gateway):
    assert httpx.get(f"{gateway.admin_url}/readyz", timeout=2).status_code == 200


@pytest.mark.parametrize("method, path, allow", [
    ("GET", "/cache/purge", "POST"),
    ("PUT", "/cache/purge", "POST"),
    ("POST", "/status", "GET, HEAD"),
    ("DELETE", "/healthz", "GET, HEAD"),
])
def test_a_known_admin_path_asked_with_another_method_is_405_with_allow(gateway, method, path, allow):
    response = httpx.request(method, f"{gateway.admin_url}{path}", timeout=2)
    assert response.status_code == 405
    assert response.headers["allow"] == allow


def test_an_unknown_admin_path_is_404_whatever_the_method(gateway):
    for method in ("GET", "POST"):
        response = httpx.request(method, f"{gateway.admin_url}/nothing-here", timeout=2)
        assert response.status_code == 404
        assert "allow" not in response.headers


def test_admin_paths_are_not_on_the_public_listener(gateway):
    response = httpx.get(f"{gateway.url}/metrics", timeout=2)
    assert response.status_code == 404


# MARK: - Metrics


def test_metrics_are_prometheus_text_with_the_required_families(gateway):
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        assert graphql_post(client, "{ hello }").status_code == 200
        assert client.get("/missing").status_code == 404
    response = httpx.get(f"{gateway.admin_url}/metrics", timeout=2)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    for name in REQUIRED_METRICS:
        assert re.search(rf"^# TYPE {name} ", response.text, re.M), f"no # TYPE line for {name}"


def test_requests_total_counts_by_route_and_status(gateway):
    before = request_count(gateway, "/graphql", "200")
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        for _ in range(3):
            assert graphql_post(client, "{ hello }").status_code == 200
    deadline = time.monotonic() + 3
    while request_count(gateway, "/graphql", "200") < before + 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert request_count(gateway, "/graphql", "200") == before + 3


def test_404s_are_counted(gateway):
    httpx.get(f"{gateway.url}/missing-route", timeout=5)
    statuses = {labels.get("status") for labels, _ in
                samples(gateway.metrics_text(), "gatehouse_requests_total")}
    assert "404" in statuses


def test_duration_histogram_has_buckets_sum_and_count(gateway):
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        graphql_post(client, "{ hello }")
    text = gateway.metrics_text()
    buckets = samples(text, "gatehouse_request_duration_seconds_bucket")
    assert buckets, "no histogram buckets"
    assert any(labels.get("le") == "+Inf" for labels, _ in buckets)
    assert any("/graphql" in labels.get("route", "") for labels, _ in buckets)
    assert samples(text, "gatehouse_request_duration_seconds_sum")
    counts = samples(text, "gatehouse_request_duration_seconds_count")
    assert counts and max(value for _, value in counts) >= 1
    # Buckets are cumulative.
    graphql_buckets = [(labels["le"], value) for labels, value in buckets
                       if labels.get("route", "").endswith("/graphql") and "le" in labels]
    values = [value for _, value in sorted(
        graphql_buckets, key=lambda pair: float("inf") if pair[0] == "+Inf" else float(pair[0]))]
    assert values == sorted(values)


def test_upstream_requests_are_counted_by_upstream_and_outcome(gateway):
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        graphql_post(client, "{ hello }")
    upstream_samples = samples(gateway.metrics_text(), "gatehouse_upstream_requests_total")
    assert any(labels.get("upstream") == "app" and "outcome" in labels and value >= 1
               for labels, value in upstream_samples), upstream_samples


def test_active_connections_gauge_sees_an_open_connection(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"GET /graphql?query=%7Bhello%7D HTTP/1.1\r\nHost: gatehouse.test\r\n\r\n")
        assert client.read_response().status == 200
        gauge = samples(gateway.metrics_text(), "gatehouse_connections_active")
        assert gauge and sum(value for _, value in gauge) >= 1


# MARK: - Status


STATUS_FIELDS = {"version", "uptime_seconds", "config_loaded_at", "workers", "draining", "routes",
                 "upstreams", "stores", "identity_providers", "realtime", "cache"}


def status_of(gateway) -> dict:
    response = httpx.get(f"{gateway.admin_url}/status", timeout=2)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    return response.json()


def loaded_at(status: dict) -> datetime:
    text = status["config_loaded_at"]
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$", text), text
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_status_has_every_field(gateway):
    assert set(status_of(gateway)) == STATUS_FIELDS


def test_status_describes_the_process(gateway):
    status = status_of(gateway)
    version = run_cli("version").stdout.split()[-1]
    assert status["version"] == version
    assert isinstance(status["uptime_seconds"], int) and status["uptime_seconds"] >= 0
    assert abs((datetime.now(timezone.utc) - loaded_at(status)).total_seconds()) < 600
    assert status["workers"] == 1
    assert status["draining"] is False


def test_status_lists_routes_and_upstream_endpoints(gateway, graphql_upstream):
    status = status_of(gateway)
    assert status["routes"] == [{"path": "/graphql", "methods": ["GET", "POST"], "upstream": "app",
                                 "auth": "none", "persisted": "allow"}]
    [upstream] = status["upstreams"]
    assert {key: upstream[key] for key in ("name", "url", "kind")} == {
        "name": "app", "url": f"{graphql_upstream.url}/graphql", "kind": "graphql"}
    [endpoint] = upstream["endpoints"]
    assert endpoint["address"] == f"127.0.0.1:{graphql_upstream.port}"
    assert endpoint["healthy"] is True


def test_status_does_not_invent_stores_or_cache_numbers(gateway):
    status = status_of(gateway)
    assert status["stores"] == []
    assert status["identity_providers"] == []
    assert status["cache"] is None
    assert status["realtime"] == {"websocket_tunnels_open": 0, "websocket_closes": []}


def test_uptime_grows(gateway):
    first = status_of(gateway)["uptime_seconds"]
    time.sleep(1.1)
    assert status_of(gateway)["uptime_seconds"] >= first + 1


def status_config(graphql_upstream, extra_routes=()):
    def build(port, admin):
        config = graphql_door_config(port, admin, f"{graphql_upstream.url}/graphql", extra_routes)
        config["auth"] = {"keys": {"type": "api_key", "header": "X-Api-Key", "keys": ["k-1"]}}
        return config
    return build


def wait_for_status(gateway, predicate, timeout: float = 5.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status = status_of(gateway)
        if predicate(status) or time.monotonic() >= deadline:
            return status
        time.sleep(0.05)


def test_config_loaded_at_moves_on_a_successful_reload_only(gateway_factory, graphql_upstream):
    build = status_config(graphql_upstream)
    gateway = gateway_factory.start(build)
    before = status_of(gateway)
    time.sleep(0.05)  # the timestamps have millisecond precision
    gateway.reload(status_config(graphql_upstream, [
        {"path": "/ops/*", "upstream": "app", "auth": ["keys"], "persisted": "only", "methods": ["GET"]},
    ])(gateway.port, gateway.admin_port))
    after = wait_for_status(gateway, lambda s: s["config_loaded_at"] != before["config_loaded_at"])
    assert loaded_at(after) > loaded_at(before)
    assert after["routes"][-1] == {"path": "/ops/*", "methods": ["GET"], "upstream": "app",
                                   "auth": ["keys"], "persisted": "only"}
    assert after["uptime_seconds"] >= before["uptime_seconds"]

    gateway.reload({**build(gateway.port, gateway.admin_port), "bogus_top_level_key": 1})
    deadline = time.monotonic() + 5
    while "reload refused" not in gateway.stderr_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "reload refused" in gateway.stderr_text()
    assert status_of(gateway)["config_loaded_at"] == after["config_loaded_at"]
