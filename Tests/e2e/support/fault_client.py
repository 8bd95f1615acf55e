"""Client side of the upstream-fault tests: one request through a fault, then proof that the
same client connection (when the gateway kept it) and the gateway's upstream pool are unharmed."""

import json
import time
from urllib.parse import quote

from .raw_http import ConnectionClosed, RawClient

HOST = b"Host: gatehouse.test\r\n"
QUERY = b'{"query":"{ hello }"}'
FOLLOW_UP = (b"GET /graphql?query=" + quote("{ hello }").encode() + b" HTTP/1.1\r\n" + HOST + b"\r\n")


def post_bytes(target: bytes, body: bytes = QUERY) -> bytes:
    return (b"POST " + target + b" HTTP/1.1\r\n" + HOST + b"Content-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def through_fault(port: int, target: bytes, timeout: float = 6.0):
    """(response or None when the connection was aborted, elapsed seconds, open client)."""
    client = RawClient(port, timeout=timeout)
    started = time.monotonic()
    client.send(post_bytes(target))
    try:
        response = client.read_response(timeout=timeout)
    except ConnectionClosed:
        response = None
    return response, time.monotonic() - started, client


def assert_client_connection_serves(client: RawClient, response) -> None:
    """A kept connection answers the next request correctly; a closing one said so and closed."""
    if response is None:
        client.buffer = b""  # the part of a body that was cut short
        assert client.is_closed(), "the gateway stopped answering but kept the connection open"
        return
    if response.wants_close:
        assert client.is_closed(), "said Connection: close but kept the connection open"
        return
    client.send(FOLLOW_UP)
    follow_up = client.read_response()
    assert follow_up.status == 200, f"follow-up got {follow_up.status}: {follow_up.body[:200]!r}"
    assert json.loads(follow_up.body) == {"data": {"hello": "Hello, world!"}}
