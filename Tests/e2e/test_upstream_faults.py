"""Upstream failures become the envelope, and the client connection survives them (SPEC §3.6-7, §4)."""

import time
from urllib.parse import quote

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import ConnectionClosed, RawClient
from support.ports import free_port
from support.raw_upstream import (never_answer, reset_before_headers, respond, respond_raw,
                                  response_bytes)

HOST = b"Host: gatehouse.test\r\n"
JSON = [("Content-Type", "application/json")]
HTML_503 = b"<html><body><h1>503 Service Unavailable</h1>backend-internal-detail</body></html>"


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream):
    closed_port = free_port()
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={
            "raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "1s", "connect_timeout": "1s"},
            "refused": {"url": f"http://127.0.0.1:{closed_port}/graphql", "connect_timeout": "1s"},
            "app": {"url": f"{graphql_upstream.url}/graphql"},
            "narrow": {"url": f"{graphql_upstream.url}/graphql", "max_connections": 1},
        },
        routes=[
            {"path": "/raw", "upstream": "raw", "auth": "none", "timeout": "1s"},
            {"path": "/refused", "upstream": "refused", "auth": "none"},
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/narrow/patient", "upstream": "narrow", "auth": "none", "timeout": "5s",
             "upstream_path": "/graphql"},
            {"path": "/narrow/hasty", "upstream": "narrow", "auth": "none", "timeout": "1s",
             "upstream_path": "/graphql"},
        ]))


def raw_post(target: bytes = b"/raw", body: bytes = b'{"query":"{ hello }"}') -> bytes:
    return (b"POST " + target + b" HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def assert_connection_still_serves(client: RawClient, response) -> None:
    """After a fault the same client connection, if kept open, serves the next request."""
    if response.wants_close:
        assert client.is_closed(), "said Connection: close but stayed open"
        return
    client.send(b"GET /graphql?query=" + quote("{ hello }").encode() + b" HTTP/1.1\r\n" + HOST
                + b"\r\n")
    follow_up = client.read_response()
    assert follow_up.status == 200
    assert follow_up.json() == {"data": {"hello": "Hello, world!"}}


def fault(gateway, target: bytes = b"/raw", timeout: float = 5.0):
    """Sends one request to `target`, returns (response, elapsed seconds, still-open client)."""
    client = RawClient(gateway.port, timeout=timeout)
    started = time.monotonic()
    client.send(raw_post(target))
    response = client.read_response(timeout=timeout)
    return response, time.monotonic() - started, client


# MARK: - Transport failures


def test_refused_connection_is_502(gateway):
    response, _, client = fault(gateway, b"/refused")
    with client:
        extensions = assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert extensions["retryable"] is True
        assert_connection_still_serves(client, response)


@pytest.mark.slow
def test_silent_upstream_is_504_at_the_route_timeout(gateway, raw_upstream):
    raw_upstream.reset(never_answer())
    response, elapsed, client = fault(gateway)
    with client:
        extensions = assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert extensions["retryable"] is True
        assert 0.8 <= elapsed <= 2.0, f"504 after {elapsed:.2f}s, route timeout is 1s"
        assert_connection_still_serves(client, response)


def test_reset_before_headers_is_502_and_not_retried(gateway, raw_upstream):
    raw_upstream.reset(reset_before_headers())
    response, _, client = fault(gateway)
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_connection_still_serves(client, response)
    assert len(raw_upstream.requests) == 1, "a request the upstream had received was sent again"


def test_close_before_headers_is_502(gateway, raw_upstream):
    raw_upstream.reset(respond_raw(b"", close_after=True))
    response, _, client = fault(gateway)
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_connection_still_serves(client, response)


@pytest.mark.parametrize("data", [
    b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}",
    b"NOT HTTP AT ALL\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    b"HTTP/1.1 200 OK\r\nBad Header\r\nContent-Length: 2\r\n\r\n{}",
    b"HTTP/1.1 200 OK\r\nX-Big: " + b"b" * (1024 * 1024) + b"\r\nContent-Length: 2\r\n\r\n{}",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
], ids=["garbage-status", "not-http", "cl-and-te", "two-content-lengths", "header-without-colon",
        "oversized-head", "bad-chunk-size"])
def test_malformed_upstream_response_is_502(gateway, raw_upstream, data):
    raw_upstream.reset(respond_raw(data, close_after=False))
    response, _, client = fault(gateway)
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_connection_still_serves(client, response)
    # That upstream connection was discarded: the next request gets a clean one.
    raw_upstream.reset(respond(200, b'{"data":{"clean":true}}', JSON))
    response, _, client = fault(gateway)
    with client:
        assert response.status == 200
        assert response.body == b'{"data":{"clean":true}}'


