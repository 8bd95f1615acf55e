"""What the upstream receives in its headers, and what the client gets back (README, "How a request is handled")."""

import json

import pytest

from support.envelope import REQUEST_ID
from support.gateway import base_config
from support.graphql_client import graphql_body, received_headers
from support.raw_http import RawClient
from support.raw_upstream import respond, respond_raw

SERVICE_TOKEN = "svc-token-from-env-7f3a"
QUERY = graphql_body("{ hello }")


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={
            "app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "5s",
                    "headers": {"X-Service-Token": "${E2E_SERVICE_TOKEN}",
                                "X-Static-Upstream": "static"}},
            "raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "2s"},
        },
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none",
             "headers": {"set": {"X-Client-Door": "public"}, "remove": ["Cookie", "X-Drop-Me"]}},
            {"path": "/raw", "upstream": "raw", "auth": "none"},
        ]), env={"E2E_SERVICE_TOKEN": SERVICE_TOKEN})


@pytest.fixture(autouse=True)
def clean_upstream(graphql_upstream):
    graphql_upstream.clear()


def send(gateway, headers, target="/graphql"):
    """One POST with `headers` on a new raw connection; returns the response."""
    with RawClient(gateway.port) as client:
        client.request("POST", target, [("Content-Type", "application/json"), *headers], QUERY)
        response = client.read_response()
    return response


def upstream_saw(graphql_upstream) -> dict:
    requests = graphql_upstream.requests()
    assert len(requests) == 1, f"upstream received {len(requests)} requests"
    return requests[0]


# MARK: - Forwarding headers


def test_upstream_sees_its_own_host(gateway, graphql_upstream):
    response = send(gateway, [])
    assert response.status == 200
    assert received_headers(upstream_saw(graphql_upstream), "host") == [graphql_upstream.host_header]


def test_forwarded_for_is_the_peer_not_the_client_claim(gateway, graphql_upstream):
    response = send(gateway, [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "https")])
    assert response.status == 200
    seen = upstream_saw(graphql_upstream)
    assert received_headers(seen, "x-forwarded-for") == ["127.0.0.1"]
    assert received_headers(seen, "x-forwarded-proto") == ["http"]


@pytest.mark.parametrize("request_id", ["abc-123", "A.b_c-9", "x" * 128, "0"])
def test_valid_request_id_is_kept(gateway, graphql_upstream, request_id):
    response = send(gateway, [("X-Request-Id", request_id)])
    assert response.status == 200
    assert received_headers(upstream_saw(graphql_upstream), "x-request-id") == [request_id]
    assert response.header("x-request-id") == request_id


@pytest.mark.parametrize("request_id", ["has space", "semi;colon", "x" * 129, "slash/id",
                                        "quote\"d", "caf\xe9", ""])
def test_invalid_request_id_is_replaced(gateway, graphql_upstream, request_id):
    response = send(gateway, [("X-Request-Id", request_id)])
    assert response.status == 200
    [forwarded] = received_headers(upstream_saw(graphql_upstream), "x-request-id")
    assert forwarded != request_id
    assert REQUEST_ID.match(forwarded), forwarded
    assert response.header("x-request-id") == forwarded


def test_missing_request_id_is_generated_and_unique(gateway, graphql_upstream):
    first = send(gateway, []).header("x-request-id")
    second = send(gateway, []).header("x-request-id")
    assert REQUEST_ID.match(first) and REQUEST_ID.match(second)
    assert first != second
    forwarded = [received_headers(entry, "x-request-id")[0] for entry in graphql_upstream.requests()]
    assert forwarded == [first, second]


# MARK: - Injected and rewritten headers


def test_upstream_headers_come_from_config_and_environment(gateway, graphql_upstream):
    send(gateway, [])
    seen = upstream_saw(graphql_upstream)
    assert received_headers(seen, "x-service-token") == [SERVICE_TOKEN]
    assert received_headers(seen, "x-static-upstream") == ["static"]
    assert received_headers(seen, "x-client-door") == ["public"]


