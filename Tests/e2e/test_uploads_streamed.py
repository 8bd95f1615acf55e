"""GraphQL multipart uploads streamed through the gateway (README "Uploads"), sent by `curl -F` in
the multipart request format (operations, map, files) to strawberry's `Upload` scalar and to a
raw upstream that counts every byte it gets:

- a 100 MiB file arrives byte for byte (sha256) while the gateway's RSS stays flat, on a route
  that says `request_buffering: true` (uploads stream anyway), has a response `cache` and raises
  `max_body_bytes` past the server's 10 MiB;
- an operation the route does not allow is refused before a single byte reaches the upstream;
- a bad `map` is a 400, too many files or too big a file a 413 (mid-stream: the upstream never
  receives a complete request).
"""

import hashlib
import json
import os
import subprocess

import pytest

from support.envelope import assert_envelope, assert_raw_envelope
from support.gateway import base_config
from support.process_memory import MIB, ResidentSampler, bounds_resident_memory, peak_resident_bytes, resident_bytes
from support.raw_http import RawClient
from support.raw_upstream import respond

pytestmark = pytest.mark.slow

LARGE_FILE = 100 * MIB
RSS_GROWTH_LIMIT = 8 * MIB
SMALL_FILE_LIMIT = MIB
CURL_TIMEOUT = 120
UPLOAD_MUTATION = "mutation uploadFile($file: Upload!) { uploadFile(file: $file) { sha256 size filename } }"
OTHER_MUTATION = "mutation other($file: Upload!) { uploadFile(file: $file) { size } }"
PREFLIGHT = "Apollo-Require-Preflight: true"


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream, raw_upstream):
    uploads = {"max_files": 2, "max_file_size": "100MiB"}
    small = {"max_files": 1, "max_file_size": "1MiB"}

    def build(port, admin):
        return base_config(
            port, admin, body_timeout="60s",
            upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "60s"},
                       "raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "10s"}},
            routes=[
                # request_buffering stays at its default (true): uploads stream whatever it says;
                # and a cached route never holds an upload for the cache's look at the body.
                {"path": "/graphql/upload", "upstream": "app", "auth": "none", "max_body_bytes": "200MiB",
                 "cache": {"max_age": "30s"}, "uploads": uploads},
                {"path": "/raw/only", "upstream": "raw", "auth": "none", "persisted": "only", "uploads": uploads},
                {"path": "/raw/listed", "upstream": "raw", "auth": "none", "operations": ["uploadFile"],
                 "uploads": uploads},
                {"path": "/raw/small", "upstream": "raw", "auth": "none", "request_buffering": False,
                 "uploads": small},
            ])
    return module_gateways.start(build)


class CurlAnswer:
    """What `curl` got: the final status, its headers (after any 100 Continue) and the body."""

    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def curl_upload(url, fields, files=(), headers=(PREFLIGHT,), tmp_path=None) -> CurlAnswer:
    """`curl -F` with `fields` (name, JSON text) then `files` (name, path)."""
    output, head = tmp_path / "response.body", tmp_path / "response.head"
    command = ["curl", "-sS", "-o", str(output), "-D", str(head), "-w", "%{http_code}",
               "--max-time", str(CURL_TIMEOUT)]
    for header in headers:
        command += ["-H", header]
    for name, text in fields:
        command += ["-F", f"{name}={text}"]
    for name, path in files:
        command += ["-F", f"{name}=@{path}"]
    done = subprocess.run(command + [url], capture_output=True, text=True, timeout=CURL_TIMEOUT + 10)
    blocks = head.read_bytes().decode("latin-1").strip().split("\r\n\r\n") if head.exists() else [""]
    fields_ = [line.split(":", 1) for line in blocks[-1].split("\r\n")[1:] if ":" in line]
    return CurlAnswer(int(done.stdout.strip() or 0), [(k.strip(), v.strip()) for k, v in fields_],
                      output.read_bytes() if output.exists() else b"")


def operations(query=UPLOAD_MUTATION, variables=None):
    return json.dumps({"query": query, "variables": variables if variables is not None else {"file": None}})


def file_of(tmp_path, name, size):
    path = tmp_path / name
    with open(path, "wb") as out:
        remaining = size
        while remaining:
            piece = os.urandom(min(remaining, MIB))
            out.write(piece)
            remaining -= len(piece)
    return path


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while piece := source.read(MIB):
            digest.update(piece)
    return digest.hexdigest()


def assert_curl_envelope(answer: CurlAnswer, expected_status, code):
    assert_envelope(answer.status, answer.headers, answer.body, expected_status, code)


MAP = json.dumps({"0": ["variables.file"]})

# MARK: - Streamed byte for byte


