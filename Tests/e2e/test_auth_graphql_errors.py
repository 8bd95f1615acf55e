"""`map_graphql_errors`: HTTP-200 GraphQL auth errors become the 401/403 envelope with source
upstream; anything else, and everything when the flag is off, passes through untouched
(README, "Configuration" routes, "The error envelope").
"""

import json

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import RawClient
from support.raw_upstream import respond, respond_raw

JSON = [("Content-Type", "application/json")]
UNAUTHORIZED = b'{"errors":[{"message":"Unauthorized"}],"data":null}'


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "3s"}},
        routes=[
            {"path": "/mapped", "upstream": "raw", "auth": "none", "map_graphql_errors": True},
            {"path": "/unmapped", "upstream": "raw", "auth": "none", "map_graphql_errors": False},
            {"path": "/default", "upstream": "raw", "auth": "none"},
        ]))


def post(gateway, path: str):
    with RawClient(gateway.port, timeout=5.0) as client:
        client.request("POST", path, headers=JSON, body=b'{"query":"{ me { id } }"}')
        return client.read_response()


def chunked(body: bytes, pieces: int = 3) -> bytes:
    """The body as a chunked HTTP/1.1 200, cut into several chunks."""
    step = max(1, len(body) // pieces)
    parts = [body[i:i + step] for i in range(0, len(body), step)]
    encoded = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in parts)
    return (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + encoded + b"0\r\n\r\n")


# MARK: - Mapped


@pytest.mark.parametrize("body", [
    UNAUTHORIZED,
    b'{"errors":[{"message":"Unauthenticated"}]}',
    b'{"data":null,"errors":[{"message":"Session gone","extensions":{"code":"UNAUTHENTICATED"}}]}',
    b'  {"errors":[{"message":"Unauthorized","path":["me"],"locations":[{"line":1,"column":3}]}]}',
    b'{"errors":[{"message":"something else"},{"message":"Unauthorized"}],"data":null}',
], ids=["message-unauthorized", "message-unauthenticated", "code-unauthenticated",
        "with-path-and-leading-space", "second-error"])
def test_auth_error_becomes_401(gateway, raw_upstream, body):
    raw_upstream.reset(respond(200, body, JSON))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="upstream")
    assert len(raw_upstream.requests) == 1


@pytest.mark.parametrize("body", [
    b'{"errors":[{"message":"Not allowed","extensions":{"code":"FORBIDDEN"}}],"data":null}',
    b'{"errors":[{"message":"Forbidden","extensions":{"code":"FORBIDDEN","detail":"x"}}]}',
], ids=["with-data-null", "without-data"])
def test_forbidden_code_becomes_403(gateway, raw_upstream, body):
    raw_upstream.reset(respond(200, body, JSON))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 403, "FORBIDDEN", source="upstream")


def test_chunked_auth_error_becomes_401(gateway, raw_upstream):
    raw_upstream.reset(respond_raw(chunked(UNAUTHORIZED), close_after=False))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="upstream")


def test_chunked_forbidden_becomes_403(gateway, raw_upstream):
    body = b'{"errors":[{"message":"No","extensions":{"code":"FORBIDDEN"}}],"data":null}'
    raw_upstream.reset(respond_raw(chunked(body, pieces=7), close_after=False))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 403, "FORBIDDEN", source="upstream")


def test_mapped_message_holds_no_upstream_body(gateway, raw_upstream):
    body = b'{"errors":[{"message":"Unauthorized","extensions":{"secretTrace":"db-password-77"}}]}'
    raw_upstream.reset(respond(200, body, JSON))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="upstream")
    assert b"db-password-77" not in response.head_bytes + response.body


# MARK: - Passed through


PASS_THROUGH = [
    b'{"data":{"me":null},"errors":[{"message":"Unauthorized","path":["me"]}]}',
    b'{"data":{"me":{"id":"1"}},"errors":[{"message":"x","extensions":{"code":"FORBIDDEN"}}]}',
    b'{"errors":[{"message":"Movie not found"}],"data":null}',
    b'{"errors":[{"message":"unauthorized"}],"data":null}',
    b'{"errors":[{"message":"Bad","extensions":{"code":"BAD_USER_INPUT"}}]}',
    b'{"data":{"me":{"id":"Unauthorized"}}}',
]
PASS_IDS = ["data-and-auth-error", "data-and-forbidden", "other-message", "lowercase-message",
            "other-code", "data-only"]


@pytest.mark.parametrize("body", PASS_THROUGH, ids=PASS_IDS)
def test_other_responses_pass_through_untouched(gateway, raw_upstream, body):
    raw_upstream.reset(respond(200, body, JSON))
    response = post(gateway, "/mapped")
    assert response.status == 200
    assert response.body == body
    assert response.header("content-type") == "application/json"


@pytest.mark.parametrize("body", PASS_THROUGH[:2], ids=PASS_IDS[:2])
def test_chunked_data_and_errors_pass_through(gateway, raw_upstream, body):
    raw_upstream.reset(respond_raw(chunked(body, pieces=5), close_after=False))
    response = post(gateway, "/mapped")
    assert response.status == 200
    assert response.body == body


@pytest.mark.parametrize("path", ["/unmapped", "/default"])
@pytest.mark.parametrize("body", [
    UNAUTHORIZED,
    b'{"errors":[{"message":"No","extensions":{"code":"FORBIDDEN"}}],"data":null}',
], ids=["unauthorized", "forbidden"])
def test_flag_off_passes_auth_errors_through(gateway, raw_upstream, path, body):
    raw_upstream.reset(respond(200, body, JSON))
    response = post(gateway, path)
    assert response.status == 200
    assert response.body == body


@pytest.mark.parametrize("path", ["/unmapped", "/default"])
def test_flag_off_passes_chunked_auth_errors_through(gateway, raw_upstream, path):
    raw_upstream.reset(respond_raw(chunked(UNAUTHORIZED), close_after=False))
    response = post(gateway, path)
    assert response.status == 200
    assert response.body == UNAUTHORIZED


def test_non_200_json_response_passes_through(gateway, raw_upstream):
    """Only 200s are classified; a 400 GraphQL error with the words in it stays as it is."""
    body = json.dumps({"errors": [{"message": "Unauthorized"}]}).encode()
    raw_upstream.reset(respond(400, body, JSON))
    response = post(gateway, "/mapped")
    assert response.status == 400
    assert response.body == body
