"""Response cache keys and stored responses (README "Response cache": "Key", "What is stored",
"Fetch policies"): what must and must not share an entry — the operation `operationName` picks
out of one document (POST and GET), a prefix route's path remainder and the query string the
upstream receives, a `vary` header sent in two lines, integers past 2^53 (while `1` and `1.0`
still share); the upstream's `no-store` / `private` in a second `Cache-Control` line; the
request's `Cache-Control` read over all its lines and every spelling of `max-age=0`; and a hit
without the upstream's `Last-Modified`.
"""

import hashlib
import json
import uuid

import httpx
import pytest

from support.gateway import base_config
from support.raw_http import RawClient
from support.raw_upstream import respond, response_bytes

HELLO = "query Hello($name: String!) { hello(name: $name) }"
STORED = "gatehouse; fwd=miss; stored"


def keys_config(graphql_url: str, raw_url: str):
    """/pub to strawberry; /api/* (a prefix route: the remainder goes upstream), /echo and /vary
    (`vary: [Accept-Language]`) to the raw upstream; all public, 30 s."""

    def config(port, admin):
        cached = {"max_age": "30s"}
        routes = [
            {"path": "/pub", "upstream": "app", "auth": "none", "cache": cached},
            {"path": "/api/*", "upstream": "base", "auth": "none", "cache": cached},
            {"path": "/echo", "upstream": "raw", "auth": "none", "cache": cached},
            {"path": "/vary", "upstream": "raw", "auth": "none",
             "cache": {"max_age": "30s", "vary": ["Accept-Language"]}},
        ]
        return base_config(port, admin, routes=routes, upstreams={
            "app": {"url": f"{graphql_url}/graphql"},
            "base": {"url": raw_url},
            "raw": {"url": f"{raw_url}/graphql"},
        })

    return config


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream):
    return module_gateways.start(keys_config(graphql_upstream.url, raw_upstream.url))


