"""Shared state in Redis (README "Shared state (stores)"), against real redis-server processes
the tests start on free loopback ports: two gateways behind haproxy share one allowance;
requests that arrive together are decided by one script call and still count exactly; a
Redis killed or frozen mid-run (SIGSTOP: it accepts and never answers) makes each store follow
its `on_failure` within one store timeout, and once the store is marked down no request waits
for it; a restarted Redis is used again within the backoff; a wrong password is a clear error
at start and the store is down in the metrics while the gateway stays ready.
"""

import signal
import time
import uuid
from pathlib import Path

import pytest

from support.auth_checks import QUERY_BODY, metric_value
from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.haproxy_balancer import HAProxyBalancer
from support.raw_http import RawClient
from support.redis_server import RedisServer, wait_until

TIMEOUT_MS = 50        # the stores' `timeout` in these tests (the default)
# What a request may take beyond the store's timeout on a shared, busy test machine. Times are
# the gateway's own (the access log's duration less its upstream duration), so neither the
# client's nor the upstream's scheduling counts.
SLACK_MS = 100
# The backoff runs 250 ms, 500 ms, 1 s, 2 s … up to 10 s; the outages here last a few seconds.
RECOVERY_SECONDS = 6.0


def stores_config(upstream_url: str, redis_url: str, routes: list, stores=None, **server):
    """`config_for_ports` for a gateway with one store per `on_failure` policy on `redis_url`."""

    def config(port, admin):
        document = base_config(port, admin, upstreams={"app": {"url": f"{upstream_url}/graphql"}},
                               routes=routes, **server)
        document["stores"] = stores or {
            policy: {"type": "redis", "url": redis_url, "timeout": "50ms", "on_failure": policy}
            for policy in ("local", "open", "closed")}
        return document

    return config


def route(path: str, store: str, rate: str, burst: int, key: str = "header:X-Client") -> dict:
    return {"path": path, "upstream": "app", "auth": "none",
            "rate_limit": [{"name": path.strip("/"), "key": key, "rate": rate, "burst": burst, "store": store}]}


def post(client: RawClient, path: str, client_key: str, request_id: str = None):
    headers = [("Content-Type", "application/json"), ("X-Client", client_key)]
    if request_id:
        headers.append(("X-Request-Id", request_id))
    client.request("POST", path, headers=headers, body=QUERY_BODY)
    return client.read_response(method="POST")


def timed(client: RawClient, path: str, client_key: str):
    """The response and the request id to find the gateway's own time by (`gateway_ms`)."""
    request_id = unique("req")
    return post(client, path, client_key, request_id), request_id


def gateway_ms(gateway, request_ids: list) -> dict:
    """Request id -> milliseconds the gateway spent on it outside the upstream exchange."""
    wanted = set(request_ids)
    entries = []
    deadline = time.monotonic() + 3.0
    while len(entries) < len(wanted) and time.monotonic() < deadline:
        entries = [entry for entry in gateway.access_log() if entry.get("request_id") in wanted]
        time.sleep(0.05)
    assert len(entries) == len(wanted), f"access log has {len(entries)} of {len(wanted)} requests"
    return {entry["request_id"]: entry["duration_ms"] - (entry.get("upstream_duration_ms") or 0)
            for entry in entries}


def store_up(gateway, store: str) -> float:
    return metric_value(gateway.metrics_text(), "gatehouse_store_up", store=store)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


# MARK: - Shared allowance


def test_two_gateways_behind_a_balancer_share_one_allowance(gateway_factory, graphql_upstream, redis_server, tmp_path):
    """10/s with a burst of 5 on one key, a request every 20 ms for 10 s through haproxy's round
    robin over two gateways: about 105 pass in all — not twice that."""
    config = stores_config(graphql_upstream.url, redis_server.url(),
                           [route("/shared", "shared", "10/s", 5, key="route")],
                           stores={"shared": {"type": "redis", "url": redis_server.url()}}, workers=2)
    first = gateway_factory.start(config, name="replica-a")
    second = gateway_factory.start(config, name="replica-b")
    balancer = HAProxyBalancer(tmp_path / "haproxy", {"a": (first.port, first.admin_port),
                                                      "b": (second.port, second.admin_port)})
    try:
        balancer.wait_for_states({"a": "UP", "b": "UP"})
        allowed = refused = 0
        with RawClient(balancer.port, timeout=5.0) as client:
            started = time.monotonic()
            while time.monotonic() - started < 10.0:
                response = post(client, "/shared", "any")
                if response.status == 200:
                    allowed += 1
                else:
                    assert_raw_envelope(response, 429, "RATE_LIMITED", source="gateway")
                    refused += 1
                time.sleep(0.02)
    finally:
        balancer.stop()
    print(f"two gateways, one Redis (10/s, burst 5, 10 s): {allowed} allowed, {refused} refused")
    assert 103 <= allowed <= 107, (allowed, refused)
    for gateway in (first, second):
        served = metric_value(gateway.metrics_text(), "gatehouse_requests_total", route="/shared", status="200")
        assert served > 20, f"{gateway.workdir.name} served {served}: the balancer must spread the requests"
        assert store_up(gateway, "shared") == 1
        assert metric_value(gateway.metrics_text(), "gatehouse_store_latency_seconds_count", store="shared") > 20


