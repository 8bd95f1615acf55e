"""What the WebSocket tests share: the gateway's close code, and the upstream's record of its
WebSocket handshakes (strawberry's `/_websockets`)."""

import json
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

# A countdown long enough to outlive any token the tests mint.
ENDLESS_COUNTDOWN = "subscription { countdown(start: 1000, interval: 0.1) }"


def closed_code(socket) -> int:
    """Waits for the gateway's close and returns its code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            socket.recv(timeout=10)
    return closed.value.rcvd.code if closed.value.rcvd else None


def upstream_websockets(graphql_upstream) -> list:
    return httpx.get(f"{graphql_upstream.url}/_websockets").json()


def expect_close_at_expiry(socket, graphql_upstream, within: float = 3.5) -> None:
    """After `connection_ack`: a subscription runs until the token expires, the client gets 4403
    within `within` seconds, and the upstream's socket is closed too."""
    socket.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": ENDLESS_COUNTDOWN}}))
    started = time.monotonic()
    assert closed_code(socket) == 4403
    assert time.monotonic() - started < within
    deadline = time.monotonic() + 3
    while upstream_websockets(graphql_upstream)[-1]["closed_code"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert upstream_websockets(graphql_upstream)[-1]["closed_code"] is not None, "the upstream socket stays open"
