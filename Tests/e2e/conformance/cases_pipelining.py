"""Pipelined and half-sent requests: answers in order, a refusal ends the connection before
anything behind it is read, and a request cut short never reaches the upstream."""

from .model import HOST, KEY, Case, Forwarded, chunked, get, post

BODY = b'{"query":"{ hello }"}'


def fget(target: str) -> Forwarded:
    return Forwarded(method="GET", target=target)


PIPELINED = [
    Case("two-gets", get(b"/graphql/noauth?n=1") + get(b"/graphql/noauth?n=2"), (200, 200), closes=False,
         forwarded=(fget("/graphql/noauth?n=1"), fget("/graphql/noauth?n=2"))),
    Case("ten-gets", b"".join(get(b"/graphql/noauth?n=%d" % i) for i in range(10)), (200,) * 10,
         closes=False, forwarded=tuple(fget(f"/graphql/noauth?n={i}") for i in range(10))),
    Case("post-get-post", post(body=BODY) + get(b"/public/x") + post(b"/graphql", HOST + KEY, b"{}"),
         (200, 200, 200), closes=False,
         forwarded=(Forwarded(body=BODY), fget("/public/x"), Forwarded(target="/graphql", body=b"{}"))),
    Case("chunked-then-get", chunked(b"2\r\n{}\r\n0\r\n\r\n") + get(), (200, 200), closes=False,
         forwarded=(Forwarded(body=b"{}"), fget("/graphql/noauth"))),
    Case("chunked-with-trailer-then-get", chunked(b"2\r\n{}\r\n0\r\nX-T: 1\r\n\r\n") + get(),
         (200, 200), closes=False, forwarded=(Forwarded(body=b"{}"), fget("/graphql/noauth"))),
    Case("body-holding-a-request-is-a-body", post(body=get(b"/graphql")), (200,), closes=False,
         forwarded=(Forwarded(body=get(b"/graphql")),),
         note="Bytes covered by Content-Length are body, whatever they look like."),
    Case("short-content-length-leaves-a-request", post(body=b"{}", length=False,
                                                      headers=HOST + b"Content-Length: 2\r\n")
         + get(b"/graphql"), (200, 401), closes=False, code="UNAUTHENTICATED",
         forwarded=(Forwarded(body=b"{}"),),
         note="What follows the body is a request of its own and is authenticated as one."),
    Case("good-then-malformed", get() + get(b"/graphql/noauth/../x"), (200, 400), closes=True,
         code="BAD_REQUEST", forwarded=(fget("/graphql/noauth"),)),
    Case("malformed-then-good", get(b"/public/%2e%2e/graphql") + get(), (400,), closes=True,
         code="BAD_REQUEST"),
    Case("smuggle-cl-te-then-good",
         post(headers=HOST + b"Content-Length: 6\r\nTransfer-Encoding: chunked\r\n", length=False,
              body=b"0\r\n\r\nG") + get(), (400,), closes=True, code="BAD_REQUEST"),
    Case("unauthenticated-then-public", get(b"/graphql") + get(), (401, 200), closes=False,
         forwarded=(fget("/graphql/noauth"),)),
    Case("not-found-then-public", get(b"/nowhere") + get(), (404, 200), closes=False,
         forwarded=(fget("/graphql/noauth"),)),
    Case("close-on-first-ignores-the-rest", get(headers=HOST + b"Connection: close\r\n") + get(b"/public/x"),
         (200,), closes=True, forwarded=(fget("/graphql/noauth"),)),
    Case("http10-closes-after-first", get(version=b"HTTP/1.0") + get(b"/public/x"), (200,), closes=True,
         forwarded=(fget("/graphql/noauth"),)),
    Case("http10-keep-alive", get(headers=HOST + b"Connection: keep-alive\r\n", version=b"HTTP/1.0")
         + get(b"/public/x", version=b"HTTP/1.0"), (200, 200), closes=True,
         forwarded=(fget("/graphql/noauth"), fget("/public/x"))),
    Case("refused-body-then-request", post(b"/graphql", HOST, get()), (401,), closes=None,
         code="UNAUTHENTICATED",
         note="The body of a refused request is never read as the next request."),
]

HALF_SENT = [
    Case("half-head-then-eof", b"GET /graphql/noauth HTTP/1.1\r\nHost: gate", (), closes=True, half_close=True,
         note="Client closes its sending side mid-head: no answer is owed, nothing is forwarded."),
    Case("head-without-blank-line-then-eof", b"GET /graphql/noauth HTTP/1.1\r\n" + HOST, (), closes=True, half_close=True),
    Case("half-body-then-eof", post(body=b"{}", length=False, headers=HOST + b"Content-Length: 10\r\n"),
         (), closes=True, half_close=True),
    Case("half-chunk-then-eof", chunked(b"5\r\nhel"), (), closes=True, half_close=True),
    Case("chunked-without-last-chunk-then-eof", chunked(b"2\r\n{}\r\n"), (), closes=True, half_close=True),
    Case("good-then-half-then-eof", get() + b"GET /public/x HTTP/1.1\r\nHo", (200,), closes=True,
         half_close=True, forwarded=(fget("/graphql/noauth"),)),
    Case("complete-get-then-eof", get(), (200,), closes=True, half_close=True,
         forwarded=(fget("/graphql/noauth"),),
         note="A client may shut down its sending side once the request is out (`nc -N`); the "
              "upstream has already done the work, so the answer should still be sent."),
    Case("complete-post-then-eof", post(body=BODY), (200,), closes=True, half_close=True,
         forwarded=(Forwarded(body=BODY),)),
]

CASES = PIPELINED + HALF_SENT
