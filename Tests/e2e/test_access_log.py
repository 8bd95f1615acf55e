"""The access log: one JSON line per request, and never a secret (README, "Observability")."""

import re
import time

import httpx
import pytest

from support.gateway import base_config
from support.graphql_client import graphql_post
from support.ports import free_port

FIELDS = {"time", "request_id", "method", "path", "route", "status", "upstream_status",
          "duration_ms", "upstream_duration_ms", "bytes_in", "bytes_out", "client", "error_code",
          "subject", "trace_id"}
SERVICE_SECRET = "injected-secret-value-5d41"
ROUTE_SECRET = "route-secret-value-9e10"
QUERY_SECRET = "query-secret-7b3c"
BEARER_SECRET = "bearer-secret-token-2f8a"


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={
            "app": {"url": f"{graphql_upstream.url}/graphql",
                    "headers": {"X-Service-Token": SERVICE_SECRET}},
            "dead": {"url": f"http://127.0.0.1:{free_port()}/graphql", "connect_timeout": "1s"},
        },
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none",
             "headers": {"set": {"X-Route-Secret": ROUTE_SECRET}}},
            {"path": "/dead", "upstream": "dead", "auth": "none"},
        ]))


def entry_for(gateway, request_id: str) -> dict:
    entries = gateway.wait_for_access_log(lambda e: e.get("request_id") == request_id)
    assert len(entries) == 1, f"{len(entries)} access-log lines for {request_id}"
    return entries[0]


def test_one_line_per_request_with_every_field(gateway):
    ids = [f"log-{index}-{time.monotonic_ns()}" for index in range(3)]
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        for request_id in ids:
            response = graphql_post(client, "{ hello }", headers={"X-Request-Id": request_id})
            assert response.status_code == 200
    for request_id in ids:
        entry = entry_for(gateway, request_id)
        missing = FIELDS - set(entry)
        assert not missing, f"access log lacks {sorted(missing)}: {entry}"


def test_fields_describe_a_proxied_request(gateway):
    request_id = f"fields-{time.monotonic_ns()}"
    body = b'{"query":"{ hello }"}'
    response = httpx.post(f"{gateway.url}/graphql?x=1", content=body, timeout=5,
                          headers={"Content-Type": "application/json", "X-Request-Id": request_id})
    assert response.status_code == 200
    entry = entry_for(gateway, request_id)
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", entry["time"]), entry["time"]
    assert entry["method"] == "POST"
    assert entry["path"] == "/graphql"
    assert entry["route"] == "/graphql"
    assert entry["status"] == 200
    assert entry["upstream_status"] == 200
    assert isinstance(entry["duration_ms"], (int, float)) and entry["duration_ms"] >= 0
    assert isinstance(entry["upstream_duration_ms"], (int, float))
    assert 0 <= entry["upstream_duration_ms"] <= entry["duration_ms"] + 1
    assert entry["bytes_in"] >= len(body)
    assert entry["bytes_out"] >= len(response.content)
    assert str(entry["client"]).startswith("127.0.0.1")
    assert entry["error_code"] is None
    assert entry["subject"] is None


def test_gateway_errors_are_logged_with_their_code(gateway):
    request_id = f"missing-{time.monotonic_ns()}"
    response = httpx.get(f"{gateway.url}/no-such-route?secret={QUERY_SECRET}", timeout=5,
                         headers={"X-Request-Id": request_id})
    assert response.status_code == 404
    entry = entry_for(gateway, request_id)
    assert entry["status"] == 404
    assert entry["error_code"] == "NOT_FOUND"
    assert entry["upstream_status"] is None
    assert entry["path"] == "/no-such-route"


def test_upstream_errors_are_logged_with_their_code(gateway):
    request_id = f"dead-{time.monotonic_ns()}"
    response = httpx.post(f"{gateway.url}/dead", content=b"{}", timeout=5,
                          headers={"X-Request-Id": request_id})
    assert response.status_code == 502
    entry = entry_for(gateway, request_id)
    assert entry["status"] == 502
    assert entry["error_code"] == "UPSTREAM_ERROR"
    assert entry["route"] == "/dead"


def test_no_query_string_token_or_secret_header_is_ever_logged(gateway):
    request_id = f"secrets-{time.monotonic_ns()}"
    response = httpx.post(f"{gateway.url}/graphql?token={QUERY_SECRET}&b=2",
                          content=b'{"query":"{ hello }"}', timeout=5,
                          headers={"Content-Type": "application/json", "X-Request-Id": request_id,
                                   "Authorization": f"Bearer {BEARER_SECRET}",
                                   "Cookie": f"session={BEARER_SECRET}"})
    assert response.status_code == 200
    entry = entry_for(gateway, request_id)
    assert entry["path"] == "/graphql"
    output = gateway.stdout_text() + gateway.stderr_text()
    for secret in (QUERY_SECRET, BEARER_SECRET, SERVICE_SECRET, ROUTE_SECRET):
        assert secret not in output, f"{secret} appears in the gateway's output"


# MARK: - Targets


def test_access_log_to_a_file(gateway_factory, graphql_upstream, tmp_path):
    log_file = tmp_path / "access.jsonl"
    gateway = gateway_factory.start(lambda port, admin: base_config(
        port, admin, access_log=str(log_file),
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}]))
    request_id = f"to-file-{time.monotonic_ns()}"
    httpx.get(f"{gateway.url}/graphql?query=%7Bhello%7D", headers={"X-Request-Id": request_id},
              timeout=5)
    deadline = time.monotonic() + 3
    lines = []
    while time.monotonic() < deadline:
        lines = [line for line in log_file.read_text().splitlines() if request_id in line] \
            if log_file.exists() else []
        if lines:
            break
        time.sleep(0.05)
    assert len(lines) == 1
    assert request_id not in gateway.stdout_text()


def test_access_log_off(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(lambda port, admin: base_config(
        port, admin, access_log="off",
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}]))
    request_id = f"off-{time.monotonic_ns()}"
    response = httpx.get(f"{gateway.url}/graphql?query=%7Bhello%7D",
                         headers={"X-Request-Id": request_id}, timeout=5)
    assert response.status_code == 200
    time.sleep(0.3)
    assert gateway.access_log() == []
    assert request_id not in gateway.stdout_text() + gateway.stderr_text()
