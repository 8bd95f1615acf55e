"""What a store holds or answers never brings the gateway down (README "Shared state (stores)",
"When Redis fails", "Choosing a store"): a rate-limit key in Redis holding a TAT far past any
clock, and a Redis-compatible server answering the limit script with out-of-range integers, are
store failures met with the store's `on_failure` and counted, and the same process serves the
next request; a reply no command asked for drops the connection, not the process; a
shared-cache entry whose max_age is all ones is a counted miss; a refused password keeps the
store down with its backoff growing, never "up again" on each attempt.
Against real redis-server processes on free loopback ports, and a fake Redis of this module.
"""

import socket
import threading
import time
import uuid

import httpx
import pytest

from support.auth_checks import QUERY_BODY, metric_value
from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.raw_http import ConnectionClosed, RawClient
from support.redis_server import RedisServer, wait_until

LIMITED = "/limited"
POLICY = "per-route"
# `<prefix>rl:<route>\0<policy>\0<key>`; a `key: route` limit has an empty key.
LIMIT_KEY = b"gatehouse:rl:" + LIMITED.encode() + b"\0" + POLICY.encode() + b"\0"
# 1e17 µs: a number Lua's tonumber() reads and the script hands back as it is, about a million
# times later than now; as nanoseconds it does not fit an Int64.
HUGE_TAT = b"100000000000000000"
HELLO = "query Hello($name: String!) { hello(name: $name) }"
ENTRY_KEYS = "gatehouse:rc:e:*"
MAX_AGE_FIELD = slice(15, 23)  # magic (4), status (2), flags (1), stored-at (8), then max_age (8)
STORED = "gatehouse; fwd=miss; stored"


def limited_config(upstream_url: str, redis_url: str, on_failure: str):
    """`config_for_ports`: one route with a whole-route limit on a Redis store."""

    def config(port, admin):
        limits = [{"name": POLICY, "key": "route", "rate": "100/s", "burst": 100, "store": "shared"}]
        document = base_config(port, admin, upstreams={"app": {"url": f"{upstream_url}/graphql"}},
                               routes=[{"path": LIMITED, "upstream": "app", "auth": "none", "rate_limit": limits}])
        document["stores"] = {"shared": {"type": "redis", "url": redis_url, "timeout": "500ms",
                                         "on_failure": on_failure}}
        return document

    return config


def assert_alive(gateway) -> None:
    """The process still runs; if not, the failure names its exit and the runtime's reason."""
    if not gateway.running:
        gateway.wait_exit(2.0)
        lines = gateway.stderr_text().splitlines()
        reasons = [line for line in lines if "failure" in line or "Fatal" in line or "Crash" in line]
        pytest.fail(f"the gateway died (exit {gateway.process.returncode}):\n"
                    + "\n".join(reasons[:5] or lines[-20:]), pytrace=False)


def post(gateway, path: str = LIMITED):
    """One request on a fresh connection; a connection closed unanswered fails on the gateway's death."""
    try:
        with RawClient(gateway.port, timeout=5.0) as client:
            client.request("POST", path, headers=[("Content-Type", "application/json")], body=QUERY_BODY)
            return client.read_response(method="POST")
    except (ConnectionClosed, OSError):
        time.sleep(0.3)
        assert_alive(gateway)
        raise


def store_errors(gateway, op: str) -> float:
    return metric_value(gateway.metrics_text(), "gatehouse_store_errors_total", store="shared", op=op)


def assert_answered_per_on_failure(gateway, on_failure: str) -> None:
    """The request is decided by `on_failure` and the process lives on to answer the next."""
    for _ in range(2):
        response = post(gateway)
        if on_failure == "closed":
            extensions = assert_raw_envelope(response, 503, "UNAVAILABLE", source="gateway")
            assert extensions["retryable"] is True
        else:
            assert response.status == 200, (response.status, response.body[:300])
        assert_alive(gateway)
    assert gateway.readyz_status() == 200


# MARK: - RESP by hand (binary keys and values redis-cli cannot pass)