@bounds_resident_memory
def test_a_100_mib_file_arrives_byte_for_byte_with_flat_memory(gateway, tmp_path):
    pid = gateway.process.pid
    warm_up = file_of(tmp_path, "warm.bin", 64 * 1024)
    answer = curl_upload(f"{gateway.url}/graphql/upload", [("operations", operations()), ("map", MAP)],
                            [("0", warm_up)], tmp_path=tmp_path)
    assert answer.status == 200
    large = file_of(tmp_path, "large.bin", LARGE_FILE)
    before, peak_before = resident_bytes(pid), peak_resident_bytes(pid)
    with ResidentSampler(pid) as sampler:
        answer = curl_upload(f"{gateway.url}/graphql/upload", [("operations", operations()), ("map", MAP)],
                             [("0", large)], tmp_path=tmp_path)
    assert answer.status == 200, answer.body[:300]
    assert answer.json()["data"]["uploadFile"] == {"sha256": sha256_of(large), "size": LARGE_FILE, "filename": "large.bin"}
    growth = max(sampler.peak, resident_bytes(pid)) - before
    peak_growth = peak_resident_bytes(pid) - max(peak_before, before)
    print(f"\n100 MiB upload: gateway RSS {before / MIB:.1f} MiB -> peak {sampler.peak / MIB:.1f} MiB "
          f"(VmHWM {peak_before / MIB:.1f} -> {peak_resident_bytes(pid) / MIB:.1f} MiB)")
    assert growth < RSS_GROWTH_LIMIT, f"RSS grew {growth / MIB:.1f} MiB"
    assert peak_growth < RSS_GROWTH_LIMIT, f"VmHWM grew {peak_growth / MIB:.1f} MiB"


def test_a_chunked_upload_with_two_files_arrives_byte_for_byte(gateway, tmp_path):
    first, second = file_of(tmp_path, "a.bin", 3 * MIB + 17), file_of(tmp_path, "b.bin", 1)
    query = "mutation($files: [Upload!]!) { uploadFiles(files: $files) { sha256 size } }"
    answer = curl_upload(
        f"{gateway.url}/graphql/upload",
        [("operations", operations(query, {"files": [None, None]})),
         ("map", json.dumps({"a": ["variables.files.0"], "b": ["variables.files.1"]}))],
        [("a", first), ("b", second)], headers=(PREFLIGHT, "Transfer-Encoding: chunked"), tmp_path=tmp_path)
    assert answer.status == 200, answer.body[:300]
    assert answer.json()["data"]["uploadFiles"] == [{"sha256": sha256_of(first), "size": 3 * MIB + 17},
                                                       {"sha256": sha256_of(second), "size": 1}]


# MARK: - Refused before any byte goes upstream


@pytest.mark.parametrize("path", ["/raw/only", "/raw/listed"])
def test_an_operation_the_route_does_not_allow_sends_nothing_upstream(gateway, raw_upstream, path, tmp_path):
    raw_upstream.reset(respond())
    answer = curl_upload(f"{gateway.url}{path}", [("operations", operations(OTHER_MUTATION)), ("map", MAP)],
                               [("0", file_of(tmp_path, "f.bin", 2 * MIB))], tmp_path=tmp_path)
    assert_curl_envelope(answer, 403, "OPERATION_NOT_ALLOWED")
    assert raw_upstream.connections_accepted == 0
    assert raw_upstream.bytes_received == 0


BAD_MAPS = [
    ("not JSON", "{0: [variables.file]}"),
    ("names a missing file", json.dumps({"0": ["variables.file"], "1": ["variables.file"]})),
    ("a path that is not a null variable", json.dumps({"0": ["variables.other"]})),
]


@pytest.mark.parametrize("case, bad_map", BAD_MAPS, ids=[case for case, _ in BAD_MAPS])
def test_a_bad_map_is_400(gateway, graphql_upstream, tmp_path, case, bad_map):
    graphql_upstream.clear()
    answer = curl_upload(f"{gateway.url}/graphql/upload", [("operations", operations()), ("map", bad_map)],
                               [("0", file_of(tmp_path, "f.bin", 1024))], tmp_path=tmp_path)
    assert_curl_envelope(answer, 400, "BAD_REQUEST")
    assert not any(r["body_complete"] for r in graphql_upstream.requests() if r["path"] == "/graphql")


