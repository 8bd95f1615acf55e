"""Slow clients: slowloris on the head and on the body gets 408 at the deadline, which trickles
never extend, while other clients are served; a client that never reads a large response is cut
off at the route timeout and the upstream connection is released (README, "Configuration" server, "How a request is handled")."""

import select
import socket
import time

import pytest

from support.gateway import base_config
from support.raw_http import RawClient

HOST = b"Host: gatehouse.test\r\n"
TIMEOUT = 1.0  # header_timeout and body_timeout below


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, header_timeout="1s", body_timeout="1s", idle_timeout="10s",
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "2s",
                           "max_connections": 1}},
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/echo", "upstream": "app", "auth": "none", "upstream_path": "/echo",
             "methods": ["POST"]},
            {"path": "/blob", "upstream": "app", "auth": "none", "upstream_path": "/blob",
             "methods": ["GET"]},
        ]))


def trickle(port: int, prefix: bytes, piece_for, count: int = 30, pause: float = 0.25,
            limit: float = 4.0) -> list:
    """Opens `count` connections that send `prefix`, then `piece_for(i)` every `pause` seconds.

    Returns, per connection, (seconds from its first byte to the answer, the answer's bytes).
    """
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(prefix)
        sockets.append(sock)
    started = time.monotonic()
    answers = {}
    step = 0
    while len(answers) < count and time.monotonic() - started < limit:
        for index, sock in enumerate(sockets):
            if index in answers:
                continue
            try:
                sock.send(piece_for(step))
            except OSError:
                pass
        step += 1
        ready, _, _ = select.select([s for i, s in enumerate(sockets) if i not in answers], [], [], pause)
        for sock in ready:
            index = sockets.index(sock)
            sock.settimeout(0.5)
            data = b""
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except (socket.timeout, ConnectionResetError):
                pass
            answers[index] = (time.monotonic() - started, data)
    for sock in sockets:
        sock.close()
    return [answers.get(i, (None, b"")) for i in range(count)]


def assert_all_408_at_the_deadline(answers: list) -> None:
    for elapsed, data in answers:
        assert elapsed is not None, "a trickling client was never answered"
        assert data.startswith(b"HTTP/1.1 408 "), data[:200]
        assert b'"REQUEST_TIMEOUT"' in data
        assert TIMEOUT * 0.8 <= elapsed <= TIMEOUT + 1.0, f"408 after {elapsed:.2f}s"


def served_quickly(port: int) -> float:
    with RawClient(port, timeout=5) as client:
        started = time.monotonic()
        client.send(b"GET /graphql?query=%7B%20hello%20%7D HTTP/1.1\r\n" + HOST + b"\r\n")
        assert client.read_response().status == 200
        return time.monotonic() - started


# MARK: - Slowloris


@pytest.mark.slow
def test_slowloris_on_the_head_is_408_at_the_deadline(gateway):
    head = b"GET /graphql HTTP/1.1\r\n" + HOST
    answers = trickle(gateway.port, head, lambda step: b"X-Slow-%d: z\r\n" % step)
    assert_all_408_at_the_deadline(answers)
    assert served_quickly(gateway.port) < 0.5


@pytest.mark.slow
def test_slowloris_on_a_content_length_body_is_408_at_the_deadline(gateway):
    head = b"POST /echo HTTP/1.1\r\n" + HOST + b"Content-Length: 1000\r\n\r\n"
    answers = trickle(gateway.port, head, lambda step: b"x")
    assert_all_408_at_the_deadline(answers)


@pytest.mark.slow
def test_slowloris_on_a_chunked_body_is_408_at_the_deadline(gateway):
    head = b"POST /echo HTTP/1.1\r\n" + HOST + b"Transfer-Encoding: chunked\r\n\r\n"
    answers = trickle(gateway.port, head, lambda step: b"1\r\nx\r\n")
    assert_all_408_at_the_deadline(answers)


@pytest.mark.slow
def test_other_clients_are_served_while_slowloris_runs(gateway):
    import threading

    answers = []
    attack = threading.Thread(target=lambda: answers.extend(trickle(
        gateway.port, b"GET /graphql HTTP/1.1\r\n" + HOST, lambda step: b"X-S: 1\r\n", count=100)))
    attack.start()
    time.sleep(0.3)
    try:
        latencies = [served_quickly(gateway.port) for _ in range(5)]
    finally:
        attack.join()
    assert max(latencies) < 0.5, latencies
    assert_all_408_at_the_deadline(answers)


# MARK: - A client that never reads


@pytest.mark.slow
def test_client_that_never_reads_is_cut_off_and_the_upstream_released(gateway):
    """64 MiB that the client never reads: the route timeout (2 s) covers writing the response,
    so the gateway aborts the client and frees the one upstream connection it may use."""
    reader = socket.create_connection(("127.0.0.1", gateway.port))
    reader.sendall(b"GET /blob?size=67108864 HTTP/1.1\r\n" + HOST + b"\r\n")
    time.sleep(3.0)
    # The upstream allows one connection per worker: it must be free again.
    with RawClient(gateway.port, timeout=5) as client:
        started = time.monotonic()
        client.send(b"GET /blob?size=1000 HTTP/1.1\r\n" + HOST + b"\r\n")
        response = client.read_response()
        assert response.status == 200 and len(response.body) == 1000
        assert time.monotonic() - started < 1.0
    # Reading now drains what the kernel had queued before the abort, then ends early.
    received, ended = 0, False
    reader.settimeout(5)
    try:
        while True:
            chunk = reader.recv(1 << 20)
            if not chunk:
                ended = True
                break
            received += len(chunk)
    except ConnectionResetError:
        ended = True
    except socket.timeout:
        pass
    reader.close()
    assert ended, "the slow reader's connection was still open after the route timeout"
    assert received < 64 * 1024 * 1024, "the slow reader got the whole response after the timeout"
