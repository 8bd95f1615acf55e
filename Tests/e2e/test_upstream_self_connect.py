"""An upstream on a local port in the kernel's ephemeral range, with nothing listening: sooner or
later a connect is given that very port as its source and connects to itself (TCP simultaneous
open). The gateway must call that refused, as every other attempt is, and not read its own
request back as a malformed response (README, "Upstream endpoints and resilience")."""

import random
import socket
from collections import Counter

import pytest

from support.gateway import base_config
from support.raw_http import RawClient

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


def test_a_connect_that_reaches_itself_is_refused(gateway):
    seen = Counter()
    with RawClient(gateway.port) as client:
        for _ in range(ATTEMPTS // BATCH):
            client.send(REQUEST * BATCH)  # pipelined, answered in order
            for _ in range(BATCH):
                response = client.read_response()
                seen[(response.status, response.json()["errors"][0]["message"])] += 1
    assert seen == {(502, "The upstream refused the connection."): ATTEMPTS}
