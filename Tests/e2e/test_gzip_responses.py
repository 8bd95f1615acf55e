"""gzip responses (README `server.compression`, defaults: on, level 1, min_size 1KiB, JSON and
text types): what is compressed, what stays plain, the framing of both, and bodies that are
already compressed, which pass through untouched in either direction.

Every compressed body is checked by inflating it and comparing its bytes with the same
response fetched without `Accept-Encoding`.
"""

import gzip
import subprocess
import zlib

import pytest

from support.gateway import base_config
from support.graphql_client import graphql_body
from support.payload import deterministic_bytes, sha256_hex
from support.raw_http import RawClient
from support.raw_upstream import respond
from support.upstream_scripts import head_bytes

JSON = ("Content-Type", "application/json")
GZIP = ("Accept-Encoding", "gzip")
# The GraphQL upstream answers `{ big(size: N) }` with exactly this many bytes around the N x's.
BIG_ENVELOPE = len(b'{"data":{"big":""}}')


# MARK: - Fixtures


def compression_config(graphql_upstream, raw_upstream, **server):
    def build(port, admin):
        return base_config(
            port, admin, **server,
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "10s"},
                       "raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "5s"}},
            routes=[{"path": "/graphql", "upstream": "app", "auth": "none"},
                    {"path": "/raw", "upstream": "raw", "auth": "none",
                     "methods": ["GET", "HEAD", "POST"]}])
    return build


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream):
    return module_gateways.start(compression_config(graphql_upstream, raw_upstream))


def big_query(size: int) -> bytes:
    return graphql_body(f"{{ big(size: {size}) }}")


def post(port: int, body: bytes, headers=(), target: str = "/graphql", version: str = "HTTP/1.1"):
    """One POST on a new connection; returns (response, closed afterwards)."""
    with RawClient(port, timeout=20) as client:
        client.request("POST", target, [JSON, *headers], body, version=version)
        response = client.read_response(timeout=20)
        closed = client.is_closed(timeout=0.5) if version == "HTTP/1.0" else None
    return response, closed


def get_raw(port: int, headers=(), method: str = "GET"):
    with RawClient(port) as client:
        client.request(method, "/raw", list(headers))
        return client.read_response(method=method)


def assert_gzipped_like(compressed, plain) -> None:
    """`compressed` is a chunked gzip response whose body inflates to `plain`'s body."""
    assert compressed.status == plain.status == 200
    assert compressed.header_values("content-encoding") == ["gzip"], compressed.headers
    assert "accept-encoding" in (compressed.header("vary") or "").lower(), compressed.headers
    assert compressed.header("content-length") is None, "a compressed body kept the plain length"
    assert compressed.header("transfer-encoding") == "chunked"
    inflated = gzip.decompress(compressed.body)
    assert sha256_hex(inflated) == sha256_hex(plain.body)
    assert len(compressed.body) < len(plain.body)


def assert_plain(response, expected_body: bytes = None) -> None:
    assert response.status == 200
    assert response.header("content-encoding") is None, response.headers
    assert response.header("content-length") == str(len(response.body))
    if expected_body is not None:
        assert response.body == expected_body


# MARK: - Compressed


@pytest.mark.parametrize("size", [1024 - BIG_ENVELOPE, 20_000, 3_000_000], ids=["1KiB", "20KB", "3MB"])
def test_json_at_or_above_min_size_is_gzipped(gateway, size):
    plain, _ = post(gateway.port, big_query(size))
    assert_plain(plain)
    assert len(plain.body) == size + BIG_ENVELOPE
    compressed, _ = post(gateway.port, big_query(size), [GZIP])
    assert_gzipped_like(compressed, plain)


def test_gzipped_responses_keep_the_connection_in_step(gateway):
    plain, _ = post(gateway.port, big_query(5000))
    with RawClient(gateway.port) as client:
        for _ in range(3):
            client.request("POST", "/graphql", [JSON, GZIP], big_query(5000))
            compressed = client.read_response()
            assert_gzipped_like(compressed, plain)
            assert not compressed.wants_close


@pytest.mark.parametrize("accept_encoding", [
    "gzip", "GZIP", "deflate, gzip, br", "br;q=1.0, gzip;q=0.5", "*", "gzip; q=1",
])
def test_accept_encoding_forms_that_allow_gzip(gateway, accept_encoding):
    plain, _ = post(gateway.port, big_query(4000))
    compressed, _ = post(gateway.port, big_query(4000), [("Accept-Encoding", accept_encoding)])
    assert_gzipped_like(compressed, plain)


def test_curl_compressed_gets_the_uncompressed_bytes(gateway, tmp_path):
    plain, _ = post(gateway.port, big_query(50_000))
    headers_file = tmp_path / "headers.txt"
    result = subprocess.run(
        ["curl", "--silent", "--show-error", "--max-time", "10", "--compressed",
         "--dump-header", str(headers_file), "-H", "Content-Type: application/json",
         "--data-binary", big_query(50_000).decode(), f"{gateway.url}/graphql"],
        capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert result.stdout == plain.body
    assert "content-encoding: gzip" in headers_file.read_text().lower()


def test_http10_client_gets_gzip_until_close(gateway):
    plain, _ = post(gateway.port, big_query(8000))
    compressed, closed = post(gateway.port, big_query(8000), [GZIP], version="HTTP/1.0")
    assert compressed.status == 200
    assert compressed.header("content-encoding") == "gzip"
    assert compressed.header("transfer-encoding") is None, "chunked sent to an HTTP/1.0 client"
    assert compressed.header("content-length") is None
    assert compressed.wants_close and closed
    assert gzip.decompress(compressed.body) == plain.body


def test_chunked_upstream_json_is_gzipped(gateway, raw_upstream):
    body = deterministic_bytes(30_000).hex().encode()
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 7000]), body[i:i + 7000])
                      for i in range(0, len(body), 7000)) + b"0\r\n\r\n"
    raw_upstream.reset(respond(body=chunks, headers=[JSON, ("Transfer-Encoding", "chunked")]))
    response = get_raw(gateway.port, [GZIP])
    assert response.header("content-encoding") == "gzip"
    assert gzip.decompress(response.body) == body


