"""Request bodies are read whole before an upstream connection is taken (README, "Request bodies
and slow clients"): in memory up to `server.request_buffer`, then in an unlinked temporary file.
A flood of slow uploads therefore holds no upstream connection and does not slow real clients;
a large body arrives byte for byte without growing the gateway's memory; routes with
`request_buffering: false` stream instead, held to `server.min_body_rate`."""

import hashlib
import os
import socket
import statistics
import threading
import time

import httpx
import pytest

from support.gateway import base_config
from support.process_memory import MIB, ResidentSampler, bounds_resident_memory, resident_bytes
from support.raw_upstream import never_answer, respond

pytestmark = pytest.mark.slow

SLOW_CLIENTS = 700
SLOW_BODY_BYTES = 100_000
# A few bytes every 3 s, as the attack that exhausted the pool did.
TRICKLE_BYTES = 4
TRICKLE_PAUSE = 3.0
FLOOD_SECONDS = 8.0
REAL_REQUESTS = 200
REAL_P99_LIMIT = 0.050
LARGE_BODY = 50 * MIB
LARGE_BODY_RSS_GROWTH = 4 * MIB


@pytest.fixture(scope="module")
def flood_gateway(module_gateways, raw_upstream):
    # Two upstream connections: without buffering the flood would hold both at once.
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, body_timeout="30s", max_connections=5000,
        upstreams={"app": {"url": f"{raw_upstream.url}/graphql", "max_connections": 2, "timeout": "5s"}},
        routes=[{"path": "/graphql/noauth", "upstream": "app", "auth": "none", "methods": ["POST"]}]))


def open_slow_uploads(port: int, count: int) -> list:
    sockets = []
    head = (f"POST /graphql/noauth HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Type: application/json\r\n"
            f"Content-Length: {SLOW_BODY_BYTES}\r\n\r\n").encode()
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(head + b'{"q')
        sockets.append(sock)
    return sockets


def trickle(sockets: list, stop: threading.Event) -> None:
    while not stop.wait(TRICKLE_PAUSE):
        for sock in sockets:
            try:
                sock.send(b"x" * TRICKLE_BYTES)
            except OSError:
                pass


def test_slow_upload_flood_holds_no_upstream_connection(flood_gateway, raw_upstream):
    raw_upstream.reset(respond())
    sockets = open_slow_uploads(flood_gateway.port, SLOW_CLIENTS)
    stop = threading.Event()
    trickler = threading.Thread(target=trickle, args=(sockets, stop), daemon=True)
    trickler.start()
    try:
        latencies = []
        deadline = time.monotonic() + FLOOD_SECONDS
        with httpx.Client(base_url=flood_gateway.url, timeout=5) as client:
            while len(latencies) < REAL_REQUESTS and time.monotonic() < deadline:
                started = time.monotonic()
                response = client.post("/graphql/noauth", content=b'{"query":"{ ok }"}',
                                       headers={"Content-Type": "application/json"})
                latencies.append(time.monotonic() - started)
                assert response.status_code == 200
        assert len(latencies) >= REAL_REQUESTS / 2
        p99 = statistics.quantiles(latencies, n=100)[98]
        print(f"\nslow-upload flood: {SLOW_CLIENTS} slow clients; {len(latencies)} real POSTs, "
              f"p50 {statistics.median(latencies) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms; "
              f"upstream connections {raw_upstream.connections_accepted}, "
              f"upstream requests {len(raw_upstream.requests)}")
        assert p99 < REAL_P99_LIMIT, f"real clients' p99 was {p99 * 1000:.1f} ms"
        # Only the real client's requests reached the upstream, over its own connection(s).
        assert len(raw_upstream.requests) == len(latencies)
        assert raw_upstream.connections_accepted <= 2
    finally:
        stop.set()
        trickler.join()
        for sock in sockets:
            sock.close()