def evalsha_calls(redis_server) -> int:
    for line in redis_server.command("INFO", "commandstats").splitlines():
        if line.startswith("cmdstat_evalsha:"):
            return int(line.split("calls=")[1].split(",")[0])
    return 0


def all_threads_stopped(pid: int) -> bool:
    """SIGSTOP takes effect asynchronously: a request sent before every thread has stopped
    could be served on its own."""
    tasks = Path(f"/proc/{pid}/task")
    return all((task / "stat").read_text().rsplit(")", 1)[1].split()[0] == "T" for task in tasks.iterdir())


def statuses_of_requests_arriving_together(gateway, path: str, client_keys: list) -> list:
    """Sends one request per key in `client_keys`, on as many connections the gateway has
    already accepted, while it is stopped (SIGSTOP), then resumes it: they all arrive in one loop
    iteration. Returns each one's status, in order."""
    clients = [RawClient(gateway.port, timeout=10.0) for _ in client_keys]
    try:
        time.sleep(0.5)  # every connection accepted before the gateway stops
        gateway.signal(signal.SIGSTOP)
        assert wait_until(lambda: all_threads_stopped(gateway.process.pid), timeout=3.0)
        try:
            for client, key in zip(clients, client_keys):
                client.request("POST", path, headers=[("Content-Type", "application/json"), ("X-Client", key)],
                               body=QUERY_BODY)
            time.sleep(0.2)
        finally:
            gateway.signal(signal.SIGCONT)
        statuses = []
        for client in clients:
            response = client.read_response(method="POST")
            if response.status != 200:
                assert_raw_envelope(response, 429, "RATE_LIMITED", source="gateway")
            statuses.append(response.status)
        return statuses
    finally:
        for client in clients:
            client.close()


def test_requests_arriving_together_share_one_script_call_and_count_exactly(gateway_factory, graphql_upstream,
                                                                            redis_server):
    """100 requests that reach the gateway in one loop iteration, alternating between two keys
    with a burst of 40 and next to no refill: their limit stages go to Redis as one script call
    (the script decides each key's run of stages in one step), and exactly 40 of each key pass."""
    config = stores_config(graphql_upstream.url, redis_server.url(), [route("/together", "shared", "40/h", 40)],
                           stores={"shared": {"type": "redis", "url": redis_server.url(), "timeout": "2s"}})
    gateway = gateway_factory.start(config)
    with RawClient(gateway.port, timeout=5.0) as client:
        assert post(client, "/together", unique("warm")).status == 200, "the store's connection is up"
    redis_server.command("CONFIG", "RESETSTAT")
    keys = [unique("a"), unique("b")]
    sent = [keys[index % 2] for index in range(100)]
    statuses = statuses_of_requests_arriving_together(gateway, "/together", sent)
    allowed = {key: sum(1 for sent_key, status in zip(sent, statuses) if sent_key == key and status == 200)
               for key in keys}
    assert allowed == {keys[0]: 40, keys[1]: 40}
    # One iteration's stages make one call; a connection read an iteration later would add one.
    assert 1 <= evalsha_calls(redis_server) <= 3, redis_server.command("INFO", "commandstats")


def stored_tats(redis_server, path: str) -> dict:
    """The TATs (µs) the store holds for a route's limits, by key: `<prefix>rl:<route>\\0<policy>\\0<key>`."""
    script = ("local out = {} for _, k in ipairs(redis.call('KEYS', '*rl:' .. ARGV[1] .. '*')) do "
              "out[#out + 1] = k; out[#out + 1] = redis.call('GET', k) end return out")
    lines = redis_server.command("EVAL", script, 0, path).splitlines()
    return {key: int(value) for key, value in zip(lines[0::2], lines[1::2])}