def test_too_many_files_is_413_before_the_upstream(gateway, graphql_upstream, tmp_path):
    graphql_upstream.clear()
    files = [(str(i), file_of(tmp_path, f"{i}.bin", 10)) for i in range(3)]
    map_ = json.dumps({name: [f"variables.files.{i}"] for i, (name, _) in enumerate(files)})
    answer = curl_upload(
        f"{gateway.url}/graphql/upload",
        [("operations", operations("mutation($files: [Upload!]!) { uploadFiles(files: $files) { size } }",
                                   {"files": [None, None, None]})), ("map", map_)],
        files, tmp_path=tmp_path)
    assert_curl_envelope(answer, 413, "PAYLOAD_TOO_LARGE")
    assert [r for r in graphql_upstream.requests() if r["path"] == "/graphql"] == []


def test_too_big_a_file_is_413_and_the_upstream_never_gets_a_complete_request(gateway, raw_upstream, tmp_path):
    raw_upstream.reset(respond())
    big = file_of(tmp_path, "big.bin", 4 * SMALL_FILE_LIMIT)
    answer = curl_upload(f"{gateway.url}/raw/small", [("operations", operations()), ("map", MAP)],
                               [("0", big)], tmp_path=tmp_path)
    assert_curl_envelope(answer, 413, "PAYLOAD_TOO_LARGE")
    # The head and the preamble went upstream; the request was cut off inside the file.
    assert 0 < raw_upstream.wait_for_bytes() < big.stat().st_size
    assert raw_upstream.requests == []


def test_a_multipart_request_without_the_csrf_header_is_400(gateway, graphql_upstream, tmp_path):
    graphql_upstream.clear()
    answer = curl_upload(f"{gateway.url}/graphql/upload", [("operations", operations()), ("map", MAP)],
                               [("0", file_of(tmp_path, "f.bin", 10))], headers=(), tmp_path=tmp_path)
    assert_curl_envelope(answer, 400, "BAD_REQUEST")
    assert [r for r in graphql_upstream.requests() if r["path"] == "/graphql"] == []


# MARK: - Small uploads, whole in one write


def multipart_body(boundary, parts):
    """parts: (name, filename or None, bytes)."""
    out = b""
    for name, filename, data in parts:
        disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
        out += f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + data + b"\r\n"
    return out + f"--{boundary}--\r\n".encode()


# A body that is one upload read with boundary AAA and another read with BBB: the gateway must not
# pick one boundary while the upstream picks the other.
AMBIGUOUS_CONTENT_TYPES = {
    "two boundary parameters": ["multipart/form-data; boundary=AAA; boundary=BBB"],
    "the parameter named twice in two cases": ["multipart/form-data; BOUNDARY=AAA; boundary=BBB"],
    "a quoted and a bare boundary": ['multipart/form-data; boundary="AAA";boundary=BBB'],
    "two Content-Type fields": ["multipart/form-data; boundary=AAA", "multipart/form-data; boundary=BBB"],
}


@pytest.mark.parametrize("content_types", AMBIGUOUS_CONTENT_TYPES.values(), ids=AMBIGUOUS_CONTENT_TYPES.keys())
def test_an_ambiguous_boundary_is_400_and_sends_nothing_upstream(gateway, raw_upstream, content_types):
    raw_upstream.reset(respond())
    allowed = multipart_body("AAA", [("operations", None, operations().encode()), ("map", None, MAP.encode()),
                                     ("0", "a.bin", b"x")])
    smuggled = multipart_body("BBB", [("operations", None, operations(OTHER_MUTATION).encode()),
                                      ("map", None, MAP.encode()), ("0", "a.bin", allowed)])
    headers = [("Content-Type", value) for value in content_types] + [("Apollo-Require-Preflight", "true")]
    with RawClient(gateway.port) as client:
        client.request("POST", "/raw/listed", headers=headers, body=smuggled)
        assert_raw_envelope(client.read_response(method="POST"), 400, "BAD_REQUEST")
    assert raw_upstream.connections_accepted == 0
    assert raw_upstream.bytes_received == 0


@pytest.mark.parametrize("framing", ["length", "chunked"])
def test_a_small_upload_sent_in_one_write_then_a_second_request_on_the_connection(gateway, framing):
    boundary = "gatehouse-e2e"
    data = os.urandom(3000)
    body = multipart_body(boundary, [("operations", None, operations().encode()), ("map", None, MAP.encode()),
                                     ("0", "s.bin", data)])
    headers = [("Content-Type", f"multipart/form-data; boundary={boundary}"), ("Apollo-Require-Preflight", "true")]
    if framing == "chunked":
        headers.append(("Transfer-Encoding", "chunked"))
        body = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    with RawClient(gateway.port) as client:
        for _ in range(2):  # the connection stays open after a complete upload
            client.request("POST", "/graphql/upload", headers=headers, body=body)
            response = client.read_response(method="POST")
            assert response.status == 200, response.body[:300]
            assert response.json()["data"]["uploadFile"]["sha256"] == hashlib.sha256(data).hexdigest()