@pytest.fixture(scope="module")
def buffering_gateway(module_gateways, graphql_upstream, tmp_path_factory):
    spool = tmp_path_factory.mktemp("spool")
    gateway = module_gateways.start(lambda port, admin: base_config(
        port, admin, body_timeout="60s", max_body_bytes="64MiB", request_buffer="1MiB",
        temp_dir=str(spool), min_body_rate="1KiB",
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "60s"}},
        routes=[
            {"path": "/echo", "upstream": "app", "auth": "none", "upstream_path": "/echo", "methods": ["POST"]},
            {"path": "/stream/echo", "upstream": "app", "auth": "none", "upstream_path": "/echo",
             "methods": ["POST"], "request_buffering": False},
        ]))
    gateway.spool = spool
    return gateway


def pattern(size: int) -> bytes:
    block = hashlib.sha256(b"gatehouse").digest() * 2048
    return (block * (size // len(block) + 1))[:size]


def chunks(data: bytes, size: int = 256 * 1024):
    for offset in range(0, len(data), size):
        yield data[offset:offset + size]


@bounds_resident_memory
@pytest.mark.parametrize("path", ["/echo", "/stream/echo"])
def test_large_body_arrives_byte_for_byte_without_growing_memory(buffering_gateway, path):
    body = pattern(LARGE_BODY)
    pid = buffering_gateway.process.pid
    with httpx.Client(base_url=buffering_gateway.url, timeout=60) as client:
        client.post(path, content=b"warm-up")  # buffers and pools allocated once
        before = resident_bytes(pid)
        with ResidentSampler(pid) as sampler:
            digest = hashlib.sha256()
            received = 0
            with client.stream("POST", path, content=chunks(body),
                               headers={"Content-Type": "application/octet-stream"}) as response:
                assert response.status_code == 200
                for piece in response.iter_bytes():
                    digest.update(piece)
                    received += len(piece)
    assert received == LARGE_BODY
    assert digest.hexdigest() == hashlib.sha256(body).hexdigest()
    growth = sampler.peak - before
    print(f"\n{path}: 50 MiB body, gateway RSS {before / MIB:.1f} MiB -> peak {sampler.peak / MIB:.1f} MiB")
    assert growth < LARGE_BODY_RSS_GROWTH, f"RSS grew {growth / MIB:.1f} MiB"


def test_spool_file_is_unlinked(buffering_gateway):
    """The spool directory stays empty: the file has no name while the body is held."""
    spool = buffering_gateway.spool
    with httpx.Client(base_url=buffering_gateway.url, timeout=30) as client:
        response = client.post("/echo", content=pattern(3 * MIB))
    assert response.status_code == 200 and len(response.content) == 3 * MIB
    assert os.listdir(spool) == []


@pytest.fixture(scope="module")
def streaming_gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, body_timeout="30s", min_body_rate="1KiB",
        upstreams={"app": {"url": f"{raw_upstream.url}/graphql", "timeout": "30s"}},
        routes=[{"path": "/upload", "upstream": "app", "auth": "none", "methods": ["POST"],
                 "request_buffering": False}]))


def test_streamed_body_slower_than_min_body_rate_is_refused(streaming_gateway, raw_upstream):
    raw_upstream.reset(never_answer())
    earlier = set(map(id, raw_upstream.connections))
    sock = socket.create_connection(("127.0.0.1", streaming_gateway.port))
    sock.sendall(b"POST /upload HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Length: 100000\r\n\r\n")
    started = time.monotonic()
    sock.settimeout(0.5)
    answer = b""
    while time.monotonic() - started < 15 and not answer:
        sock.sendall(b"y" * 100)  # 200 B/s, well under 1 KiB/s
        try:
            answer = sock.recv(4096)
        except socket.timeout:
            pass
    elapsed = time.monotonic() - started
    sock.close()
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:100]
    assert b'"code":"REQUEST_TIMEOUT"' in answer
    # The grace (5 s) and one averaging window (5 s) pass before the verdict, at one tick a second.
    assert 4.5 <= elapsed <= 8.0, elapsed
    # The upstream had the request streaming to it, and the gateway aborted it.
    assert raw_upstream.connections_accepted == 1
    ours = [c for c in raw_upstream.connections if id(c) not in earlier]
    assert len(ours) == 1 and len(ours[0].received) > 0
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and ours[0].alive:
        time.sleep(0.05)
    assert not ours[0].alive
