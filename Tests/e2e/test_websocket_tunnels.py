"""WebSocket tunnels (README "WebSocket"): on a `websocket` route the handshake passes every
phase, goes upstream with the configured subprotocols, and after the upstream's 101 frames flow
both ways untouched — python `websockets` and a graphql-transport-ws client against strawberry.
The gateway closes with 4403 when the verified token expires, 1009 for a message over
`max_message_size`, 1001 at `idle_timeout` and on SIGTERM.
"""

import json
import signal
import time

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from support.envelope import assert_envelope
from support.gateway import base_config
from support.jwt_keys import claims, mint
from support.websocket_client import closed_code, expect_close_at_expiry, upstream_websockets

SECRET = "websocket-tests-secret-of-32-bytes!!"
MAX_MESSAGE = 1024 * 1024


def tunnel_config(graphql_upstream, idle="30s"):
    def build(port, admin):
        config = base_config(
            port, admin,
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "5s",
                               "headers": {"X-Gateway": "gatehouse"}},
                       "echo": {"url": f"{graphql_upstream.url}/ws/echo", "timeout": "5s"}},
            routes=[{"path": "/ws/echo", "upstream": "echo", "auth": "none",
                     "websocket": {"max_message_size": "1MiB", "idle_timeout": idle}},
                    {"path": "/graphql/ws", "upstream": "app", "auth": "user-jwt",
                     "websocket": {"subprotocols": ["graphql-transport-ws", "graphql-ws"]}},
                    {"path": "/graphql/ws-query", "upstream": "app", "auth": "user-jwt",
                     "websocket": {"token_from": ["header", "query:access_token"]}}])
        config["auth"] = {"user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET, "leeway": "0s",
                                       "claims_to_headers": {"X-User-Id": "sub"}}}
        return config
    return build


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(tunnel_config(graphql_upstream))


def ws_url(gateway, path: str) -> str:
    return gateway.url.replace("http://", "ws://") + path


def token(ttl: int = 300, sub: str = "alice") -> str:
    return mint(claims(sub=sub, ttl=ttl), "HS256", SECRET.encode())


# MARK: - Frames both ways


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 300_000])
def test_messages_pass_byte_for_byte(gateway, size):
    text = ("é" * size)[:size] if size else ""
    binary = bytes((index * 7) & 0xFF for index in range(size))
    with connect(ws_url(gateway, "/ws/echo"), max_size=None) as socket:
        socket.send(binary)
        assert socket.recv(timeout=10) == binary
        socket.send(text)
        assert socket.recv(timeout=10) == text


def test_graphql_transport_ws_subscription_with_a_header_token(gateway, graphql_upstream):
    headers = {"Authorization": f"Bearer {token()}"}
    with connect(ws_url(gateway, "/graphql/ws"), subprotocols=["graphql-transport-ws"],
                 additional_headers=headers) as socket:
        assert socket.subprotocol == "graphql-transport-ws"
        socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
        socket.send(json.dumps({"id": "1", "type": "subscribe",
                                "payload": {"query": "subscription { countdown(start: 3) }"}}))
        messages = [json.loads(socket.recv(timeout=5)) for _ in range(4)]
    assert [m["payload"]["data"]["countdown"] for m in messages[:3]] == [3, 2, 1]
    assert messages[3] == {"id": "1", "type": "complete"}
    handshake = upstream_websockets(graphql_upstream)[-1]
    names = {name.lower(): value for name, value in handshake["headers"]}
    assert names["x-user-id"] == "alice" and names["x-gateway"] == "gatehouse"
    assert handshake["subprotocols"] == ["graphql-transport-ws"]


def test_legacy_graphql_ws_is_offered_too(gateway):
    headers = {"Authorization": f"Bearer {token()}"}
    with connect(ws_url(gateway, "/graphql/ws"), subprotocols=["graphql-ws"], additional_headers=headers) as socket:
        assert socket.subprotocol == "graphql-ws"
        socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"


def test_handshake_without_a_token_is_refused_before_the_upgrade(gateway):
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(gateway, "/graphql/ws"), subprotocols=["graphql-transport-ws"])
    response = refused.value.response
    assert_envelope(response.status_code, response.headers, response.body, 401, "UNAUTHENTICATED")


def test_query_token_opens_the_tunnel_and_goes_no_further(gateway, graphql_upstream):
    secret_token = token(sub="query-user")
    url = ws_url(gateway, f"/graphql/ws-query?x=1&access_token={secret_token}&y=2")
    with connect(url, subprotocols=["graphql-transport-ws"]) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
    handshake = upstream_websockets(graphql_upstream)[-1]
    assert handshake["path"] == "/graphql?x=1&y=2"
    assert secret_token not in json.dumps(handshake)
    assert ("x-user-id", "query-user") in [(name.lower(), value) for name, value in handshake["headers"]]
    logged = gateway.wait_for_access_log(lambda entry: entry.get("status") == 101 and entry.get("path") == "/graphql/ws-query")
    assert logged, "the handshake is logged"
    assert secret_token not in gateway.stdout_text() and secret_token not in gateway.stderr_text()


def test_bad_query_token_is_refused_before_the_upgrade(gateway):
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url(gateway, "/graphql/ws-query?access_token=not.a.token"))
    response = refused.value.response
    assert_envelope(response.status_code, response.headers, response.body, 401, "UNAUTHENTICATED")


# MARK: - The gateway's closes


def test_token_expiring_mid_subscription_closes_4403(gateway, graphql_upstream):
    headers = {"Authorization": f"Bearer {token(ttl=2)}"}
    with connect(ws_url(gateway, "/graphql/ws"), subprotocols=["graphql-transport-ws"],
                 additional_headers=headers) as socket:
        socket.send(json.dumps({"type": "connection_init", "payload": {}}))
        assert json.loads(socket.recv(timeout=5))["type"] == "connection_ack"
        expect_close_at_expiry(socket, graphql_upstream)


def test_message_over_max_message_size_closes_1009(gateway):
    with connect(ws_url(gateway, "/ws/echo"), max_size=None) as socket:
        socket.send(b"x" * (2 * MAX_MESSAGE))
        assert closed_code(socket) == 1009
    assert 'gatehouse_websocket_closes_total{route="/ws/echo",code="1009"}' in gateway.metrics_text()


def test_idle_tunnel_closes_at_idle_timeout(module_gateways, graphql_upstream):
    idle = module_gateways.start(tunnel_config(graphql_upstream, idle="1s"), name="idle")
    with connect(ws_url(idle, "/ws/echo")) as socket:
        started = time.monotonic()
        assert closed_code(socket) == 1001
        assert 0.9 <= time.monotonic() - started < 3


def test_sigterm_closes_tunnels_with_1001(gateway_factory, graphql_upstream):
    draining = gateway_factory.start(tunnel_config(graphql_upstream))
    with connect(ws_url(draining, "/ws/echo")) as socket:
        socket.send("before")
        assert socket.recv(timeout=5) == "before"
        assert "gatehouse_websocket_tunnels_open 1" in draining.metrics_text()
        draining.signal(signal.SIGTERM)
        assert closed_code(socket) == 1001
