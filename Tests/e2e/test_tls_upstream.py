"""https upstreams (README `upstreams.<name>.tls`): verification, SNI, mTLS, `verify: false`,
pooled TLS connections and session resumption, against Python `ssl` upstreams with a CA and
certificates made by the `openssl` command for this session.

A TLS failure is a 502 UPSTREAM_ERROR whose message says TLS and why, plus a warn line on stderr;
the upstream never receives a request over a connection whose handshake failed.
"""

import socket
import time

import httpx
import pytest

from support.certificates import session_pki
from support.envelope import assert_httpx_envelope
from support.gateway import base_config
from support.graphql_client import graphql_body
from support.payload import deterministic_bytes, sha256_hex
from support.raw_upstream import respond
from support.tls_upstream import TLSUpstream, echo_body, respond_then_close_notify

QUERY = graphql_body("{ hello }")
JSON = {"Content-Type": "application/json"}


# MARK: - Fixtures


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return session_pki(tmp_path_factory)


@pytest.fixture(scope="module")
def upstreams(pki):
    """One https upstream per certificate scenario, plus dedicated ones for counting."""
    servers = {
        "trusted": TLSUpstream(pki.server),
        "untrusted": TLSUpstream(pki.untrusted),
        "wrong_name": TLSUpstream(pki.wrong_name),
        "expired": TLSUpstream(pki.expired),
        "mtls": TLSUpstream(pki.server, client_ca=pki.ca),
        "pooled": TLSUpstream(pki.server),
        "resumable": TLSUpstream(pki.server),
        "idle_closed": TLSUpstream(pki.server),
        "echo": TLSUpstream(pki.server),
    }
    servers["echo"].reset(echo_body())
    yield servers
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="module")
def silent_port(raw_upstream):
    """A plain TCP server that reads a ClientHello and never answers it."""
    return raw_upstream.port


@pytest.fixture(scope="module")
def gateway(module_gateways, pki, upstreams, silent_port):
    def https(name: str, host: str = "localhost", **tls):
        return {"url": f"https://{host}:{upstreams[name].port}/graphql", "timeout": "5s",
                "connect_timeout": "2s", **({"tls": tls} if tls else {})}

    trust = {"ca_file": str(pki.ca)}
    client_cert = {"cert_file": str(pki.client.cert_file), "key_file": str(pki.client.key_file)}
    upstream_config = {
        "trusted": https("trusted", **trust),
        "by-ip": https("trusted", host="127.0.0.1", **trust),
        "system-store": https("trusted"),
        "untrusted": https("untrusted", **trust),
        "wrong-name": https("wrong_name", **trust),
        "renamed": https("wrong_name", host="127.0.0.1", server_name="other.example", **trust),
        "expired": https("expired", **trust),
        "mtls-with-cert": https("mtls", **trust, **client_cert),
        "mtls-without-cert": https("mtls", **trust),
        "insecure": https("untrusted", verify=False),
        "pooled": https("pooled", **trust),
        "resumable": https("resumable", **trust),
        "idle-closed": https("idle_closed", **trust),
        "echo": https("echo", **trust),
        "silent": {"url": f"https://localhost:{silent_port}/graphql", "timeout": "5s",
                   "connect_timeout": "1s", "tls": trust},
    }
    routes = [{"path": f"/{name}", "upstream": name, "auth": "none",
               "methods": ["GET", "POST"]} for name in upstream_config]
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, upstreams=upstream_config, routes=routes))


@pytest.fixture
def client(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as http:
        yield http


def post(client, path: str, body: bytes = QUERY) -> httpx.Response:
    return client.post(path, content=body, headers=JSON)


def error_message(response: httpx.Response) -> str:
    return response.json()["errors"][0]["message"]


def wait_for_stderr(gateway, *words, timeout: float = 2.0) -> str:
    """The first stderr line containing every one of `words` (waiting for it to be written)."""
    deadline = time.monotonic() + timeout
    while True:
        for line in gateway.stderr_text().splitlines():
            if all(word in line for word in words):
                return line
        if time.monotonic() >= deadline:
            raise AssertionError(f"no stderr line with {words}; stderr:\n{gateway.stderr_text()}")
        time.sleep(0.05)


# MARK: - Verified connections


@pytest.mark.parametrize("path, upstream, sni", [
    ("/trusted", "trusted", "localhost"),
    ("/by-ip", "trusted", None),            # an IP is checked against the certificate, never sent as SNI
    ("/renamed", "wrong_name", "other.example"),
])
def test_verified_upstream_answers(client, upstreams, path, upstream, sni):
    server = upstreams[upstream]
    server.reset()
    response = post(client, path)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"ok": True}}
    [handshake] = server.completed_handshakes()
    assert handshake.server_name == sni
    [request] = server.requests
    assert request.method == "POST" and request.target == "/graphql"
    assert request.body == QUERY


