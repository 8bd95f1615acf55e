"""Size limits (414, 431, 413) and client timeouts (408, idle close) (README, "Configuration" server, "The error envelope")."""

import threading
import time

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import ConnectionClosed, RawClient

HOST = b"Host: gatehouse.test\r\n"
MAX_BODY = 64 * 1024


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        max_request_line="1KiB", max_header_bytes="4KiB", max_headers=20,
        max_body_bytes="64KiB", header_timeout="1s", body_timeout="1s", idle_timeout="1s",
        upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "3s"}},
        routes=[
            {"path": "/graphql", "upstream": "raw", "auth": "none"},
            {"path": "/r/*", "upstream": "raw", "auth": "none"},
        ]))


@pytest.fixture(autouse=True)
def fresh_upstream(raw_upstream):
    raw_upstream.reset()


def exchange(gateway, data: bytes, timeout: float = 5.0):
    with RawClient(gateway.port, timeout=timeout) as client:
        client.send(data)
        response = client.read_response(timeout=timeout)
        return response, client.is_closed(timeout=2.0)


# MARK: - 414 request line


def test_request_line_over_the_limit_is_414(gateway, raw_upstream):
    target = b"/r/" + b"a" * 2000
    response, _ = exchange(gateway, b"GET " + target + b" HTTP/1.1\r\n" + HOST + b"\r\n")
    assert_raw_envelope(response, 414, "URI_TOO_LONG", source="gateway")
    assert raw_upstream.bytes_received == 0


def test_long_query_string_counts_too(gateway, raw_upstream):
    target = b"/graphql?q=" + b"b" * 2000
    response, _ = exchange(gateway, b"GET " + target + b" HTTP/1.1\r\n" + HOST + b"\r\n")
    assert_raw_envelope(response, 414, "URI_TOO_LONG")
    assert raw_upstream.bytes_received == 0


def test_request_line_under_the_limit_passes(gateway):
    target = b"/r/" + b"a" * 900
    response, _ = exchange(gateway, b"GET " + target + b" HTTP/1.1\r\n" + HOST + b"\r\n")
    assert response.status == 200


# MARK: - 431 headers


@pytest.mark.parametrize("headers", [
    b"".join(b"X-H%d: v\r\n" % i for i in range(30)),
    b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 1500) for i in range(3)),
    b"X-Huge: " + b"v" * 5000 + b"\r\n",
], ids=["too-many", "too-many-bytes", "one-huge-header"])
def test_headers_over_the_limits_are_431(gateway, raw_upstream, headers):
    response, _ = exchange(gateway, b"GET /graphql HTTP/1.1\r\n" + HOST + headers + b"\r\n")
    assert_raw_envelope(response, 431, "HEADERS_TOO_LARGE", source="gateway")
    assert raw_upstream.bytes_received == 0


def test_headers_under_the_limits_pass(gateway):
    headers = b"".join(b"X-H%d: %s\r\n" % (i, b"v" * 100) for i in range(15))
    response, _ = exchange(gateway, b"GET /graphql HTTP/1.1\r\n" + HOST + headers + b"\r\n")
    assert response.status == 200


# MARK: - 413 body


def test_content_length_over_the_limit_is_413_before_the_body_is_sent(gateway, raw_upstream):
    head = (b"POST /graphql HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (1024 * 1024))
    with RawClient(gateway.port) as client:
        client.send(head)  # and no body: the answer must come from the header alone
        response = client.read_response(timeout=3)
        assert_raw_envelope(response, 413, "PAYLOAD_TOO_LARGE", source="gateway")
        assert client.is_closed()
    assert raw_upstream.bytes_received == 0


def test_chunked_body_over_the_limit_is_413(gateway):
    piece = b"x" * 16384
    with RawClient(gateway.port) as client:
        client.send(b"POST /graphql HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\n")
        try:
            for _ in range(8):  # 128 KiB
                client.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
            client.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the gateway may stop reading once the limit is passed
        response = client.read_response(timeout=3)
    assert_raw_envelope(response, 413, "PAYLOAD_TOO_LARGE")


def test_body_exactly_at_the_limit_passes(gateway, raw_upstream):
    body = b"y" * MAX_BODY
    head = b"POST /graphql HTTP/1.1\r\n" + HOST + b"Content-Length: %d\r\n\r\n" % len(body)
    response, _ = exchange(gateway, head + body)
    assert response.status == 200
    assert [len(r.body) for r in raw_upstream.requests] == [MAX_BODY]


# MARK: - 408 timeouts

# One end-to-end check per timeout; every transition of each (trickles, idle, refusal, linger)
# is a row on a manual clock in Tests/GatehouseCoreTests/Connection/.


@pytest.mark.slow
def test_slow_head_trickle_gets_408_at_the_header_timeout(gateway, raw_upstream):
    """A byte every 200 ms must not extend header_timeout (1 s)."""
    head = b"GET /graphql HTTP/1.1\r\n" + HOST + b"X-Slow: " + b"z" * 100
    stop = threading.Event()
    with RawClient(gateway.port, timeout=6) as client:
        def trickle():
            for byte in head:
                if stop.wait(0.2):
                    return
                try:
                    client.send(bytes([byte]))
                except OSError:
                    return

        started = time.monotonic()
        sender = threading.Thread(target=trickle, daemon=True)
        sender.start()
        try:
            response = client.read_response(timeout=6)
        finally:
            stop.set()
            sender.join()
        elapsed = time.monotonic() - started
        assert_raw_envelope(response, 408, "REQUEST_TIMEOUT", source="gateway")
        assert 0.8 <= elapsed <= 1.9, f"408 after {elapsed:.2f}s, expected about 1s"
        assert client.is_closed()
    assert raw_upstream.bytes_received == 0


@pytest.mark.slow
def test_idle_keep_alive_connection_is_closed_silently(gateway):
    with RawClient(gateway.port) as client:
        client.send(b"GET /graphql HTTP/1.1\r\n" + HOST + b"\r\n")
        assert client.read_response().status == 200
        time.sleep(0.5)
        client.send(b"GET /graphql HTTP/1.1\r\n" + HOST + b"\r\n")
        assert client.read_response().status == 200, "closed before idle_timeout"
        started = time.monotonic()
        assert client.is_closed(timeout=3.0)
        elapsed = time.monotonic() - started
        assert client.buffer == b"", f"sent {client.buffer[:80]!r} instead of closing silently"
        assert 0.8 <= elapsed <= 2.0, f"closed after {elapsed:.2f}s idle, expected about 1s"


# MARK: - max_connections


def test_connections_beyond_max_connections_are_closed_at_once(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(lambda port, admin: base_config(
        port, admin, max_connections=2,
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}]))
    request = b"GET /graphql?query=%7Bhello%7D HTTP/1.1\r\n" + HOST + b"\r\n"
    with RawClient(gateway.port) as first, RawClient(gateway.port) as second:
        for client in (first, second):
            client.send(request)
            assert client.read_response().status == 200
        with RawClient(gateway.port) as third:
            assert third.is_closed(timeout=2.0), "a connection over max_connections was kept"
        first.send(request)
        assert first.read_response().status == 200
    deadline = time.monotonic() + 3
    while True:  # once the others are gone, new connections are served again
        with RawClient(gateway.port) as again:
            again.send(request)
            try:
                if again.read_response(timeout=2).status == 200:
                    break
            except ConnectionClosed:
                pass
        assert time.monotonic() < deadline, "closed connections were never given back"
        time.sleep(0.1)