def test_vary_and_etag_are_adjusted_for_the_compressed_body(gateway, raw_upstream):
    body = b'{"data":"' + b"v" * 4000 + b'"}'
    raw_upstream.reset(respond(body=body, headers=[JSON, ("Vary", "Origin"), ("ETag", '"v1"')]))
    response = get_raw(gateway.port, [GZIP])
    assert response.header("content-encoding") == "gzip"
    assert response.header_values("vary") == ["Origin, Accept-Encoding"]
    assert response.header("etag") == 'W/"v1"', "a strong validator on a transformed body"
    assert gzip.decompress(response.body) == body
    plain = get_raw(gateway.port)
    assert plain.header("etag") == '"v1"' and plain.header_values("vary") == ["Origin"]


# MARK: - Plain


@pytest.mark.parametrize("accept_encoding", [None, "gzip;q=0", "GZIP; q=0.0", "br", "identity",
                                             "deflate", "*;q=0", ""])
def test_clients_that_do_not_accept_gzip_get_plain(gateway, accept_encoding):
    headers = [] if accept_encoding is None else [("Accept-Encoding", accept_encoding)]
    response, _ = post(gateway.port, big_query(4000), headers)
    assert_plain(response)
    assert len(response.body) == 4000 + BIG_ENVELOPE


@pytest.mark.parametrize("size", [0, 1023 - BIG_ENVELOPE], ids=["tiny", "1KiB-1"])
def test_bodies_below_min_size_stay_plain(gateway, size):
    response, _ = post(gateway.port, big_query(size), [GZIP])
    assert_plain(response)
    assert len(response.body) == size + BIG_ENVELOPE


@pytest.mark.parametrize("content_type", ["image/png", "application/octet-stream",
                                          "application/jsonx", "text/event-stream"])
def test_types_outside_the_list_stay_plain(gateway, raw_upstream, content_type):
    body = deterministic_bytes(8000)
    raw_upstream.reset(respond(body=body, headers=[("Content-Type", content_type)]))
    assert_plain(get_raw(gateway.port, [GZIP]), body)


def test_no_transform_stays_plain(gateway, raw_upstream):
    body = b'{"data":"' + b"n" * 5000 + b'"}'
    raw_upstream.reset(respond(body=body, headers=[JSON, ("Cache-Control", "private, no-transform")]))
    assert_plain(get_raw(gateway.port, [GZIP]), body)


def test_head_gets_no_body_and_the_connection_stays_in_step(gateway, raw_upstream):
    body = b'{"data":"' + b"h" * 5000 + b'"}'

    def head_or_get(connection, request, stop):
        head = head_bytes(200, [JSON, ("Content-Length", len(body))], "OK")
        connection.send(head if request.method == "HEAD" else head + body)
        return True

    raw_upstream.reset(head_or_get)
    with RawClient(gateway.port) as client:
        client.request("HEAD", "/raw", [GZIP])
        head = client.read_response(method="HEAD")
        assert head.status == 200
        assert head.header("transfer-encoding") is None
        client.request("GET", "/raw")
        follow_up = client.read_response()
        assert_plain(follow_up, body)
        assert client.buffer == b"", "bytes after the HEAD response desynchronized the stream"


def test_compression_disabled_keeps_everything_plain(gateway_factory, graphql_upstream,
                                                     raw_upstream):
    off = gateway_factory.start(compression_config(graphql_upstream, raw_upstream,
                                                   compression={"enabled": False}))
    response, _ = post(off.port, big_query(50_000), [GZIP])
    assert_plain(response)


# MARK: - Already compressed


def gzip_of(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return compressor.compress(data) + compressor.flush()


@pytest.mark.parametrize("accept_encoding", ["gzip", None])
@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_upstream_gzip_passes_through_byte_for_byte(gateway, raw_upstream, accept_encoding, framing):
    compressed = gzip_of(b'{"data":"' + b"z" * 20_000 + b'"}')
    if framing == "chunked":
        payload = b"%x\r\n%s\r\n0\r\n\r\n" % (len(compressed), compressed)
        headers = [JSON, ("Content-Encoding", "gzip"), ("Transfer-Encoding", "chunked")]
    else:
        payload, headers = compressed, [JSON, ("Content-Encoding", "gzip")]
    raw_upstream.reset(respond(body=payload, headers=headers))
    request_headers = [] if accept_encoding is None else [("Accept-Encoding", accept_encoding)]
    response = get_raw(gateway.port, request_headers)
    assert response.status == 200
    assert response.header_values("content-encoding") == ["gzip"]
    assert response.body == compressed, "the upstream's compressed bytes were changed"


def test_gzip_request_body_reaches_the_upstream_unchanged(gateway, raw_upstream):
    raw_upstream.reset(respond())
    body = gzip_of(graphql_body("{ hello }") * 100)
    response, _ = post(gateway.port, body, [("Content-Encoding", "gzip")], target="/raw")
    assert response.status == 200
    [request] = raw_upstream.requests
    assert request.body == body
    assert request.header("content-encoding") == "gzip"

