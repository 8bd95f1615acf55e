"""gzip bodies the gateway must read itself (`map_graphql_errors`), within
`server.compression.max_inflated_size` (default 1MiB): small compressed GraphQL errors are
mapped like plain ones, a body that inflates to 1 GiB is refused with 502 while the gateway's
memory stays bounded, and compressed bodies it does not need to read pass through untouched.
"""

import zlib

import pytest

from support.envelope import assert_raw_envelope
from support.gateway import base_config
from support.graphql_client import graphql_body
from support.gzip_bomb import session_bomb
from support.process_memory import MIB, ResidentSampler, peak_resident_bytes, resident_bytes
from support.raw_http import RawClient
from support.raw_upstream import respond

JSON = ("Content-Type", "application/json")
GZIP_JSON = [JSON, ("Content-Encoding", "gzip")]
QUERY = graphql_body("{ hello }")
MEMORY_BOUND = 60 * MIB


# MARK: - Fixtures


@pytest.fixture(scope="module")
def bomb(tmp_path_factory):
    return session_bomb(tmp_path_factory)


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "10s"}},
        routes=[{"path": "/mapped", "upstream": "raw", "auth": "none", "map_graphql_errors": True},
                {"path": "/unmapped", "upstream": "raw", "auth": "none"}]))


def gzip_of(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return compressor.compress(data) + compressor.flush()


def chunked(data: bytes, piece: int = 4096) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(data[i:i + piece]), data[i:i + piece])
                    for i in range(0, len(data), piece)) + b"0\r\n\r\n"


def post(gateway, target: str, headers=(), timeout: float = 20):
    with RawClient(gateway.port, timeout=timeout) as client:
        client.request("POST", target, [JSON, *headers], QUERY)
        return client.read_response(timeout=timeout)


def assert_gateway_still_serves(gateway, raw_upstream) -> None:
    raw_upstream.reset(respond())
    response = post(gateway, "/mapped")
    assert response.status == 200 and response.json() == {"data": {"ok": True}}


# MARK: - The 1 GiB body


def test_bomb_is_small_on_the_wire_and_inflates_to_zeros(bomb):
    assert len(bomb) < 2 * MIB
    inflater = zlib.decompressobj(31)
    start = inflater.decompress(bomb[:64 * 1024], 16 * MIB)
    assert len(start) == 16 * MIB and start.count(0) == len(start)


@pytest.mark.slow
@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_body_inflating_to_1gib_is_502_with_bounded_memory(gateway, raw_upstream, bomb, framing):
    if framing == "chunked":
        raw_upstream.reset(respond(body=chunked(bomb, 64 * 1024),
                                   headers=[*GZIP_JSON, ("Transfer-Encoding", "chunked")]))
    else:
        raw_upstream.reset(respond(body=bomb, headers=GZIP_JSON))
    pid = gateway.process.pid
    with ResidentSampler(pid) as sampler:
        for _ in range(3):
            response = post(gateway, "/mapped")
            assert_raw_envelope(response, 502, "UPSTREAM_ERROR", source="gateway")
    assert sampler.samples > 0
    assert sampler.peak < MEMORY_BOUND, f"VmRSS reached {sampler.peak / MIB:.1f} MiB"
    assert peak_resident_bytes(pid) < MEMORY_BOUND, \
        f"VmHWM {peak_resident_bytes(pid) / MIB:.1f} MiB"
    assert resident_bytes(pid) < MEMORY_BOUND
    assert_gateway_still_serves(gateway, raw_upstream)


@pytest.mark.slow
def test_bomb_on_a_route_that_does_not_read_bodies_passes_through_compressed(gateway, raw_upstream,
                                                                            bomb):
    raw_upstream.reset(respond(body=bomb, headers=GZIP_JSON))
    response = post(gateway, "/unmapped", [("Accept-Encoding", "gzip")])
    assert response.status == 200
    assert response.header_values("content-encoding") == ["gzip"]
    assert response.body == bomb
    assert peak_resident_bytes(gateway.process.pid) < MEMORY_BOUND


# MARK: - Small compressed bodies on a mapped route


@pytest.mark.parametrize("document, status, code", [
    (b'{"errors":[{"message":"Unauthorized"}],"data":null}', 401, "UNAUTHENTICATED"),
    (b'{"errors":[{"message":"Unauthenticated"}],"data":null}', 401, "UNAUTHENTICATED"),
    (b'{"errors":[{"message":"no","extensions":{"code":"FORBIDDEN"}}],"data":null}', 403,
     "FORBIDDEN"),
])
@pytest.mark.parametrize("framing", ["content-length", "chunked"])
def test_compressed_graphql_auth_error_is_mapped(gateway, raw_upstream, document, status, code,
                                                 framing):
    compressed = gzip_of(document)
    if framing == "chunked":
        raw_upstream.reset(respond(body=chunked(compressed, 16),
                                   headers=[*GZIP_JSON, ("Transfer-Encoding", "chunked")]))
    else:
        raw_upstream.reset(respond(body=compressed, headers=GZIP_JSON))
    response = post(gateway, "/mapped", [("Accept-Encoding", "gzip")])
    assert_raw_envelope(response, status, code, source="upstream")
    assert response.header("content-encoding") is None


@pytest.mark.parametrize("document", [
    b'{"data":{"ok":true}}',
    b'{"data":{"big":"' + b"d" * (2 * 1024 * 1024) + b'"}}',  # inflates past the limit, with data
    b'{"errors":[{"message":"Unauthorized"}],"data":{"partial":1}}',
])
def test_compressed_answer_with_data_passes_through_unchanged(gateway, raw_upstream, document):
    compressed = gzip_of(document)
    raw_upstream.reset(respond(body=compressed, headers=GZIP_JSON))
    response = post(gateway, "/mapped", [("Accept-Encoding", "gzip")])
    assert response.status == 200, response.body[:300]
    assert response.header_values("content-encoding") == ["gzip"]
    assert response.body == compressed


def test_malformed_gzip_on_a_mapped_route_is_502(gateway, raw_upstream):
    raw_upstream.reset(respond(body=b"\x1f\x8b\x08\x00" + b"not deflate at all" * 20,
                               headers=GZIP_JSON))
    response = post(gateway, "/mapped")
    assert_raw_envelope(response, 502, "UPSTREAM_ERROR", source="gateway")
    assert_gateway_still_serves(gateway, raw_upstream)
