"""The response cache in a Redis store (README "Response cache", "Shared state (stores)"), against
real redis-server processes on free loopback ports: hit, miss and expiry through Redis with the
key's expiry at max_age + the longer stale window; two gateways behind haproxy's round robin
share their hits; a purge through one gateway's admin and a mutation's `invalidate` through one
gateway drop the entry for both; subjects stay apart; a value Redis holds that is not an entry
is a miss; Redis killed -> requests bypass the cache within the store timeout, and hits resume
after a restart within the backoff.
"""

import hashlib
import json
import uuid

import httpx
import pytest

from support.auth_checks import metric_value
from support.gateway import base_config
from support.haproxy_balancer import HAProxyBalancer
from support.jwt_keys import claims, mint
from support.redis_server import RedisServer, wait_until

SECRET = b"cache-redis-secret-0123456789abcdef012"  # HS256 wants at least 32 bytes
HELLO = "query Hello($name: String!) { hello(name: $name) }"
MOVIES = "query Movies($genre: String) { movies(genre: $genre) { title } }"
CREATE = "mutation CreateMovie($title: String!) { createMovie(title: $title, genre: \"scifi\") { title } }"
STORED = "gatehouse; fwd=miss; stored"
STORE_DOWN = "gatehouse; fwd=bypass; detail=store-down"
TIMEOUT_MS = 50        # the store's `timeout` in the outage test (the default)
# The shared pair's: a command slower than the timeout is a bypass, as it must be, but on a busy
# shared test machine a 50 ms stall now and then would turn an expected hit into a bypass.
PAIR_TIMEOUT_MS = 500
SLACK_MS = 100         # a busy, shared test machine (as in test_stores_redis.py)
RECOVERY_SECONDS = 6.0  # the backoff runs 250 ms, 500 ms, 1 s, 2 s … up to 10 s
ENTRY_KEYS = "gatehouse:rc:e:*"