def test_a_batch_of_two_limit_stages_is_all_or_nothing_in_redis(gateway_factory, graphql_upstream, redis_server):
    """Stages of two limits (per client, burst 10; the whole route, burst 15, one taken by the
    warm-up) arriving together: 20 from client a, 10 from client b. A stage refused by its
    client's limit takes nothing from the route's allowance, neither in the answers (the
    gateway's replay of the script) nor in what the script stores: whatever the order, exactly
    14 pass, at most 10 of each client, and each key's TAT moved on by exactly its passes."""
    limits = [{"name": "per-client", "key": "header:X-Client", "rate": "10/h", "burst": 10, "store": "shared"},
              {"name": "whole-route", "key": "route", "rate": "15/h", "burst": 15, "store": "shared"}]
    routes = [{"path": "/pair", "upstream": "app", "auth": "none", "rate_limit": limits}]
    config = stores_config(graphql_upstream.url, redis_server.url(), routes,
                           stores={"shared": {"type": "redis", "url": redis_server.url(), "timeout": "2s"}})
    gateway = gateway_factory.start(config)
    with RawClient(gateway.port, timeout=5.0) as client:
        assert post(client, "/pair", unique("warm")).status == 200, "the store's connection is up"
    route_key = next(key for key in stored_tats(redis_server, "/pair") if key.endswith("whole-route\0"))
    route_before = stored_tats(redis_server, "/pair")[route_key]
    redis_server.command("CONFIG", "RESETSTAT")
    a, b = unique("a"), unique("b")
    sent = [a] * 20 + [b] * 10
    statuses = statuses_of_requests_arriving_together(gateway, "/pair", sent)
    allowed = {key: sum(1 for sent_key, status in zip(sent, statuses) if sent_key == key and status == 200)
               for key in (a, b)}
    assert sum(allowed.values()) == 14, allowed
    assert allowed[a] <= 10 and allowed[b] <= 10, allowed
    assert 1 <= evalsha_calls(redis_server) <= 3, redis_server.command("INFO", "commandstats")
    tats = stored_tats(redis_server, "/pair")
    route_interval, client_interval = 240_000_000, 360_000_000  # 15/h and 10/h, in µs
    assert tats[route_key] - route_before == 14 * route_interval
    tat_a, tat_b = (next(tat for key, tat in tats.items() if key.endswith(client)) for client in (a, b))
    assert tat_a - tat_b == (allowed[a] - allowed[b]) * client_interval


def test_a_flushed_script_cache_is_loaded_again(gateway_factory, graphql_upstream, redis_server):
    """SCRIPT FLUSH (or a failover to a fresh replica) empties Redis's script cache: the next
    EVALSHA answers NOSCRIPT, the gateway loads the script again and sends the same call, and
    the request is decided by Redis as if nothing happened — the limit still counts."""
    config = stores_config(graphql_upstream.url, redis_server.url(), [route("/flushed", "shared", "2/h", 2)],
                           stores={"shared": {"type": "redis", "url": redis_server.url(), "timeout": "2s"}})
    gateway = gateway_factory.start(config)
    key = unique("flushed")
    with RawClient(gateway.port, timeout=5.0) as client:
        assert post(client, "/flushed", key).status == 200
        assert "OK" in redis_server.command("SCRIPT", "FLUSH")
        redis_server.command("CONFIG", "RESETSTAT")
        assert post(client, "/flushed", key).status == 200, "decided after loading the script again"
        assert post(client, "/flushed", key).status == 429, "the burst of 2 is used up: Redis counted both"
    stats = redis_server.command("INFO", "commandstats")
    assert "cmdstat_script|load:calls=1," in stats, stats
    assert "failed_calls=1" in next(line for line in stats.splitlines() if line.startswith("cmdstat_evalsha:")), stats
    assert store_up(gateway, "shared") == 1


# MARK: - Outages


def outage_config(graphql_upstream, redis_server):
    routes = [route("/local", "local", "1/m", 2), route("/open", "open", "1/m", 1),
              route("/closed", "closed", "1000/s", 1000)]
    return stores_config(graphql_upstream.url, redis_server.url(), routes)


def assert_follows_on_failure(gateway) -> None:
    """The store is down everywhere: each policy answers at once, none waits for Redis."""
    assert wait_until(lambda: all(store_up(gateway, name) == 0 for name in ("local", "open", "closed")),
                      timeout=3.0), gateway.metrics_text()
    with RawClient(gateway.port, timeout=5.0) as client:
        key = unique("down")
        # local: this process's memory enforces the limit (burst 2, then refused).
        local = [timed(client, "/local", key) for _ in range(3)]
        assert [response.status for response, _ in local] == [200, 200, 429]
        # open: allowed beyond the limit (burst 1).
        opened = [timed(client, "/open", key) for _ in range(3)]
        assert [response.status for response, _ in opened] == [200, 200, 200]
        # closed: 503 UNAVAILABLE, retryable, nothing sent upstream.
        closed, closed_id = timed(client, "/closed", key)
        extensions = assert_raw_envelope(closed, 503, "UNAVAILABLE", source="gateway")
        assert extensions["retryable"] is True
    times = gateway_ms(gateway, [request_id for _, request_id in local + opened] + [closed_id])
    print(f"store marked down: slowest request {max(times.values()):.1f} ms (store timeout {TIMEOUT_MS} ms)")
    assert max(times.values()) < TIMEOUT_MS, f"a request waited for a store marked down: {times}"
    assert gateway.readyz_status() == 200, "a store outage must not take the gateway out of service"


