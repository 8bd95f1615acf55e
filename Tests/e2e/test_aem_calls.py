"""AEM persisted queries called by name: one canonical
`GET /graphql/execute.json/<aem_config>/<name>;k=v…` per call, pass-through of execute.json
paths, the injected Authorization, and AEM's HTTP-200 errors mapped (README, "Configuration" upstreams, "Persisted operations").

The upstream records the exact request line it received.
"""

import base64
import json
import time
from urllib.parse import quote

import jwt
import pytest

from support.aem_upstream import answer_with_request_line, request_line
from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import RawClient
from support.raw_upstream import respond

AEM_BASIC = "Basic " + base64.b64encode(b"aem-reader:s3cr3t-aem-pass").decode()
PREFIX = "/graphql/execute.json/wknd-shared/"
USER_SECRET = "aem-route-user-secret-0123456789abcdef"


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    def config(port, admin):
        document = base_config(
            port, admin,
            upstreams={"aem": {"url": raw_upstream.url, "kind": "aem", "aem_config": "wknd-shared",
                               "timeout": "3s", "headers": {"Authorization": AEM_BASIC}}},
            routes=[
                {"path": "/content/*", "upstream": "aem", "auth": "none"},
                {"path": "/mapped/*", "upstream": "aem", "auth": "none", "map_graphql_errors": True},
                {"path": "/private/*", "upstream": "aem", "auth": "user-jwt", "methods": ["GET"]},
                {"path": "/listed/*", "upstream": "aem", "auth": "none", "operations": ["allowed"]},
            ])
        document["auth"] = {"user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": USER_SECRET}}
        return document

    return module_gateways.start(config)


@pytest.fixture
def aem(raw_upstream):
    raw_upstream.reset(answer_with_request_line())
    return raw_upstream


def call(gateway, method: str, target: str, body: bytes = b"", headers=()):
    pairs = list(headers)
    if body:
        pairs.append(("Content-Type", "application/json"))
    with RawClient(gateway.port, timeout=5.0) as client:
        client.request(method, target, headers=pairs, body=body)
        return client.read_response(method=method)


def only_request(upstream):
    requests = upstream.requests
    assert len(requests) == 1, [request_line(r) for r in requests]
    return requests[0]


def assert_upstream_target(gateway, upstream, method: str, target: str, expected: str,
                           body: bytes = b"") -> None:
    """The call reached the upstream as exactly `GET <expected> HTTP/1.1`, without a body, and
    the client got the upstream's answer."""
    response = call(gateway, method, target, body)
    assert response.status == 200, (response.status, response.body[:300])
    received = only_request(upstream)
    assert request_line(received) == f"GET {expected} HTTP/1.1"
    assert received.body == b""
    assert response.json() == {"data": {"requestLine": f"GET {expected} HTTP/1.1"}}


def query_string(pairs) -> str:
    return "&".join(f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in pairs)


# MARK: - GET by name


@pytest.mark.parametrize("value,encoded", [
    ("bali-surf-camp", "bali-surf-camp"),
    ("a;b=c/d?e#f%g", "a%3Bb%3Dc%2Fd%3Fe%23f%25g"),
    ("caf\u00e9-\u00fc\u5317", "caf%C3%A9-%C3%BC%E5%8C%97"),
    ("", ""),
    ("two words", "two%20words"),
    ("a+b&c", "a%2Bb%26c"),
    ("quote\"back\\slash<>", "quote%22back%5Cslash%3C%3E"),
    ("keep-._~!$'()*,:@", "keep-._~!$'()*,:@"),
], ids=["plain", "delimiters", "unicode", "empty", "space", "plus-amp", "quote-backslash", "kept"])
def test_get_by_name_encodes_the_value(gateway, aem, value, encoded):
    target = "/content/adventure-by-slug?" + query_string([("slug", value)])
    assert_upstream_target(gateway, aem, "GET", target, f"{PREFIX}adventure-by-slug;slug={encoded}")


def test_get_without_variables(gateway, aem):
    assert_upstream_target(gateway, aem, "GET", "/content/adventures", f"{PREFIX}adventures")


def test_several_variables_in_sorted_order_whatever_the_query_order(gateway, aem):
    expected = f"{PREFIX}adventures-by-activity;activity=Surfing;limit=5;offset=10"
    orders = [
        [("offset", "10"), ("limit", "5"), ("activity", "Surfing")],
        [("activity", "Surfing"), ("limit", "5"), ("offset", "10")],
        [("limit", "5"), ("activity", "Surfing"), ("offset", "10")],
    ]
    for pairs in orders:
        aem.reset(answer_with_request_line())
        assert_upstream_target(gateway, aem, "GET", "/content/adventures-by-activity?" + query_string(pairs),
                               expected)


def test_variable_names_are_encoded_and_sorted_by_bytes(gateway, aem):
    pairs = [("b", "2"), ("a=x", "1"), ("B", "3"), ("\u00e4", "4")]
    target = "/content/odd-names?" + query_string(pairs)
    assert_upstream_target(gateway, aem, "GET", target, f"{PREFIX}odd-names;B=3;a%3Dx=1;b=2;%C3%A4=4")


def test_operation_name_from_the_path_is_encoded(gateway, aem):
    assert_upstream_target(gateway, aem, "GET", "/content/adventure%20list?x=1",
                           f"{PREFIX}adventure%20list;x=1")


