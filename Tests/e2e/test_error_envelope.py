"""The one error shape (README, "The error envelope"), seen through routing errors: 404 and 405 (README, "How a request is handled")."""

import httpx
import pytest

from support.envelope import assert_httpx_envelope, assert_raw_envelope
from support.gateway import base_config
from support.raw_http import RawClient

HOST = b"Host: gatehouse.test\r\n"


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    upstream_url = f"{graphql_upstream.url}/graphql"
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"app": {"url": upstream_url}},
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/mutate", "upstream": "app", "auth": "none", "methods": ["POST"],
             "upstream_path": "/graphql"},
            {"path": "/files/*", "upstream": "app", "auth": "none", "methods": ["GET"]},
        ]))


# MARK: - 404


@pytest.mark.parametrize("path", ["/", "/nope", "/GraphQL", "/GRAPHQL", "/graphql2", "/graphqlx",
                                  "/graphql/extra", "/mutate/x", "/files", "/Files/a"])
def test_no_route_is_404(gateway, path):
    response = httpx.get(f"{gateway.url}{path}", timeout=5)
    extensions = assert_httpx_envelope(response, 404, "NOT_FOUND", source="gateway")
    assert set(extensions) == {"code", "status", "source", "retryable", "requestId"}


def test_404_keeps_the_connection_open(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"GET /nope HTTP/1.1\r\n" + HOST + b"\r\n")
        assert_raw_envelope(client.read_response(), 404, "NOT_FOUND")
        client.send(b"GET /graphql?query=%7Bhello%7D HTTP/1.1\r\n" + HOST + b"\r\n")
        response = client.read_response()
        assert response.status == 200
        assert response.json() == {"data": {"hello": "Hello, world!"}}


# MARK: - 405


@pytest.mark.parametrize("method, path, allowed", [
    ("PUT", "/graphql", {"GET", "POST"}),
    ("DELETE", "/graphql", {"GET", "POST"}),
    ("PATCH", "/graphql", {"GET", "POST"}),
    ("GET", "/mutate", {"POST"}),
    ("POST", "/files/a", {"GET"}),
])
def test_method_not_allowed_is_405_with_allow(gateway, method, path, allowed):
    response = httpx.request(method, f"{gateway.url}{path}", timeout=5)
    extensions = assert_httpx_envelope(response, 405, "METHOD_NOT_ALLOWED", source="gateway")
    assert set(extensions) == {"code", "status", "source", "retryable", "requestId"}
    allow = {token.strip() for token in response.headers.get("allow", "").split(",") if token.strip()}
    assert allow == allowed


def test_405_keeps_the_connection_open(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"DELETE /graphql HTTP/1.1\r\n" + HOST + b"\r\n")
        assert_raw_envelope(client.read_response(), 405, "METHOD_NOT_ALLOWED")
        client.send(b"GET /graphql?query=%7Bhello%7D HTTP/1.1\r\n" + HOST + b"\r\n")
        assert client.read_response().status == 200


# MARK: - Envelope details


def test_envelope_carries_the_clients_request_id(gateway):
    response = httpx.get(f"{gateway.url}/nope", headers={"X-Request-Id": "client-id-42"}, timeout=5)
    extensions = assert_httpx_envelope(response, 404, "NOT_FOUND")
    assert extensions["requestId"] == "client-id-42"
    assert response.headers["x-request-id"] == "client-id-42"


def test_envelope_replaces_an_invalid_request_id(gateway):
    response = httpx.get(f"{gateway.url}/nope", headers={"X-Request-Id": "bad id!"}, timeout=5)
    extensions = assert_httpx_envelope(response, 404, "NOT_FOUND")
    assert extensions["requestId"] != "bad id!"


def test_envelope_body_is_exact_json_with_content_length(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"GET /nope HTTP/1.1\r\n" + HOST + b"\r\n")
        response = client.read_response()
    assert response.header("content-length") == str(len(response.body))
    assert response.body.startswith(b'{"errors":[{')
    assert response.json()["errors"][0]["extensions"]["status"] == 404


def test_head_request_to_missing_route_has_no_body(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"HEAD /nope HTTP/1.1\r\n" + HOST + b"\r\n")
        response = client.read_response(method="HEAD")
        assert response.status == 404
        assert response.body == b""
        client.send(b"GET /graphql?query=%7Bhello%7D HTTP/1.1\r\n" + HOST + b"\r\n")
        assert client.read_response().status == 200, "a HEAD response body desynchronized the stream"
