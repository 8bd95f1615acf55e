"""A misbehaving upstream, fault by fault: each maps to the documented status (README, "How a
request is handled" and "The error envelope"), the upstream connection is discarded where the framing was doubtful, and the next request
on the same client connection is unaffected."""

import time

import pytest

from support.black_hole import BlackHole
from support.envelope import assert_raw_envelope
from support.fault_client import assert_client_connection_serves, post_bytes, through_fault
from support.gateway import base_config
from support.payload import deterministic_bytes
from support.ports import free_port
from support.raw_http import RawClient
from support.raw_upstream import never_answer, respond, respond_raw, response_bytes
from support.upstream_scripts import answer_with_close, head_bytes, send_and_hold, send_in_pieces, send_then_reset

JSON = [("Content-Type", "application/json")]
GOOD = b'{"data":{"clean":true}}'
HTTP2_SETTINGS = b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # an empty SETTINGS frame, an h2 server's first bytes


@pytest.fixture(scope="module")
def black_hole():
    hole = BlackHole()
    yield hole
    hole.close()


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream, black_hole):
    refused_port = free_port()
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={
            "raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "1s", "connect_timeout": "1s"},
            "drip": {"url": f"{raw_upstream.url}/graphql", "timeout": "4s"},
            "hole": {"url": f"{black_hole.url}/graphql", "connect_timeout": "1s", "timeout": "3s"},
            "refused": {"url": f"http://127.0.0.1:{refused_port}/graphql", "connect_timeout": "1s"},
            "app": {"url": f"{graphql_upstream.url}/graphql"},
        },
        routes=[
            {"path": "/raw", "upstream": "raw", "auth": "none"},
            {"path": "/raw-mapped", "upstream": "raw", "auth": "none", "map_graphql_errors": True},
            {"path": "/raw-cached", "upstream": "raw", "auth": "none", "cache": {"max_age": "30s"}},
            {"path": "/drip", "upstream": "drip", "auth": "none"},
            {"path": "/hole", "upstream": "hole", "auth": "none"},
            {"path": "/refused", "upstream": "refused", "auth": "none"},
            {"path": "/graphql", "upstream": "app", "auth": "none"},
        ]))


def assert_pool_recovers(gateway, raw_upstream, must_be_fresh: bool) -> None:
    """The next requests through the same upstream are clean, and none of them travels on the
    connection that carried the fault when its framing was doubtful."""
    doubtful = [c for c in raw_upstream.connections if c.requests]
    raw_upstream.reset(respond(200, GOOD, JSON))
    carried_before = [len(c.requests) for c in doubtful]
    for _ in range(2):
        response, _, client = through_fault(gateway.port, b"/raw")
        with client:
            assert response is not None and response.status == 200, response
            assert response.body == GOOD, f"another response's bytes: {response.body[:200]!r}"
    if must_be_fresh:
        reused = [c for c, before in zip(doubtful, carried_before) if len(c.requests) > before]
        assert not reused, "the upstream connection with doubtful framing was used again"


# MARK: - Transport


def test_refused_is_502(gateway):
    response, _, client = through_fault(gateway.port, b"/refused")
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_client_connection_serves(client, response)


@pytest.mark.slow
def test_black_hole_is_504_at_the_connect_timeout(gateway, black_hole):
    assert black_hole.swallows_connections(), "the black hole answered a SYN"
    response, elapsed, client = through_fault(gateway.port, b"/hole")
    with client:
        assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert 0.8 <= elapsed <= 2.5, f"504 after {elapsed:.2f}s, connect_timeout is 1s"
        assert_client_connection_serves(client, response)


@pytest.mark.slow
def test_accept_and_hang_is_504_at_the_route_timeout(gateway, raw_upstream):
    raw_upstream.reset(never_answer())
    response, elapsed, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert 0.8 <= elapsed <= 2.5, f"504 after {elapsed:.2f}s, route timeout is 1s"
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


# MARK: - Malformed or cut-short heads: 502 and the connection discarded

