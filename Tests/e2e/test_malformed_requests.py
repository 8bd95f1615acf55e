"""Malformed requests are a 400 envelope, the connection closes, and nothing reaches any
upstream (README, "How a request is handled")."""

import time

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import RawClient, one_shot

HOST = b"Host: gatehouse.test\r\n"


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "2s"}},
        routes=[
            {"path": "/graphql", "upstream": "raw", "auth": "none", "methods": ["GET", "POST"]},
            {"path": "/graphql/*", "upstream": "raw", "auth": "none"},
        ]))


@pytest.fixture(autouse=True)
def fresh_upstream(raw_upstream):
    raw_upstream.reset()


def post(headers: bytes, body: bytes = b"{}") -> bytes:
    return b"POST /graphql HTTP/1.1\r\n" + headers + b"\r\n" + body


def get(target: bytes, version: bytes = b"HTTP/1.1") -> bytes:
    return b"GET " + target + b" " + version + b"\r\n" + HOST + b"\r\n"


FRAMING = {
    "content-length-and-transfer-encoding":
        post(HOST + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"),
    "transfer-encoding-and-content-length":
        post(HOST + b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", b"0\r\n\r\n"),
    "two-differing-content-lengths": post(HOST + b"Content-Length: 2\r\nContent-Length: 3\r\n"),
    "two-equal-content-lengths": post(HOST + b"Content-Length: 2\r\nContent-Length: 2\r\n"),
    "content-length-list": post(HOST + b"Content-Length: 2, 2\r\n"),
    "content-length-signed": post(HOST + b"Content-Length: +2\r\n"),
    "content-length-negative": post(HOST + b"Content-Length: -1\r\n"),
    "content-length-hex": post(HOST + b"Content-Length: 0x2\r\n"),
    "transfer-encoding-xchunked": post(HOST + b"Transfer-Encoding: xchunked\r\n", b"0\r\n\r\n"),
    "transfer-encoding-gzip-chunked":
        post(HOST + b"Transfer-Encoding: gzip, chunked\r\n", b"0\r\n\r\n"),
    "transfer-encoding-chunked-twice":
        post(HOST + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"),
    "transfer-encoding-identity": post(HOST + b"Transfer-Encoding: identity\r\n", b""),
    "bad-chunk-size": post(HOST + b"Transfer-Encoding: chunked\r\n", b"zz\r\nhello\r\n0\r\n\r\n"),
    "chunk-size-overflow":
        post(HOST + b"Transfer-Encoding: chunked\r\n", b"fffffffffffffffffff\r\nx\r\n0\r\n\r\n"),
    "chunk-without-crlf": post(HOST + b"Transfer-Encoding: chunked\r\n", b"2\r\nhiXX0\r\n\r\n"),
    "obs-fold": post(HOST + b"X-Folded: one\r\n  two\r\nContent-Length: 2\r\n"),
    "space-before-colon": post(HOST + b"Content-Length : 2\r\n"),
    "tab-before-colon": post(HOST + b"X-Thing\t: 2\r\nContent-Length: 2\r\n"),
    "space-in-header-name": post(HOST + b"X Thing: 2\r\nContent-Length: 2\r\n"),
    "empty-header-name": post(HOST + b": nameless\r\nContent-Length: 2\r\n"),
    "missing-host": post(b"Content-Length: 2\r\n"),
    "two-hosts": post(HOST + b"Host: other.test\r\nContent-Length: 2\r\n"),
    "bare-lf-line-endings": b"POST /graphql HTTP/1.1\nHost: gatehouse.test\nContent-Length: 2\n\n{}",
    "bare-cr-in-header": post(HOST + b"X-Bad: a\rb\r\nContent-Length: 2\r\n"),
    "control-byte-in-header": post(HOST + b"X-Bad: a\x01b\r\nContent-Length: 2\r\n"),
    "nul-in-header": post(HOST + b"X-Bad: a\x00b\r\nContent-Length: 2\r\n"),
    "body-on-get": b"GET /graphql HTTP/1.1\r\n" + HOST + b"Content-Length: 5\r\n\r\nhello",
    "chunked-body-on-get":
        b"GET /graphql HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "body-on-head": b"HEAD /graphql HTTP/1.1\r\n" + HOST + b"Content-Length: 5\r\n\r\nhello",
    "bad-version": get(b"/graphql", b"HTTP/1.x"),
    "lowercase-version": get(b"/graphql", b"http/1.1"),
    "missing-version": b"GET /graphql\r\n" + HOST + b"\r\n",
    "method-with-bad-character": b"G(T /graphql HTTP/1.1\r\n" + HOST + b"\r\n",
}

PATHS = {
    "dot-dot-segment": b"/graphql/../x",
    "dot-dot-at-end": b"/graphql/..",
    "dot-segment": b"/graphql/./x",
    "double-slash-start": b"//graphql",
    "double-slash-inside": b"/graphql//x",
    "encoded-dot-dot": b"/graphql/%2e%2e",
    "encoded-dot-dot-upper": b"/graphql/%2E%2E/x",
    "encoded-dot": b"/graphql/%2e/x",
    "encoded-slash": b"/graphql%2fx",
    "encoded-slash-upper": b"/graphql/a%2Fb",
    "encoded-backslash": b"/graphql/a%5cb",
    "encoded-nul": b"/graphql/a%00",
    "backslash": b"/graphql\\x",
    "backslash-dot-dot": b"/graphql/..\\x",
    "invalid-escape": b"/graphql/%zz",
    "truncated-escape": b"/graphql/%2",
    "control-byte": b"/graphql/a\x01b",
    "absolute-form": b"http://127.0.0.1/graphql",
    "absolute-form-https": b"https://gatehouse.test/graphql",
    "asterisk-form": b"*",
    "no-leading-slash": b"graphql",
}


def assert_rejected(gateway, raw_upstream, data: bytes, method: str = "GET") -> None:
    response, closed = one_shot(gateway.port, data, method=method)
    if method == "HEAD":
        # A response to HEAD has no body, so only the status and headers can be checked.
        assert response.status == 400
        assert response.header("x-request-id")
    else:
        assert_raw_envelope(response, 400, "BAD_REQUEST", source="gateway")
    assert closed, "the connection stayed open after a malformed request"
    time.sleep(0.1)  # anything forwarded would have arrived by now
    assert raw_upstream.bytes_received == 0, "bytes reached the upstream"
    assert raw_upstream.connections_accepted == 0


def test_well_formed_requests_reach_the_upstream(gateway, raw_upstream):
    """The control case: without it, 'nothing reached the upstream' would prove nothing."""
    response, _ = one_shot(gateway.port, post(HOST + b"Content-Length: 2\r\n"))
    assert response.status == 200
    response, _ = one_shot(gateway.port, get(b"/graphql/x?y=../z"))
    assert response.status == 200
    assert raw_upstream.bytes_received > 0


@pytest.mark.parametrize("data", FRAMING.values(), ids=FRAMING.keys())
def test_malformed_framing_is_refused(gateway, raw_upstream, data):
    method = "HEAD" if data.startswith(b"HEAD") else "GET"
    assert_rejected(gateway, raw_upstream, data, method)


@pytest.mark.parametrize("target", PATHS.values(), ids=PATHS.keys())
def test_unsafe_paths_are_refused(gateway, raw_upstream, target):
    assert_rejected(gateway, raw_upstream, get(target))


def test_malformed_request_after_a_good_one_on_the_same_connection(gateway, raw_upstream):
    with RawClient(gateway.port) as client:
        client.send(get(b"/graphql"))
        assert client.read_response().status == 200
        raw_upstream.reset()
        client.send(post(HOST + b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n", b"0\r\n\r\n"))
        response = client.read_response()
        assert_raw_envelope(response, 400, "BAD_REQUEST")
        assert client.is_closed()
    assert raw_upstream.bytes_received == 0


def test_pipelined_request_behind_a_malformed_one_is_not_served(gateway, raw_upstream):
    with RawClient(gateway.port) as client:
        client.send(get(b"/graphql/../x") + get(b"/graphql"))
        assert_raw_envelope(client.read_response(), 400, "BAD_REQUEST")
        assert client.is_closed()
    assert raw_upstream.bytes_received == 0
