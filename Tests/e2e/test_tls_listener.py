"""TLS on the client listener (README `server.tls`): curl and Python `ssl` clients, ALPN,
X-Forwarded-Proto, plain HTTP on the TLS port, client certificates (`client_ca_file`), and a
certificate swapped on disk served after SIGHUP.
"""

import os
import shutil
import ssl
import subprocess
import time

import pytest

from support.certificates import session_pki
from support.gateway import base_config
from support.graphql_client import graphql_body
from support.payload import deterministic_bytes, sha256_hex
from support.raw_upstream import respond
from support.tls_client import (TLSRawClient, client_context, plain_exchange,
                                presented_fingerprint)
from support.tls_upstream import echo_body

QUERY = graphql_body("{ hello }")
UPSTREAM_BODY = b'{"data":{"hello":"over tls"}}'


# MARK: - Fixtures


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return session_pki(tmp_path_factory)


def tls_config(raw_upstream, server_tls: dict, **server):
    def build(port, admin):
        return base_config(
            port, admin, tls=server_tls, **server,
            upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "5s"}},
            routes=[{"path": "/graphql", "upstream": "raw", "auth": "none"}])
    return build


@pytest.fixture(scope="module")
def gateway(module_gateways, pki, raw_upstream):
    return module_gateways.start(tls_config(
        raw_upstream, {"cert_file": str(pki.server.cert_file), "key_file": str(pki.server.key_file)},
        header_timeout="2s"), name="tls")


@pytest.fixture(scope="module")
def mtls_gateway(module_gateways, pki, raw_upstream):
    return module_gateways.start(tls_config(
        raw_upstream, {"cert_file": str(pki.server.cert_file), "key_file": str(pki.server.key_file),
                       "client_ca_file": str(pki.ca)}), name="mtls")


@pytest.fixture(autouse=True)
def upstream_answer(raw_upstream):
    raw_upstream.reset(respond(body=UPSTREAM_BODY))


def post_over(client: TLSRawClient, body: bytes = QUERY, extra=()):
    client.request("POST", "/graphql", [("Content-Type", "application/json"), *extra], body)
    return client.read_response()


def curl(*arguments) -> subprocess.CompletedProcess:
    return subprocess.run(["curl", "--silent", "--show-error", "--max-time", "10", *arguments],
                          capture_output=True, timeout=20, stdin=subprocess.DEVNULL)


# MARK: - Serving over TLS


def test_curl_with_the_ca_gets_the_upstream_answer(gateway, pki):
    result = curl("--cacert", str(pki.ca), "--resolve", f"localhost:{gateway.port}:127.0.0.1",
                  "--write-out", "\n%{http_code} %{http_version}",
                  "-H", "Content-Type: application/json", "--data-binary", QUERY.decode(),
                  f"https://localhost:{gateway.port}/graphql")
    assert result.returncode == 0, result.stderr
    body, _, status_line = result.stdout.rpartition(b"\n")
    assert body == UPSTREAM_BODY
    assert status_line == b"200 1.1"


def test_curl_without_the_ca_refuses_the_certificate(gateway):
    result = curl("--resolve", f"localhost:{gateway.port}:127.0.0.1",
                  f"https://localhost:{gateway.port}/graphql")
    assert result.returncode == 60, (result.returncode, result.stderr)


def test_forwarded_proto_is_https(gateway, pki, raw_upstream):
    with TLSRawClient(gateway.port, client_context(pki.ca)) as client:
        response = post_over(client, extra=[("X-Forwarded-Proto", "http")])
    assert response.status == 200
    assert response.body == UPSTREAM_BODY
    [request] = raw_upstream.requests
    assert [v for k, v in request.headers if k.lower() == "x-forwarded-proto"] == ["https"]


def test_keep_alive_over_one_tls_connection(gateway, pki, raw_upstream):
    with TLSRawClient(gateway.port, client_context(pki.ca)) as client:
        for _ in range(5):
            response = post_over(client)
            assert response.status == 200 and response.body == UPSTREAM_BODY
            assert not response.wants_close
    assert len(raw_upstream.requests) == 5


@pytest.mark.parametrize("offered", [["http/1.1"], ["h2", "http/1.1"]], ids=["http1.1", "h2-first"])
def test_alpn_selects_http11(gateway, pki, offered):
    with TLSRawClient(gateway.port, client_context(pki.ca, alpn=offered)) as client:
        assert client.alpn == "http/1.1"
        assert post_over(client).status == 200


