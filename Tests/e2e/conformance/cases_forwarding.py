"""Hop-by-hop abuse (a Connection header naming what the gateway must still send) and spoofed
forwarding headers (README, "How a request is handled")."""

from .model import HOST, KEY, SERVICE_TOKEN, Case, Forwarded, get, post

BODY = b'{"query":"{ hello }"}'


def forwarded_get(target: str = "/graphql/noauth", **kwargs) -> Forwarded:
    return Forwarded(method="GET", target=target, **kwargs)


def kept(case_id: str, data: bytes, forwarded: Forwarded, note: str = "") -> Case:
    return Case(case_id, data, (200,), closes=False, forwarded=(forwarded,), note=note)


# MARK: - Connection naming headers the gateway sets or needs

HOP_BY_HOP = [
    kept("connection-names-service-token",
         get(headers=HOST + b"Connection: X-Service-Token\r\nX-Service-Token: forged\r\n"),
         forwarded_get(present={"X-Service-Token": SERVICE_TOKEN}),
         note="A Connection header cannot strip the injected secret: the gateway sets it after "
              "the hop-by-hop headers are dropped."),
    kept("connection-names-host", get(headers=HOST + b"Connection: Host\r\n"), forwarded_get()),
    kept("connection-names-content-length",
         post(headers=HOST + b"Connection: Content-Length\r\n", body=BODY), Forwarded(body=BODY),
         note="The body keeps its framing: the gateway computes Content-Length itself."),
    kept("connection-names-transfer-encoding",
         b"POST /graphql/noauth HTTP/1.1\r\n" + HOST + b"Connection: Transfer-Encoding\r\n"
         b"Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", Forwarded(body=b"{}")),
    kept("connection-names-forwarded-for",
         get(headers=HOST + b"Connection: X-Forwarded-For\r\nX-Forwarded-For: 203.0.113.9\r\n"),
         forwarded_get()),
    kept("connection-names-request-id",
         get(headers=HOST + b"Connection: X-Request-Id\r\nX-Request-Id: abc-123\r\n"),
         forwarded_get()),
    kept("connection-names-api-key", get(b"/graphql", HOST + KEY + b"Connection: X-Api-Key\r\n"),
         forwarded_get("/graphql", absent=("x-api-key",)),
         note="The key authenticates this hop and is then dropped as the client asked."),
    kept("connection-names-custom",
         get(headers=HOST + b"Connection: keep-alive, X-Private\r\nX-Private: 1\r\nX-Public: 2\r\n"),
         forwarded_get(absent=("x-private",), present={"X-Public": "2"})),
    kept("connection-names-several", get(headers=HOST + b"Connection: X-A,,X-B ,\r\nX-A: 1\r\nX-B: 2\r\n"),
         forwarded_get(absent=("x-a", "x-b"))),
    kept("connection-twice", get(headers=HOST + b"Connection: X-A\r\nConnection: X-B\r\nX-A: 1\r\nX-B: 2\r\n"),
         forwarded_get(absent=("x-a", "x-b"))),
    kept("keep-alive-dropped", get(headers=HOST + b"Keep-Alive: timeout=500\r\n"),
         forwarded_get(absent=("keep-alive",))),
    kept("te-trailers-dropped", get(headers=HOST + b"TE: trailers\r\n"), forwarded_get(absent=("te",))),
    kept("upgrade-dropped", get(headers=HOST + b"Connection: Upgrade\r\nUpgrade: websocket\r\n"),
         forwarded_get(absent=("upgrade",)),
         note="Upgrades are not tunnelled yet; the request is served as plain HTTP."),
    kept("h2c-upgrade-dropped",
         get(headers=HOST + b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
             b"HTTP2-Settings: AAMAAABkAAQAAP__\r\n"),
         forwarded_get(absent=("upgrade", "http2-settings")),
         note="h2c smuggling: a backend that accepts the upgrade would speak HTTP/2 on a "
              "connection whose requests the gateway no longer sees."),
    kept("proxy-authorization-dropped", get(headers=HOST + b"Proxy-Authorization: Basic dTpw\r\n"),
         forwarded_get(absent=("proxy-authorization",))),
    kept("proxy-connection-dropped", get(headers=HOST + b"Proxy-Connection: keep-alive\r\n"),
         forwarded_get(absent=("proxy-connection",))),
    kept("trailer-header-dropped", get(headers=HOST + b"Trailer: X-Checksum\r\n"),
         forwarded_get(absent=("trailer",))),
    kept("service-token-forged-twice",
         get(headers=HOST + b"X-Service-Token: forged\r\nx-service-token: forged-2\r\n"),
         forwarded_get()),
    Case("connection-close-honoured", get(headers=HOST + b"Connection: close\r\n"), (200,),
         closes=True, forwarded=(forwarded_get(),)),
    Case("connection-close-mixed-case", get(headers=HOST + b"Connection: X-A, CLOSE\r\n"), (200,),
         closes=True, forwarded=(forwarded_get(),)),
]

# MARK: - Spoofed forwarding headers


def dropped(case_id: str, field: bytes, name: str, note: str = "") -> Case:
    """A client-supplied header a backend may trust for the client's address, scheme or URL:
    it must not reach the upstream."""
    return Case(case_id, get(headers=HOST + field + b"\r\n"), (200,), closes=False,
                forwarded=(forwarded_get(absent=(name.lower(),)),), note=note)


SPOOFED = [
    kept("forwarded-for-replaced", get(headers=HOST + b"X-Forwarded-For: 203.0.113.9\r\n"),
         forwarded_get(),
         note="nginx's usual `proxy_add_x_forwarded_for` appends to the client's claim; here the "
              "peer address replaces it unless the peer is a trusted proxy."),
    kept("forwarded-for-twice-replaced",
         get(headers=HOST + b"X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-For: 10.0.0.1\r\n"),
         forwarded_get()),
    kept("forwarded-for-lowercase-replaced", get(headers=HOST + b"x-forwarded-for: 203.0.113.9\r\n"),
         forwarded_get()),
    kept("forwarded-proto-replaced", get(headers=HOST + b"X-Forwarded-Proto: https\r\n"),
         forwarded_get(present={"X-Forwarded-Proto": "http"})),
    dropped("forwarded-host-dropped", b"X-Forwarded-Host: evil.test", "X-Forwarded-Host",
            note="Backends build absolute URLs (password-reset links) from X-Forwarded-Host."),
    dropped("forwarded-port-dropped", b"X-Forwarded-Port: 443", "X-Forwarded-Port"),
    dropped("forwarded-rfc7239-dropped", b"Forwarded: for=203.0.113.9;proto=https", "Forwarded"),
    dropped("real-ip-dropped", b"X-Real-IP: 203.0.113.9", "X-Real-IP"),
    dropped("original-url-dropped", b"X-Original-URL: /graphql", "X-Original-URL",
            note="IIS URL Rewrite and Symfony route by X-Original-URL, which would turn a "
                 "public-door request into one for the authenticated path behind the gateway."),
    dropped("rewrite-url-dropped", b"X-Rewrite-URL: /graphql", "X-Rewrite-URL"),
    kept("request-id-valid-kept", get(headers=HOST + b"X-Request-Id: abc-123\r\n"),
         forwarded_get(present={"X-Request-Id": "abc-123"})),
    kept("request-id-injection-replaced", get(headers=HOST + b"X-Request-Id: a b;c\r\n"),
         forwarded_get()),
]

CASES = HOP_BY_HOP + SPOOFED
