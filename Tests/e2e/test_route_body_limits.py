"""A route's `max_body_bytes` replaces the server's for that route, up or down (README,
"Configuration"): the declared Content-Length is checked before a byte of the body is read,
chunked bodies are counted as they arrive; over the limit is a 413 and the connection closes.

Rows: route, framing, body size -> status, closes?, what the upstream got.
"""

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.process_memory import MIB
from support.raw_http import RawClient
from support.raw_upstream import respond

SERVER_LIMIT = MIB
RAISED_LIMIT = 4 * MIB
LOWERED_LIMIT = 1024
CHUNK = 16 * 1024
HOST = b"Host: gatehouse.test\r\n"
LAST_CHUNK = b"\r\n0\r\n\r\n"


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    def build(port, admin):
        return base_config(
            port, admin, max_body_bytes=SERVER_LIMIT,
            upstreams={"app": {"url": f"{raw_upstream.url}/graphql", "timeout": "5s"}},
            routes=[{"path": "/server", "upstream": "app", "auth": "none"},
                    {"path": "/raised", "upstream": "app", "auth": "none", "max_body_bytes": RAISED_LIMIT},
                    {"path": "/lowered", "upstream": "app", "auth": "none", "max_body_bytes": LOWERED_LIMIT},
                    {"path": "/lowered/stream", "upstream": "app", "auth": "none", "max_body_bytes": LOWERED_LIMIT,
                     "request_buffering": False}])
    return module_gateways.start(build)


# (route, framing, size, status, closes, what the upstream got: "all", "nothing" or "cut off" —
# a streamed request never completed upstream: its head at most, never the last chunk)
ROWS = [
    ("/server", "length", SERVER_LIMIT, 200, False, "all"),
    ("/server", "length", SERVER_LIMIT + 1, 413, True, "nothing"),
    ("/raised", "length", SERVER_LIMIT + 1, 200, False, "all"),
    ("/raised", "length", RAISED_LIMIT, 200, False, "all"),
    ("/raised", "length", RAISED_LIMIT + 1, 413, True, "nothing"),
    ("/raised", "chunked", 2 * SERVER_LIMIT, 200, False, "all"),
    ("/lowered", "length", LOWERED_LIMIT, 200, False, "all"),
    ("/lowered", "length", LOWERED_LIMIT + 1, 413, True, "nothing"),
    ("/lowered", "chunked", 4 * LOWERED_LIMIT, 413, True, "nothing"),
    ("/lowered/stream", "chunked", 4 * LOWERED_LIMIT, 413, True, "cut off"),
]


def send_body(client, path, framing, size):
    """Sends the head and, unless the gateway refuses it first, the body."""
    if framing == "length":
        client.send(b"POST %s HTTP/1.1\r\n%sContent-Length: %d\r\n\r\n" % (path.encode(), HOST, size))
    else:
        client.send(b"POST %s HTTP/1.1\r\n%sTransfer-Encoding: chunked\r\n\r\n" % (path.encode(), HOST))
    body = b"z" * size
    try:
        if framing == "length":
            client.send(body)
        else:
            for offset in range(0, size, CHUNK):
                piece = body[offset:offset + CHUNK]
                client.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
            client.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the gateway may stop reading once the limit is passed


@pytest.mark.parametrize("path, framing, size, status, closes, upstream_got", ROWS,
                         ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in ROWS])
def test_route_body_limit(gateway, raw_upstream, path, framing, size, status, closes, upstream_got):
    raw_upstream.reset(respond())
    with RawClient(gateway.port) as client:
        send_body(client, path, framing, size)
        response = client.read_response(timeout=5)
        if status == 200:
            assert response.status == 200
        else:
            assert_raw_envelope(response, status, "PAYLOAD_TOO_LARGE", source="gateway")
        assert client.is_closed() == closes
    requests = raw_upstream.requests
    if upstream_got == "all":
        assert len(requests) == 1 and len(requests[0].body) == size
    elif upstream_got == "nothing":
        assert raw_upstream.bytes_received == 0
    else:
        # The limit may be passed before the upstream connection is even up (then it got
        # nothing); either way it never sees a complete request.
        received = b"".join(bytes(c.received) for c in raw_upstream.connections)
        assert received == b"" or received.startswith(b"POST /graphql ")
        assert LAST_CHUNK not in received
