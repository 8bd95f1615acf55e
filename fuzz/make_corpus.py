#!/usr/bin/env python3
"""Writes the seed corpora in fuzz/corpus/<target>/ from the conformance table
(Tests/e2e/conformance) and the repository's example configs, one file per seed, named by the
SHA-1 of its bytes as libFuzzer does. Run it again after the table grows; it only adds files."""

import base64
import hashlib
import hmac
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

from conformance.table import CASES  # noqa: E402

CORPUS = ROOT / "fuzz" / "corpus"
JWT_SECRET = b"fuzzing-secret-0123456789abcdef-0123456789"  # the secret in fuzz/jwt/Harness.swift


def write(target: str, seeds) -> int:
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for seed in seeds:
        if not seed:
            continue
        path = directory / hashlib.sha1(seed).hexdigest()
        if not path.exists():
            path.write_bytes(seed)
            count += 1
    return count


# MARK: - From the conformance table


def heads():
    for case in CASES:
        yield case.data[:4096]
        end = case.data.find(b"\r\n\r\n")
        if end > 0:
            yield case.data[:end + 4]


def chunked_bodies():
    for case in CASES:
        head_end = case.data.find(b"\r\n\r\n")
        if head_end > 0 and b"chunked" in case.data[:head_end].lower():
            yield case.data[head_end + 4:]


def paths():
    for case in CASES:
        first_line = case.data.lstrip(b"\r\n").split(b"\r\n", 1)[0]
        parts = first_line.split(b" ")
        if len(parts) >= 2:
            yield parts[1].split(b"?", 1)[0]


# MARK: - Others


RESPONSES = [
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
    b"HTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n",
    b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
]

JSON_DOCUMENTS = [
    b'{"query":"{ hello }"}',
    b'{"query":"query Q($id: ID!) { movie(id: $id) { title } }","variables":{"id":"1"},"operationName":"Q"}',
    b'{"operationName":"login","variables":{"user":"a","n":1.5e3,"ok":true,"none":null,"list":[1,2]}}',
    b'{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"' + b"a" * 64 + b'"}}}',
    b'{"errors":[{"message":"Unauthorized","extensions":{"code":"UNAUTHENTICATED"}}]}',
    b'"\\u00e9\\ud83d\\ude00 \\n"', b"[[[[]]]]", b"-0.0e-0", b'{"a":1,"a":2}',
]


def b64url(data: bytes) -> bytes:
    return base64.urlsafe_b64encode(data).rstrip(b"=")


def tokens():
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = b64url(json.dumps({"sub": "user-1", "iss": "https://issuer.test/", "aud": "app",
                                "exp": 1_900_000_000, "nbf": 1_700_000_000}).encode())
    signing_input = header + b"." + claims
    signature = b64url(hmac.new(JWT_SECRET, signing_input, hashlib.sha256).digest())
    yield signing_input + b"." + signature
    yield signing_input + b"." + signature[:-2] + b"AA"
    yield b64url(b'{"alg":"none"}') + b"." + claims + b"."
    yield b64url(b'{"alg":"RS256","kid":"../../etc/passwd"}') + b"." + claims + b".c2ln"
    yield b64url(b'{"alg":"HS256","jku":"http://127.0.0.1/x"}') + b"." + claims + b".c2ln"


def configs():
    for path in sorted((ROOT / "config").rglob("*.yaml")):
        yield path.read_bytes()
    yield b"server:\n  listen: \"127.0.0.1:8080\"\nupstreams:\n  app:\n    url: \"http://127.0.0.1:4000/graphql\"\n" \
          b"routes:\n  - path: /graphql\n    upstream: app\n    auth: none\n"
    yield b'{"server":{"listen":"127.0.0.1:1"},"upstreams":{},"routes":[]}'
    yield b"a: &x 1\nb: *x\n"
    yield b"server:\n  header_timeout: 1m30s\n  max_body_bytes: 10MiB\n  listen: \"${PORT:-8080}\"\n"


def main() -> int:
    written = {
        "request-head": write("request-head", heads()),
        "chunked": write("chunked", chunked_bodies()),
        "path": write("path", paths()),
        "response-head": write("response-head", RESPONSES),
        "json": write("json", JSON_DOCUMENTS),
        "jwt": write("jwt", tokens()),
        "config": write("config", configs()),
    }
    for target, count in written.items():
        total = len(list((CORPUS / target).iterdir()))
        print(f"{target}: {count} new seeds, {total} in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
