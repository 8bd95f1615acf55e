"""Request framing and smuggling: Content-Length, Transfer-Encoding, chunked coding, trailers,
bodies where none may be, and Expect: 100-continue (README, "How a request is handled")."""

from .model import HOST, KEY, Case, Forwarded, chunked, get, passes, post, refused

BODY = b'{"query":"{ hello }"}'
SMUGGLED = b"GET /graphql?smuggled=1 HTTP/1.1\r\n" + HOST + KEY + b"\r\n"


def cl(value: bytes) -> bytes:
    return HOST + b"Content-Length: " + value + b"\r\n"


def te(value: bytes) -> bytes:
    return b"Transfer-Encoding: " + value + b"\r\n"


NOAUTH_POST = Forwarded(body=b"{}")

# MARK: - Content-Length

CONTENT_LENGTH = [
    passes("cl-plain", post(), NOAUTH_POST),
    passes("cl-zero-no-body", post(body=b""), Forwarded(body=b"")),
    passes("cl-ows-around-value", post(headers=HOST + b"Content-Length: \t2 \r\n", length=False),
           NOAUTH_POST),
    refused("cl-and-te", post(headers=cl(b"5") + te(b"chunked"), body=b"0\r\n\r\n", length=False)),
    refused("te-and-cl", post(headers=HOST + te(b"chunked") + b"Content-Length: 5\r\n",
                              body=b"0\r\n\r\n", length=False)),
    refused("cl-zero-and-te", post(headers=cl(b"0") + te(b"chunked"),
                                   body=b"5\r\nhello\r\n0\r\n\r\n", length=False)),
    refused("cl-twice-differing", post(headers=cl(b"2") + b"Content-Length: 3\r\n", length=False)),
    refused("cl-twice-equal", post(headers=cl(b"2") + b"Content-Length: 2\r\n", length=False)),
    refused("cl-list-equal", post(headers=cl(b"2, 2"), length=False)),
    refused("cl-list-differing", post(headers=cl(b"2, 3"), length=False)),
    refused("cl-plus-sign", post(headers=cl(b"+2"), length=False)),
    refused("cl-negative", post(headers=cl(b"-1"), length=False)),
    refused("cl-hex", post(headers=cl(b"0x2"), length=False)),
    refused("cl-decimal-point", post(headers=cl(b"2.0"), length=False)),
    refused("cl-space-inside", post(headers=cl(b"1 2"), body=b"{}" + b"x" * 10, length=False)),
    refused("cl-empty", post(headers=cl(b""), length=False)),
    refused("cl-letters", post(headers=cl(b"two"), length=False)),
    refused("cl-overflow-64-bit", post(headers=cl(b"18446744073709551617"), length=False)),
    refused("cl-over-max-body", post(headers=cl(b"99999999"), body=b"", length=False),
            status=413, code="PAYLOAD_TOO_LARGE"),
    refused("cl-vertical-tab", post(headers=cl(b"\x0b2"), length=False)),
]

# MARK: - Transfer-Encoding