def resp_command(port: int, *arguments: bytes):
    """Sends one command to the Redis on `port`; its reply (bytes, int, str or None)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5.0) as sock:
        sock.sendall(b"*%d\r\n" % len(arguments) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in arguments))
        reader = sock.makefile("rb")
        line = reader.readline()
        kind, rest = line[:1], line[1:-2]
        if kind == b"$":
            size = int(rest)
            return None if size < 0 else reader.read(size + 2)[:-2]
        if kind == b":":
            return int(rest)
        if kind == b"+":
            return rest.decode()
        raise AssertionError(f"Redis answered {line!r}")


# MARK: - Rate-limit state


@pytest.mark.parametrize("on_failure", ["open", "closed", "local"])
def test_a_huge_tat_in_a_limit_key_is_a_store_failure(gateway_factory, raw_upstream, redis_server, on_failure):
    """One key written into the shared Redis (by anyone, or a corrupted value) must not crash
    every replica on the route's next request, nor again after each restart: the key has no
    expiry. The reply is not the script's to use: a store error, decided by `on_failure`."""
    raw_upstream.reset()
    gateway = gateway_factory.start(limited_config(raw_upstream.url, redis_server.url(), on_failure))
    assert post(gateway).status == 200, "the store's connection is up and the key written"
    assert resp_command(redis_server.port, b"GET", LIMIT_KEY) is not None, \
        redis_server.command("--scan", "--pattern", "*rl:*")
    assert resp_command(redis_server.port, b"SET", LIMIT_KEY, HUGE_TAT) == "OK"
    before = store_errors(gateway, "rate_limit")
    assert_answered_per_on_failure(gateway, on_failure)
    assert store_errors(gateway, "rate_limit") >= before + 1
    # A replica started on the same Redis meets the same key on its first request.
    restarted = gateway_factory.start(limited_config(raw_upstream.url, redis_server.url(), on_failure),
                                      name="restarted")
    assert_answered_per_on_failure(restarted, on_failure)


class FakeRedis:
    """Just enough RESP for the gateway's handshake (AUTH, SELECT, SCRIPT LOAD, PING); every
    script call is answered with `script_reply`, whatever it asked. `after_ping`, when given, is
    sent a moment after each PING's answer, asked for by nothing."""

    def __init__(self, script_reply: bytes, after_ping: bytes = b""):
        self.script_reply = script_reply
        self.after_ping = after_ping
        self.script_calls = 0
        self.stopping = threading.Event()
        self.connections = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        self.stopping.set()
        self.listener.close()
        for connection in self.connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            connection.close()
        self.thread.join(timeout=2.0)

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(connection)
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection) -> None:
        buffer = b""
        try:
            while not self.stopping.is_set():
                data = connection.recv(65536)
                if not data:
                    return
                buffer += data
                while True:
                    arguments, buffer = self._parse(buffer)
                    if arguments is None:
                        break
                    name = arguments[0].upper()
                    connection.sendall(self._answer(name))
                    if name == b"PING" and self.after_ping:
                        time.sleep(0.2)
                        connection.sendall(self.after_ping)
        except OSError:
            return

    def _answer(self, name: bytes) -> bytes:
        if name == b"SCRIPT":
            return b"$40\r\n" + b"0" * 40 + b"\r\n"
        if name == b"PING":
            return b"+PONG\r\n"
        if name in (b"EVALSHA", b"EVAL"):
            self.script_calls += 1
            return self.script_reply
        return b"+OK\r\n"

    @staticmethod
    def _parse(buffer: bytes):
        """One RESP array of bulk strings: (arguments, rest), or (None, buffer) until complete."""
        if not buffer.startswith(b"*") or b"\r\n" not in buffer:
            return None, buffer
        end = buffer.index(b"\r\n")
        position, arguments = end + 2, []
        for _ in range(int(buffer[1:end])):
            end = buffer.find(b"\r\n", position)
            if end < 0:
                return None, buffer
            size = int(buffer[position + 1:end])
            position = end + 2
            if len(buffer) < position + size + 2:
                return None, buffer
            arguments.append(buffer[position:position + size])
            position += size + 2
        return arguments, buffer[position:]


@pytest.fixture
def fake_redis_factory():
    servers = []

    def make(script_reply: bytes, after_ping: bytes = b"") -> FakeRedis:
        servers.append(FakeRedis(script_reply, after_ping))
        return servers[-1]

    yield make
    for server in servers:
        server.stop()


TWO_TO_THE_62 = 1 << 62


# The script's reply for one limit: [now, the limit's TAT before], in µs (-1: no TAT stored).
SCRIPT_REPLIES = {
    "now": b"*2\r\n:%d\r\n:-1\r\n" % TWO_TO_THE_62,
    "negative-now": b"*2\r\n:%d\r\n:-1\r\n" % -TWO_TO_THE_62,
    "tat": b"*2\r\n:1700000000000000\r\n:%d\r\n" % TWO_TO_THE_62,
}


