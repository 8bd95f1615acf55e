"""Streamed responses (README "Streamed responses"): `text/event-stream` and `multipart/mixed`
upstream responses reach the client as each chunk is sent — never gzipped, never held — and
run past the route `timeout`; a stream silent for `stream_idle_timeout` is ended.
"""

import subprocess
import time

import httpx
import pytest

from support.gateway import base_config

ROUTE_TIMEOUT = "1s"
STREAM_IDLE = "1s"


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    def build(port, admin):
        return base_config(
            port, admin,
            upstreams={"app": {"url": f"{graphql_upstream.url}/sse", "timeout": "10s"}},
            routes=[{"path": "/sse", "upstream": "app", "auth": "none", "timeout": ROUTE_TIMEOUT,
                     "stream_idle_timeout": STREAM_IDLE}])
    return module_gateways.start(build)


def stream_events(gateway, query: str, headers=None):
    """(seconds since the request, line) for every non-empty line, and the response."""
    lines = []
    started = time.monotonic()
    with httpx.Client(timeout=20) as client:
        with client.stream("GET", f"{gateway.url}/sse?{query}", headers=headers or {}) as response:
            for line in response.iter_lines():
                if line:
                    lines.append((time.monotonic() - started, line))
            return lines, response


def test_events_arrive_as_sent_past_the_route_timeout(gateway):
    # 6 events 0.4 s apart: the stream lasts 2 s, twice the route timeout.
    lines, response = stream_events(gateway, "count=6&interval=0.4", {"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert "content-encoding" not in response.headers
    assert [line for _, line in lines] == [f"data: event {i}" for i in range(6)]
    # Each event arrives when it is sent, not when the stream ends.
    assert lines[0][0] < 0.5
    for index, (arrived, _) in enumerate(lines):
        assert arrived == pytest.approx(index * 0.4, abs=0.35)


def test_multipart_mixed_streams_too(gateway):
    lines, response = stream_events(gateway, "count=4&interval=0.4&type=multipart/mixed;boundary=-")
    assert response.status_code == 200
    assert len(lines) == 4
    assert lines[0][0] < 0.5


def test_silent_stream_ends_at_stream_idle_timeout(gateway):
    started = time.monotonic()
    lines, response = stream_events(gateway, "count=1&silence=30")
    elapsed = time.monotonic() - started
    assert [line for _, line in lines] == ["data: event 0"]
    assert 0.9 <= elapsed < 3.0


def test_curl_no_buffer_sees_each_event_in_time(gateway):
    process = subprocess.Popen(["curl", "-sN", "-H", "Accept-Encoding: gzip", f"{gateway.url}/sse?count=3&interval=0.5"],
                               stdout=subprocess.PIPE)
    started = time.monotonic()
    first = process.stdout.readline()
    first_at = time.monotonic() - started
    rest = process.stdout.read()
    assert process.wait(timeout=10) == 0
    assert first == b"data: event 0\n"
    assert first_at < 0.45
    assert rest == b"\ndata: event 1\n\ndata: event 2\n\n"