TRANSFER_ENCODING = [
    passes("te-chunked", chunked(b"2\r\n{}\r\n0\r\n\r\n"), NOAUTH_POST),
    passes("te-chunked-ows", chunked(b"2\r\n{}\r\n0\r\n\r\n", te=b"Transfer-Encoding:  chunked \r\n"),
           NOAUTH_POST),
    refused("te-xchunked", chunked(b"0\r\n\r\n", te=te(b"xchunked"))),
    refused("te-chunk", chunked(b"0\r\n\r\n", te=te(b"chunk"))),
    refused("te-gzip-chunked", chunked(b"0\r\n\r\n", te=te(b"gzip, chunked"))),
    refused("te-chunked-gzip", chunked(b"0\r\n\r\n", te=te(b"chunked, gzip"))),
    refused("te-chunked-chunked", chunked(b"0\r\n\r\n", te=te(b"chunked, chunked"))),
    refused("te-twice", chunked(b"0\r\n\r\n", te=te(b"chunked") + te(b"chunked"))),
    refused("te-identity", chunked(b"", te=te(b"identity"))),
    refused("te-empty", chunked(b"", te=te(b""))),
    refused("te-vertical-tab", chunked(b"0\r\n\r\n", te=te(b"\x0bchunked"))),
    refused("te-form-feed", chunked(b"0\r\n\r\n", te=te(b"chunked\x0c"))),
    refused("te-quoted", chunked(b"0\r\n\r\n", te=te(b'"chunked"'))),
    refused("te-with-parameter", chunked(b"0\r\n\r\n", te=te(b"chunked;q=1"))),
    refused("te-space-before-colon", chunked(b"0\r\n\r\n", te=b"Transfer-Encoding : chunked\r\n")),
    refused("te-obs-fold", chunked(b"0\r\n\r\n", te=b"Transfer-Encoding:\r\n chunked\r\n")),
    refused("te-http10", b"POST /graphql/noauth HTTP/1.0\r\n" + HOST + te(b"chunked") + b"\r\n"
            b"2\r\n{}\r\n0\r\n\r\n"),
    refused("te-http10-with-cl", b"POST /graphql/noauth HTTP/1.0\r\n" + HOST + te(b"chunked")
            + b"Content-Length: 7\r\n\r\n0\r\n\r\n"),
    Case("te-underscore-is-not-framing", post(headers=HOST + b"Transfer_Encoding: chunked\r\n"),
         (200,), closes=False, forwarded=(Forwarded(body=b"{}", absent=("transfer_encoding",)),),
         note="Framing comes from Content-Length; the underscore spelling must not reach a "
              "backend that folds `_` into `-` (CGI/WSGI do) and reads it as chunked."),
    Case("cl-underscore-is-not-framing", post(headers=HOST + b"Content_Length: 100\r\n"),
         (200,), closes=False, forwarded=(Forwarded(body=b"{}", absent=("content_length",)),)),
]

# MARK: - Chunked coding

