"""Request and response bodies cross the gateway byte for byte (README, "How a request is handled")."""

import socket
import subprocess
import time

import httpx
import pytest

from support.gateway import base_config
from support.payload import deterministic_bytes, sha256_hex
from support.raw_http import RawClient

FIVE_MIB = 5 * 1024 * 1024


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, max_body_bytes="10MiB", body_timeout="20s",
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "20s"}},
        routes=[
            {"path": "/echo", "upstream": "app", "auth": "none", "methods": ["POST"],
             "upstream_path": "/echo"},
            {"path": "/blob", "upstream": "app", "auth": "none", "methods": ["GET"],
             "upstream_path": "/blob"},
        ]))


@pytest.fixture(autouse=True)
def clean_upstream(graphql_upstream):
    graphql_upstream.clear()


def request_body(size: int) -> bytes:
    # Not the blob pattern, so a request body can never be mistaken for a response body.
    return bytes(reversed(deterministic_bytes(size)))


# MARK: - Request bodies


@pytest.mark.parametrize("size", [0, 1, 65_537, FIVE_MIB])
def test_content_length_request_body_arrives_byte_for_byte(gateway, graphql_upstream, size):
    body = request_body(size)
    response = httpx.post(f"{gateway.url}/echo", content=body, timeout=30,
                          headers={"Content-Type": "application/octet-stream"})
    assert response.status_code == 200
    assert response.headers["x-body-sha256"] == sha256_hex(body)
    assert response.content == body
    [seen] = graphql_upstream.requests()
    assert (seen["body_length"], seen["body_sha256"]) == (size, sha256_hex(body))


def test_every_byte_value_survives(gateway):
    body = bytes(range(256)) * 64
    response = httpx.post(f"{gateway.url}/echo", content=body, timeout=10)
    assert response.content == body


@pytest.mark.parametrize("chunk_size", [1_000, 65_536, 1_048_576])
def test_chunked_request_body_arrives_byte_for_byte(gateway, graphql_upstream, chunk_size):
    body = request_body(FIVE_MIB if chunk_size > 1_000 else 200_000)
    with RawClient(gateway.port, timeout=30) as client:
        client.send(b"POST /echo HTTP/1.1\r\nHost: gatehouse.test\r\n"
                    b"Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        for offset in range(0, len(body), chunk_size):
            piece = body[offset:offset + chunk_size]
            client.send(b"%x\r\n" % len(piece) + piece + b"\r\n")
        client.send(b"0\r\n\r\n")
        response = client.read_response(timeout=30)
    assert response.status == 200
    assert response.header("x-body-sha256") == sha256_hex(body)
    assert response.body == body
    [seen] = graphql_upstream.requests()
    assert (seen["body_length"], seen["body_sha256"]) == (len(body), sha256_hex(body))


def test_chunk_extensions_and_trailers_do_not_reach_the_body(gateway, graphql_upstream):
    with RawClient(gateway.port) as client:
        client.send(b"POST /echo HTTP/1.1\r\nHost: gatehouse.test\r\nTransfer-Encoding: chunked\r\n"
                    b"\r\n5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n")
        response = client.read_response()
    assert response.status == 200
    assert response.body == b"hello world"


# MARK: - Response bodies


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_large_response_arrives_byte_for_byte(gateway, chunked):
    url = f"{gateway.url}/blob?size={FIVE_MIB}" + ("&chunked=1" if chunked else "")
    response = httpx.get(url, timeout=30)
    assert response.status_code == 200
    assert len(response.content) == FIVE_MIB
    assert sha256_hex(response.content) == sha256_hex(deterministic_bytes(FIVE_MIB))


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_large_response_over_raw_socket_is_framed_correctly(gateway, chunked):
    with RawClient(gateway.port, timeout=30) as client:
        client.request("GET", f"/blob?size={FIVE_MIB}" + ("&chunked=1" if chunked else ""))
        response = client.read_response(timeout=30)
        assert response.status == 200
        assert response.body == deterministic_bytes(FIVE_MIB)
        client.request("GET", "/blob?size=10")
        assert client.read_response().body == deterministic_bytes(10)


def test_large_response_read_slowly_still_arrives_whole(gateway):
    size = 2 * 1024 * 1024
    with RawClient(gateway.port, timeout=30) as client:
        client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
        client.request("GET", f"/blob?size={size}")
        time.sleep(1.0)  # the gateway must hold off, not drop, while the client lags
        response = client.read_response(timeout=30)
    assert response.body == deterministic_bytes(size)


# MARK: - Expect: 100-continue


def test_expect_continue_with_curl(gateway, tmp_path):
    body = request_body(2 * 1024 * 1024)
    source = tmp_path / "body.bin"
    source.write_bytes(body)
    output = tmp_path / "out.bin"
    result = subprocess.run(
        ["curl", "-sS", "--max-time", "20", "-H", "Expect: 100-continue",
         "-H", "Content-Type: application/octet-stream", "--data-binary", f"@{source}",
         "-o", str(output), "-w", "%{http_code}", f"{gateway.url}/echo"],
        capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "200"
    assert output.read_bytes() == body


def test_expect_continue_gets_an_interim_100_before_the_body(gateway):
    body = b'{"hello":"continue"}'
    with RawClient(gateway.port) as client:
        client.send(b"POST /echo HTTP/1.1\r\nHost: gatehouse.test\r\nExpect: 100-continue\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body))
        interim = client.read_response(timeout=0.9, skip_interim=False)
        assert interim.status == 100
        client.send(body)
        response = client.read_response()
    assert response.status == 200
    assert response.body == body
