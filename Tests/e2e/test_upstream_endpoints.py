"""Upstream endpoints and resilience (README, "Upstream endpoints and resilience"): three
endpoint processes on loopback behind one upstream — spread, ejection and readmission,
retries of queries but never of mutations, the retry budget, 503 at once when every endpoint
is down, and a DNS change picked up without a reload. Each test prints its numbers."""

import re
import threading
import time

import httpx
import pytest

from support.endpoint_upstream import EndpointProcess
from support.gateway import base_config
from support.ports import free_port

QUERY = {"query": "query Q { endpoint }"}
MUTATION = {"query": "mutation M { rate }"}


@pytest.fixture
def endpoints():
    started = [EndpointProcess(free_port()) for _ in range(3)]
    yield started
    for endpoint in started:
        endpoint.kill()


def upstream_config(endpoints, **settings) -> dict:
    config = {"url": f"http://127.0.0.1:{endpoints[0].port}/graphql",
              "endpoints": [f"http://127.0.0.1:{e.port}" for e in endpoints]}
    config.update(settings)
    return config


def start_gateway(factory, upstream: dict, env=None):
    return factory.start(lambda port, admin: base_config(
        port, admin, {"app": upstream}, [{"path": "/graphql", "upstream": "app", "auth": "none"}]), env=env)


def metric(gateway, name: str, **labels) -> float:
    """The sum of the series of `name` whose labels include `labels`."""
    total = 0.0
    for line in gateway.metrics_text().splitlines():
        match = re.match(rf"{name}\{{(.*)\}} (\S+)$", line)
        if not match:
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', match.group(1)))
        if all(found.get(key) == value for key, value in labels.items()):
            total += float(match.group(2))
    return total


def requests_per_endpoint(endpoints) -> list:
    return [e.stats()["requests"] for e in endpoints]


def test_round_robin_spreads_evenly(gateway_factory, endpoints):
    gateway = start_gateway(gateway_factory, upstream_config(endpoints))
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        statuses = [client.post("/graphql", json=QUERY).status_code for _ in range(300)]
    spread = requests_per_endpoint(endpoints)
    print(f"round_robin spread over 300 requests: {spread}")
    assert statuses == [200] * 300
    assert spread == [100, 100, 100]


