"""One row of the conformance table and what the upstream must have received for it."""

from dataclasses import dataclass, field

HOST = b"Host: gatehouse.test\r\n"
API_KEY = "k-123"
SERVICE_TOKEN = "s3cret"
KEY = b"X-Api-Key: " + API_KEY.encode() + b"\r\n"

# MARK: - Expectations


@dataclass(frozen=True)
class Forwarded:
    """One request as the recording upstream must have received it.

    `present`: header name -> the one value it must have (exactly once, any name case).
    `absent`: header names that must not be there at all.
    Every forwarded request is also checked for the invariants in runner.py: the injected
    X-Service-Token exactly once and equal to the secret, X-Forwarded-For the peer, the
    upstream's own Host, a Content-Length that matches the body, no hop-by-hop headers.
    """

    method: str = "POST"
    target: str = "/graphql/noauth"
    body: bytes = b""
    present: dict = field(default_factory=dict)
    absent: tuple = ()


@dataclass(frozen=True)
class Case:
    """A raw byte sequence sent on one fresh connection.

    `statuses`: the responses, in order (several for pipelined input).
    `code`: the envelope code of the last response when it is a gateway error.
    `closes`: whether the gateway closes the connection after the last response; an open
    connection is proven usable with a follow-up request whose answer must be its own. None: the
    gateway may do either (e.g. it closes unless the refused request's body had already arrived
    and was read as a body).
    `forwarded`: what reached the upstream, in order; empty means no byte reached any upstream.
    `note`: where nginx 1.22 or haproxy 2.6 differ on the same bytes, and why Gatehouse's
    answer is the safer one.
    `method`: what the client reader needs to know of the request (a HEAD answer has no body).
    `half_close`: the client shuts down its sending side after the bytes (a request cut short).
    `known_bug`: set while Gatehouse is known to fail the row (what fails, precisely); the row
    then runs as a strict xfail naming the bug, so a fix shows up as an unexpected pass.
    """

    id: str
    data: bytes
    statuses: tuple
    closes: bool | None
    forwarded: tuple = ()
    code: str = None
    note: str = ""
    method: str = "GET"
    half_close: bool = False
    known_bug: str = ""


# MARK: - Request builders


def post(target: bytes = b"/graphql/noauth", headers: bytes = HOST, body: bytes = b"{}",
         length: bool = True, version: bytes = b"HTTP/1.1") -> bytes:
    """A POST; a Content-Length for `body` is added unless `length` is False."""
    extra = b"Content-Length: %d\r\n" % len(body) if length else b""
    return b"POST " + target + b" " + version + b"\r\n" + headers + extra + b"\r\n" + body


def get(target: bytes = b"/graphql/noauth", headers: bytes = HOST,
        version: bytes = b"HTTP/1.1") -> bytes:
    return b"GET " + target + b" " + version + b"\r\n" + headers + b"\r\n"


def chunked(body: bytes, target: bytes = b"/graphql/noauth", headers: bytes = HOST,
            te: bytes = b"Transfer-Encoding: chunked\r\n") -> bytes:
    """A POST whose body bytes are given already chunk-encoded."""
    return b"POST " + target + b" HTTP/1.1\r\n" + headers + te + b"\r\n" + body


def refused(case_id: str, data: bytes, status: int = 400, code: str = "BAD_REQUEST",
            note: str = "", method: str = "GET") -> Case:
    """A request the gateway answers itself and then closes on, with nothing forwarded."""
    return Case(case_id, data, (status,), closes=True, code=code, note=note, method=method)


def answered(case_id: str, data: bytes, status: int, code: str, closes: bool = False,
             note: str = "") -> Case:
    """A well-framed request the gateway answers itself (404, 405, 401) without forwarding."""
    return Case(case_id, data, (status,), closes=closes, code=code, note=note)


def passes(case_id: str, data: bytes, *forwarded: Forwarded, closes: bool = False,
           note: str = "") -> Case:
    """A request forwarded once (or as listed) and answered 200 by the upstream."""
    requests = forwarded or (Forwarded(),)
    return Case(case_id, data, tuple(200 for _ in requests), closes=closes,
                forwarded=tuple(requests), note=note)