def cache_config(graphql_url: str, redis_url: str, timeout_ms: int = TIMEOUT_MS):
    def config(port, admin):
        routes = [
            {"path": "/pub", "upstream": "app", "auth": "none", "cache": {"max_age": "30s"}},
            {"path": "/short", "upstream": "app", "auth": "none", "cache": {"max_age": "1s"}},
            {"path": "/windows", "upstream": "app", "auth": "none",
             "cache": {"max_age": "2s", "stale_while_revalidate": "30s", "stale_if_error": "5s"}},
            {"path": "/user", "upstream": "app", "auth": "user-jwt", "cache": {"max_age": "30s"}},
        ]
        document = base_config(port, admin, routes=routes, workers=2,
                               upstreams={"app": {"url": f"{graphql_url}/graphql"}})
        document["auth"] = {"user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET.decode()}}
        document["stores"] = {"shared": {"type": "redis", "url": redis_url, "timeout": f"{timeout_ms}ms"}}
        document["cache"] = {"store": "shared", "invalidate": {"CreateMovie": ["Movies"]}}
        return document

    return config


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis-cache")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pair(module_gateways, graphql_upstream, redis):
    """Two replicas sharing one Redis."""
    config = cache_config(graphql_upstream.url, redis.url(), timeout_ms=PAIR_TIMEOUT_MS)
    return module_gateways.start(config, name="replica-a"), module_gateways.start(config, name="replica-b")


def unique(prefix: str = "n") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def call(url: str, path: str, query=HELLO, variables=None, headers=None) -> httpx.Response:
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    return httpx.post(f"{url}{path}", content=body, timeout=10,
                      headers={"Content-Type": "application/json", **(headers or {})})


def hello_calls(graphql_upstream, name: str) -> int:
    body = json.dumps({"query": HELLO, "variables": {"name": name}}).encode()
    digest = hashlib.sha256(body).hexdigest()
    return sum(1 for entry in graphql_upstream.requests() if entry["body_sha256"] == digest)


def purge(gateway, body: bytes) -> httpx.Response:
    return httpx.post(f"{gateway.admin_url}/cache/purge", content=body, timeout=5)


def bearer(sub: str) -> dict:
    return {"Authorization": f"Bearer {mint(claims(sub=sub), 'HS256', SECRET)}"}


def entry_keys(redis) -> list:
    return [line for line in redis.command("--scan", "--pattern", ENTRY_KEYS).splitlines() if line]


# MARK: - Through Redis


def test_miss_stored_then_hit_then_expiry(pair, graphql_upstream):
    first_gateway, _ = pair
    name = unique()
    first = call(first_gateway.url, "/short", variables={"name": name})
    assert first.status_code == 200 and first.json() == {"data": {"hello": f"Hello, {name}!"}}
    assert first.headers["Cache-Status"] == STORED
    second = call(first_gateway.url, "/short", variables={"name": name})
    assert second.content == first.content and second.headers["Cache-Status"].startswith("gatehouse; hit; ttl=")
    assert second.headers["ETag"].startswith('"')
    assert hello_calls(graphql_upstream, name) == 1
    assert wait_until(lambda: call(first_gateway.url, "/short", variables={"name": name})
                      .headers["Cache-Status"] == STORED, timeout=3.0, interval=0.2)
    assert hello_calls(graphql_upstream, name) == 2


def test_the_key_expires_after_max_age_plus_the_longer_stale_window(pair, redis):
    first_gateway, _ = pair
    before = set(entry_keys(redis))
    assert call(first_gateway.url, "/windows", variables={"name": unique()}).headers["Cache-Status"] == STORED
    added = wait_until(lambda: set(entry_keys(redis)) - before, timeout=2.0)
    assert len(added) == 1, added
    ttl_ms = int(redis.command("PTTL", added.pop()).strip())
    assert 31_000 < ttl_ms <= 32_000, f"max_age 2s + stale_while_revalidate 30s, got {ttl_ms} ms"


def test_a_hit_through_one_gateway_of_what_the_other_stored(pair, graphql_upstream):
    first_gateway, second_gateway = pair
    name = unique()
    assert call(first_gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"] == STORED
    hit = call(second_gateway.url, "/pub", variables={"name": name})
    assert hit.status_code == 200 and hit.headers["Cache-Status"].startswith("gatehouse; hit; ttl=")
    assert hit.json() == {"data": {"hello": f"Hello, {name}!"}}
    assert int(hit.headers["Age"]) <= 1
    assert hello_calls(graphql_upstream, name) == 1


def test_two_gateways_behind_a_balancer_share_hits(pair, graphql_upstream, tmp_path):
    first_gateway, second_gateway = pair
    hits_before = [metric_value(g.metrics_text(), "gatehouse_cache_requests_total", route="/pub", result="hit")
                   for g in pair]
    balancer = HAProxyBalancer(tmp_path / "haproxy", {"a": (first_gateway.port, first_gateway.admin_port),
                                                      "b": (second_gateway.port, second_gateway.admin_port)})
    try:
        balancer.wait_for_states({"a": "UP", "b": "UP"})
        name = unique()
        with httpx.Client(base_url=balancer.url, timeout=10) as client:
            body = json.dumps({"query": HELLO, "variables": {"name": name}}).encode()
            statuses = [client.post("/pub", content=body, headers={"Content-Type": "application/json"})
                        .headers["Cache-Status"] for _ in range(10)]
    finally:
        balancer.stop()
    assert statuses[0] == STORED and all(s.startswith("gatehouse; hit") for s in statuses[1:]), statuses
    assert hello_calls(graphql_upstream, name) == 1
    hits_after = [metric_value(g.metrics_text(), "gatehouse_cache_requests_total", route="/pub", result="hit")
                  for g in pair]
    assert all(after - before >= 3 for before, after in zip(hits_before, hits_after)), (hits_before, hits_after)


def test_purge_through_one_admin_drops_the_entry_for_both(pair):
    first_gateway, second_gateway = pair
    for body, path in ((b'{"operation":"Hello"}', "/pub"), (b'{"route":"/pub"}', "/pub"), (b"{}", "/pub")):
        name = unique()
        assert call(second_gateway.url, path, variables={"name": name}).headers["Cache-Status"] == STORED
        assert call(first_gateway.url, path, variables={"name": name}).headers["Cache-Status"].startswith("gatehouse; hit")
        purged = purge(first_gateway, body)
        assert purged.status_code == 200 and purged.json()["purged"] >= 1, (body, purged.text)
        # Gone from Redis, so for both: a miss through one, then a hit through the other of
        # what that miss stored again.
        assert call(first_gateway.url, path, variables={"name": name}).headers["Cache-Status"] == STORED, body
        assert call(second_gateway.url, path, variables={"name": name}).headers["Cache-Status"].startswith("gatehouse; hit")
    assert purge(first_gateway, b'{"x":1}').status_code == 400


def test_a_mutations_invalidate_through_one_gateway_drops_the_entry_for_both(pair):
    first_gateway, second_gateway = pair
    genre = unique("genre")
    assert call(second_gateway.url, "/pub", query=MOVIES, variables={"genre": genre}).headers["Cache-Status"] == STORED
    assert call(first_gateway.url, "/pub", query=MOVIES, variables={"genre": genre}).headers["Cache-Status"] \
        .startswith("gatehouse; hit")
    created = call(first_gateway.url, "/pub", query=CREATE, variables={"title": unique("title")})
    assert created.status_code == 200 and created.headers["Cache-Status"] == "gatehouse; fwd=bypass"
    assert wait_until(lambda: call(second_gateway.url, "/pub", query=MOVIES, variables={"genre": genre})
                      .headers["Cache-Status"] == STORED, timeout=2.0, interval=0.1)


def test_subject_scope_keeps_two_subjects_apart_in_redis(pair, graphql_upstream):
    first_gateway, second_gateway = pair
    name = unique()
    alice = call(first_gateway.url, "/user", variables={"name": name}, headers=bearer("alice"))
    assert alice.headers["Cache-Status"] == STORED
    bob = call(second_gateway.url, "/user", variables={"name": name}, headers=bearer("bob"))
    assert bob.headers["Cache-Status"] == STORED, "bob never gets alice's entry"
    again = call(second_gateway.url, "/user", variables={"name": name}, headers=bearer("alice"))
    assert again.headers["Cache-Status"].startswith("gatehouse; hit")
    assert again.headers["Cache-Control"].startswith("private, max-age=")
    assert hello_calls(graphql_upstream, name) == 2


def test_a_value_that_is_not_an_entry_is_a_miss_and_counted(pair, redis):
    first_gateway, _ = pair
    name = unique()
    before = set(entry_keys(redis))
    assert call(first_gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"] == STORED
    added = wait_until(lambda: set(entry_keys(redis)) - before, timeout=2.0)
    assert len(added) == 1, added
    errors = metric_value(first_gateway.metrics_text(), "gatehouse_store_errors_total", store="shared", op="get")
    redis.command("SET", added.pop(), "not an entry")
    assert call(first_gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"] == STORED
    assert metric_value(first_gateway.metrics_text(), "gatehouse_store_errors_total", store="shared", op="get") \
        == errors + 1
    assert call(first_gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"].startswith("gatehouse; hit")


def test_status_says_the_counts_live_in_redis(pair):
    status = httpx.get(f"{pair[0].admin_url}/status", timeout=5).json()
    assert status["cache"]["store"] == "shared" and status["cache"]["shared"] is True
    assert status["cache"]["entries"] is None and status["cache"]["bytes"] is None
    assert "gatehouse_cache_entries " not in pair[0].metrics_text()


# MARK: - Outage


def gateway_ms(gateway, request_ids: list) -> list:
    """Milliseconds the gateway spent on each request outside the upstream exchange."""
    wanted = set(request_ids)

    def logged():
        entries = [entry for entry in gateway.access_log() if entry.get("request_id") in wanted]
        return entries if len(entries) == len(wanted) else None

    entries = wait_until(logged, timeout=3.0)
    assert entries, "every request is in the access log"
    return [entry["duration_ms"] - (entry.get("upstream_duration_ms") or 0) for entry in entries]


def test_redis_killed_bypasses_the_cache_then_hits_resume(gateway_factory, graphql_upstream, tmp_path):
    redis = RedisServer(tmp_path / "redis").start()
    try:
        gateway = gateway_factory.start(cache_config(graphql_upstream.url, redis.url()))
        name = unique()
        assert call(gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"] == STORED
        redis.kill()
        request_ids = [unique("down") for _ in range(6)]
        for request_id in request_ids:
            response = call(gateway.url, "/pub", variables={"name": name}, headers={"X-Request-Id": request_id})
            assert response.status_code == 200 and response.json() == {"data": {"hello": f"Hello, {name}!"}}
            assert response.headers["Cache-Status"] == STORE_DOWN
        assert max(gateway_ms(gateway, request_ids)) < TIMEOUT_MS + SLACK_MS
        assert gateway.readyz_status() == 200
        assert wait_until(lambda: metric_value(gateway.metrics_text(), "gatehouse_store_up", store="shared") == 0,
                          timeout=3.0)
        redis.start()
        assert wait_until(lambda: metric_value(gateway.metrics_text(), "gatehouse_store_up", store="shared") == 1,
                          timeout=RECOVERY_SECONDS), gateway.metrics_text()
        # The restarted Redis is empty: a miss that is stored, then hits again.
        statuses = [call(gateway.url, "/pub", variables={"name": name}).headers["Cache-Status"] for _ in range(3)]
        assert statuses[0] == STORED and all(s.startswith("gatehouse; hit") for s in statuses[1:]), statuses
    finally:
        redis.stop()