def first_requests_within_one_timeout(gateway) -> None:
    """Right after the failure, before each store is marked down: no request waits longer than
    one store timeout. (An idle connection learns of a frozen Redis only from its first command.)"""
    expected = {"/local": {200}, "/open": {200}, "/closed": {503}}
    request_ids = []
    with RawClient(gateway.port, timeout=5.0) as client:
        for _ in range(3):
            for path, statuses in expected.items():
                response, request_id = timed(client, path, unique("early"))
                assert response.status in statuses, (path, response.status)
                request_ids.append(request_id)
    times = gateway_ms(gateway, request_ids)
    print(f"before the store is marked down: slowest request {max(times.values()):.1f} ms (timeout {TIMEOUT_MS} ms)")
    assert max(times.values()) < TIMEOUT_MS + SLACK_MS, times


def assert_recovers(gateway) -> None:
    started = time.monotonic()
    assert wait_until(lambda: all(store_up(gateway, name) == 1 for name in ("local", "open", "closed")),
                      timeout=RECOVERY_SECONDS), gateway.metrics_text()
    print(f"store up again {time.monotonic() - started:.2f} s after Redis came back")
    with RawClient(gateway.port, timeout=5.0) as client:
        assert post(client, "/closed", unique("back")).status == 200
        key = unique("back")
        assert [post(client, "/open", key).status for _ in range(2)] == [200, 429], "the limit is enforced again"


def test_redis_killed_mid_run_then_restarted(gateway_factory, graphql_upstream, redis_server):
    gateway = gateway_factory.start(outage_config(graphql_upstream, redis_server))
    with RawClient(gateway.port, timeout=5.0) as client:
        key = unique("up")
        assert [post(client, "/open", key).status for _ in range(2)] == [200, 429]
    redis_server.kill()
    first_requests_within_one_timeout(gateway)
    assert_follows_on_failure(gateway)
    errors = metric_value(gateway.metrics_text(), "gatehouse_store_errors_total", store="open", op="connect")
    assert errors > 0
    assert "store open (redis://127.0.0.1:" in gateway.stderr_text()
    redis_server.start()
    assert_recovers(gateway)
    assert "is up again" in gateway.stderr_text()


def test_redis_that_accepts_and_never_answers(gateway_factory, graphql_upstream, redis_server):
    gateway = gateway_factory.start(outage_config(graphql_upstream, redis_server))
    with RawClient(gateway.port, timeout=5.0) as client:
        assert post(client, "/closed", unique("up")).status == 200
    redis_server.pause()
    try:
        first_requests_within_one_timeout(gateway)
        assert_follows_on_failure(gateway)
        assert metric_value(gateway.metrics_text(), "gatehouse_store_errors_total", store="open", op="rate_limit") > 0
    finally:
        redis_server.resume()
    assert_recovers(gateway)


# MARK: - Credentials


def test_wrong_password_is_a_clear_error_and_the_store_is_down(gateway_factory, graphql_upstream, tmp_path):
    redis = RedisServer(tmp_path / "redis-auth", password="right-password").start()
    try:
        stores = {
            "wrong": {"type": "redis", "url": redis.url(), "password": "wrong-password", "on_failure": "open"},
            "right": {"type": "redis", "url": redis.url(password_in_url=True, database=2)},
        }
        routes = [route("/wrong", "wrong", "1/m", 1), route("/right", "right", "1/m", 1)]
        gateway = gateway_factory.start(stores_config(graphql_upstream.url, redis.url(), routes, stores=stores))
        assert wait_until(lambda: "WRONGPASS" in gateway.stderr_text(), timeout=3.0), gateway.stderr_text()
        line = next(line for line in gateway.stderr_text().splitlines() if "WRONGPASS" in line)
        assert line.startswith("gatehouse error: store wrong (redis://127.0.0.1:"), line
        assert "password" not in line.split("WRONGPASS")[0], "the password never appears in the log"
        assert "wrong-password" not in gateway.stderr_text() and "right-password" not in gateway.stderr_text()
        assert store_up(gateway, "wrong") == 0
        assert wait_until(lambda: store_up(gateway, "right") == 1, timeout=3.0)
        assert gateway.readyz_status() == 200
        with RawClient(gateway.port, timeout=5.0) as client:
            key = unique("auth")
            assert [post(client, "/wrong", key).status for _ in range(2)] == [200, 200], "on_failure: open"
            assert [post(client, "/right", key).status for _ in range(2)] == [200, 429]
        assert redis.command("-n", "2", "DBSIZE").strip() == "1", "SELECT 2 from the url's path"
    finally:
        redis.stop()