def test_data_after_the_response_never_reaches_another_request(gateway, raw_upstream):
    smuggled = response_bytes(200, b'{"data":{"smuggled":true}}', JSON)
    raw_upstream.reset(respond_raw(response_bytes(200, b'{"data":{"first":true}}', JSON) + smuggled,
                                   close_after=False))
    response, _, client = fault(gateway)
    client.close()
    assert response.status in (200, 502)
    raw_upstream.reset(respond(200, b'{"data":{"second":true}}', JSON))
    for _ in range(3):
        response, _, client = fault(gateway)
        with client:
            assert response.status == 200
            assert response.body == b'{"data":{"second":true}}'


# MARK: - Upstream error statuses


def test_upstream_401_is_unauthenticated(gateway, raw_upstream):
    raw_upstream.reset(respond(401, b'{"message":"token rejected by backend"}', JSON))
    response, _, client = fault(gateway)
    with client:
        assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="upstream")
        assert b"token rejected by backend" not in response.body
        assert_connection_still_serves(client, response)


def test_upstream_403_is_forbidden(gateway, raw_upstream):
    raw_upstream.reset(respond(403, b"Forbidden", [("Content-Type", "text/plain")]))
    response, _, client = fault(gateway)
    with client:
        assert_raw_envelope(response, 403, "FORBIDDEN", source="upstream")
        assert_connection_still_serves(client, response)


def test_upstream_429_is_rate_limited_with_retry_after(gateway, raw_upstream):
    raw_upstream.reset(respond(429, b'{"message":"slow down"}', [*JSON, ("Retry-After", "7")]))
    response, _, client = fault(gateway)
    with client:
        extensions = assert_raw_envelope(response, 429, "RATE_LIMITED", source="upstream")
        assert response.header("retry-after") == "7"
        assert extensions["retryAfter"] == 7
        assert extensions["retryable"] is True
        assert_connection_still_serves(client, response)


def test_upstream_html_503_is_502_with_upstream_status(gateway, raw_upstream):
    raw_upstream.reset(respond(503, HTML_503, [("Content-Type", "text/html")]))
    response, _, client = fault(gateway)
    with client:
        extensions = assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert extensions["upstreamStatus"] == 503
        assert b"backend-internal-detail" not in response.body
        assert_connection_still_serves(client, response)


@pytest.mark.parametrize("status", [500, 400, 404])
def test_upstream_json_error_passes_through_unchanged(gateway, raw_upstream, status):
    body = b'{"errors":[{"message":"resolver exploded","extensions":{"code":"INTERNAL"}}]}'
    raw_upstream.reset(respond(status, body, [*JSON, ("X-Upstream-Marker", "m1")]))
    response, _, client = fault(gateway)
    with client:
        assert response.status == status
        assert response.body == body
        assert response.header("content-type") == "application/json"
        assert response.header("x-upstream-marker") == "m1"
        assert response.header("x-request-id")
        assert_connection_still_serves(client, response)


# MARK: - Pooled connections


def test_upstream_closing_idle_connections_does_not_fail_requests(gateway, raw_upstream):
    """The upstream closes after every response without saying so; reuse must recover."""
    raw_upstream.reset(respond(200, b'{"data":{"ok":true}}', JSON, close_after=True))
    for index in range(6):
        if index % 2:
            time.sleep(0.1)  # let the close arrive before the next request, half of the time
        response, _, client = fault(gateway)
        with client:
            assert response.status == 200, f"request {index}: {response.status} {response.body!r}"


@pytest.mark.slow
def test_timeout_after_the_response_head_aborts_the_client_connection(gateway, raw_upstream):
    """The upstream sends a head and part of the body, then nothing: past the route timeout the
    client connection is aborted (or, had the head not been passed on yet, answered with 504)."""
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    raw_upstream.reset(respond_raw(head + b'{"data":', close_after=False))
    with RawClient(gateway.port, timeout=5) as client:
        client.send(raw_post())
        started = time.monotonic()
        try:
            response = client.read_response(timeout=5)
        except ConnectionClosed:
            response = None
        assert time.monotonic() - started <= 2.5
        if response is not None:
            assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")


@pytest.mark.slow
def test_no_free_upstream_connection_within_the_timeout_is_503(gateway):
    """max_connections 1: a second request waits for the busy connection, then gives up."""
    slow = b'{"query":"{ slow(seconds: 2.0) }"}'
    with RawClient(gateway.port, timeout=10) as patient, RawClient(gateway.port) as hasty:
        patient.send(raw_post(b"/narrow/patient", slow))
        time.sleep(0.3)
        started = time.monotonic()
        hasty.send(raw_post(b"/narrow/hasty"))
        response = hasty.read_response(timeout=5)
        elapsed = time.monotonic() - started
        extensions = assert_raw_envelope(response, 503, "UNAVAILABLE")
        assert extensions["retryable"] is True
        assert 0.8 <= elapsed <= 2.0, f"503 after {elapsed:.2f}s, route timeout is 1s"
        first = patient.read_response(timeout=10)
        assert first.status == 200
        assert first.json() == {"data": {"slow": "done"}}
