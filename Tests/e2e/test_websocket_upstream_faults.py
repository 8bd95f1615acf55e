"""An upstream that breaks WebSocket framing after its 101 (README "WebSocket", close codes):
the client still gets a close frame, 1009 for a frame over `max_message_size` and 1011 for a
frame the upstream must not send (masked, or with a reserved bit), never a bare reset."""

import base64
import hashlib

import pytest
from websockets.sync.client import connect

from support.gateway import base_config
from support.websocket_client import closed_code

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

BAD_FRAMES = {
    # A 2 MiB text frame announced in its header (the route allows 64 KiB).
    "oversized": (b"\x81\x7f" + (2 * 1024 * 1024).to_bytes(8, "big") + b"x" * 1024, 1009),
    # A server must not mask its frames (RFC 6455 5.1).
    "masked": (b"\x81\x82\x00\x00\x00\x00hi", 1011),
    # RSV1 without a negotiated extension.
    "reserved-bit": (b"\xc1\x02hi", 1011),
}


def switch_then_send(frame: bytes):
    """A raw_upstream behavior: a correct 101 for the request's key, then `frame`."""
    def behave(conn, request, stop):
        key = request.header("Sec-WebSocket-Key").encode()
        accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
        conn.send(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + frame)
        conn.wait_for_peer_close(stop, limit=10)
        return False

    return behave


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"bad": {"url": f"{raw_upstream.url}/ws", "timeout": "5s"}},
        routes=[{"path": "/ws", "upstream": "bad", "auth": "none",
                 "websocket": {"max_message_size": "64KiB"}}]))


@pytest.mark.parametrize("frame, code", BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
def test_a_bad_upstream_frame_closes_the_client_with_a_code(gateway, raw_upstream, frame, code):
    raw_upstream.reset(switch_then_send(frame))
    with connect(gateway.url.replace("http://", "ws://") + "/ws", max_size=None, open_timeout=5) as client:
        assert closed_code(client) == code
