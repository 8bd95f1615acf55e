"""WebSocket auth by `token_from: connection_init:FIELD` (README "WebSocket"): a handshake without
a token is answered by the gateway itself; the token in the client's first message is verified
like a header token and only then is the upstream WebSocket opened (with the injected and claim
headers) and the `connection_init` passed on. Refusals after the 101 are close frames — 4401,
4403, 4408, 4400, 1009 — and the upstream never sees such a client. A graphql-transport-ws
client (python `websockets`) against strawberry.
"""

import json
import time

import pytest
from websockets.sync.client import connect

from support.gateway import base_config
from support.jwt_keys import claims, mint
from support.websocket_client import closed_code, expect_close_at_expiry, upstream_websockets

SECRET = "websocket-init-secret-of-32-bytes!!!"
PATH = "/graphql/ws-init"
MAX_MESSAGE = 64 * 1024


def init_config(graphql_upstream):
    def build(port, admin):
        config = base_config(
            port, admin,
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "5s",
                               "headers": {"X-Gateway": "gatehouse"}}},
            routes=[{"path": PATH, "upstream": "app", "auth": "user-jwt",
                     "websocket": {"subprotocols": ["graphql-transport-ws", "graphql-ws"],
                                   "token_from": ["header", "connection_init:Authorization"],
                                   "init_timeout": "1s", "max_message_size": "64KiB"}},
                    {"path": "/graphql/ws-header", "upstream": "app", "auth": "user-jwt",
                     "websocket": {"subprotocols": ["graphql-transport-ws"]}}])
        config["auth"] = {"user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET, "leeway": "0s",
                                       "claims_to_headers": {"X-User-Id": "sub", "X-Role": "role"}}}
        return config
    return build


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(init_config(graphql_upstream))


def ws_url(gateway, path: str = PATH) -> str:
    return gateway.url.replace("http://", "ws://") + path


def token(ttl: int = 300, sub: str = "alice", **extra) -> str:
    return mint(claims(sub=sub, ttl=ttl, **extra), "HS256", SECRET.encode())


def init_message(value: str) -> str:
    return json.dumps({"type": "connection_init", "payload": {"Authorization": value}})


def subscribe(socket, start: int = 3, interval: float = 0.05) -> list:
    """A countdown subscription's raw frames, through `complete`."""
    socket.send(json.dumps({"id": "1", "type": "subscribe",
                            "payload": {"query": f"subscription {{ countdown(start: {start}, interval: {interval}) }}"}}))
    return [socket.recv(timeout=5) for _ in range(start + 1)]


# MARK: - A good token


def test_token_in_connection_init_opens_the_upstream_and_streams(gateway, graphql_upstream):
    before = len(upstream_websockets(graphql_upstream))
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"]) as socket:
        assert socket.subprotocol == "graphql-transport-ws"
        time.sleep(0.2)
        assert len(upstream_websockets(graphql_upstream)) == before, "no upstream before the token"
        socket.send(init_message(f"Bearer {token()}"))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
        frames = subscribe(socket)
    with connect(ws_url(gateway, "/graphql/ws-header"), subprotocols=["graphql-transport-ws"],
                 additional_headers={"Authorization": f"Bearer {token()}"}) as reference:
        reference.send(json.dumps({"type": "connection_init", "payload": {}}))
        reference.recv(timeout=5)
        assert frames == subscribe(reference), "the same frames, byte for byte, as a header-token tunnel"
    assert [json.loads(frame)["payload"]["data"]["countdown"] for frame in frames[:3]] == [3, 2, 1]
    upstream = upstream_websockets(graphql_upstream)[before]
    names = {name.lower(): value for name, value in upstream["headers"]}
    assert names["x-user-id"] == "alice" and names["x-gateway"] == "gatehouse"
    assert "authorization" not in names
    assert upstream["subprotocols"] == ["graphql-transport-ws"]
    assert upstream["messages"] >= 2, "the connection_init and the subscribe went up"
    logged = gateway.wait_for_access_log(lambda entry: entry.get("path") == PATH and entry.get("subject") == "alice")
    assert logged and logged[-1]["status"] == 101


