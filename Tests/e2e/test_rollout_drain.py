"""A rolling update under load loses no request: haproxy round-robins over two gateways in front
of the strawberry upstream while a steady load runs; one gateway gets SIGTERM (what the kubelet
sends once the preStop is over), its /readyz turns 503 and haproxy's health check takes it out,
its in-flight requests finish (one of them pinned to it, so every run has one), it exits 0, and
a replacement starts and joins. Every request must succeed; the numbers are printed (requests
sent, failed, max latency)."""

import hashlib
import signal
import threading
import time
from datetime import datetime, timezone

import httpx
import pytest

from support.gateway import base_config
from support.graphql_client import graphql_body
from support.haproxy_balancer import HAProxyBalancer
from support.steady_load import SteadyLoad

pytestmark = pytest.mark.slow

# Every SLOW_EVERY-th request asks the upstream to take SLOW_SECONDS, so requests are in flight
# in the gateway at the moment it is signalled.
SLOW_EVERY = 10
SLOW_SECONDS = 0.3
# Keep-alive clients of the balancer, each sending one request after the other.
CLIENTS = 8
# How long the load runs before the SIGTERM, and after the replacement has joined.
STEADY_SECONDS = 1.0
# Bounds of the load itself, so the test stops on its own whatever happens.
MAX_REQUESTS = 20_000
MAX_LOAD_SECONDS = 30.0
DRAIN_TIMEOUT = "5s"
# One request sent straight to the old gateway and still at the upstream when SIGTERM comes, so
# every run drains at least one request in flight, whatever the balancer's timing.
PINNED_SECONDS = 0.8
PINNED_BODY = graphql_body(f"{{ slow(seconds: {PINNED_SECONDS}) }}")


def config_for(graphql_upstream):
    def build(port, admin):
        return base_config(port, admin, drain_timeout=DRAIN_TIMEOUT, access_log="stdout",
                           upstreams={"app": {"url": f"{graphql_upstream.url}/graphql"}},
                           routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}])
    return build


def request_body(number: int) -> bytes:
    if number % SLOW_EVERY == 0:
        return graphql_body(f"{{ slow(seconds: {SLOW_SECONDS}) }}")
    return graphql_body(f'{{ hello(name: "request {number}") }}')


class PinnedRequest(threading.Thread):
    def __init__(self, gateway):
        super().__init__(daemon=True)
        self.url, self.response, self.error = f"{gateway.url}/graphql", None, None

    def run(self):
        try:
            self.response = httpx.post(self.url, content=PINNED_BODY, timeout=10,
                                       headers={"Content-Type": "application/json"})
        except httpx.HTTPError as error:
            self.error = error


def wait_until_upstream_has(graphql_upstream, body: bytes, timeout: float = 5.0) -> None:
    digest = hashlib.sha256(body).hexdigest()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(entry["body_sha256"] == digest and entry["body_complete"] and not entry["answered"]
               for entry in graphql_upstream.requests()):
            return
        time.sleep(0.02)
    raise AssertionError("the pinned request never reached the upstream")


def served(gateway) -> int:
    return sum(1 for entry in gateway.access_log() if entry.get("status") == 200)


def finished_after(gateway, wall_clock: float) -> int:
    """Requests the gateway logged (as they completed) after `wall_clock`: in flight then."""
    moment = datetime.fromtimestamp(wall_clock, timezone.utc)
    return sum(1 for entry in gateway.access_log()
               if datetime.fromisoformat(entry["time"].replace("Z", "+00:00")) > moment)


def test_rolling_replacement_under_load_fails_no_request(gateway_factory, graphql_upstream,
                                                         tmp_path, capsys):
    build = config_for(graphql_upstream)
    old = gateway_factory.start(build, name="old")
    stays = gateway_factory.start(build, name="stays")
    replacement = gateway_factory.create(build, name="replacement")
    balancer = HAProxyBalancer(tmp_path / "haproxy", {
        name: (gateway.port, gateway.admin_port)
        for name, gateway in (("old", old), ("stays", stays), ("replacement", replacement))})
    try:
        balancer.wait_for_states({"old": "UP", "stays": "UP", "replacement": "DOWN"})
        load = SteadyLoad(f"{balancer.url}/graphql", request_body, clients=CLIENTS,
                          max_requests=MAX_REQUESTS, max_seconds=MAX_LOAD_SECONDS).start()
        time.sleep(STEADY_SECONDS)
        pinned = PinnedRequest(old)
        pinned.start()
        wait_until_upstream_has(graphql_upstream, PINNED_BODY)

        signalled, signalled_wall_clock = time.monotonic(), time.time()
        old.signal(signal.SIGTERM)
        balancer.wait_for_states({"old": "DOWN"})
        assert old.wait_exit(timeout=6) == 0, f"stderr:\n{old.stderr_text()[-2000:]}"
        drained_in = time.monotonic() - signalled

        pinned.join(timeout=10)
        replacement.start()
        balancer.wait_for_states({"replacement": "UP"})
        time.sleep(STEADY_SECONDS)
        result = load.stop()
    finally:
        balancer.stop()

    with capsys.disabled():
        print(f"\nrollout drain: {result.summary()}; old gateway exited 0 {drained_in:.2f}s "
              f"after SIGTERM with {finished_after(old, signalled_wall_clock)} requests in flight; served old/stays/replacement "
              f"{served(old)}/{served(stays)}/{served(replacement)}")
    assert result.sent > 0 and not result.failures, \
        f"{result.summary()}; first failures: {result.failures[:5]}"
    assert pinned.error is None and pinned.response.status_code == 200, pinned.error
    assert pinned.response.headers.get("connection", "").lower() == "close"
    assert served(old) > 0 and served(stays) > 0 and served(replacement) > 0
    assert result.sent < MAX_REQUESTS, "the load hit its request bound before the rollout ended"