def test_repeated_variable_is_400(gateway, aem):
    response = call(gateway, "GET", "/content/adventures?limit=1&limit=2")
    assert_raw_envelope(response, 400, "BAD_REQUEST", source="gateway")
    assert aem.bytes_received == 0


# MARK: - POST by name


def test_post_by_name_sends_json_values_as_their_text(gateway, aem):
    variables = {"slug": "x y", "limit": 5, "featured": True, "ratio": 1.5, "nothing": None,
                 "tags": ["a", "b"], "filter": {"k": 1}}
    body = json.dumps({"operationName": "adventures", "variables": variables}).encode()
    expected = (f"{PREFIX}adventures;featured=true;filter=%7B%22k%22:1%7D;limit=5;nothing=null;"
                f"ratio=1.5;slug=x%20y;tags=%5B%22a%22,%22b%22%5D")
    assert_upstream_target(gateway, aem, "POST", "/content/", expected, body)


def test_post_and_get_make_the_same_url(gateway, aem):
    body = json.dumps({"operationName": "adventure-by-slug",
                       "variables": {"slug": "a;b=c/d?e#f%g"}}).encode()
    expected = f"{PREFIX}adventure-by-slug;slug=a%3Bb%3Dc%2Fd%3Fe%23f%25g"
    assert_upstream_target(gateway, aem, "POST", "/content/", expected, body)
    aem.reset(answer_with_request_line())
    target = "/content/adventure-by-slug?" + query_string([("slug", "a;b=c/d?e#f%g")])
    assert_upstream_target(gateway, aem, "GET", target, expected)


def test_post_without_variables(gateway, aem):
    body = json.dumps({"operationName": "adventures"}).encode()
    assert_upstream_target(gateway, aem, "POST", "/content/", f"{PREFIX}adventures", body)


# MARK: - Pass-through


@pytest.mark.parametrize("remainder", [
    "graphql/execute.json/wknd-shared/x;a=b",
    "graphql/execute.json/wknd-shared/adventure-by-slug;slug=bali%20surf",
    "graphql/execute.json/wknd-shared/adventures",
])
def test_execute_json_path_passes_through_unchanged(gateway, aem, remainder):
    assert_upstream_target(gateway, aem, "GET", f"/content/{remainder}", f"/{remainder}")


def test_a_listed_name_passes_through_on_a_route_with_operations(gateway, aem):
    remainder = "graphql/execute.json/wknd-shared/allowed;x=1"
    assert_upstream_target(gateway, aem, "GET", f"/listed/{remainder}", f"/{remainder}")


@pytest.mark.parametrize("remainder", [
    "graphql/execute.json/other-config/allowed",  # another configuration's query of the name
    "graphql/execute.json/wknd-shared/secret/allowed",  # a segment before the name
    "graphql/execute.json/wknd-shared;x=/allowed",  # parameters on the configuration
    "graphql/execute.json/wknd-shared/secret",
])
def test_only_the_configured_path_of_a_listed_name_passes_through(gateway, aem, remainder):
    response = call(gateway, "GET", f"/listed/{remainder}")
    assert_raw_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert aem.bytes_received == 0


# MARK: - Headers


def test_injected_authorization_arrives(gateway, aem):
    call(gateway, "GET", "/content/adventures?limit=1")
    received = only_request(aem)
    assert [v for k, v in received.headers if k.lower() == "authorization"] == [AEM_BASIC]


def test_client_authorization_is_replaced_by_the_injected_one(gateway, aem):
    now = int(time.time())
    token = jwt.encode({"sub": "reader", "iat": now, "exp": now + 300}, USER_SECRET, algorithm="HS256")
    response = call(gateway, "GET", "/private/adventures?limit=2",
                    headers=[("Authorization", f"Bearer {token}")])
    assert response.status == 200, response.body[:300]
    received = only_request(aem)
    assert request_line(received) == f"GET {PREFIX}adventures;limit=2 HTTP/1.1"
    assert [v for k, v in received.headers if k.lower() == "authorization"] == [AEM_BASIC]
    assert token not in "".join(v for _, v in received.headers)


def test_private_route_without_a_token_sends_nothing(gateway, aem):
    response = call(gateway, "GET", "/private/adventures")
    assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="gateway")
    assert aem.bytes_received == 0


# MARK: - AEM errors


def test_aem_unauthorized_is_mapped_to_401(gateway, raw_upstream):
    raw_upstream.reset(respond(200, b'{"errors":[{"message":"Unauthorized"}]}',
                               [("Content-Type", "application/json")]))
    response = call(gateway, "GET", "/mapped/adventure-by-slug?slug=x")
    assert_raw_envelope(response, 401, "UNAUTHENTICATED", source="upstream")
    assert request_line(only_request(raw_upstream)) == f"GET {PREFIX}adventure-by-slug;slug=x HTTP/1.1"


def test_aem_unauthorized_passes_through_without_the_flag(gateway, raw_upstream):
    body = b'{"errors":[{"message":"Unauthorized"}]}'
    raw_upstream.reset(respond(200, body, [("Content-Type", "application/json")]))
    response = call(gateway, "GET", "/content/adventure-by-slug?slug=x")
    assert response.status == 200
    assert response.body == body