def test_openssl_s_client_negotiates_http11(gateway, pki):
    result = subprocess.run(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{gateway.port}", "-servername", "localhost",
         "-CAfile", str(pki.ca), "-alpn", "http/1.1", "-verify_return_error"],
        input=b"", capture_output=True, timeout=10)
    report = (result.stdout + result.stderr).decode("utf-8", "replace")
    assert "ALPN protocol: http/1.1" in report, report
    assert "Verify return code: 0 (ok)" in report, report


def test_large_bodies_both_ways_over_tls(gateway, pki, raw_upstream):
    raw_upstream.reset(echo_body())
    payload = deterministic_bytes(3 * 1024 * 1024 + 5)
    with TLSRawClient(gateway.port, client_context(pki.ca), timeout=20) as client:
        client.request("POST", "/graphql", [("Content-Type", "application/json")], payload)
        response = client.read_response(timeout=20)
    assert response.status == 200
    assert len(response.body) == len(payload)
    assert sha256_hex(response.body) == sha256_hex(payload)


# MARK: - Clients that do not speak TLS


def test_plain_http_on_the_tls_port_is_closed_without_an_http_response(gateway, pki):
    started = time.monotonic()
    received, closed = plain_exchange(gateway.port, b"GET /graphql HTTP/1.1\r\nHost: gatehouse.test\r\n\r\n")
    elapsed = time.monotonic() - started
    assert closed, f"connection still open after {elapsed:.1f}s"
    assert elapsed < 1.0, f"closed only after {elapsed:.2f}s"
    assert not received.startswith(b"HTTP/"), received[:200]
    assert presented_fingerprint(gateway.port, pki.ca) == pki.server.fingerprint()


@pytest.mark.slow
def test_stalled_handshake_is_closed_at_the_header_timeout(gateway, pki):
    started = time.monotonic()
    received, closed = plain_exchange(gateway.port, b"", timeout=5.0)
    elapsed = time.monotonic() - started
    assert closed and received == b"", (closed, received[:100])
    assert 1.5 <= elapsed < 4.0, f"closed after {elapsed:.2f}s with header_timeout 2s"


# MARK: - Client certificates


def test_mtls_listener_serves_a_client_with_a_certificate(mtls_gateway, pki):
    with TLSRawClient(mtls_gateway.port, client_context(pki.ca, credential=pki.client)) as client:
        response = post_over(client)
    assert response.status == 200 and response.body == UPSTREAM_BODY


@pytest.mark.parametrize("credential", ["none", "untrusted_client"])
def test_mtls_listener_refuses_a_client_without_a_trusted_certificate(mtls_gateway, pki,
                                                                      raw_upstream, credential):
    context = client_context(pki.ca, credential=getattr(pki, credential, None))
    try:
        client = TLSRawClient(mtls_gateway.port, context, timeout=3)
    except (ssl.SSLError, ConnectionError):
        return  # refused during the handshake (TLS 1.2, or an early alert)
    with client:
        # TLS 1.3: the server checks the client's certificate after the client's handshake
        # ends, so the refusal arrives as an alert instead of a response.
        try:
            client.request("POST", "/graphql", [("Content-Type", "application/json")], QUERY)
        except (ssl.SSLError, ConnectionError):
            pass
        assert client.is_closed(timeout=3), f"got bytes instead of a refusal: {client.buffer[:200]!r}"
    assert raw_upstream.requests == []


# MARK: - Reload


@pytest.mark.slow
def test_certificate_swapped_on_disk_is_served_after_sighup(gateway_factory, pki, raw_upstream,
                                                            tmp_path):
    cert_file, key_file = tmp_path / "live.pem", tmp_path / "live.key"
    shutil.copyfile(pki.server.cert_file, cert_file)
    shutil.copyfile(pki.server.key_file, key_file)
    live = gateway_factory.start(tls_config(
        raw_upstream, {"cert_file": str(cert_file), "key_file": str(key_file)}))
    assert presented_fingerprint(live.port, pki.ca) == pki.server.fingerprint()
    with TLSRawClient(live.port, client_context(pki.ca)) as before_reload:
        assert post_over(before_reload).status == 200
        for source, target in ((pki.server_renewed.key_file, key_file),
                               (pki.server_renewed.cert_file, cert_file)):
            staging = target.with_suffix(".new")
            shutil.copyfile(source, staging)
            os.replace(staging, target)
        live.sighup()
        renewed = pki.server_renewed.fingerprint()
        deadline = time.monotonic() + 5
        while presented_fingerprint(live.port, pki.ca) != renewed:
            assert time.monotonic() < deadline, "the renewed certificate is not served after SIGHUP"
            time.sleep(0.1)
        assert before_reload.peer_fingerprint == pki.server.fingerprint()
        response = post_over(before_reload)
        assert response.status == 200, "the connection open across the reload was dropped"
    assert live.running
