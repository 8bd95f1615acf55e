"""Plays one conformance row against a running gateway and checks every expectation.

A row is sent whole (one send) or byte by byte (one send() per byte with TCP_NODELAY and a
short pause, draining whatever the gateway answers in between so an early answer followed by a
close is still seen). Then the responses are read in order, the connection is checked for
closing (or proven usable with a follow-up request), and the recording upstream is compared
with what the row says must have reached it.
"""

import json
import select
import socket
import time

from support.envelope import assert_raw_envelope
from support.raw_http import ConnectionClosed, RawClient
from support.upstream_scripts import answer_with_target

from .model import HOST, SERVICE_TOKEN, Case, Forwarded

BYTE_PAUSE = 0.0002
FOLLOW_UP_TARGET = "/graphql/noauth?follow-up=1"
FOLLOW_UP = b"GET " + FOLLOW_UP_TARGET.encode() + b" HTTP/1.1\r\n" + HOST + b"\r\n"
HOP_BY_HOP = ("connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
              "proxy-connection", "proxy-authorization")

# MARK: - Sending


def _send_whole(client: RawClient, data: bytes) -> None:
    try:
        client.send(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the gateway answered and closed before taking everything; the answer is read next


def _drain(client: RawClient) -> bool:
    """Moves whatever the gateway has sent into the client buffer; False once it closed."""
    while select.select([client.sock], [], [], 0)[0]:
        try:
            chunk = client.sock.recv(65536)
        except ConnectionResetError:
            return False
        if not chunk:
            return False
        client.buffer += chunk
    return True


def _send_byte_by_byte(client: RawClient, data: bytes) -> None:
    for index in range(len(data)):
        try:
            client.sock.send(data[index:index + 1])
        except (BrokenPipeError, ConnectionResetError):
            return
        if not _drain(client):
            return
        time.sleep(BYTE_PAUSE)


# MARK: - Checking


def _assert_invariants(seen, expected: Forwarded, upstream_host: str, where: str) -> None:
    def values(name):
        return [value for key, value in seen.headers if key.lower() == name.lower()]

    assert values("x-service-token") == [SERVICE_TOKEN], \
        f"{where}: X-Service-Token {values('x-service-token')!r}"
    assert values("x-forwarded-for") == ["127.0.0.1"], \
        f"{where}: X-Forwarded-For {values('x-forwarded-for')!r}"
    assert values("host") == [upstream_host], f"{where}: Host {values('host')!r}"
    for name in HOP_BY_HOP:
        if name == "connection":
            tokens = {t.strip().lower() for v in values(name) for t in v.split(",")}
            assert tokens <= {"keep-alive", "close"}, f"{where}: Connection {values(name)!r}"
        else:
            assert values(name) == [], f"{where}: hop-by-hop {name} reached the upstream"
    lengths = values("content-length")
    if expected.body:
        assert lengths == [str(len(expected.body))], f"{where}: Content-Length {lengths!r}"
    else:
        assert lengths in ([], ["0"]), f"{where}: Content-Length {lengths!r} for no body"


def _assert_forwarded(seen, expected: Forwarded, upstream_host: str, where: str) -> None:
    assert (seen.method, seen.target) == (expected.method, expected.target), \
        f"{where}: upstream got {seen.method} {seen.target}, expected {expected.method} {expected.target}"
    assert seen.body == expected.body, f"{where}: upstream body {seen.body[:120]!r}"
    _assert_invariants(seen, expected, upstream_host, where)
    for name, value in expected.present.items():
        found = [v for k, v in seen.headers if k.lower() == name.lower()]
        assert found == [value], f"{where}: {name} {found!r}, expected [{value!r}]"
    for name in expected.absent:
        found = [v for k, v in seen.headers if k.lower() == name.lower()]
        assert found == [], f"{where}: {name} reached the upstream as {found!r}"


def _assert_response(response, case: Case, index: int, forwarded_target) -> None:
    expected = case.statuses[index]
    where = f"response {index + 1}/{len(case.statuses)}"
    raw = response.head_bytes + response.body
    assert SERVICE_TOKEN.encode() not in raw, f"{where}: the injected secret leaked to the client"
    if expected >= 400 and case.method != "HEAD":
        code = case.code if index == len(case.statuses) - 1 else None
        if code:
            assert_raw_envelope(response, expected, code, source="gateway")
    assert response.status == expected, \
        f"{where}: HTTP {response.status}, expected {expected}: {response.body[:200]!r}"
    if expected == 200 and forwarded_target is not None:
        answered = json.loads(response.body)["data"]["target"]
        assert answered == forwarded_target, f"{where}: answer for {answered}, expected {forwarded_target}"


def _assert_follow_up_served(client: RawClient, may_be_closed: bool) -> None:
    """The connection is still usable, and the next answer is the follow-up's own (nothing
    left over from the row was read as a request)."""
    try:
        client.send(FOLLOW_UP)
        follow_up = client.read_response(timeout=10)
    except (ConnectionClosed, BrokenPipeError, ConnectionResetError):
        assert may_be_closed and client.buffer == b"", "the connection closed"
        return
    assert follow_up.status == 200, f"follow-up request got {follow_up.status}"
    answered = json.loads(follow_up.body)["data"]["target"]
    assert answered == FOLLOW_UP_TARGET, f"the follow-up was answered for {answered}"


# MARK: - Playing a row


def play(port: int, upstream, case: Case, byte_by_byte: bool) -> None:
    upstream.reset(answer_with_target())
    upstream_host = f"127.0.0.1:{upstream.port}"
    answered_targets = iter(f.target for f in case.forwarded)
    with RawClient(port, timeout=10) as client:
        (_send_byte_by_byte if byte_by_byte else _send_whole)(client, case.data)
        if case.half_close:
            try:
                client.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        for index in range(len(case.statuses)):
            try:
                response = client.read_response(timeout=10, method=case.method)
            except ConnectionClosed:
                raise AssertionError(f"connection closed after {index} of {len(case.statuses)} "
                                     f"responses (buffer {client.buffer[:120]!r})") from None
            target = next(answered_targets, None) if case.statuses[index] == 200 else None
            _assert_response(response, case, index, target)
        time.sleep(0.05)  # anything forwarded would have arrived by now
        received = upstream.requests
        bytes_upstream = upstream.bytes_received
        accepted_upstream = upstream.connections_accepted
        if case.closes:
            assert client.is_closed(timeout=3.0), "the connection stayed open"
            assert client.buffer == b"", f"extra bytes after the last response: {client.buffer[:120]!r}"
        else:
            _assert_follow_up_served(client, may_be_closed=case.closes is None)
    if not case.forwarded:
        assert bytes_upstream == 0, f"{bytes_upstream} bytes reached the upstream"
        assert accepted_upstream == 0, "the gateway opened a connection to the upstream"
        return
    assert len(received) == len(case.forwarded), \
        f"upstream received {len(received)} requests, expected {len(case.forwarded)}: " \
        f"{[(r.method, r.target) for r in received]}"
    for index, (seen, expected) in enumerate(zip(received, case.forwarded)):
        _assert_forwarded(seen, expected, upstream_host, f"upstream request {index + 1}")
