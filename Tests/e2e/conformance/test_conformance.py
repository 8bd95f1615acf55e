"""Runs every row of the conformance table whole and byte by byte against one gateway.

The gateway has two doors to a recording upstream that gets `X-Service-Token: s3cret` injected:
the public /graphql/noauth and /public/*, and /graphql and /api/* behind an API key.
"""

import pytest

from support.gateway import base_config

from .model import API_KEY, SERVICE_TOKEN
from .runner import play
from .table import CASES


def conformance_config(port: int, admin: int, upstream_url: str) -> dict:
    config = base_config(
        port, admin, header_timeout="30s", body_timeout="30s", idle_timeout="30s",
        max_body_bytes="1MiB",
        upstreams={"recorder": {"url": f"{upstream_url}/graphql", "timeout": "5s",
                                "headers": {"X-Service-Token": SERVICE_TOKEN}}},
        routes=[
            {"path": "/graphql/noauth", "upstream": "recorder", "auth": "none",
             "upstream_path": "/graphql/noauth"},
            {"path": "/graphql", "upstream": "recorder", "auth": "keys"},
            {"path": "/public/*", "upstream": "recorder", "auth": "none", "upstream_path": "/public"},
            {"path": "/api/*", "upstream": "recorder", "auth": "keys", "upstream_path": "/api"},
        ])
    config["auth"] = {"keys": {"type": "api_key", "header": "X-Api-Key", "keys": [API_KEY]}}
    return config


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: conformance_config(port, admin, raw_upstream.url))


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(reason=case.known_bug, strict=True)] if case.known_bug else []
        yield pytest.param(case, False, id=f"{case.id}-whole", marks=marks)
        yield pytest.param(case, True, id=f"{case.id}-bytewise", marks=marks)


@pytest.mark.parametrize("case, byte_by_byte", _params())
def test_conformance(gateway, raw_upstream, case, byte_by_byte):
    play(gateway.port, raw_upstream, case, byte_by_byte)