@pytest.mark.parametrize("label,reply", SCRIPT_REPLIES.items(), ids=SCRIPT_REPLIES.keys())
@pytest.mark.parametrize("on_failure", ["open", "closed"])
def test_a_script_reply_with_out_of_range_integers_is_a_store_failure(gateway_factory, raw_upstream,
                                                                      fake_redis_factory, label, reply, on_failure):
    """A Redis-compatible server or proxy answering the limit script in the right shape, with the
    script's `now` or a TAT of ±2^62 µs: an unusable reply, never arithmetic that traps."""
    raw_upstream.reset()
    fake = fake_redis_factory(reply)
    gateway = gateway_factory.start(limited_config(raw_upstream.url, fake.url(), on_failure))
    assert wait_until(lambda: metric_value(gateway.metrics_text(), "gatehouse_store_up", store="shared") == 1,
                      timeout=3.0), gateway.metrics_text()
    assert_answered_per_on_failure(gateway, on_failure)
    assert fake.script_calls >= 1, "the limit was asked of the store"
    assert store_errors(gateway, "rate_limit") >= 1


# A limit script's answer in the right shape: now (µs) and no TAT stored.
GOOD_SCRIPT_REPLY = b"*2\r\n:1700000000000000\r\n:-1\r\n"
# Replies nobody asked for: after a script's answer, and on an idle connection after its PING.
UNASKED_REPLIES = {
    "after-a-script-answer": (GOOD_SCRIPT_REPLY + b"+SURPRISE\r\n", b""),
    "array-after-a-script-answer": (GOOD_SCRIPT_REPLY + b"*2\r\n:1\r\n$1\r\nx\r\n", b""),
    "while-idle": (GOOD_SCRIPT_REPLY, b":42\r\n"),
}


@pytest.mark.parametrize("label", UNASKED_REPLIES.keys())
def test_a_reply_no_command_asked_for_drops_the_connection_not_the_process(gateway_factory, raw_upstream,
                                                                           fake_redis_factory, label):
    """hiredis aborts the process on a reply it has no callback for; the gateway counts what it
    is owed and drops such a connection instead, reports why, and connects again."""
    raw_upstream.reset()
    script_reply, after_ping = UNASKED_REPLIES[label]
    fake = fake_redis_factory(script_reply, after_ping)
    gateway = gateway_factory.start(limited_config(raw_upstream.url, fake.url(), "open"))
    assert wait_until(lambda: len(fake.connections) >= 1, timeout=3.0)
    for _ in range(4):
        assert post(gateway).status == 200
        time.sleep(0.3)
        assert_alive(gateway)
    assert wait_until(lambda: len(fake.connections) >= 2, timeout=5.0), "the gateway connected again"
    status = httpx.get(f"{gateway.admin_url}/status", timeout=2).json()
    reported = [store["last_error"] or "" for store in status["stores"]]
    assert any("no command asked for" in text for text in reported), reported
    assert_alive(gateway)


# MARK: - Cache entries


def cache_config(graphql_url: str, redis_url: str):
    def config(port, admin):
        document = base_config(port, admin, upstreams={"app": {"url": f"{graphql_url}/graphql"}},
                               routes=[{"path": "/pub", "upstream": "app", "auth": "none",
                                        "cache": {"max_age": "60s"}}])
        document["stores"] = {"shared": {"type": "redis", "url": redis_url, "timeout": "500ms"}}
        document["cache"] = {"store": "shared"}
        return document

    return config


def hello(gateway, name: str) -> httpx.Response:
    try:
        return httpx.post(f"{gateway.url}/pub", timeout=5.0, headers={"Content-Type": "application/json"},
                          json={"query": HELLO, "variables": {"name": name}})
    except httpx.TransportError:
        time.sleep(0.3)
        assert_alive(gateway)
        raise


