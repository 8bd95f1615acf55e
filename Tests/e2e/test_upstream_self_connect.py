"""An upstream on a local port in the kernel's ephemeral range, with nothing listening: sooner or
later a connect is given that very port as its source and connects to itself (TCP simultaneous
open). The gateway must call that refused, as every other attempt is, and not read its own
request back as a malformed response (README, "Upstream endpoints and resilience")."""

import random
import re
import socket

import pytest

from support.gateway import base_config

# Connects walk the even ports of the range (Linux gives connect even ports first, bind odd
# ones), one per attempt, so some tens of thousands of attempts pass the upstream's port.
ATTEMPTS = 60_000
BATCH = 200
REQUEST = b"GET /down HTTP/1.1\r\nHost: gateway\r\n\r\n"


def free_even_ephemeral_port() -> int:
    low, high = (int(part) for part in open("/proc/sys/net/ipv4/ip_local_port_range").read().split())
    for _ in range(1000):
        port = random.randrange(low + (low & 1), high, 2)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free even port in the ephemeral range")


@pytest.fixture(scope="module")
def gateway(module_gateways):
    port = free_even_ephemeral_port()
    return module_gateways.start(lambda listen, admin: base_config(
        listen, admin,
        upstreams={"down": {"url": f"http://127.0.0.1:{port}/graphql", "connect_timeout": "1s"}},
        routes=[{"path": "/down", "upstream": "down", "auth": "none"}],
        access_log="off"))


def read_messages(client: socket.socket, count: int, pending: bytearray) -> list[bytes]:
    """The envelope messages of the next `count` responses on a pipelined connection."""
    messages = []
    while len(messages) < count:
        end = pending.find(b"\r\n\r\n")
        length = re.search(rb"\r\nContent-Length: (\d+)\r\n", pending[:end + 2]) if end >= 0 else None
        if length is None or len(pending) < end + 4 + int(length.group(1)):
            chunk = client.recv(1 << 20)
            assert chunk, "the gateway closed the connection"
            pending += chunk
            continue
        body_end = end + 4 + int(length.group(1))
        assert pending.startswith(b"HTTP/1.1 502 "), bytes(pending[:60])
        messages.append(re.search(rb'"message":"([^"]*)"', pending[end + 4:body_end]).group(1))
        del pending[:body_end]
    return messages


def test_a_connect_that_reaches_itself_is_refused(gateway):
    seen = {}
    pending = bytearray()
    with socket.create_connection(("127.0.0.1", gateway.port), timeout=10) as client:
        for _ in range(ATTEMPTS // BATCH):
            client.sendall(REQUEST * BATCH)
            for message in read_messages(client, BATCH, pending):
                seen[message] = seen.get(message, 0) + 1
    assert seen == {b"The upstream refused the connection.": ATTEMPTS}