CHUNKED = [
    passes("chunks-joined", chunked(b"1\r\n{\r\n1\r\n}\r\n0\r\n\r\n"), NOAUTH_POST),
    passes("chunk-size-uppercase-hex", chunked(b"A\r\n0123456789\r\n0\r\n\r\n"),
           Forwarded(body=b"0123456789")),
    passes("chunk-size-leading-zeros", chunked(b"0002\r\n{}\r\n0\r\n\r\n"), NOAUTH_POST),
    passes("chunked-empty-body", chunked(b"0\r\n\r\n"), Forwarded(body=b"")),
    passes("chunk-extension", chunked(b"2;name=value\r\n{}\r\n0;last\r\n\r\n"), NOAUTH_POST),
    passes("chunk-extension-quoted", chunked(b'2;a="x;y\\"z"\r\n{}\r\n0\r\n\r\n'), NOAUTH_POST),
    passes("chunk-extension-bws", chunked(b"2 ;a=b\r\n{}\r\n0\r\n\r\n"), NOAUTH_POST),
    refused("chunk-size-overflow-19-digits", chunked(b"fffffffffffffffffff\r\nx\r\n0\r\n\r\n")),
    refused("chunk-size-64-bit-wrap", chunked(b"10000000000000002\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-16-digits", chunked(b"ffffffffffffffff\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-not-hex", chunked(b"zz\r\nhello\r\n0\r\n\r\n")),
    refused("chunk-size-0x-prefix", chunked(b"0x2\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-negative", chunked(b"-2\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-plus", chunked(b"+2\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-empty", chunked(b"\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-size-leading-space", chunked(b" 2\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-data-longer-than-size", chunked(b"2\r\nhiXX\r\n0\r\n\r\n")),
    refused("chunk-data-without-crlf", chunked(b"2\r\nhi0\r\n\r\n")),
    refused("chunk-bare-lf", chunked(b"2\n{}\n0\n\n")),
    refused("chunk-bare-cr", chunked(b"2\r{}\r\n0\r\n\r\n")),
    refused("chunk-extension-control-byte", chunked(b"2;a=\x01\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-extension-bare-lf", chunked(b"2;a\nb\r\n{}\r\n0\r\n\r\n")),
    refused("chunk-extension-oversized", chunked(b"2;" + b"e" * 5000 + b"\r\n{}\r\n0\r\n\r\n")),
    refused("trailer-obs-fold", chunked(b"2\r\n{}\r\n0\r\nX-T: a\r\n b\r\n\r\n")),
    refused("trailer-space-before-colon", chunked(b"2\r\n{}\r\n0\r\nX-T : a\r\n\r\n")),
    refused("trailer-oversized", chunked(b"2\r\n{}\r\n0\r\nX-T: " + b"t" * 9000 + b"\r\n\r\n")),
    Case("trailer-not-forwarded", chunked(b"2\r\n{}\r\n0\r\nX-Trailer-Field: t\r\n\r\n"), (200,),
         closes=False, forwarded=(Forwarded(body=b"{}", absent=("x-trailer-field",)),)),
    Case("trailer-host-never-routes", chunked(b"2\r\n{}\r\n0\r\nHost: evil.test\r\n\r\n"), (200,),
         closes=False, forwarded=(NOAUTH_POST,)),
    Case("trailer-secret-never-forwarded",
         chunked(b"2\r\n{}\r\n0\r\nX-Service-Token: forged\r\n\r\n"), (200,), closes=False,
         forwarded=(NOAUTH_POST,)),
    Case("trailer-api-key-never-authenticates",
         chunked(b"2\r\n{}\r\n0\r\nX-Api-Key: k-123\r\n\r\n", target=b"/graphql"), (401,),
         closes=True, code="UNAUTHENTICATED",
         note="The credential arrives after the body; authentication reads the head only."),
]

# MARK: - Bodies where none may be

BODY_NOT_ALLOWED = [
    refused("get-with-body", get(headers=HOST + b"Content-Length: 5\r\n") + b"hello"),
    refused("get-with-chunked-body", b"GET /graphql/noauth HTTP/1.1\r\n" + HOST + te(b"chunked")
            + b"\r\n5\r\nhello\r\n0\r\n\r\n"),
    refused("head-with-body", b"HEAD /graphql/noauth HTTP/1.1\r\n" + HOST
            + b"Content-Length: 5\r\n\r\nhello", method="HEAD"),
    passes("get-with-content-length-zero", get(headers=HOST + b"Content-Length: 0\r\n"),
           Forwarded(method="GET", target="/graphql/noauth")),
    passes("post-without-length", b"POST /graphql/noauth HTTP/1.1\r\n" + HOST + b"\r\n",
           Forwarded(body=b"")),
]

# MARK: - Expect: 100-continue

EXPECT = [
    Case("expect-refused-auth-body-is-not-a-request",
         post(b"/graphql", HOST + b"Expect: 100-continue\r\n", SMUGGLED), (401,), closes=None,
         code="UNAUTHENTICATED",
         note="The body is never parsed as a request: sent byte by byte it is still unread at "
              "the refusal and the connection closes; sent whole it has been read as the body, "
              "and the next answer is the follow-up's, not the smuggled request's."),
    Case("expect-refused-route-body-is-not-a-request",
         post(b"/nowhere", HOST + b"Expect: 100-continue\r\n", SMUGGLED), (404,), closes=None,
         code="NOT_FOUND"),
    Case("expect-refused-method-body-is-not-a-request",
         b"PUT /graphql/noauth HTTP/1.1\r\n" + HOST + b"Expect: 100-continue\r\n"
         + b"Content-Length: %d\r\n\r\n" % len(SMUGGLED) + SMUGGLED, (405,), closes=None,
         code="METHOD_NOT_ALLOWED"),
    Case("expect-refused-bad-key-body-is-not-a-request",
         post(b"/graphql", HOST + b"X-Api-Key: wrong\r\nExpect: 100-continue\r\n", SMUGGLED), (401,),
         closes=None, code="UNAUTHENTICATED"),
    passes("expect-accepted", post(b"/graphql", HOST + KEY + b"Expect: 100-continue\r\n", BODY),
           Forwarded(target="/graphql", body=BODY, absent=("expect",))),
    passes("expect-public-door", post(headers=HOST + b"Expect: 100-continue\r\n", body=BODY),
           Forwarded(body=BODY, absent=("expect",))),
]

CASES = CONTENT_LENGTH + TRANSFER_ENCODING + CHUNKED + BODY_NOT_ALLOWED + EXPECT
