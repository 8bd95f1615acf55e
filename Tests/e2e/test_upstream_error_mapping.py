"""The upstream's own error answers become the envelope (401, 403, 429, non-JSON errors) or pass
through (JSON errors), and the pool copes with an upstream that closes idle connections or is
busy; the client connection survives each. Transport faults are in test_upstream_faults.py."""

import time
from email.utils import formatdate
from urllib.parse import quote

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import RawClient
from support.ports import free_port
from support.raw_upstream import respond

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


def test_upstream_429_with_an_http_date_is_the_seconds_until_it(gateway, raw_upstream):
    in_a_minute = formatdate(time.time() + 60, usegmt=True)
    raw_upstream.reset(respond(429, b'{"message":"slow down"}', [*JSON, ("Retry-After", in_a_minute)]))
    response, _, client = fault(gateway)
    with client:
        extensions = assert_raw_envelope(response, 429, "RATE_LIMITED", source="upstream")
        assert 55 <= extensions["retryAfter"] <= 61, in_a_minute
        assert response.header("retry-after") == str(extensions["retryAfter"])
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
    """The upstream closes after every response without saying so; reuse must recover.

    When the close has arrived before the next request, the dead connection is never used again.
    A request sent back to back may meet the close in flight (its bytes written, then EOF): the
    gateway retries that only where the upstream's `retry` allows, so it may be a retryable 502,
    never a hang or another status."""
    raw_upstream.reset(respond(200, b'{"data":{"ok":true}}', JSON, close_after=True))
    for index in range(6):
        waited = index % 2 == 1
        if waited:
            time.sleep(0.1)  # let the close arrive before the next request, half of the time
        response, _, client = fault(gateway)
        with client:
            if waited or response.status == 200:
                assert response.status == 200, f"request {index}: {response.status} {response.body!r}"
            else:
                extensions = assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
                assert extensions["retryable"] is True


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