HEAD_FAULTS = {
    "close-before-headers": respond_raw(b"", close_after=True),
    "reset-before-headers": send_then_reset(b""),
    "reset-during-status-line": send_then_reset(b"HTTP/1.1 20"),
    "reset-during-headers": send_then_reset(b"HTTP/1.1 200 OK\r\nContent-Type: appl"),
    "close-during-headers": respond_raw(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"),
    "garbage": respond_raw(b"\x16\x03\x01\x02\x00garbage that is not HTTP\r\n\r\n", close_after=False),
    "http2-settings-frame": respond_raw(HTTP2_SETTINGS, close_after=False),
    "http2-preface-text": respond_raw(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", close_after=False),
    "http09-body-only": respond_raw(b'{"data":{"ok":true}}', close_after=True),
    "status-out-of-range": respond_raw(b"HTTP/1.1 600 Nope\r\nContent-Length: 2\r\n\r\n{}", close_after=False),
    "garbage-status": respond_raw(b"HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}", close_after=False),
    "header-without-colon": respond_raw(b"HTTP/1.1 200 OK\r\nBad Header\r\nContent-Length: 2\r\n\r\n{}",
                                        close_after=False),
    "status-two-digits": respond_raw(b"HTTP/1.1 20 OK\r\nContent-Length: 2\r\n\r\n{}", close_after=False),
    "cl-and-te": respond_raw(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"
                             b"0\r\n\r\n", close_after=False),
    "te-and-cl": respond_raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"
                             b"0\r\n\r\n", close_after=False),
    "two-differing-content-lengths": respond_raw(
        b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x", close_after=False),
    "content-length-list": respond_raw(b"HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\n{}x",
                                       close_after=False),
    "transfer-encoding-gzip": respond_raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n{}",
                                          close_after=False),
    "obs-fold": respond_raw(b"HTTP/1.1 200 OK\r\nX-A: 1\r\n 2\r\nContent-Length: 2\r\n\r\n{}",
                            close_after=False),
    "space-before-colon": respond_raw(b"HTTP/1.1 200 OK\r\nContent-Length : 2\r\n\r\n{}", close_after=False),
    "nul-in-header": respond_raw(b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\nContent-Length: 2\r\n\r\n{}",
                                 close_after=False),
    "oversized-head": respond_raw(b"HTTP/1.1 200 OK\r\n" + b"X-Pad: " + b"p" * 200_000 + b"\r\n"
                                  b"Content-Length: 2\r\n\r\n{}", close_after=False),
    "many-headers-oversized": respond_raw(b"HTTP/1.1 200 OK\r\n" + b"".join(
        b"X-H%d: %s\r\n" % (i, b"v" * 60) for i in range(3000)) + b"Content-Length: 2\r\n\r\n{}",
        close_after=False),
    "unexpected-101": respond_raw(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                  b"Connection: Upgrade\r\n\r\n\x81\x05hello", close_after=False),
    "bad-chunk-size": respond_raw(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
                                  close_after=False),
}


@pytest.mark.parametrize("behavior", HEAD_FAULTS.values(), ids=HEAD_FAULTS.keys())
def test_malformed_or_cut_head_is_502_and_discarded(gateway, raw_upstream, behavior):
    raw_upstream.reset(behavior)
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


def test_reset_after_the_request_arrived_is_not_retried(gateway, raw_upstream):
    """Only a pooled connection found dead before any byte was written is retried."""
    raw_upstream.reset(send_then_reset(b""))
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
    assert len(raw_upstream.requests) == 1, "a request the upstream had received was sent again"


# MARK: - Faults in the body: the client never gets a short body that looks complete

BODY_FAULTS = {
    "reset-during-body": send_then_reset(head_bytes(200, [*JSON, ("Content-Length", 100)], "OK")
                                         + b'{"data":'),
    "close-during-body": respond_raw(head_bytes(200, [*JSON, ("Content-Length", 100)], "OK") + b'{"data":'),
    "reset-during-chunked-body": send_then_reset(head_bytes(200, [*JSON, ("Transfer-Encoding", "chunked")],
                                                            "OK") + b"8\r\n{\"data\":"),
    "bad-chunk-after-first": respond_raw(head_bytes(200, [*JSON, ("Transfer-Encoding", "chunked")], "OK")
                                         + b"2\r\n{}\r\nzz\r\n", close_after=False),
}


@pytest.mark.parametrize("behavior", BODY_FAULTS.values(), ids=BODY_FAULTS.keys())
def test_body_cut_short_is_502_or_an_aborted_connection(gateway, raw_upstream, behavior):
    raw_upstream.reset(behavior)
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        if response is not None:
            assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


# A map_graphql_errors route reads the whole body before the head goes out, and so does a cache
# miss that may be stored (its `Cache-Status` says `stored` only of a whole, storable body).
HELD_CUT_SHORT = {
    "close-during-body": respond_raw(head_bytes(200, [*JSON, ("Content-Length", 100)], "OK")
                                     + b'{"data":{"ok":true}}'),
    "close-during-chunked-body": respond_raw(head_bytes(200, [*JSON, ("Transfer-Encoding", "chunked")], "OK")
                                             + b'8\r\n{"data":\r\n'),
}
NAMED_QUERY = b'{"query":"query hello { hello }"}'


@pytest.mark.parametrize("route", [b"/raw-mapped", b"/raw-cached"], ids=["map_graphql_errors", "cache-miss"])
@pytest.mark.parametrize("behavior", HELD_CUT_SHORT.values(), ids=HELD_CUT_SHORT.keys())
def test_a_held_response_cut_short_is_a_502(gateway, raw_upstream, route, behavior):
    """Nothing of the held response reached the client when the upstream closed, so the client
    gets the envelope rather than a head and a reset."""
    raw_upstream.reset(behavior)
    client = RawClient(gateway.port, timeout=6)
    client.send(post_bytes(route, NAMED_QUERY))
    response = client.read_response(timeout=6)
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


# MARK: - Legal but unusual answers


@pytest.mark.parametrize("interim", [
    b"HTTP/1.1 100 Continue\r\n\r\n",
    b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n",
], ids=["100", "103", "100-then-102"])
def test_interim_responses_then_final(gateway, raw_upstream, interim):
    raw_upstream.reset(respond_raw(interim + response_bytes(200, GOOD, JSON), close_after=False))
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert response.status == 200 and response.body == GOOD
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=False)