@pytest.fixture
def client(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        yield http


@pytest.fixture
def echo(raw_upstream):
    """The raw upstream answering each request with what it received: request line, headers, body."""
    raw_upstream.reset(echo_request())
    return raw_upstream


def echo_request():
    def behave(connection, request, stop):
        body = json.dumps({"data": {"line": f"{request.method} {request.target}",
                                    "headers": [[name, value] for name, value in request.headers],
                                    "body": request.body.decode("utf-8", "replace")}}).encode()
        connection.send(response_bytes(200, body, [("Content-Type", "application/json")]))
        return True

    return behave


def unique(prefix: str = "n") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def post(client, path: str, content: bytes, headers=None) -> httpx.Response:
    return client.post(path, content=content, headers={"Content-Type": "application/json", **(headers or {})})


def raw_post(gateway, path: str, content: bytes, headers):
    """A POST whose header lines go out exactly as listed (a name may repeat)."""
    with RawClient(gateway.port, timeout=10.0) as raw:
        raw.request("POST", path, headers=[("Content-Type", "application/json"), *headers], body=content)
        return raw.read_response(method="POST")


def hello_body(name: str) -> bytes:
    return json.dumps({"query": HELLO, "variables": {"name": name}}).encode()


def calls_with_body(graphql_upstream, body: bytes) -> int:
    """Requests the strawberry upstream received with exactly `body` (it records the hash)."""
    digest = hashlib.sha256(body).hexdigest()
    return sum(1 for entry in graphql_upstream.requests() if entry["body_sha256"] == digest)


def status_of(response) -> str:
    """Cache-Status of an httpx response or a raw one."""
    if isinstance(response, httpx.Response):
        return response.headers.get("Cache-Status")
    return response.header("Cache-Status")


def is_hit(response) -> bool:
    return (status_of(response) or "").startswith("gatehouse; hit")


def upstream_saw(response, name: str) -> list:
    """The values of header `name` the raw upstream received for the request `response` answers."""
    return [value for key, value in response.json()["data"]["headers"] if key.lower() == name.lower()]


# MARK: - The operation


def test_operation_name_picks_its_own_entry_from_one_document_by_post(client):
    a, b = unique("A"), unique("B")
    document = f'query A {{ hello(name: "{a}") }} query B {{ hello(name: "{b}") }}'
    first = post(client, "/pub", json.dumps({"query": document, "operationName": "A"}).encode())
    assert status_of(first) == STORED and first.json() == {"data": {"hello": f"Hello, {a}!"}}
    second = post(client, "/pub", json.dumps({"query": document, "operationName": "B"}).encode())
    assert status_of(second) == STORED, status_of(second)
    assert second.json() == {"data": {"hello": f"Hello, {b}!"}}
    for name, expected in (("A", a), ("B", b)):
        again = post(client, "/pub", json.dumps({"query": document, "operationName": name}).encode())
        assert is_hit(again) and again.json() == {"data": {"hello": f"Hello, {expected}!"}}


def test_operation_name_picks_its_own_entry_from_one_document_by_get(client):
    c, d = unique("C"), unique("D")
    document = f'query C {{ hello(name: "{c}") }} query D {{ hello(name: "{d}") }}'
    first = client.get("/pub", params={"query": document, "operationName": "C"})
    assert status_of(first) == STORED and first.json() == {"data": {"hello": f"Hello, {c}!"}}
    second = client.get("/pub", params={"query": document, "operationName": "D"})
    assert status_of(second) == STORED, status_of(second)
    assert second.json() == {"data": {"hello": f"Hello, {d}!"}}
    again = client.get("/pub", params={"query": document, "operationName": "C"})
    assert is_hit(again) and again.json() == {"data": {"hello": f"Hello, {c}!"}}


# MARK: - The request target


def test_two_remainders_of_a_prefix_route_never_share_an_entry(client, echo):
    body = json.dumps({"query": f"query P {{ p(tag: \"{unique()}\") }}"}).encode()
    tenant_a, tenant_b = unique("tenant-a"), unique("tenant-b")
    first = post(client, f"/api/{tenant_a}/graphql", body)
    assert status_of(first) == STORED and first.json()["data"]["line"] == f"POST /{tenant_a}/graphql"
    second = post(client, f"/api/{tenant_b}/graphql", body)
    assert status_of(second) == STORED, status_of(second)
    assert second.json()["data"]["line"] == f"POST /{tenant_b}/graphql"
    again = post(client, f"/api/{tenant_a}/graphql", body)
    assert is_hit(again) and again.json()["data"]["line"] == f"POST /{tenant_a}/graphql"
    assert len(echo.requests) == 2


def test_a_query_string_the_upstream_receives_never_shares_an_entry_with_none(client, echo):
    body = json.dumps({"query": f"query S {{ s(tag: \"{unique()}\") }}"}).encode()
    planted = post(client, "/echo?locale=fr", body)
    assert status_of(planted) == STORED and planted.json()["data"]["line"] == "POST /graphql?locale=fr"
    plain = post(client, "/echo", body)
    assert status_of(plain) == STORED, status_of(plain)
    assert plain.json()["data"]["line"] == "POST /graphql"
    again = post(client, "/echo?locale=fr", body)
    assert is_hit(again) and again.json()["data"]["line"] == "POST /graphql?locale=fr"
    assert len(echo.requests) == 2


# MARK: - Vary


def test_a_vary_header_in_two_lines_does_not_fill_the_entry_of_its_first_value(client, gateway, echo):
    body = json.dumps({"query": f"query V {{ v(tag: \"{unique()}\") }}"}).encode()
    planted = raw_post(gateway, "/vary", body, [("Accept-Language", "en"), ("Accept-Language", "evil")])
    assert planted.status == 200 and status_of(planted) == STORED
    victim = post(client, "/vary", body, {"Accept-Language": "en"})
    assert status_of(victim) == STORED, status_of(victim)
    assert upstream_saw(victim, "Accept-Language") == ["en"]
    assert len(echo.requests) == 2


def test_a_vary_header_in_two_lines_is_not_served_the_entry_of_its_first_value(client, gateway, echo):
    body = json.dumps({"query": f"query V {{ v(tag: \"{unique()}\") }}"}).encode()
    stored = post(client, "/vary", body, {"Accept-Language": "en"})
    assert status_of(stored) == STORED and is_hit(post(client, "/vary", body, {"Accept-Language": "en"}))
    doubled = raw_post(gateway, "/vary", body, [("Accept-Language", "en"), ("Accept-Language", "evil")])
    assert doubled.status == 200 and status_of(doubled) == STORED, status_of(doubled)
    assert upstream_saw(doubled, "Accept-Language") == ["en", "evil"]
    assert len(echo.requests) == 2


# MARK: - Variables


@pytest.mark.parametrize("first, second", [
    ("1234567890123456789", "1234567890123456790"),
    ("9007199254740993", "9007199254740992"),
])
def test_integers_past_2_53_get_their_own_entries_while_1_and_1_0_still_share(client, echo, first, second):
    tag = unique()
    query = "query Q($id: ID!, $tag: String!) { item(id: $id, tag: $tag) { name } }"

    def spelled(number: str) -> bytes:
        return ('{"query":%s,"variables":{"id":%s,"tag":"%s"}}' % (json.dumps(query), number, tag)).encode()

    stored = post(client, "/echo", spelled(first))
    assert status_of(stored) == STORED
    other = post(client, "/echo", spelled(second))
    assert status_of(other) == STORED, status_of(other)
    assert f'"id":{second},' in other.json()["data"]["body"]
    again = post(client, "/echo", spelled(first))
    assert is_hit(again) and f'"id":{first},' in again.json()["data"]["body"]
    assert len(echo.requests) == 2

    small = post(client, "/echo", spelled("1"))
    assert status_of(small) == STORED
    for spelling in ("1.0", "1e0", "10e-1"):
        same = post(client, "/echo", spelled(spelling))
        assert is_hit(same) and same.content == small.content, spelling
    assert len(echo.requests) == 3


# MARK: - The upstream's Cache-Control


@pytest.mark.parametrize("second_line", ["no-store", "private"])
def test_upstream_no_store_or_private_in_a_second_cache_control_line_is_not_stored(client, raw_upstream,
                                                                                   second_line):
    raw_upstream.reset(respond(200, b'{"data":{"secret":"per-user"}}', [
        ("Content-Type", "application/json"), ("Cache-Control", "max-age=60"), ("Cache-Control", second_line)]))
    body = json.dumps({"query": f"query A {{ a(tag: \"{unique()}\") }}"}).encode()
    for _ in range(2):
        response = post(client, "/echo", body)
        assert response.status_code == 200
        assert status_of(response) == "gatehouse; fwd=miss", status_of(response)
    assert len(raw_upstream.requests) == 2


# MARK: - The request's Cache-Control


def test_no_store_in_a_second_request_cache_control_line_neither_reads_nor_writes(gateway, client, graphql_upstream):
    body = hello_body(unique())
    lines = [("Cache-Control", "max-stale"), ("Cache-Control", "no-store")]
    bypassed = raw_post(gateway, "/pub", body, lines)
    assert bypassed.status == 200 and status_of(bypassed) == "gatehouse; fwd=bypass", status_of(bypassed)
    assert status_of(post(client, "/pub", body)) == STORED
    again = raw_post(gateway, "/pub", body, lines)
    assert status_of(again) == "gatehouse; fwd=bypass", status_of(again)
    assert calls_with_body(graphql_upstream, body) == 3


def test_no_cache_in_a_second_request_cache_control_line_is_not_served_from_cache(gateway, client, graphql_upstream):
    body = hello_body(unique())
    assert status_of(post(client, "/pub", body)) == STORED
    forced = raw_post(gateway, "/pub", body, [("Cache-Control", "max-stale"), ("Cache-Control", "no-cache")])
    assert forced.status == 200 and status_of(forced) == "gatehouse; fwd=request; stored", status_of(forced)
    assert calls_with_body(graphql_upstream, body) == 2


@pytest.mark.parametrize("spelling", ["max-age=00", 'max-age="0"'])
def test_max_age_zero_in_another_spelling_goes_to_the_upstream(gateway, client, graphql_upstream, spelling):
    body = hello_body(unique())
    assert status_of(post(client, "/pub", body)) == STORED
    forced = raw_post(gateway, "/pub", body, [("Cache-Control", spelling)])
    assert forced.status == 200 and status_of(forced) == "gatehouse; fwd=request; stored", status_of(forced)
    assert calls_with_body(graphql_upstream, body) == 2


# MARK: - What a hit carries


def test_a_hit_does_not_repeat_the_upstreams_last_modified(client, raw_upstream):
    raw_upstream.reset(respond(200, b'{"data":{"x":1}}', [
        ("Content-Type", "application/json"), ("Last-Modified", "Tue, 01 Dec 2026 00:00:00 GMT"),
        ("X-Upstream-Note", "kept")]))
    body = json.dumps({"query": f"query L {{ x(tag: \"{unique()}\") }}"}).encode()
    assert status_of(post(client, "/echo", body)) == STORED
    hit = post(client, "/echo", body)
    assert is_hit(hit) and hit.content == b'{"data":{"x":1}}'
    assert "Last-Modified" not in hit.headers, hit.headers.get("Last-Modified")
    assert hit.headers["X-Upstream-Note"] == "kept"
    assert hit.headers["ETag"] == '"' + hashlib.sha256(hit.content).hexdigest() + '"'
    assert len(raw_upstream.requests) == 1
