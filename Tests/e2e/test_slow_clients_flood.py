"""Connection floods: 20,000 connections at once against max_connections 500, and a gateway
that runs out of file descriptors (EMFILE). The excess is closed, connections already open are
served, the accept loop does not spin, and service comes back when the load drops."""

import resource
import subprocess
import time

import pytest

from support.connection_flood import Flood, FloodProcess, open_descriptors, process_cpu_seconds
from support.gateway import Gateway, base_config, gatehouse_binary
from support.raw_http import RawClient

HOST = b"Host: gatehouse.test\r\n"
GET = b"GET /graphql?query=%7B%20hello%20%7D HTTP/1.1\r\n" + HOST + b"\r\n"
FLOOD = 20_000
MAX_CONNECTIONS = 500


def config(graphql_upstream, **server):
    return lambda port, admin: base_config(
        port, admin, idle_timeout="30s", header_timeout="20s", **server,
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "5s"}},
        routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}])


def served(client: RawClient) -> bool:
    client.send(GET)
    return client.read_response(timeout=5).status == 200


# MARK: - 20k connections


@pytest.mark.slow
@pytest.mark.timeout(90)
def test_flood_over_max_connections(gateway_factory, graphql_upstream):
    """20,000 connections from two child processes (each has its own descriptor limit)."""
    gateway = gateway_factory.start(config(graphql_upstream, max_connections=MAX_CONNECTIONS))
    pid = gateway.process.pid
    kept = [RawClient(gateway.port, timeout=5) for _ in range(10)]
    assert all(served(client) for client in kept)

    floods = [FloodProcess(gateway.port, FLOOD // 2, watch=8.0) for _ in range(2)]
    try:
        reports = [flood.report() for flood in floods]
        opened = sum(r["opened"] for r in reports)
        still_open = sum(r["still_open"] for r in reports)
        assert opened >= FLOOD * 0.95, f"only {opened} flood connections could be opened: {reports}"
        assert still_open <= MAX_CONNECTIONS + 200, f"{still_open} of {opened} flood connections still open"
        assert all(served(client) for client in kept), "connections open before the flood lost service"

        cpu_before = process_cpu_seconds(pid)
        time.sleep(2.0)
        busy = (process_cpu_seconds(pid) - cpu_before) / 2.0
        assert busy < 0.3, f"the gateway used {busy:.0%} of a core with the flood held open"
        assert gateway.running
    finally:
        for flood in floods:
            flood.release()

    time.sleep(1.0)
    for _ in range(20):
        with RawClient(gateway.port, timeout=5) as client:
            assert served(client), "no service after the flood ended"
    for client in kept:
        client.close()
    time.sleep(0.5)
    assert open_descriptors(pid) < 100, f"{open_descriptors(pid)} descriptors still open after the flood"


# MARK: - EMFILE


class LowLimitGateway(Gateway):
    """A gateway started with RLIMIT_NOFILE lowered to `limit`."""

    def __init__(self, workdir, config_for_ports, limit: int):
        super().__init__(workdir, config_for_ports)
        self.limit = limit

    def start(self, ready_timeout: float = 10.0) -> "Gateway":
        self._stdout = open(self.stdout_path, "wb")
        self._stderr = open(self.stderr_path, "wb")
        limit = self.limit
        self.process = subprocess.Popen(
            [gatehouse_binary(), "run", "--config", str(self.config_path)],
            stdout=self._stdout, stderr=self._stderr, stdin=subprocess.DEVNULL, env=self.env,
            cwd=self.workdir,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit)))
        self.wait_ready(ready_timeout)
        return self


@pytest.mark.slow
def test_descriptor_exhaustion_is_survived(tmp_path, graphql_upstream):
    gateway = LowLimitGateway(tmp_path / "emfile", config(graphql_upstream), limit=64)
    gateway.start()
    try:
        pid = gateway.process.pid
        flood = Flood(gateway.port, 300)
        try:
            flood.watch(2.0)
            cpu_before = process_cpu_seconds(pid)
            time.sleep(1.0)
            busy = process_cpu_seconds(pid) - cpu_before
            assert busy < 0.3, f"the gateway spun at {busy:.0%} of a core while out of descriptors"
            assert gateway.running, f"the gateway died out of descriptors:\n{gateway.stderr_text()[-2000:]}"
        finally:
            flood.close()
        deadline = time.monotonic() + 5
        while True:
            try:
                with RawClient(gateway.port, timeout=3) as client:
                    assert served(client)
                    break
            except (OSError, AssertionError, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        for _ in range(10):
            with RawClient(gateway.port, timeout=3) as client:
                assert served(client)
    finally:
        code = gateway.stop()
    assert code == 0, f"exit {code}; stderr:\n{gateway.stderr_text()[-2000:]}"