def test_close_delimited_body_arrives_whole_and_is_not_reused(gateway, raw_upstream):
    body = b'{"data":{"until":"close"}}'
    raw_upstream.reset(respond_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body,
                                   close_after=True))
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert response.status == 200 and response.body == body
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


# A close that comes in the same segment as the body's last bytes, and a body past one read's
# room (64 KiB) sent with its close at once: the end is known only from bytes still unread.
@pytest.mark.parametrize("size", [40, 300_000])
def test_a_close_delimited_body_with_its_close_in_the_same_send_arrives_whole(gateway, raw_upstream, size):
    body = deterministic_bytes(size)
    raw_upstream.reset(answer_with_close(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n" + body))
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert response.status == 200 and len(response.body) == size and response.body == body
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_a_head_sent_before_its_body_goes_out_with_the_body(gateway, raw_upstream, framing):
    """The upstream sends its head, then its body a moment later (nginx serving a file does: the
    head with writev, the body with sendfile). The gateway sends the head with the first body
    bytes, not in a send of its own: the client's first read already holds body bytes."""
    if framing == "chunked":
        head = head_bytes(200, [*JSON, ("Transfer-Encoding", "chunked")], "OK")
        body = b"%x\r\n%s\r\n0\r\n\r\n" % (len(GOOD), GOOD)
    else:
        head = head_bytes(200, [*JSON, ("Content-Length", len(GOOD))], "OK")
        body = GOOD
    raw_upstream.reset(send_in_pieces(head + body, piece=len(head), pause=0.3, keep_open=True))
    client = RawClient(gateway.port, timeout=6.0)
    with client:
        client.send(post_bytes(b"/raw"))
        first_read = client.sock.recv(65536)
        assert b"\r\n\r\n" in first_read, f"the first read holds no whole head: {first_read!r}"
        assert first_read.split(b"\r\n\r\n", 1)[1], "the head came in a send of its own"
        client.buffer = first_read
        response = client.read_response()
        assert response.status == 200 and response.body == GOOD
        assert_client_connection_serves(client, response)


HEAD_ONLY = head_bytes(200, [*JSON, ("Content-Length", 100)], "OK")


def test_a_head_whose_body_never_comes_is_a_502_when_the_upstream_closes(gateway, raw_upstream):
    """Nothing of the response reached the client (its head waits for body bytes), so the
    client gets the envelope rather than a head and a reset."""
    raw_upstream.reset(respond_raw(HEAD_ONLY))
    response, _, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 502, "UPSTREAM_ERROR")
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


@pytest.mark.slow
def test_a_head_whose_body_never_comes_is_a_504_at_the_timeout(gateway, raw_upstream):
    raw_upstream.reset(send_and_hold(HEAD_ONLY))
    response, elapsed, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert elapsed <= 2.5
        assert_client_connection_serves(client, response)
    time.sleep(0.1)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


def test_slow_drip_within_the_timeout_arrives_whole(gateway, raw_upstream):
    raw_upstream.reset(send_in_pieces(response_bytes(200, GOOD, JSON), piece=3, pause=0.02, keep_open=True))
    response, elapsed, client = through_fault(gateway.port, b"/drip")
    with client:
        assert response.status == 200 and response.body == GOOD
        assert elapsed < 4
        assert_client_connection_serves(client, response)


@pytest.mark.slow
def test_slow_drip_of_the_head_past_the_timeout_is_504(gateway, raw_upstream):
    raw_upstream.reset(send_in_pieces(response_bytes(200, GOOD, JSON), piece=1, pause=0.1))
    response, elapsed, client = through_fault(gateway.port, b"/raw")
    with client:
        assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert elapsed <= 2.5, f"504 after {elapsed:.2f}s, route timeout is 1s: trickles extended it"
        assert_client_connection_serves(client, response)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


@pytest.mark.slow
def test_body_stalled_after_the_head_aborts_at_the_timeout(gateway, raw_upstream):
    raw_upstream.reset(send_and_hold(head_bytes(200, [*JSON, ("Content-Length", 100)], "OK") + b'{"d'))
    response, elapsed, client = through_fault(gateway.port, b"/raw")
    with client:
        if response is not None:
            assert_raw_envelope(response, 504, "UPSTREAM_TIMEOUT")
        assert elapsed <= 2.5
        assert_client_connection_serves(client, response)
    time.sleep(0.1)
    assert_pool_recovers(gateway, raw_upstream, must_be_fresh=True)


# MARK: - Response-queue poisoning


def first_then(first_data: bytes, later: bytes = b"", later_after: float = 0.0):
    """The first request gets `first_data` (and `later` bytes `later_after` seconds afterwards, on
    the same connection); every other request a clean answer naming its target."""
    state = {"served": 0}

    def behave(connection, request, stop):
        state["served"] += 1
        if state["served"] == 1:
            connection.send(first_data)
            if later:
                stop.wait(later_after)
                connection.send(later)
            return True
        body = b'{"data":{"own":"%s"}}' % request.target.encode()
        connection.send(response_bytes(200, body, JSON))
        return True

    return behave


SMUGGLED = response_bytes(200, b'{"data":{"smuggled":true}}', JSON)
FIRST = response_bytes(200, b'{"data":{"first":true}}', JSON)


@pytest.mark.parametrize("first_data, later, later_after", [
    (FIRST + SMUGGLED, b"", 0.0),
    (FIRST + b"garbage after the body", b"", 0.0),
    (FIRST, SMUGGLED, 0.2),
    (FIRST, b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", 0.2),
    (b"HTTP/1.1 204 No Content\r\n\r\n" + SMUGGLED, b"", 0.0),
    (b"HTTP/1.1 304 Not Modified\r\nContent-Length: 30\r\n\r\n" + SMUGGLED, b"", 0.0),
], ids=["second-response-at-once", "garbage-at-once", "second-response-later",
        "head-later", "after-204", "after-304-with-length"])
def test_bytes_after_a_response_never_reach_the_next_client(gateway, raw_upstream, first_data,
                                                            later, later_after):
    raw_upstream.reset(first_then(first_data, later, later_after))
    response, _, client = through_fault(gateway.port, b"/raw")
    client.close()
    assert response is None or response.status in (200, 204, 304, 502), response.status
    time.sleep(later_after + 0.2)  # the late bytes are on the pooled connection by now
    for index in range(3):
        response, _, client = through_fault(gateway.port, b"/raw?n=%d" % index)
        with client:
            assert response is not None and response.status == 200, response
            assert response.body == b'{"data":{"own":"/graphql?n=%d"}}' % index, \
                f"request {index} got {response.body[:120]!r}"


def test_connection_close_from_the_upstream_is_honoured(gateway, raw_upstream):
    raw_upstream.reset(respond(200, GOOD, [*JSON, ("Connection", "close")], close_after=False))
    for _ in range(3):
        response, _, client = through_fault(gateway.port, b"/raw")
        with client:
            assert response.status == 200 and response.body == GOOD
            assert_client_connection_serves(client, response)
    carried = [len(c.requests) for c in raw_upstream.connections if c.requests]
    assert carried == [1, 1, 1], f"requests per upstream connection {carried}: one asked to close was reused"