@pytest.mark.parametrize("token_name, door_name, static_name", [
    ("X-Service-Token", "X-Client-Door", "X-Static-Upstream"),
    ("x-service-token", "x-client-door", "x-static-upstream"),
    ("X-SERVICE-TOKEN", "X-CLIENT-DOOR", "X-STATIC-UPSTREAM"),
    ("x-SeRvIcE-tOkEn", "x-ClIeNt-DoOr", "x-StAtIc-UpStReAm"),
])
def test_client_copies_of_injected_headers_are_dropped(gateway, graphql_upstream, token_name,
                                                       door_name, static_name):
    send(gateway, [(token_name, "forged"), (token_name, "forged-again"),
                   (door_name, "private"), (static_name, "forged")])
    seen = upstream_saw(graphql_upstream)
    assert received_headers(seen, "x-service-token") == [SERVICE_TOKEN]
    assert received_headers(seen, "x-client-door") == ["public"]
    assert received_headers(seen, "x-static-upstream") == ["static"]


@pytest.mark.parametrize("name", ["Cookie", "cookie", "COOKIE", "x-drop-me"])
def test_route_headers_remove(gateway, graphql_upstream, name):
    send(gateway, [(name, "session=abc"), ("X-Keep-Me", "yes")])
    seen = upstream_saw(graphql_upstream)
    assert received_headers(seen, name) == []
    assert received_headers(seen, "x-keep-me") == ["yes"]


# MARK: - Hop-by-hop


@pytest.mark.parametrize("headers, dropped", [
    ([("Connection", "keep-alive, X-Foo"), ("X-Foo", "secret")], ["x-foo"]),
    ([("Connection", "X-A,X-B"), ("X-A", "1"), ("X-B", "2")], ["x-a", "x-b"]),
    ([("Keep-Alive", "timeout=5, max=100")], ["keep-alive"]),
    ([("TE", "trailers")], ["te"]),
    ([("Upgrade", "websocket")], ["upgrade"]),
    ([("Proxy-Authorization", "Basic dXNlcjpwYXNz")], ["proxy-authorization"]),
    ([("Proxy-Connection", "keep-alive")], ["proxy-connection"]),
    ([("Trailer", "X-Checksum")], ["trailer"]),
], ids=["connection-named", "connection-list", "keep-alive", "te", "upgrade",
        "proxy-authorization", "proxy-connection", "trailer"])
def test_hop_by_hop_headers_are_dropped(gateway, graphql_upstream, headers, dropped):
    response = send(gateway, [*headers, ("X-End-To-End", "kept")])
    assert response.status == 200
    seen = upstream_saw(graphql_upstream)
    for name in dropped:
        assert received_headers(seen, name) == [], f"{name} reached the upstream"
    assert received_headers(seen, "x-end-to-end") == ["kept"]
    assert "x-foo" not in [n.lower() for n in received_headers(seen, "connection")]


def test_end_to_end_headers_keep_their_values_and_order(gateway, graphql_upstream):
    send(gateway, [("X-Multi", "one"), ("Accept", "application/json"), ("X-Multi", "two"),
                   ("User-Agent", "e2e/1.0 (tests)"), ("Authorization", "Bearer abc.def")])
    seen = upstream_saw(graphql_upstream)
    assert received_headers(seen, "x-multi") == ["one", "two"]
    assert received_headers(seen, "user-agent") == ["e2e/1.0 (tests)"]
    assert received_headers(seen, "authorization") == ["Bearer abc.def"]


def test_forwarded_lines_are_the_clients_values_in_order_however_they_were_spaced(gateway, raw_upstream):
    """Lines written plainly ("Name: value") are copied as they came, in runs; the others are
    rebuilt with their trimmed value; what is dropped leaves no gap in the order."""
    raw_upstream.reset(respond(200, b'{"data":{}}'))
    body = QUERY
    head = ("POST /raw HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Type: application/json\r\n"
            "X-A: one\r\nX-B:two\r\nX-C: \t three \t\r\nConnection: X-Hop\r\nX-Hop: gone\r\n"
            "X-D: four\r\nKeep-Alive: timeout=5\r\nX-E: five\r\nX-F: six\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    with RawClient(gateway.port) as client:
        client.send(head + body)
        assert client.read_response().status == 200
    received = b"".join(bytes(connection.received) for connection in raw_upstream.connections)
    lines = received.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]
    client_lines = [line for line in lines if line[:2].lower() == b"x-" and not line.lower().startswith(b"x-forwarded")
                    and not line.lower().startswith(b"x-request-id")]
    assert client_lines == [b"X-A: one", b"X-B: two", b"X-C: three", b"X-D: four", b"X-E: five", b"X-F: six"]
    assert not any(line.lower().startswith((b"x-hop", b"keep-alive", b"connection: x-hop")) for line in lines)


