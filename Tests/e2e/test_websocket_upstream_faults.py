"""An upstream that breaks WebSocket framing after its 101 (README "WebSocket", close codes):
the client still gets a close frame, 1009 for a frame over `max_message_size` and 1011 for a
frame the upstream must not send (masked, or with a reserved bit), never a bare reset."""

import base64
import hashlib
import socket
import threading

import pytest
from websockets.sync.client import connect

from support.gateway import base_config
from support.ports import free_port
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


class BadFrameUpstream:
    """Accepts one WebSocket handshake at a time, answers a correct 101, then sends `frame`."""

    def __init__(self):
        self.port = free_port()
        self.frame = b""
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stopped.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(5)
                request = b""
                while b"\r\n\r\n" not in request:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    request += chunk
                key = next(line.split(b":", 1)[1].strip() for line in request.split(b"\r\n")
                           if line.lower().startswith(b"sec-websocket-key:"))
                accept = base64.b64encode(hashlib.sha1(key + GUID).digest())
                conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             b"Sec-WebSocket-Accept: " + accept + b"\r\n\r\n" + self.frame)
                try:
                    while conn.recv(4096):
                        pass
                except OSError:
                    pass

    def close(self):
        self.stopped.set()
        self.thread.join(timeout=2)
        self.listener.close()


@pytest.fixture(scope="module")
def upstream():
    server = BadFrameUpstream()
    yield server
    server.close()


@pytest.fixture(scope="module")
def gateway(module_gateways, upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"bad": {"url": f"http://127.0.0.1:{upstream.port}/ws", "timeout": "5s"}},
        routes=[{"path": "/ws", "upstream": "bad", "auth": "none",
                 "websocket": {"max_message_size": "64KiB"}}]))


@pytest.mark.parametrize("frame, code", BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
def test_a_bad_upstream_frame_closes_the_client_with_a_code(gateway, upstream, frame, code):
    upstream.frame = frame
    with connect(gateway.url.replace("http://", "ws://") + "/ws", max_size=None, open_timeout=5) as client:
        assert closed_code(client) == code