def test_the_gateway_picks_the_clients_first_listed_subprotocol(gateway):
    with connect(ws_url(gateway), subprotocols=["unknown", "graphql-ws", "graphql-transport-ws"]) as socket:
        assert socket.subprotocol == "graphql-ws"
        socket.send(init_message(token()))  # a bare token works too
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"


def test_frames_sent_before_the_ack_are_held_and_passed_in_order(gateway):
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(init_message(f"Bearer {token()}"))
        socket.send(json.dumps({"id": "1", "type": "subscribe",
                                "payload": {"query": "subscription { countdown(start: 2) }"}}))
        replies = [json.loads(socket.recv(timeout=5)) for _ in range(4)]
    assert replies[0]["type"] == "connection_ack"
    assert [reply["payload"]["data"]["countdown"] for reply in replies[1:3]] == [2, 1]


def test_header_token_takes_precedence(gateway, graphql_upstream):
    before = len(upstream_websockets(graphql_upstream))
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"],
                 additional_headers={"Authorization": f"Bearer {token(sub='header-user')}"}) as socket:
        assert len(upstream_websockets(graphql_upstream)) == before + 1, "a header token goes upstream with the handshake"
        socket.send(init_message("Bearer not.a.token"))  # ignored by the gateway: the header decided
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
    names = {name.lower(): value for name, value in upstream_websockets(graphql_upstream)[before]["headers"]}
    assert names["x-user-id"] == "header-user"


# MARK: - Refusals after the 101: nothing upstream


@pytest.mark.parametrize("name, first_message, code", [
    ("invalid token", init_message("Bearer not.a.token"), 4401),
    ("wrong signature", init_message(mint(claims(sub="mallory"), "HS256", b"another-secret-of-32-bytes-long!!")), 4401),
    ("expired token", init_message(token(ttl=-10)), 4401),
    ("no token in the payload", json.dumps({"type": "connection_init", "payload": {}}), 4401),
    # Minted when the module is collected, maybe minutes before the row runs: an hour to live.
    ("forbidden: a claim no header may carry", init_message(token(ttl=3600, role={"admin": True})), 4403),
    ("another message first", json.dumps({"id": "1", "type": "subscribe", "payload": {}}), 4400),
    ("a message over max_message_size", "x" * (2 * MAX_MESSAGE), 1009),
])
def test_refusals_close_and_the_upstream_sees_nothing(gateway, graphql_upstream, name, first_message, code):
    before = len(upstream_websockets(graphql_upstream))
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"], max_size=None) as socket:
        socket.send(first_message)
        assert closed_code(socket) == code, name
    time.sleep(0.2)
    assert len(upstream_websockets(graphql_upstream)) == before, "the upstream saw no connection"
    assert f'gatehouse_websocket_closes_total{{route="{PATH}",code="{code}"}}' in gateway.metrics_text()


def test_no_connection_init_within_init_timeout_closes_4408(gateway, graphql_upstream):
    before = len(upstream_websockets(graphql_upstream))
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"]) as socket:
        started = time.monotonic()
        assert closed_code(socket) == 4408
        assert 0.9 <= time.monotonic() - started < 3
    assert socket.close_reason == "Connection initialisation timeout"
    assert len(upstream_websockets(graphql_upstream)) == before
    logged = gateway.wait_for_access_log(lambda entry: entry.get("path") == PATH and entry.get("error_code") == "REQUEST_TIMEOUT")
    assert logged and logged[-1]["status"] == 101


# MARK: - Expiry


def test_token_expiring_mid_subscription_closes_4403(gateway, graphql_upstream):
    with connect(ws_url(gateway), subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(init_message(f"Bearer {token(ttl=2, sub='short-lived')}"))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
        expect_close_at_expiry(socket, graphql_upstream)