def test_least_request_keeps_load_off_a_slow_endpoint(gateway_factory, endpoints):
    endpoints[0].mode(delay_ms=200)
    gateway = start_gateway(gateway_factory, upstream_config(endpoints, balance="least_request"))
    failures = []

    def client_loop():
        with httpx.Client(base_url=gateway.url, timeout=10) as client:
            for _ in range(30):
                if client.post("/graphql", json=QUERY).status_code != 200:
                    failures.append(1)

    threads = [threading.Thread(target=client_loop) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    spread = requests_per_endpoint(endpoints)
    print(f"least_request spread over 240 requests, endpoint 0 slow (200 ms): {spread}")
    assert not failures
    assert sum(spread) == 240
    assert spread[0] * 2 < sum(spread) / 3  # under half of its even share (round robin gives 80)


def test_killed_endpoint_is_retried_elsewhere_ejected_and_readmitted(gateway_factory, endpoints):
    gateway = start_gateway(gateway_factory, upstream_config(
        endpoints, outlier={"consecutive_failures": 3, "ejection": "1s", "max_ejected": "50%"}))
    victim = endpoints[1]
    label = f"127.0.0.1:{victim.port}"
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        assert [client.post("/graphql", json=QUERY).status_code for _ in range(6)] == [200] * 6
        victim.kill()
        killed_at = time.monotonic()
        statuses = []
        while metric(gateway, "gatehouse_upstream_ejections_total", endpoint=label) < 1:
            statuses.append(client.post("/graphql", json=QUERY).status_code)
            assert time.monotonic() - killed_at < 5, "never ejected"
        time_to_eject = time.monotonic() - killed_at
        statuses += [client.post("/graphql", json=QUERY).status_code for _ in range(30)]
        retries = metric(gateway, "gatehouse_upstream_retries_total", reason="connect")
        assert statuses == [200] * len(statuses), "a refused connect is retried on another endpoint"
        assert retries >= 3

        victim.start()
        back_at = time.monotonic()
        while victim.stats()["requests"] == 0:
            assert client.post("/graphql", json=QUERY).status_code == 200
            assert time.monotonic() - back_at < 10, "never readmitted"
            time.sleep(0.01)
        time_to_readmit = time.monotonic() - back_at
    print(f"killed endpoint: {len(statuses)} requests all 200, {retries:.0f} connect retries, "
          f"ejected {time_to_eject * 1000:.0f} ms after the kill, readmitted {time_to_readmit * 1000:.0f} ms "
          f"after it came back (ejections: {metric(gateway, 'gatehouse_upstream_ejections_total', endpoint=label):.0f})")


def test_query_retried_after_a_reset_mutation_never(gateway_factory, endpoints):
    endpoints[0].mode(reset_every=1)  # every request it reads is cut
    gateway = start_gateway(gateway_factory, upstream_config(
        endpoints, retry={"attempts": 2, "on": ["connect", "reset"], "budget": "100%"}))
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        queries = [client.post("/graphql", json=QUERY).status_code for _ in range(9)]
        gets = [client.get("/graphql", params={"query": "{ endpoint }"}).status_code for _ in range(3)]
        mutations = [client.post("/graphql", json=MUTATION).status_code for _ in range(9)]
    stats = [e.stats() for e in endpoints]
    side_effects = sum(s["mutations"] for s in stats)
    retries = metric(gateway, "gatehouse_upstream_retries_total", reason="reset")
    print(f"reset endpoint: queries {queries}, GETs {gets}, mutations {mutations}; "
          f"reset retries {retries:.0f}; mutation side effects {side_effects} for 9 sent; per endpoint {stats}")
    assert queries == [200] * 9 and gets == [200] * 3
    assert retries == stats[0]["queries"]  # every cut query was sent again
    assert side_effects == 9  # no mutation reached an upstream twice
    assert mutations.count(502) == stats[0]["mutations"] > 0


def test_retry_budget_caps_retries_in_a_failure_storm(gateway_factory, endpoints):
    for endpoint in endpoints:
        endpoint.mode(reset_every=2)  # half of all requests fail
    gateway = start_gateway(gateway_factory, upstream_config(
        endpoints, retry={"attempts": 2, "on": ["reset"], "budget": "20%"}))
    sent = 200
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        statuses = [client.post("/graphql", json=QUERY).status_code for _ in range(sent)]
    retries = metric(gateway, "gatehouse_upstream_retries_total", reason="reset")
    resets = sum(e.stats()["resets"] for e in endpoints)
    print(f"failure storm: {sent} queries, {resets} cut upstream, {retries:.0f} retried, "
          f"{statuses.count(200)} answered 200, {statuses.count(502)} answered 502")
    assert resets >= sent * 0.4
    assert 0 < retries <= sent * 0.2 + 3  # the budget's share plus its small floor
    assert statuses.count(200) + statuses.count(502) == sent


def test_all_endpoints_down_is_503_at_once(gateway_factory, endpoints):
    gateway = start_gateway(gateway_factory, upstream_config(
        endpoints, health_check={"path": "/health", "interval": "100ms", "timeout": "50ms",
                                 "healthy": 1, "unhealthy": 1}))
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        assert client.post("/graphql", json=QUERY).status_code == 200
        for endpoint in endpoints:
            endpoint.kill()
        deadline = time.monotonic() + 5
        while metric(gateway, "gatehouse_upstream_endpoint_healthy") > 0:
            assert time.monotonic() < deadline, "health checks never noticed"
            time.sleep(0.05)
        timings = []
        for _ in range(10):
            started = time.monotonic()
            response = client.post("/graphql", json=QUERY)
            timings.append(time.monotonic() - started)
            assert response.status_code == 503
            assert response.json()["errors"][0]["extensions"]["code"] == "UNAVAILABLE"
    print(f"all endpoints down: 503 UNAVAILABLE in {min(timings) * 1000:.2f}-{max(timings) * 1000:.2f} ms")
    assert sorted(timings)[len(timings) // 2] < 0.010

    for endpoint in endpoints:
        endpoint.start()
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        deadline = time.monotonic() + 5
        while client.post("/graphql", json=QUERY).status_code != 200:
            assert time.monotonic() < deadline, "never healthy again"
            time.sleep(0.05)


def test_dns_change_applied_without_a_reload(gateway_factory, tmp_path):
    """A name in a hosts file (GATEHOUSE_HOSTS_FILE) moves from one loopback address to another."""
    port = free_port()
    first = EndpointProcess(port, host="127.0.0.1")
    second = EndpointProcess(port, host="127.0.0.2")
    try:
        hosts = tmp_path / "hosts"
        hosts.write_text("127.0.0.1 app.test\n")
        gateway = start_gateway(gateway_factory, {"url": f"http://app.test:{port}/graphql", "resolve_interval": "100ms"},
                                env={"GATEHOUSE_HOSTS_FILE": str(hosts)})
        with httpx.Client(base_url=gateway.url, timeout=5) as client:
            assert client.post("/graphql", json=QUERY).status_code == 200
            hosts.write_text("127.0.0.2 app.test\n")
            changed_at = time.monotonic()
            while second.stats()["requests"] == 0:
                assert client.post("/graphql", json=QUERY).status_code == 200
                assert time.monotonic() - changed_at < 5, "the new address was never used"
                time.sleep(0.01)
            moved_after = time.monotonic() - changed_at
            before = first.stats()["requests"]
            assert [client.post("/graphql", json=QUERY).status_code for _ in range(10)] == [200] * 10
            assert first.stats()["requests"] == before  # the old address is drained
        print(f"DNS change: the new address took traffic {moved_after * 1000:.0f} ms after the hosts file changed")
    finally:
        first.kill()
        second.kill()


def test_max_pending_refuses_at_once(gateway_factory, endpoints):
    """One connection per endpoint and one waiter: of six concurrent slow requests to one
    endpoint, one is served, one waits, the other four get 503 without waiting."""
    endpoints[0].mode(delay_ms=300)
    gateway = start_gateway(gateway_factory, upstream_config(endpoints[:1], max_connections=1, max_pending=1))
    results = []

    def one_request():
        with httpx.Client(base_url=gateway.url, timeout=5) as client:
            started = time.monotonic()
            status = client.post("/graphql", json=QUERY).status_code
            results.append((status, time.monotonic() - started))

    threads = [threading.Thread(target=one_request) for _ in range(6)]
    for thread in threads:
        thread.start()
        time.sleep(0.02)  # in order: the first takes the connection, the second waits
    for thread in threads:
        thread.join()
    refused = [elapsed for status, elapsed in results if status == 503]
    print(f"max_pending 1: statuses {sorted(s for s, _ in results)}, "
          f"503s within {max(refused) * 1000:.1f} ms")
    assert sorted(s for s, _ in results) == [200, 200, 503, 503, 503, 503]
    assert max(refused) < 0.1