def test_response_lines_are_the_upstreams_values_in_order_however_they_were_spaced(gateway, raw_upstream):
    body = b'{"data":{}}'
    raw_upstream.reset(respond_raw(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-A: one\r\nX-B:two\r\n"
        b"X-C: \t three \t\r\nConnection: keep-alive, X-Hop\r\nX-Hop: gone\r\nX-D: four\r\n"
        b"Proxy-Authenticate: Basic\r\nX-E: five\r\nX-Request-Id: forged\r\nX-F: six\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body, close_after=False))
    with RawClient(gateway.port) as client:
        client.request("POST", "/raw", [("Content-Type", "application/json")], QUERY)
        response = client.read_response()
    assert response.status == 200 and response.body == body
    lines = response.head_bytes.split(b"\r\n")[1:]
    upstream_lines = [line for line in lines if line[:2].lower() == b"x-" and not line.lower().startswith(b"x-request-id")]
    assert upstream_lines == [b"X-A: one", b"X-B: two", b"X-C: three", b"X-D: four", b"X-E: five", b"X-F: six"]
    assert not any(line.lower().startswith((b"x-hop", b"proxy-authenticate")) for line in lines)
    assert response.header("x-request-id") != "forged"


def test_echo_headers_query_sees_the_rewritten_set(gateway):
    with RawClient(gateway.port) as client:
        client.request("POST", "/graphql", [("Content-Type", "application/json"),
                                            ("X-Service-Token", "forged"), ("Cookie", "a=b")],
                       graphql_body("{ echoHeaders }"))
        response = client.read_response()
    assert response.status == 200
    pairs = json.loads(response.json()["data"]["echoHeaders"])
    names = [name.lower() for name, _ in pairs]
    assert ["x-service-token", SERVICE_TOKEN] in [[n.lower(), v] for n, v in pairs]
    assert "cookie" not in names
    assert names.count("x-service-token") == 1


# MARK: - Response headers


def test_response_hop_by_hop_headers_are_removed(gateway, raw_upstream):
    raw_upstream.reset(respond(200, b'{"data":{}}', headers=[
        ("Content-Type", "application/json"), ("Connection", "keep-alive, X-Up-Private"),
        ("X-Up-Private", "1"), ("Keep-Alive", "timeout=30"), ("Proxy-Authenticate", "Basic"),
        ("X-Up-Public", "2")]))
    with RawClient(gateway.port) as client:
        client.request("POST", "/raw", [("Content-Type", "application/json")], QUERY)
        response = client.read_response()
    assert response.status == 200
    assert response.body == b'{"data":{}}'
    assert response.header("x-up-public") == "2"
    for name in ("x-up-private", "keep-alive", "proxy-authenticate"):
        assert response.header(name) is None, f"{name} reached the client"
    assert REQUEST_ID.match(response.header("x-request-id") or "")


# MARK: - Trusted proxies


@pytest.mark.parametrize("trusted, client_claim, expected", [
    (["127.0.0.1"], "203.0.113.9", "203.0.113.9, 127.0.0.1"),
    (["127.0.0.0/8"], "198.51.100.1, 203.0.113.9", "198.51.100.1, 203.0.113.9, 127.0.0.1"),
    (["127.0.0.1/32"], None, "127.0.0.1"),
    (["10.0.0.0/8", "::1/128"], "203.0.113.9", "127.0.0.1"),
], ids=["trusted-appends", "trusted-list-appends", "trusted-without-claim", "not-trusted"])
def test_forwarded_for_from_a_trusted_proxy_is_appended_to(gateway_factory, graphql_upstream,
                                                            trusted, client_claim, expected):
    gateway = gateway_factory.start(lambda port, admin: base_config(
        port, admin, trusted_proxies=trusted,
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}]))
    headers = [("X-Forwarded-For", client_claim)] if client_claim else []
    assert send(gateway, headers).status == 200
    assert received_headers(upstream_saw(graphql_upstream), "x-forwarded-for") == [expected]
