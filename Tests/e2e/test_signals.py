"""Graceful drain on SIGTERM/SIGINT and config reload on SIGHUP (README, "Command line and signals")."""

import signal
import threading
import time
from urllib.parse import quote

import httpx
import pytest

from support.gateway import base_config
from support.graphql_client import graphql_body
from support.raw_http import ConnectionClosed, RawClient

HOST = b"Host: gatehouse.test\r\n"

# Slow, and in the smoke subset (pytest -m smoke) that runs against the statically linked build.
pytestmark = [pytest.mark.slow, pytest.mark.smoke]


def config_for(graphql_upstream, extra_routes=(), **server):
    def build(port, admin):
        return base_config(
            port, admin, **{"drain_timeout": "5s", **server},
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "10s"}},
            routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}, *extra_routes])
    return build


def hello_request(path: str = "/graphql", name: str = "world") -> bytes:
    return (b"GET " + path.encode() + b"?query=" + quote(f'{{ hello(name: "{name}") }}').encode()
            + b" HTTP/1.1\r\n" + HOST + b"\r\n")


def slow_request(seconds: float = 1.0) -> bytes:
    body = graphql_body(f"{{ slow(seconds: {seconds}) }}")
    return (b"POST /graphql HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def wait_until_upstream_is_serving(graphql_upstream, timeout: float = 3.0) -> None:
    """Waits until the upstream has the whole slow request and is still working on it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(entry["method"] == "POST" and entry["body_complete"] and not entry["answered"]
               for entry in graphql_upstream.requests()):
            return
        time.sleep(0.02)
    raise AssertionError("the upstream never had the slow request in progress")


# MARK: - SIGTERM / SIGINT


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_in_flight_request_completes_during_drain(gateway_factory, graphql_upstream, signum):
    gateway = gateway_factory.start(config_for(graphql_upstream))
    graphql_upstream.clear()
    with RawClient(gateway.port, timeout=10) as client:
        client.send(slow_request(1.0))
        wait_until_upstream_is_serving(graphql_upstream)
        signalled = time.monotonic()
        gateway.signal(signum)
        response = client.read_response(timeout=10)
        assert response.status == 200
        assert response.json() == {"data": {"slow": "done"}}
        assert response.wants_close, "a response finished while draining should say Connection: close"
        assert client.is_closed()
    code = gateway.wait_exit(timeout=5)
    assert code == 0, f"exit code {code}"
    assert time.monotonic() - signalled < 5.5


def test_readyz_is_503_while_draining(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(config_for(graphql_upstream))
    graphql_upstream.clear()
    with RawClient(gateway.port, timeout=10) as client:
        client.send(slow_request(1.5))
        wait_until_upstream_is_serving(graphql_upstream)
        gateway.terminate()
        time.sleep(0.2)
        assert httpx.get(f"{gateway.admin_url}/readyz", timeout=2).status_code == 503
        assert httpx.get(f"{gateway.admin_url}/healthz", timeout=2).status_code == 200
        assert httpx.get(f"{gateway.admin_url}/status", timeout=2).json()["draining"] is True
        assert client.read_response(timeout=10).status == 200
    assert gateway.wait_exit(timeout=5) == 0


def test_no_new_requests_are_served_while_draining(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(config_for(graphql_upstream))
    graphql_upstream.clear()
    with RawClient(gateway.port, timeout=10) as client:
        client.send(slow_request(1.5))
        wait_until_upstream_is_serving(graphql_upstream)
        gateway.terminate()
        time.sleep(0.2)
        try:
            with RawClient(gateway.port, timeout=3) as late:
                late.send(hello_request())
                response = late.read_response(timeout=3)
                assert response.status == 503, "a request arriving during the drain was served"
        except (ConnectionRefusedError, ConnectionClosed, ConnectionResetError):
            pass  # the listener is closed: that is the expected way to stop accepting
        assert client.read_response(timeout=10).status == 200
    assert gateway.wait_exit(timeout=5) == 0


def test_idle_keep_alive_connections_are_closed_on_drain(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(config_for(graphql_upstream))
    with RawClient(gateway.port) as client:
        client.send(hello_request())
        assert client.read_response().status == 200
        signalled = time.monotonic()
        gateway.terminate()
        assert client.is_closed(timeout=3)
    assert gateway.wait_exit(timeout=3) == 0
    assert time.monotonic() - signalled < 3, "an idle connection held the drain up"


def test_admin_requests_during_the_exit_do_not_crash_it(gateway_factory, graphql_upstream):
    # A load balancer polls /readyz while the gateway stops: the admin thread must be done before
    # the gateway is (it once read the gone gateway and the exit became an abort).
    gateway = gateway_factory.start(config_for(graphql_upstream, drain_timeout="1s"))
    stop = threading.Event()

    def poll():
        with httpx.Client(timeout=1) as admin:
            while not stop.is_set():
                try:
                    admin.get(f"{gateway.admin_url}/readyz")
                except httpx.HTTPError:
                    pass

    pollers = [threading.Thread(target=poll, daemon=True) for _ in range(4)]
    for poller in pollers:
        poller.start()
    time.sleep(0.2)
    gateway.terminate()
    code = gateway.wait_exit(timeout=5)
    stop.set()
    for poller in pollers:
        poller.join(timeout=2)
    assert code == 0, f"exit code {code}: {gateway.stderr_text()[-1500:]}"


def test_drain_timeout_bounds_the_shutdown(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(config_for(graphql_upstream, drain_timeout="1s"))
    graphql_upstream.clear()
    with RawClient(gateway.port, timeout=10) as client:
        client.send(slow_request(4.0))
        wait_until_upstream_is_serving(graphql_upstream)
        signalled = time.monotonic()
        gateway.terminate()
        code = gateway.wait_exit(timeout=4)
        assert code == 0, f"exit code {code}"
        assert time.monotonic() - signalled < 2.5


# MARK: - SIGHUP


def test_reload_adds_a_route_without_dropping_an_open_connection(gateway_factory, graphql_upstream):
    gateway = gateway_factory.start(config_for(graphql_upstream))
    with RawClient(gateway.port) as kept_open:
        kept_open.send(hello_request(name="before"))
        assert kept_open.read_response().status == 200
        assert httpx.get(f"{gateway.url}/added", timeout=2).status_code == 404

        gateway.reload(config_for(graphql_upstream, extra_routes=[
            {"path": "/added", "upstream": "app", "auth": "none", "upstream_path": "/graphql"}])(
            gateway.port, gateway.admin_port))
        deadline = time.monotonic() + 3
        status = None
        while time.monotonic() < deadline:
            status = httpx.get(f"{gateway.url}/added?query=%7Bhello%7D", timeout=2).status_code
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200, "the new route did not take effect"

        kept_open.send(hello_request(name="after"))
        response = kept_open.read_response()
        assert response.json() == {"data": {"hello": "Hello, after!"}}
        kept_open.send(hello_request("/added", name="old-connection"))
        assert kept_open.read_response().json() == {"data": {"hello": "Hello, old-connection!"}}


def test_reload_removes_a_route(gateway_factory, graphql_upstream):
    extra = [{"path": "/extra", "upstream": "app", "auth": "none", "upstream_path": "/graphql"}]
    gateway = gateway_factory.start(config_for(graphql_upstream, extra_routes=extra))
    assert httpx.get(f"{gateway.url}/extra?query=%7Bhello%7D", timeout=2).status_code == 200
    gateway.reload(config_for(graphql_upstream)(gateway.port, gateway.admin_port))
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        if httpx.get(f"{gateway.url}/extra?query=%7Bhello%7D", timeout=2).status_code == 404:
            break
        time.sleep(0.05)
    assert httpx.get(f"{gateway.url}/extra?query=%7Bhello%7D", timeout=2).status_code == 404
    assert httpx.get(f"{gateway.url}/graphql?query=%7Bhello%7D", timeout=2).status_code == 200


def with_unknown_server_key(config: dict) -> dict:
    return {**config, "server": {**config["server"], "bogus_reload_key": 1}}


@pytest.mark.parametrize("bad_config, logged_key", [
    (with_unknown_server_key, "server.bogus_reload_key"),
    (lambda config: "routes: [ {unclosed\n", None),
    (lambda config: "", None),
    (lambda config: {**config, "routes": [{"path": "/graphql", "upstream": "nope", "auth": "none"}]},
     "routes[0].upstream"),
], ids=["unknown-key", "yaml-syntax", "empty", "unknown-upstream"])
def test_reload_with_an_invalid_config_keeps_the_old_one(gateway_factory, graphql_upstream,
                                                         bad_config, logged_key):
    build = config_for(graphql_upstream)
    gateway = gateway_factory.start(build)
    with RawClient(gateway.port) as kept_open:
        kept_open.send(hello_request())
        assert kept_open.read_response().status == 200
        gateway.reload(bad_config(build(gateway.port, gateway.admin_port)))
        time.sleep(0.5)
        assert gateway.running, "an invalid reload stopped the gateway"
        kept_open.send(hello_request(name="still"))
        assert kept_open.read_response().json() == {"data": {"hello": "Hello, still!"}}
    assert httpx.get(f"{gateway.url}/graphql?query=%7Bhello%7D", timeout=2).status_code == 200
    assert httpx.get(f"{gateway.admin_url}/readyz", timeout=2).status_code == 200
    if logged_key:
        logged = gateway.stderr_text() + gateway.stdout_text()
        assert logged_key in logged, f"the refused reload was not logged with {logged_key}"


def test_requests_under_repeated_reloads_all_succeed(gateway_factory, graphql_upstream):
    base = config_for(graphql_upstream, workers=2)
    gateway = gateway_factory.start(base)
    variants = [
        base(gateway.port, gateway.admin_port),
        config_for(graphql_upstream, workers=2, extra_routes=[
            {"path": "/v2", "upstream": "app", "auth": "none", "upstream_path": "/graphql"}])(
            gateway.port, gateway.admin_port),
    ]
    failures = []
    completed = []
    lock = threading.Lock()

    def keep_alive_worker(worker: int):
        with httpx.Client(base_url=gateway.url, timeout=10) as client:
            for index in range(50):
                try:
                    response = client.post("/graphql", content=graphql_body(
                        f'{{ hello(name: "{worker}-{index}") }}'),
                        headers={"Content-Type": "application/json"})
                    ok = response.json() == {"data": {"hello": f"Hello, {worker}-{index}!"}}
                    outcome = None if ok else f"{response.status_code} {response.text[:200]}"
                except Exception as error:  # noqa: BLE001 — any failure is what is counted
                    outcome = repr(error)
                with lock:
                    (failures.append(outcome) if outcome else completed.append(1))

    def new_connection_worker(worker: int):
        for index in range(50):
            try:
                with RawClient(gateway.port, timeout=10) as client:
                    client.send(hello_request(name=f"{worker}-{index}"))
                    response = client.read_response()
                    ok = response.json() == {"data": {"hello": f"Hello, {worker}-{index}!"}}
                    outcome = None if ok else f"{response.status} {response.body[:200]!r}"
            except Exception as error:  # noqa: BLE001
                outcome = repr(error)
            with lock:
                (failures.append(outcome) if outcome else completed.append(1))

    threads = [threading.Thread(target=keep_alive_worker, args=(0,)),
               threading.Thread(target=keep_alive_worker, args=(1,)),
               threading.Thread(target=new_connection_worker, args=(2,)),
               threading.Thread(target=new_connection_worker, args=(3,))]
    for thread in threads:
        thread.start()
    for reload_index in range(5):
        time.sleep(0.15)
        gateway.reload(variants[(reload_index + 1) % 2])
    for thread in threads:
        thread.join(timeout=60)
    assert failures == [], f"{len(failures)} of 200 failed: {failures[:5]}"
    assert len(completed) == 200
    assert gateway.running
