"""Persistent connections: pipelining, upstream connection reuse, HTTP/1.0 (README, "How a request is handled")."""

from urllib.parse import quote

import httpx
import pytest

from support.gateway import base_config
from support.graphql_client import graphql_body
from support.payload import deterministic_bytes
from support.raw_http import RawClient, send_with_close


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, workers=1,
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "5s",
                           "max_idle": 4}},
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/blob", "upstream": "app", "auth": "none", "methods": ["GET"],
             "upstream_path": "/blob"},
        ]))


@pytest.fixture(autouse=True)
def clean_upstream(graphql_upstream):
    graphql_upstream.clear()


def hello_get(name: str, version: str = "HTTP/1.1", extra: str = "") -> bytes:
    target = "/graphql?query=" + quote(f'{{ hello(name: "{name}") }}')
    host = "Host: gatehouse.test\r\n"
    return f"GET {target} {version}\r\n{host}{extra}\r\n".encode()


def hello_post(name: str) -> bytes:
    body = graphql_body(f'{{ hello(name: "{name}") }}')
    return (b"POST /graphql HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def greeting(response) -> str:
    return response.json()["data"]["hello"]


# MARK: - Pipelining


@pytest.mark.parametrize("names", [["one", "two"], ["one", "two", "three"]])
def test_pipelined_requests_are_answered_in_order(gateway, names):
    with RawClient(gateway.port) as client:
        client.send(b"".join(hello_get(name) for name in names))
        answers = [greeting(client.read_response()) for _ in names]
    assert answers == [f"Hello, {name}!" for name in names]


def test_pipelined_posts_and_gets_mixed(gateway):
    with RawClient(gateway.port) as client:
        client.send(hello_post("a") + hello_get("b") + hello_post("c"))
        answers = [greeting(client.read_response()) for _ in range(3)]
    assert answers == ["Hello, a!", "Hello, b!", "Hello, c!"]


def test_pipelined_request_after_large_response(gateway):
    with RawClient(gateway.port, timeout=20) as client:
        client.send(b"GET /blob?size=3000000 HTTP/1.1\r\nHost: gatehouse.test\r\n\r\n"
                    + hello_get("after"))
        assert client.read_response(timeout=20).body == deterministic_bytes(3_000_000)
        assert greeting(client.read_response()) == "Hello, after!"


# MARK: - The client's end of input


@pytest.mark.parametrize("requests", [1, 3])
def test_requests_sent_with_the_clients_close_are_answered_before_it_closes(gateway, requests):
    names = [f"closing{index}" for index in range(requests)]
    received = send_with_close(gateway.port, b"".join(hello_get(name) for name in names))
    for name in names:
        assert f'"Hello, {name}!"'.encode() in received, received[:300]
    assert received.count(b"HTTP/1.1 200 ") == requests


# MARK: - Upstream connection reuse


def test_upstream_connections_are_reused_across_sequential_requests(gateway, graphql_upstream):
    with httpx.Client(base_url=gateway.url, timeout=10) as client:
        for index in range(20):
            response = client.post("/graphql", content=graphql_body(f'{{ hello(name: "{index}") }}'),
                                   headers={"Content-Type": "application/json"})
            assert response.status_code == 200
    assert len(graphql_upstream.requests()) == 20
    assert graphql_upstream.connections_used() <= 2


def test_upstream_connections_are_reused_across_client_connections(gateway, graphql_upstream):
    for index in range(20):
        with RawClient(gateway.port) as client:
            client.send(hello_get(str(index)))
            assert greeting(client.read_response()) == f"Hello, {index}!"
    assert len(graphql_upstream.requests()) == 20
    assert graphql_upstream.connections_used() <= 2


# MARK: - Client keep-alive


def test_http11_connection_stays_open_for_many_requests(gateway):
    with RawClient(gateway.port) as client:
        for index in range(5):
            client.send(hello_get(str(index)))
            response = client.read_response()
            assert greeting(response) == f"Hello, {index}!"
            assert not response.wants_close


def test_http11_connection_close_is_honoured(gateway):
    with RawClient(gateway.port) as client:
        client.send(hello_get("bye", extra="Connection: close\r\n"))
        response = client.read_response()
        assert greeting(response) == "Hello, bye!"
        assert response.wants_close
        assert client.is_closed()


def test_http10_without_keep_alive_closes_after_the_response(gateway):
    with RawClient(gateway.port) as client:
        client.send(hello_get("ten", version="HTTP/1.0"))
        response = client.read_response()
        assert response.status == 200
        assert greeting(response) == "Hello, ten!"
        assert response.header("transfer-encoding") is None
        assert client.is_closed()


def test_http10_without_host_is_accepted(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"GET /graphql?query=" + quote("{ hello }").encode() + b" HTTP/1.0\r\n\r\n")
        response = client.read_response()
    assert response.status == 200


def test_http10_with_keep_alive_stays_open(gateway):
    with RawClient(gateway.port) as client:
        for name in ("first", "second"):
            client.send(hello_get(name, version="HTTP/1.0", extra="Connection: keep-alive\r\n"))
            response = client.read_response()
            assert greeting(response) == f"Hello, {name}!"
            assert response.header("transfer-encoding") is None
            assert response.header("content-length") is not None
            assert "keep-alive" in (response.header("connection") or "").lower()


def test_http10_with_keep_alive_is_told_so_by_a_gateway_made_answer(gateway):
    """A 404 envelope keeps the connection too, and says so: an HTTP/1.0 client assumes it
    closes otherwise."""
    with RawClient(gateway.port) as client:
        client.send(b"GET /no-such-route HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        response = client.read_response()
        assert response.status == 404
        assert (response.header("connection") or "").lower() == "keep-alive"
        client.send(hello_get("after", version="HTTP/1.0", extra="Connection: keep-alive\r\n"))
        assert greeting(client.read_response()) == "Hello, after!"


def test_http10_client_gets_an_unchunked_copy_of_a_chunked_upstream_response(gateway):
    with RawClient(gateway.port, timeout=20) as client:
        client.send(b"GET /blob?size=300000&chunked=1 HTTP/1.0\r\nHost: gatehouse.test\r\n\r\n")
        response = client.read_response(timeout=20)
    assert response.status == 200
    assert response.header("transfer-encoding") is None
    assert response.body == deterministic_bytes(300_000)