def test_client_certificate_is_presented_for_mtls(client, upstreams):
    upstreams["mtls"].reset()
    response = post(client, "/mtls-with-cert")
    assert response.status_code == 200, response.text
    [handshake] = upstreams["mtls"].completed_handshakes()
    assert handshake.client_subject == "gatehouse-client"


def test_large_bodies_cross_a_tls_upstream_both_ways(client, upstreams):
    upstreams["echo"].reset(echo_body())
    payload = deterministic_bytes(4 * 1024 * 1024 + 17)
    response = client.post("/echo", content=payload,
                           headers={"Content-Type": "application/octet-stream"})
    assert response.status_code == 200
    assert len(response.content) == len(payload)
    assert sha256_hex(response.content) == sha256_hex(payload)


# MARK: - Refused certificates


@pytest.mark.parametrize("path, upstream, reason", [
    ("/untrusted", "untrusted", "not trusted"),
    ("/system-store", "trusted", "not trusted"),   # the test CA is in no system store
    ("/wrong-name", "wrong_name", "name mismatch"),
    ("/expired", "expired", "expired"),
])
def test_refused_certificate_is_502_naming_tls_and_the_reason(client, gateway, upstreams, path,
                                                               upstream, reason):
    server = upstreams[upstream]
    server.reset()
    response = post(client, path)
    extensions = assert_httpx_envelope(response, 502, "UPSTREAM_ERROR", source="gateway")
    assert extensions["retryable"] is True
    message = error_message(response)
    assert "TLS" in message and reason in message, message
    assert server.requests == [], "a request went over a connection that failed verification"
    wait_for_stderr(gateway, path.strip("/"), "TLS", reason)


def test_mtls_upstream_refuses_a_gateway_without_a_client_certificate(client, gateway, upstreams):
    upstreams["mtls"].reset()
    response = post(client, "/mtls-without-cert")
    assert_httpx_envelope(response, 502, "UPSTREAM_ERROR", source="gateway")
    assert "TLS" in error_message(response), error_message(response)
    assert upstreams["mtls"].requests == []
    assert [h.ok for h in upstreams["mtls"].wait_for_handshakes(1)] == [False]
    wait_for_stderr(gateway, "mtls-without-cert", "TLS")


def test_verify_false_accepts_any_certificate_and_warns_at_start(client, gateway, upstreams):
    assert "verify is false" in wait_for_stderr(gateway, "insecure", "verify is false")
    upstreams["untrusted"].reset()
    response = post(client, "/insecure")
    assert response.status_code == 200, response.text
    assert len(upstreams["untrusted"].completed_handshakes()) == 1


def test_only_the_verify_false_upstream_is_warned_about(gateway):
    warnings = [line for line in gateway.stderr_text().splitlines() if "verify is false" in line]
    assert len(warnings) == 1 and "insecure" in warnings[0], warnings


@pytest.mark.slow
def test_handshake_that_never_completes_is_504_at_connect_timeout(client):
    started = time.monotonic()
    response = post(client, "/silent")
    elapsed = time.monotonic() - started
    assert_httpx_envelope(response, 504, "UPSTREAM_TIMEOUT", source="gateway")
    assert 0.8 <= elapsed < 3.0, f"answered after {elapsed:.2f}s with connect_timeout 1s"


# MARK: - Pooling and resumption


def test_sequential_requests_share_one_tls_connection(client, upstreams):
    server = upstreams["pooled"]
    server.reset()
    for index in range(20):
        response = post(client, "/pooled", graphql_body(f'{{ hello(name: "{index}") }}'))
        assert response.status_code == 200
    assert len(server.requests) == 20
    assert server.connections_accepted == 1
    assert len(server.handshakes) == 1, server.handshakes


def test_new_connection_resumes_the_session_after_connection_close(client, upstreams):
    server = upstreams["resumable"]
    server.reset(respond_then_close_notify())
    for _ in range(3):
        response = post(client, "/resumable")
        assert response.status_code == 200, response.text
    handshakes = server.handshakes
    assert server.connections_accepted == 3
    assert [h.ok for h in handshakes] == [True, True, True], handshakes
    assert [h.reused for h in handshakes] == [False, True, True], handshakes


def test_session_resumes_after_the_upstream_closes_an_idle_connection(client, upstreams):
    server = upstreams["idle_closed"]
    server.reset(respond())
    assert post(client, "/idle-closed").status_code == 200
    for connection in [c for c in server.connections if c.alive]:
        connection.sock.shutdown(socket.SHUT_RDWR)
    time.sleep(0.3)
    response = post(client, "/idle-closed")
    assert response.status_code == 200, response.text
    handshakes = server.handshakes
    assert [h.ok for h in handshakes] == [True, True], handshakes
    assert handshakes[1].reused, "the fresh connection did a full handshake"
