"""W3C trace context: a valid incoming `traceparent` is kept and sent upstream exactly once; an
absent or invalid one is replaced by a new trace; `tracestate` passes unchanged; the trace id is
the access log's `trace_id`. Checked against what the strawberry upstream recorded."""

import re
import time

import httpx
import pytest

from support.gateway import graphql_door_config
from support.graphql_client import graphql_body, received_headers
from support.raw_http import RawClient

VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
MADE = re.compile(r"^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-01$")
BODY = graphql_body("{ hello }")

# (row id, the client's traceparent value) — each must be replaced by a new trace.
INVALID = [
    ("uppercase-hex", "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01"),
    ("all-zero-trace-id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"),
    ("all-zero-parent-id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"),
    ("version-ff", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
    ("unknown-version", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
    ("too-short", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"),
    ("extra-field", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"),
    ("not-hex", "00-4bf92f3577b34da6a3ce929d0e0e47zz-00f067aa0ba902b7-01"),
    ("garbage", "hello"),
]


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(
        lambda port, admin: graphql_door_config(port, admin, f"{graphql_upstream.url}/graphql"))


def send(gateway, graphql_upstream, headers) -> tuple:
    """POSTs `{ hello }` with `headers` (a list of pairs); returns (the request id, the one
    request the upstream recorded)."""
    request_id = f"trace-{time.monotonic_ns()}"
    graphql_upstream.clear()
    response = httpx.post(f"{gateway.url}/graphql", content=BODY, timeout=5,
                          headers=[("Content-Type", "application/json"), ("X-Request-Id", request_id),
                                   *headers])
    assert response.status_code == 200, response.text
    recorded = graphql_upstream.requests()
    assert len(recorded) == 1, recorded
    return request_id, recorded[0]


def logged_trace_id(gateway, request_id: str):
    entries = gateway.wait_for_access_log(lambda entry: entry.get("request_id") == request_id)
    assert len(entries) == 1, entries
    return entries[0]["trace_id"]


def trace_id_of(traceparent: str) -> str:
    return traceparent.split("-")[1]


# MARK: - Kept


def test_valid_traceparent_is_sent_upstream_once_and_logged(gateway, graphql_upstream):
    request_id, seen = send(gateway, graphql_upstream, [("traceparent", VALID)])
    assert received_headers(seen, "traceparent") == [VALID]
    assert logged_trace_id(gateway, request_id) == trace_id_of(VALID)


def test_unsampled_flags_are_kept(gateway, graphql_upstream):
    unsampled = VALID[:-2] + "00"
    _, seen = send(gateway, graphql_upstream, [("traceparent", unsampled)])
    assert received_headers(seen, "traceparent") == [unsampled]


def test_header_name_case_does_not_duplicate_it(gateway, graphql_upstream):
    _, seen = send(gateway, graphql_upstream, [("TraceParent", VALID)])
    assert received_headers(seen, "traceparent") == [VALID]


# MARK: - Made by the gateway


def test_missing_traceparent_is_made_and_logged(gateway, graphql_upstream):
    request_id, seen = send(gateway, graphql_upstream, [])
    made = received_headers(seen, "traceparent")
    assert len(made) == 1 and MADE.match(made[0]), made
    assert logged_trace_id(gateway, request_id) == trace_id_of(made[0])


def test_every_request_gets_its_own_trace(gateway, graphql_upstream):
    made = set()
    for _ in range(20):
        _, seen = send(gateway, graphql_upstream, [])
        made.add(trace_id_of(received_headers(seen, "traceparent")[0]))
    assert len(made) == 20


@pytest.mark.parametrize("value", [value for _, value in INVALID], ids=[row for row, _ in INVALID])
def test_invalid_traceparent_is_replaced(gateway, graphql_upstream, value):
    request_id, seen = send(gateway, graphql_upstream, [("traceparent", value)])
    replaced = received_headers(seen, "traceparent")
    assert len(replaced) == 1 and MADE.match(replaced[0]), replaced
    assert replaced[0] != value
    assert logged_trace_id(gateway, request_id) == trace_id_of(replaced[0])


def test_two_traceparents_are_replaced_by_one(gateway, graphql_upstream):
    other = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    _, seen = send(gateway, graphql_upstream, [("traceparent", VALID), ("traceparent", other)])
    replaced = received_headers(seen, "traceparent")
    assert len(replaced) == 1 and MADE.match(replaced[0]) and replaced[0] not in (VALID, other), replaced


# MARK: - tracestate


@pytest.mark.parametrize("traceparent", [VALID, "garbage", None], ids=["valid", "invalid", "absent"])
def test_tracestate_passes_unchanged(gateway, graphql_upstream, traceparent):
    state = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"
    headers = [("tracestate", state)] + ([("traceparent", traceparent)] if traceparent else [])
    _, seen = send(gateway, graphql_upstream, headers)
    assert received_headers(seen, "tracestate") == [state]


# MARK: - Access log


def test_requests_the_gateway_answers_itself_log_a_trace_id(gateway):
    request_id = f"trace-404-{time.monotonic_ns()}"
    response = httpx.get(f"{gateway.url}/missing", timeout=5,
                         headers={"X-Request-Id": request_id, "traceparent": VALID})
    assert response.status_code == 404
    assert logged_trace_id(gateway, request_id) == trace_id_of(VALID)


def test_unparseable_requests_log_a_null_trace_id(gateway):
    before = len(gateway.access_log())
    with RawClient(gateway.port) as client:
        client.send(b"GET /graphql HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n")
        assert client.read_response().status == 400
    entries = gateway.wait_for_access_log(lambda entry: entry.get("status") == 400)
    assert len(entries) > 0 and len(gateway.access_log()) > before
    assert entries[-1]["trace_id"] is None
