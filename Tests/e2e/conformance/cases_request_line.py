"""Request line and target forms, and the Host rules (README, "How a request is handled": origin-form only, exactly one
Host on HTTP/1.1)."""

from .model import HOST, KEY, Case, Forwarded, answered, get, passes, refused

GET_NOAUTH = Forwarded(method="GET", target="/graphql/noauth")


def line(request_line: bytes, headers: bytes = HOST) -> bytes:
    return request_line + b"\r\n" + headers + b"\r\n"


# MARK: - Request line

REQUEST_LINE = [
    passes("origin-form", get(), GET_NOAUTH),
    passes("query-forwarded-unchanged", get(b"/graphql/noauth?a=../b&c=%2f&d=%00"),
           Forwarded(method="GET", target="/graphql/noauth?a=../b&c=%2f&d=%00")),
    passes("query-empty", get(b"/graphql/noauth?"), Forwarded(method="GET", target="/graphql/noauth?")),
    passes("leading-empty-line", b"\r\n" + get(), GET_NOAUTH),
    refused("many-leading-empty-lines", b"\r\n" * 8 + get()),
    refused("absolute-form", get(b"http://gatehouse.test/graphql/noauth")),
    refused("absolute-form-other-host", get(b"http://127.0.0.1:1/graphql/noauth")),
    refused("authority-form-connect", line(b"CONNECT 127.0.0.1:22 HTTP/1.1")),
    refused("asterisk-form-options", line(b"OPTIONS * HTTP/1.1")),
    refused("target-without-slash", get(b"graphql/noauth")),
    refused("target-empty", line(b"GET  HTTP/1.1")),
    refused("two-spaces-after-method", line(b"GET  /graphql/noauth HTTP/1.1")),
    refused("two-spaces-before-version", line(b"GET /graphql/noauth  HTTP/1.1")),
    refused("tab-separator", line(b"GET\t/graphql/noauth HTTP/1.1")),
    refused("trailing-space-after-version", line(b"GET /graphql/noauth HTTP/1.1 ")),
    refused("space-in-target", line(b"GET /graphql/noauth x HTTP/1.1")),
    refused("fragment-in-target", get(b"/graphql/noauth#frag")),
    refused("nul-in-target", get(b"/graphql/noauth\x00")),
    refused("control-in-target", get(b"/graphql/no\x7fauth")),
    refused("non-ascii-in-target", get(b"/graphql/noauth\xc3\xa9")),
    refused("bare-lf-after-request-line", b"GET /graphql/noauth HTTP/1.1\n" + HOST + b"\r\n"),
    refused("bare-cr-in-request-line", line(b"GET /graphql/noauth\rHTTP/1.1")),
    refused("version-lowercase", get(version=b"http/1.1")),
    refused("version-missing", line(b"GET /graphql/noauth")),
    refused("version-garbage", get(version=b"HTTP/1.x")),
    refused("version-extra-digit", get(version=b"HTTP/1.10")),
    refused("version-http2-preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
    refused("version-http09-request", b"GET /graphql/noauth\r\n\r\n"),
    refused("method-with-bad-character", line(b"G(T /graphql/noauth HTTP/1.1")),
    refused("method-empty", line(b" /graphql/noauth HTTP/1.1")),
    answered("method-lowercase", line(b"get /graphql/noauth HTTP/1.1"), 405, "METHOD_NOT_ALLOWED",
             closes=False),
    answered("method-unknown", line(b"FOO /graphql/noauth HTTP/1.1"), 405, "METHOD_NOT_ALLOWED"),
    answered("method-put", line(b"PUT /graphql/noauth HTTP/1.1", HOST + b"Content-Length: 0\r\n"),
             405, "METHOD_NOT_ALLOWED"),
    answered("method-delete", line(b"DELETE /graphql/noauth HTTP/1.1"), 405, "METHOD_NOT_ALLOWED"),
    Case("method-head-not-listed", line(b"HEAD /graphql/noauth HTTP/1.1"), (405,), closes=False,
         method="HEAD"),
    answered("no-route", get(b"/nowhere"), 404, "NOT_FOUND"),
    answered("root-path", get(b"/"), 404, "NOT_FOUND"),
]

# MARK: - Host

HOST_RULES = [
    refused("host-missing", get(headers=b"")),
    refused("host-twice-equal", get(headers=HOST + HOST)),
    refused("host-twice-differing", get(headers=HOST + b"Host: evil.test\r\n")),
    refused("host-list", get(headers=b"Host: gatehouse.test, evil.test\r\n")),
    refused("host-with-space", get(headers=b"Host: gate house.test\r\n")),
    refused("host-with-userinfo", get(headers=b"Host: user@gatehouse.test\r\n")),
    refused("host-with-path", get(headers=b"Host: gatehouse.test/x\r\n")),
    refused("host-bad-port", get(headers=b"Host: gatehouse.test:abc\r\n")),
    refused("host-control-byte", get(headers=b"Host: gatehouse\x01.test\r\n")),
    refused("host-second-with-space-before-colon", get(headers=HOST + b"Host : evil.test\r\n")),
    passes("host-lowercase-name", get(headers=b"host: gatehouse.test\r\n"), GET_NOAUTH),
    passes("host-with-port", get(headers=b"Host: gatehouse.test:8080\r\n"), GET_NOAUTH),
    passes("host-ipv6-literal", get(headers=b"Host: [::1]:8080\r\n"), GET_NOAUTH),
    passes("host-trailing-dot", get(headers=b"Host: gatehouse.test.\r\n"), GET_NOAUTH),
    refused("host-empty", get(headers=b"Host: \r\n"),
            note="RFC 9112 allows an empty Host for targets without an authority; every request "
                 "to a gateway has one, so the empty value is refused like any other bad Host."),
    passes("host-missing-http10", get(headers=b"", version=b"HTTP/1.0"), GET_NOAUTH, closes=True),
    Case("host-is-never-forwarded", get(headers=b"Host: evil.test\r\n"), (200,), closes=False,
         forwarded=(GET_NOAUTH,),
         note="The upstream always sees its own authority (checked on every forwarded row)."),
    Case("host-with-key-routes-by-path-only", get(b"/graphql", HOST + KEY), (200,), closes=False,
         forwarded=(Forwarded(method="GET", target="/graphql"),)),
]

CASES = REQUEST_LINE + HOST_RULES
