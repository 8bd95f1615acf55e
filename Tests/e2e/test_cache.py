"""Response cache (README "Response cache"): hits, misses and expiry at max_age; entries kept
apart by subject and credential; fetch policies (only-if-cached, no-cache); mutations never
cached and `invalidate`; what is not stored (errors, Set-Cookie, upstream no-store); collapsed
misses; ETag and 304; stale-if-error with the upstream gone; stale-while-revalidate; purge;
and memory staying within max_bytes under many distinct keys.
"""

import hashlib
import json
import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from support.auth_checks import metric_value
from support.gateway import base_config, run_cli
from support.jwt_keys import claims, mint
from support.process_memory import bounds_resident_memory, resident_bytes
from support.raw_http import RawClient
from support.raw_upstream import RawUpstream, respond
from support.yaml_writer import to_yaml

SECRET = b"cache-tests-secret-0123456789abcdef0123"  # HS256 wants at least 32 bytes
API_KEY = "cache-key-5f1e0a"
DISTINCT_KEYS = 100_000
HELLO = "query Hello($name: String!) { hello(name: $name) }"
SLOW = "query Slow($seconds: Float!, $tag: String!) { slow(seconds: $seconds) hello(name: $tag) }"
MOVIES = "query Movies($genre: String) { movies(genre: $genre) { title } }"
CREATE = "mutation CreateMovie($title: String!) { createMovie(title: $title, genre: \"scifi\") { title } }"


def cache_config(graphql_url: str, raw_url: str):
    def config(port, admin):
        routes = [
            {"path": "/pub", "upstream": "app", "auth": "none", "cache": {"max_age": "30s"}},
            {"path": "/short", "upstream": "app", "auth": "none", "cache": {"max_age": "1s"}},
            {"path": "/user", "upstream": "app", "auth": ["user-jwt", "app-keys"], "cache": {"max_age": "30s"}},
            {"path": "/swr", "upstream": "app", "auth": "none",
             "cache": {"max_age": "1s", "stale_while_revalidate": "30s"}},
            {"path": "/raw", "upstream": "raw", "auth": "none",
             "cache": {"max_age": "1s", "stale_if_error": "1m"}},
            {"path": "/raw-swr", "upstream": "raw", "auth": "none",
             "cache": {"max_age": "1s", "stale_while_revalidate": "1m"}},
        ]
        document = base_config(port, admin, routes=routes, workers=2,
                               upstreams={"app": {"url": f"{graphql_url}/graphql"}, "raw": {"url": f"{raw_url}/graphql"}})
        document["auth"] = {
            "user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET.decode()},
            "app-keys": {"type": "api_key", "header": "X-Api-Key", "keys": [API_KEY]},
        }
        document["cache"] = {"max_bytes": "8MiB", "invalidate": {"CreateMovie": ["Movies"]}}
        return document

    return config


@pytest.fixture(scope="module")
def raw():
    upstream = RawUpstream()
    yield upstream
    upstream.stop()


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw):
    return module_gateways.start(cache_config(graphql_upstream.url, raw.url))


