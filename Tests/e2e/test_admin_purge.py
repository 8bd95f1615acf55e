"""The admin listener's `POST /cache/purge` (README "Response cache", "Invalidation and purge"):
a purge scoped to one route drops that route's entries only and answers `{"purged":N}`; a
purge whose filter the admin cannot read — a chunked body, a `?route=` query string — is
refused and purges nothing; a request from a web page (any `Origin`) is refused, on every
admin path; a client that half-closes after sending its purge still gets the answer.
"""

import json
import uuid

import httpx
import pytest

from support.gateway import base_config
from support.raw_http import RawClient, send_with_close

ROUTES = ("/pub", "/other")


def purge_config(graphql_url: str):
    def config(port, admin):
        return base_config(port, admin, upstreams={"app": {"url": graphql_url}}, routes=[
            {"path": path, "upstream": "app", "auth": "none", "cache": {"max_age": "30s"}}
            for path in ROUTES])

    return config


@pytest.fixture
def gateway(gateway_factory, graphql_upstream):
    """A gateway of this test alone, so every purge count is exact."""
    return gateway_factory.start(purge_config(f"{graphql_upstream.url}/graphql"))


@pytest.fixture
def client(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        yield http


@pytest.fixture
def filled(client):
    """Two entries on /pub and one on /other, each checked to be stored; returns the bodies."""
    tag = uuid.uuid4().hex[:10]
    bodies = {"/pub": [body(f"pub-1-{tag}"), body(f"pub-2-{tag}")], "/other": [body(f"other-{tag}")]}
    for path, entries in bodies.items():
        for entry in entries:
            assert status_of(post(client, path, entry)) == "gatehouse; fwd=miss; stored"
    return bodies


def body(name: str) -> bytes:
    return json.dumps({"query": "query Hello($name: String!) { hello(name: $name) }",
                       "variables": {"name": name}}).encode()


def post(client, path, content):
    return client.post(path, content=content, headers={"Content-Type": "application/json"})


def status_of(response) -> str:
    return response.headers["Cache-Status"]


def assert_cached(client, bodies, paths=ROUTES) -> None:
    for path in paths:
        for entry in bodies[path]:
            response = post(client, path, entry)
            assert status_of(response).startswith("gatehouse; hit"), (path, status_of(response))


def assert_purged(client, bodies, paths) -> None:
    for path in paths:
        for entry in bodies[path]:
            response = post(client, path, entry)
            assert status_of(response) == "gatehouse; fwd=miss; stored", (path, status_of(response))


def admin_exchange(gateway, method: str, target: str, headers=(), content: bytes = b""):
    """One request on its own connection to the admin listener, read strictly."""
    with RawClient(gateway.admin_port, timeout=5.0) as admin:
        admin.request(method, target, headers=list(headers), body=content, host=f"127.0.0.1:{gateway.admin_port}")
        return admin.read_response(method=method)


# MARK: - What a purge reads


def test_a_chunked_purge_is_411_and_purges_nothing_then_with_content_length_drops_only_its_route(
        client, gateway, filled):
    scoped = b'{"route":"/pub"}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(scoped), scoped)
    response = admin_exchange(gateway, "POST", "/cache/purge",
                              [("Content-Type", "application/json"), ("Transfer-Encoding", "chunked")], chunked)
    assert response.status == 411, (response.status, response.body)
    assert_cached(client, filled)
    response = admin_exchange(gateway, "POST", "/cache/purge", [("Content-Type", "application/json")], scoped)
    assert response.status == 200 and response.json() == {"purged": 2}
    assert_cached(client, filled, ["/other"])
    assert_purged(client, filled, ["/pub"])


def test_a_purge_with_its_filter_in_the_query_string_is_400_and_purges_nothing(client, gateway, filled):
    for content in (b"", b"{}"):
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(content)))]
        response = admin_exchange(gateway, "POST", "/cache/purge?route=/pub", headers, content)
        assert response.status == 400, (content, response.status, response.body)
    assert_cached(client, filled)


# MARK: - Requests from web pages


def test_a_purge_with_an_origin_is_403_and_purges_nothing(client, gateway, filled):
    """What a browser page sends without a preflight: a form-style text/plain POST, with the
    Host of a DNS-rebound name or of the listener itself."""
    for host in ("attacker.example:9901", f"127.0.0.1:{gateway.admin_port}"):
        for content in (b"{}", b'{"route":"/pub"}'):
            response = admin_exchange(gateway, "POST", "/cache/purge",
                                      [("Host", host), ("Origin", "http://attacker.example"),
                                       ("Content-Type", "text/plain;charset=UTF-8")], content)
            assert response.status == 403, (host, content, response.status, response.body)
    response = admin_exchange(gateway, "POST", "/cache/purge",
                              [("Origin", "null"), ("Content-Type", "application/json")], b"{}")
    assert response.status == 403
    assert_cached(client, filled)


@pytest.mark.parametrize("method, path, without_origin", [
    ("GET", "/healthz", 200), ("GET", "/readyz", 200), ("GET", "/metrics", 200), ("GET", "/status", 200),
    ("HEAD", "/status", 200), ("GET", "/cache/purge", 405), ("GET", "/nothing-here", 404),
])
def test_any_admin_request_with_an_origin_is_403(gateway, method, path, without_origin):
    assert admin_exchange(gateway, method, path).status == without_origin
    response = admin_exchange(gateway, method, path, [("Origin", f"http://127.0.0.1:{gateway.admin_port}")])
    assert response.status == 403, (response.status, response.body)


# MARK: - Connection handling


def half_closed_purge(gateway, content: bytes) -> bytes:
    """Sends the purge with the end of the client's input in the same segment: the admin sees
    the end before the purge (run on a worker) has answered."""
    request = (b"POST /cache/purge HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n%s" % (len(content), content))
    return send_with_close(gateway.admin_port, request, timeout=5.0)


def test_a_client_that_half_closes_after_its_purge_still_gets_the_answer(client, gateway, filled):
    for expected in (2, 0, 0, 0):
        received = half_closed_purge(gateway, b'{"route":"/pub"}')
        head, _, answer = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200 "), received
        assert json.loads(answer) == {"purged": expected}
    assert_cached(client, filled, ["/other"])
    assert_purged(client, filled, ["/pub"])
