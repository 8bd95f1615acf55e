"""GraphQL multipart requests (README "Uploads"): `multipart/*` bodies are refused off upload
routes, and on them without a CSRF-safe header (`Apollo-Require-Preflight` or
`X-Apollo-Operation-Name`) — a plain HTML form can post multipart anywhere.
"""

import json

import httpx
import pytest

from support.envelope import assert_httpx_envelope
from support.gateway import base_config

OPERATIONS = json.dumps({"query": "mutation($file: Upload!) { upload(file: $file) }", "variables": {"file": None}})
MAP = json.dumps({"0": ["variables.file"]})


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    def build(port, admin):
        return base_config(
            port, admin,
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "10s"}},
            routes=[{"path": "/graphql", "upstream": "app", "auth": "none"},
                    {"path": "/graphql/upload", "upstream": "app", "auth": "none", "request_buffering": False,
                     "uploads": {"max_files": 2, "max_file_size": "1MiB"}}])
    return module_gateways.start(build)


def multipart(headers=None):
    files = {"operations": (None, OPERATIONS), "map": (None, MAP), "0": ("a.txt", b"hello", "text/plain")}
    request = httpx.Request("POST", "http://x", files=files, headers=headers or {})
    return dict(request.headers), request.read()


def test_multipart_off_an_upload_route_is_400(gateway, graphql_upstream):
    graphql_upstream.clear()
    headers, body = multipart({"Apollo-Require-Preflight": "true"})
    response = httpx.post(f"{gateway.url}/graphql", headers=headers, content=body)
    assert_httpx_envelope(response, 400, "BAD_REQUEST")
    assert graphql_upstream.requests() == []


def test_multipart_without_a_csrf_header_is_400(gateway, graphql_upstream):
    graphql_upstream.clear()
    headers, body = multipart()
    response = httpx.post(f"{gateway.url}/graphql/upload", headers=headers, content=body)
    assert_httpx_envelope(response, 400, "BAD_REQUEST")
    assert "Apollo-Require-Preflight" in response.json()["errors"][0]["message"]
    assert graphql_upstream.requests() == []
