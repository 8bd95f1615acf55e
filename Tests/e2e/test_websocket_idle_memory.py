"""1,000 idle subscriptions through one gateway (README "WebSocket"): an idle tunnel gives its
buffers back, so each holds under 8 KiB of the gateway's resident memory (VmRSS), measured
between a warm-up batch and the full set.
"""

import asyncio

import pytest
from websockets.asyncio.client import connect

from support.gateway import base_config
from support.process_memory import bounds_resident_memory, resident_bytes

WARM_UP = 100
IDLE_TUNNELS = 1000
BUDGET_PER_TUNNEL = 8 * 1024


@pytest.fixture
def gateway(gateway_factory, graphql_upstream):
    def build(port, admin):
        return base_config(
            port, admin, max_connections=5000,
            upstreams={"echo": {"url": f"{graphql_upstream.url}/ws/echo", "timeout": "10s",
                                "max_connections": 2000}},
            routes=[{"path": "/ws/echo", "upstream": "echo", "auth": "none", "websocket": {}}])
    return gateway_factory.start(build)


async def open_tunnels(url: str, count: int, sockets: list) -> None:
    async def one(index: int):
        socket = await connect(url, open_timeout=30)
        await socket.send(f"hello {index}")
        assert await socket.recv() == f"hello {index}"
        sockets.append(socket)

    for start in range(0, count, 100):
        await asyncio.gather(*(one(index) for index in range(start, min(count, start + 100))))


async def measure(gateway) -> tuple:
    url = gateway.url.replace("http://", "ws://") + "/ws/echo"
    sockets = []
    try:
        await open_tunnels(url, WARM_UP, sockets)
        await asyncio.sleep(0.5)
        before = resident_bytes(gateway.process.pid)
        await open_tunnels(url, IDLE_TUNNELS, sockets)
        await asyncio.sleep(0.5)
        after = resident_bytes(gateway.process.pid)
        # Still alive: one of the first and one of the last echo again.
        for socket in (sockets[0], sockets[-1]):
            await socket.send("still here")
            assert await socket.recv() == "still here"
        return before, after
    finally:
        await asyncio.gather(*(socket.close() for socket in sockets), return_exceptions=True)


@bounds_resident_memory
def test_idle_subscriptions_hold_under_8_kib_each(gateway):
    before, after = asyncio.run(measure(gateway))
    per_tunnel = (after - before) / IDLE_TUNNELS
    print(f"gateway RSS {before / 1024:.0f} KiB -> {after / 1024:.0f} KiB: {per_tunnel:.0f} bytes per idle tunnel")
    assert per_tunnel < BUDGET_PER_TUNNEL