@pytest.fixture
def client(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        yield http


def unique(prefix: str = "n") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def call(client, path, query=HELLO, variables=None, headers=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    return client.post(path, content=body, headers={"Content-Type": "application/json", **(headers or {})})


def calls_with_body(graphql_upstream, body: bytes) -> int:
    """Requests the strawberry upstream received with exactly `body` (it records the hash)."""
    digest = hashlib.sha256(body).hexdigest()
    return sum(1 for entry in graphql_upstream.requests() if entry["body_sha256"] == digest)


def hello_calls(graphql_upstream, name: str) -> int:
    return calls_with_body(graphql_upstream, json.dumps({"query": HELLO, "variables": {"name": name}}).encode())


def bearer(sub: str) -> dict:
    return {"Authorization": f"Bearer {mint(claims(sub=sub), 'HS256', SECRET)}"}


# MARK: - Hits, misses, expiry


def test_miss_then_hit_then_expiry_at_max_age(client, graphql_upstream):
    name = unique()
    first = call(client, "/short", variables={"name": name})
    assert first.status_code == 200 and first.json() == {"data": {"hello": f"Hello, {name}!"}}
    assert first.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    second = call(client, "/short", variables={"name": name})
    assert second.status_code == 200 and second.content == first.content
    assert second.headers["Cache-Status"].startswith("gatehouse; hit; ttl=")
    assert second.headers["Cache-Control"].startswith("public, max-age=")
    assert second.headers["ETag"].startswith('"') and "Age" in second.headers
    assert hello_calls(graphql_upstream, name) == 1
    time.sleep(1.3)
    third = call(client, "/short", variables={"name": name})
    assert third.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    assert hello_calls(graphql_upstream, name) == 2


def test_variables_in_another_order_or_spelling_share_the_entry(client, graphql_upstream):
    tag = unique()
    query = "query Two($a: Int!, $b: String!) { hello(name: $b) big(size: $a) }"
    first = client.post("/pub", headers={"Content-Type": "application/json"},
                        content=json.dumps({"query": query, "variables": {"a": 1, "b": tag}}).encode())
    assert first.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    spelled = '{"variables": {"b": "%s", "a": 1.0}, "query": %s}' % (tag, json.dumps(query))
    second = client.post("/pub", headers={"Content-Type": "application/json"}, content=spelled.encode())
    assert second.headers["Cache-Status"].startswith("gatehouse; hit")


def test_two_subjects_never_share_and_api_key_never_sees_jwt_entry(client, graphql_upstream):
    name = unique()
    alice = call(client, "/user", variables={"name": name}, headers=bearer("alice"))
    assert alice.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    again = call(client, "/user", variables={"name": name}, headers=bearer("alice"))
    assert again.headers["Cache-Status"].startswith("gatehouse; hit")
    assert again.headers["Cache-Control"].startswith("private, max-age=")
    bob = call(client, "/user", variables={"name": name}, headers=bearer("bob"))
    assert bob.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    keyed = call(client, "/user", variables={"name": name}, headers={"X-Api-Key": API_KEY})
    assert keyed.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    assert hello_calls(graphql_upstream, name) == 3


# MARK: - Fetch policies


def test_only_if_cached_miss_is_504_cache_miss(client):
    response = call(client, "/pub", variables={"name": unique()}, headers={"Cache-Control": "only-if-cached"})
    assert response.status_code == 504
    extensions = response.json()["errors"][0]["extensions"]
    assert extensions["code"] == "CACHE_MISS" and extensions["retryable"] is False
    assert response.headers["Cache-Status"] == "gatehouse; detail=only-if-cached"


def test_only_if_cached_hit_is_served(client):
    name = unique()
    call(client, "/pub", variables={"name": name})
    response = call(client, "/pub", variables={"name": name}, headers={"Cache-Control": "only-if-cached"})
    assert response.status_code == 200 and response.headers["Cache-Status"].startswith("gatehouse; hit")


def test_no_cache_goes_to_the_upstream_and_refreshes(client, graphql_upstream):
    name = unique()
    call(client, "/pub", variables={"name": name})
    forced = call(client, "/pub", variables={"name": name}, headers={"Cache-Control": "no-cache"})
    assert forced.headers["Cache-Status"] == "gatehouse; fwd=request; stored"
    assert hello_calls(graphql_upstream, name) == 2
    after = call(client, "/pub", variables={"name": name})
    assert after.headers["Cache-Status"].startswith("gatehouse; hit")
    assert int(after.headers["Age"]) == 0


def test_no_store_neither_reads_nor_writes(client, graphql_upstream):
    name = unique()
    response = call(client, "/pub", variables={"name": name}, headers={"Cache-Control": "no-store"})
    assert response.headers["Cache-Status"] == "gatehouse; fwd=bypass"
    assert call(client, "/pub", variables={"name": name}).headers["Cache-Status"] == "gatehouse; fwd=miss; stored"


# MARK: - Mutations and invalidation


def test_mutation_is_never_cached_and_invalidates_listed_operations(client, graphql_upstream):
    listed = call(client, "/pub", query=MOVIES, variables={"genre": "scifi"})
    assert listed.headers["Cache-Status"] in ("gatehouse; fwd=miss; stored", ) or listed.headers["Cache-Status"].startswith("gatehouse; hit")
    assert call(client, "/pub", query=MOVIES, variables={"genre": "scifi"}).headers["Cache-Status"].startswith("gatehouse; hit")
    title = unique("movie")
    for _ in range(2):
        created = call(client, "/pub", query=CREATE, variables={"title": title})
        assert created.status_code == 200 and created.headers["Cache-Status"] == "gatehouse; fwd=bypass"
    after = call(client, "/pub", query=MOVIES, variables={"genre": "scifi"})
    assert after.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    assert after.json()["data"]["movies"].count({"title": title}) == 2


def test_a_failed_mutation_drops_nothing(client, graphql_upstream):
    """A listed mutation answered 200 with `errors` and no `data` changed nothing; anyone may send
    one, so it must not empty the listed operations' entries."""
    genre = unique("genre")
    assert call(client, "/pub", query=MOVIES, variables={"genre": genre}).headers["Cache-Status"].endswith("stored")
    failed = call(client, "/pub", query="mutation CreateMovie { noSuchField }")
    assert failed.status_code == 200 and failed.json().get("data") is None and failed.json()["errors"]
    assert call(client, "/pub", query=MOVIES, variables={"genre": genre}).headers["Cache-Status"].startswith("gatehouse; hit")


def test_a_query_upstream_before_a_mutation_is_not_stored_after_it(client, gateway, graphql_upstream):
    """The query reads the movies at once, then waits in `slow`; the listed mutation lands and
    invalidates meanwhile. Stored when it answered, its pre-mutation list would be a fresh hit."""
    genre = unique("genre")
    slow_movies = "query Movies($genre: String, $s: Float!) { movies(genre: $genre) { title } slow(seconds: $s) }"
    variables = {"genre": genre, "s": 1.0}
    answered = {}

    def slow_query():
        with httpx.Client(base_url=gateway.url, timeout=10) as own:
            answered["first"] = call(own, "/pub", query=slow_movies, variables=variables)

    reader = threading.Thread(target=slow_query)
    reader.start()
    time.sleep(0.3)
    title = unique("movie")
    created = call(client, "/pub", query="mutation CreateMovie($title: String!, $genre: String!) "
                                         "{ createMovie(title: $title, genre: $genre) { title } }",
                   variables={"title": title, "genre": genre})
    assert created.status_code == 200, created.text
    reader.join()
    assert answered["first"].json()["data"]["movies"] == []
    after = call(client, "/pub", query=slow_movies, variables={**variables, "s": 1.0})
    assert after.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    assert after.json()["data"]["movies"] == [{"title": title}]


# MARK: - What is not stored


@pytest.mark.parametrize("body, headers", [
    (b'{"errors":[{"message":"boom"}],"data":null}', [("Content-Type", "application/json")]),
    (b'{"data":{"ok":true}}', [("Content-Type", "application/json"), ("Set-Cookie", "s=1")]),
    (b'{"data":{"ok":true}}', [("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
], ids=["errors", "set-cookie", "upstream-no-store"])
def test_not_stored(client, raw, body, headers):
    raw.reset(respond(200, body, headers))
    name = unique()
    for _ in range(2):
        response = call(client, "/raw", variables={"name": name})
        assert response.headers["Cache-Status"] == "gatehouse; fwd=miss"
    assert len(raw.requests) == 2


def test_upstream_max_age_shorter_than_max_age_wins(client, raw):
    raw.reset(respond(200, b'{"data":{"ok":1}}', [("Content-Type", "application/json"), ("Cache-Control", "max-age=0")]))
    name = unique()
    call(client, "/raw", variables={"name": name})
    assert call(client, "/raw", variables={"name": name}).headers["Cache-Status"] == "gatehouse; fwd=miss"


def test_a_hit_repeats_the_upstream_fields_but_not_its_framing_validators_or_hop_by_hop_fields(client, raw):
    body = b'{"data":{"hello":"stored \xc3\xa9"}}'
    raw.reset(respond(200, body, [
        ("Content-Type", "application/json; charset=utf-8"), ("X-Upstream-Note", "kept"), ("Vary", "Accept"),
        ("Date", "Tue, 01 Dec 2026 00:00:00 GMT"), ("ETag", '"upstream"'), ("Age", "9"), ("Expires", "0"),
        ("X-Request-Id", "upstream-id"), ("Connection", "keep-alive, X-Hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"),
        ("Proxy-Thing", "1")]))
    name = unique()
    miss = call(client, "/raw", variables={"name": name})
    hit = call(client, "/raw", variables={"name": name})
    assert miss.headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    assert hit.headers["Cache-Status"].startswith("gatehouse; hit")
    assert hit.content == miss.content == body
    assert len(raw.requests) == 1
    fields = [(name.lower(), value) for name, value in hit.headers.multi_items()]
    kept = [(name, value) for name, value in fields if name in ("content-type", "x-upstream-note", "vary")]
    assert kept == [("content-type", "application/json; charset=utf-8"), ("x-upstream-note", "kept"), ("vary", "Accept")]
    names = [name for name, _ in fields]
    for dropped in ("x-hop", "keep-alive", "proxy-thing", "expires", "date"):
        assert dropped not in names, fields
    assert names.count("etag") == 1 and hit.headers["ETag"] == '"' + hashlib.sha256(body).hexdigest() + '"'
    assert names.count("age") == 1 and names.count("x-request-id") == 1 and hit.headers["X-Request-Id"] != "upstream-id"
    assert names.count("content-length") == 1 and hit.headers["Content-Length"] == str(len(body))


# MARK: - Collapsing


def test_200_concurrent_identical_misses_make_one_upstream_call(gateway, graphql_upstream):
    tag = unique()
    body = json.dumps({"query": SLOW, "variables": {"seconds": 0.5, "tag": tag}}).encode()
    barrier = threading.Barrier(200)

    def one(_):
        with httpx.Client(base_url=gateway.url, timeout=15) as http:
            barrier.wait()
            return http.post("/pub", content=body, headers={"Content-Type": "application/json"})

    with ThreadPoolExecutor(max_workers=200) as pool:
        responses = list(pool.map(one, range(200)))
    assert all(r.status_code == 200 for r in responses)
    assert len({r.content for r in responses}) == 1
    statuses = [r.headers["Cache-Status"] for r in responses]
    assert statuses.count("gatehouse; fwd=miss; stored") == 1, statuses
    assert all(s in ("gatehouse; fwd=miss; stored", "gatehouse; fwd=miss; collapsed") or s.startswith("gatehouse; hit")
               for s in statuses)
    assert calls_with_body(graphql_upstream, body) == 1


# MARK: - Validators


def test_matching_if_none_match_is_304_without_body(client):
    name = unique()
    call(client, "/pub", variables={"name": name})
    hit = call(client, "/pub", variables={"name": name})
    etag = hit.headers["ETag"]
    revalidated = call(client, "/pub", variables={"name": name}, headers={"If-None-Match": etag})
    assert revalidated.status_code == 304 and revalidated.content == b""
    assert revalidated.headers["ETag"] == etag
    other = call(client, "/pub", variables={"name": name}, headers={"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.content == hit.content


# MARK: - Stale


def test_stale_if_error_serves_the_stale_entry_when_the_upstream_is_gone(gateway_factory, graphql_upstream):
    dying = RawUpstream()
    dying.reset(respond(200, b'{"data":{"ok":"stored"}}'))
    gateway = gateway_factory.start(cache_config(graphql_upstream.url, dying.url))
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        name = unique()
        assert call(http, "/raw", variables={"name": name}).headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
        dying.reset(respond(503, b'{"errors":[{"message":"down"}]}'))
        time.sleep(1.2)
        on_503 = call(http, "/raw", variables={"name": name})
        assert on_503.status_code == 200 and on_503.json() == {"data": {"ok": "stored"}}
        assert on_503.headers["Cache-Status"] == "gatehouse; fwd=stale; fwd-status=503"
        dying.stop()
        refused = call(http, "/raw", variables={"name": name})
        assert refused.status_code == 200 and refused.json() == {"data": {"ok": "stored"}}
        assert refused.headers["Cache-Status"].startswith("gatehouse; fwd=stale; fwd-status=5")
        fresh = call(http, "/raw", variables={"name": unique()})
        assert fresh.status_code == 502


def test_stale_while_revalidate_serves_at_once_and_refreshes_once(client, graphql_upstream):
    name = unique()
    call(client, "/swr", variables={"name": name})
    time.sleep(1.2)
    started = time.monotonic()
    stale = [call(client, "/swr", variables={"name": name}) for _ in range(5)]
    assert time.monotonic() - started < 1.0
    assert all(r.status_code == 200 and r.headers["Cache-Status"].startswith("gatehouse; hit; ttl=") for r in stale)
    deadline = time.monotonic() + 3
    while hello_calls(graphql_upstream, name) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    assert hello_calls(graphql_upstream, name) == 2
    refreshed = call(client, "/swr", variables={"name": name})
    assert refreshed.headers["Cache-Status"].startswith("gatehouse; hit") and int(refreshed.headers["Age"]) == 0


def test_a_refresh_that_stores_nothing_pauses_the_next(gateway_factory, graphql_upstream):
    """stale_while_revalidate in front of a failing upstream: every stale hit is served at once,
    but after a refresh that stored nothing the next waits (1 s, then 2 s, …) rather than going
    upstream on the heels of the last for as long as requests come."""
    failing = RawUpstream()
    failing.reset(respond(200, b'{"data":{"ok":"stored"}}'))
    gateway = gateway_factory.start(cache_config(graphql_upstream.url, failing.url))
    name = unique()

    def stale_hits_for(seconds: float) -> None:
        started = time.monotonic()
        while time.monotonic() - started < seconds:
            stale = call(http, "/raw-swr", variables={"name": name})
            assert stale.status_code == 200 and stale.json() == {"data": {"ok": "stored"}}
            assert stale.headers["Cache-Status"].startswith("gatehouse; hit; ttl=-")
            time.sleep(0.02)

    def refreshes_reach(count: int) -> bool:
        deadline = time.monotonic() + 1.0
        while len(failing.requests) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return len(failing.requests) == count

    try:
        with httpx.Client(base_url=gateway.url, timeout=10) as http:
            assert call(http, "/raw-swr", variables={"name": name}).headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
            failing.reset(respond(503, b'{"errors":[{"message":"down"}]}'))
            time.sleep(1.2)
            stale_hits_for(0.5)
            assert refreshes_reach(1), len(failing.requests)  # then a pause of 1 s
            time.sleep(0.6)
            stale_hits_for(0.5)
            assert refreshes_reach(2), len(failing.requests)  # then 2 s
            stale_hits_for(0.5)
            assert len(failing.requests) == 2
    finally:
        failing.stop()


# MARK: - Purge, metrics, check


def test_purge_by_operation_route_and_all(client, gateway):
    name = unique()
    call(client, "/pub", variables={"name": name})
    purge = httpx.post(f"{gateway.admin_url}/cache/purge", content=b'{"operation":"Hello"}', timeout=5)
    assert purge.status_code == 200 and purge.json()["purged"] >= 1
    assert call(client, "/pub", variables={"name": name}).headers["Cache-Status"] == "gatehouse; fwd=miss; stored"
    purge = httpx.post(f"{gateway.admin_url}/cache/purge", content=b'{"route":"/pub"}', timeout=5)
    assert purge.json()["purged"] >= 1
    assert httpx.post(f"{gateway.admin_url}/cache/purge", content=b"{}", timeout=5).status_code == 200
    assert httpx.post(f"{gateway.admin_url}/cache/purge", content=b'{"x":1}', timeout=5).status_code == 400


def test_metrics(client, gateway):
    name = unique()
    call(client, "/pub", variables={"name": name})
    call(client, "/pub", variables={"name": name})
    text = gateway.metrics_text()
    assert metric_value(text, "gatehouse_cache_requests_total", route="/pub", result="hit") >= 1
    assert metric_value(text, "gatehouse_cache_requests_total", route="/pub", result="miss") >= 1
    assert "gatehouse_cache_entries " in text and "gatehouse_cache_bytes " in text
    assert "gatehouse_cache_evictions_total " in text


def test_check_refuses_subject_scope_on_a_public_route(tmp_path):
    config = {
        "upstreams": {"app": {"url": "http://127.0.0.1:9/graphql"}},
        "routes": [{"path": "/graphql", "upstream": "app", "auth": "none",
                    "cache": {"max_age": "10s", "scope": "subject"}},
                   {"path": "/two", "upstream": "app", "auth": "none", "cache": {"stale_if_error": "1m"}}],
    }
    path = tmp_path / "gatehouse.yaml"
    path.write_text(to_yaml(config))
    result = run_cli("check", "--config", str(path))
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "routes[0].cache.scope" in output and "routes[1].cache.max_age" in output


# MARK: - Memory


@pytest.mark.timeout(600)
@bounds_resident_memory
def test_distinct_keys_keep_memory_within_max_bytes(gateway_factory, raw):
    """100,000 distinct keys through a 4 MiB cache: the process stays under 4 MiB + 16 MiB over
    its resident size before (evictions keep the bound)."""
    raw.reset(respond(200, b'{"data":{"v":"' + b"x" * 200 + b'"}}'))

    def config(port, admin):
        document = cache_config("http://127.0.0.1:9", raw.url)(port, admin)
        document["cache"] = {"max_bytes": "4MiB"}
        document["server"]["workers"] = 2
        return document

    gateway = gateway_factory.start(config)
    body_prefix = b'{"query":"query Hello($name: String!) { hello(name: $name) }","variables":{"name":"'
    before = resident_bytes(gateway.process.pid)
    total, lanes = DISTINCT_KEYS, 8

    def lane(start):
        with RawClient(gateway.port, timeout=10.0) as client:
            for i in range(start, total, lanes):
                client.request("POST", "/raw", headers=[("Content-Type", "application/json")],
                               body=body_prefix + str(i).encode() + b'"}}')
                assert client.read_response(method="POST").status == 200

    with ThreadPoolExecutor(max_workers=lanes) as pool:
        list(pool.map(lane, range(lanes)))
    after = resident_bytes(gateway.process.pid)
    assert after - before < (4 + 16) * 1024 * 1024, (before, after)
    evictions = re.search(r"^gatehouse_cache_evictions_total (\d+)$", gateway.metrics_text(), re.MULTILINE)
    assert evictions and int(evictions.group(1)) > 0