def test_a_cache_entry_whose_max_age_overflows_is_a_miss(gateway_factory, graphql_upstream, redis_server):
    """The entry's max_age field rewritten to 0xFF…FF (stale windows still 0), as a tampering
    writer or a damaged value would: README says a value that is not an entry is a miss, counted
    in gatehouse_store_errors_total{op="get"}; placing it on the clock must not overflow."""
    gateway = gateway_factory.start(cache_config(graphql_upstream.url, redis_server.url()))
    name = f"n-{uuid.uuid4().hex[:10]}"
    first = hello(gateway, name)
    assert first.status_code == 200 and first.headers["Cache-Status"] == STORED
    assert hello(gateway, name).headers["Cache-Status"].startswith("gatehouse; hit; ttl=")
    keys = wait_until(lambda: [k for k in redis_server.command("--scan", "--pattern", ENTRY_KEYS).splitlines() if k],
                      timeout=2.0)
    assert keys and len(keys) == 1, keys
    key = keys[0].encode()
    value = bytearray(resp_command(redis_server.port, b"GET", key))
    assert value[:4] == b"GHC1", value[:16]
    value[MAX_AGE_FIELD] = b"\xff" * 8
    assert resp_command(redis_server.port, b"SET", key, bytes(value), b"PX", b"60000") == "OK"
    before = store_errors(gateway, "get")

    tampered = hello(gateway, name)
    assert_alive(gateway)
    assert tampered.status_code == 200 and tampered.json() == {"data": {"hello": f"Hello, {name}!"}}
    assert tampered.headers["Cache-Status"].startswith("gatehouse; fwd=miss"), tampered.headers["Cache-Status"]
    assert store_errors(gateway, "get") == before + 1
    # The miss stored a good entry again over the damaged one.
    assert hello(gateway, name).headers["Cache-Status"].startswith("gatehouse; hit; ttl=")
    assert_alive(gateway)


# MARK: - A refused password


class ConnectionCounter:
    """Connections a Redis accepted since the counter was made, less the ones made to ask (each
    INFO through redis-cli is a connection of its own)."""

    def __init__(self, redis):
        self.redis = redis
        self.asked = 0
        self.start = self._total()

    def _total(self) -> int:
        self.asked += 1
        for line in self.redis.command("INFO", "stats").splitlines():
            if line.startswith("total_connections_received:"):
                return int(line.split(":")[1])
        raise AssertionError("no total_connections_received in INFO stats")

    def count(self) -> int:
        total = self._total()
        return total - self.start - (self.asked - 1)


def test_a_wrong_password_keeps_the_store_down_with_backoff(gateway_factory, raw_upstream, tmp_path):
    """README "When Redis fails": a refused AUTH marks the store down at once, and the worker
    reconnects with backoff (250 ms doubling up to 10 s) until a connection answers PING. The
    -WRONGPASS reply is no answer of a healthy store: never "is up again", and the backoff grows
    instead of a reconnect (and a failed AUTH at Redis) every 250 ms."""
    redis = RedisServer(tmp_path / "redis-auth", password="right-password").start()
    try:
        def config(port, admin):
            limits = [{"name": "a", "key": "route", "rate": "100/s", "store": "shared"}]
            document = base_config(port, admin, upstreams={"app": {"url": f"{raw_upstream.url}/graphql"}},
                                   routes=[{"path": LIMITED, "upstream": "app", "auth": "none",
                                            "rate_limit": limits}])
            document["stores"] = {"shared": {"type": "redis", "url": redis.url(), "password": "wrong-password",
                                             "on_failure": "open"}}
            return document

        raw_upstream.reset()
        gateway = gateway_factory.start(config)
        assert wait_until(lambda: "WRONGPASS" in gateway.stderr_text(), timeout=3.0), gateway.stderr_text()
        counter = ConnectionCounter(redis)
        samples = []
        for _ in range(8):
            time.sleep(0.5)
            samples.append(metric_value(gateway.metrics_text(), "gatehouse_store_up", store="shared"))
        attempts = counter.count()
        # Waits of 250 ms, 500 ms, 1 s, 2 s … after the first refusal: 3 or 4 attempts in these
        # 4 s; a reconnect every 250 ms would be 16.
        print(f"wrong password: {attempts} connections to Redis in 4 s after the first refusal")
        assert attempts <= 6, f"{attempts} connections in 4 s: the reconnect backoff did not grow"
        assert samples == [0] * len(samples), f"gatehouse_store_up every 0.5 s: {samples}"
        lines = gateway.stderr_text().splitlines()
        assert not [line for line in lines if "is up again" in line], "\n".join(lines[-20:])
        down = [line for line in lines if "is down" in line]
        assert 1 <= len(down) <= 2, "\n".join(down)
        assert "WRONGPASS" in down[0] and "wrong-password" not in gateway.stderr_text()
        assert post(gateway).status == 200, "on_failure: open"
        assert_alive(gateway)
    finally:
        redis.stop()
