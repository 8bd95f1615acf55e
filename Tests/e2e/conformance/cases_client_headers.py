"""Headers that assert the client's address or the request's original host or URL: a client that
is not a trusted proxy has them dropped, in any case and with `_` for `-` (servers such as CGI
and Werkzeug read `X_Real_IP` as `X-Real-IP`); from a trusted proxy they are kept. `Proxy` is
dropped from everyone (httpoxy: CGI exposes it as HTTP_PROXY, the variable HTTP clients take
their proxy from).

CASES run against the usual conformance gateway (no trusted proxies); TRUSTED_CASES against one
with `trusted_proxies: ["127.0.0.1/32"]` (test_conformance_trusted.py)."""

from .model import HOST, Case, Forwarded, get

CLIENT_ADDRESS = [
    "Forwarded", "X-Forwarded", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host",
    "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server", "X-Forwarded-Ssl",
    "X-Forwarded-Scheme", "X-Real-IP", "X-Client-IP", "Client-IP", "True-Client-IP", "X-True-IP",
    "CF-Connecting-IP", "CF-Connecting-IPv6", "Fastly-Client-IP", "Fly-Client-IP",
    "X-Cluster-Client-IP", "X-Originating-IP", "X-Remote-IP", "X-Remote-Addr", "X-ProxyUser-Ip",
    "X-Custom-IP-Authorization", "X-Azure-ClientIP", "X-AppEngine-User-IP",
    "X-Envoy-External-Address", "X-Original-Forwarded-For",
]
ORIGINAL_HOST_OR_URL = [
    "X-Host", "X-Original-Host", "X-HTTP-Host-Override", "X-Original-URL", "X-Rewrite-URL",
    "X-Original-URI", "X-Envoy-Original-Path",
]
ASSERTED = CLIENT_ADDRESS + ORIGINAL_HOST_OR_URL
# The gateway sets these itself for every peer (a trusted proxy's X-Forwarded-For is appended
# to), so the upstream gets the gateway's value in place of the client's.
GATEWAY_SET = {"x-forwarded-for": "127.0.0.1", "x-forwarded-proto": "http"}
CLAIMED = "/graphql"
ADDRESS_CLAIM = "127.0.0.2"


def claim_for(name: str) -> str:
    """A value a spoofer would send: a loopback address, or the protected door's path."""
    return CLAIMED if name in ORIGINAL_HOST_OR_URL else ADDRESS_CLAIM


def spellings(name: str) -> list:
    """(label, spelling): upper and lower case, and underscores for dashes."""
    return [("upper", name.upper()), ("lower", name.lower()), ("underscore", name.replace("-", "_"))]


def _row(case_id: str, spelling: str, value: str, kept: bool) -> Case:
    header = spelling.encode() + b": " + value.encode() + b"\r\n"
    if kept:
        forwarded = Forwarded(method="GET", present={spelling: value})
    elif spelling.lower() in GATEWAY_SET:
        forwarded = Forwarded(method="GET", present={spelling: GATEWAY_SET[spelling.lower()]})
    else:
        forwarded = Forwarded(method="GET", absent=(spelling.lower(),))
    return Case(case_id, get(headers=HOST + header), (200,), closes=False, forwarded=(forwarded,))


def _rows(kept: bool) -> list:
    rows = []
    for name in ASSERTED:
        if kept and name.lower() in GATEWAY_SET:
            continue
        for label, spelling in spellings(name):
            state = "kept-from-trusted" if kept else "dropped"
            rows.append(_row(f"{name.lower()}-{label}-{state}", spelling, claim_for(name), kept))
    for label, spelling in spellings("Proxy")[:2]:
        state = "dropped-from-trusted" if kept else "dropped"
        rows.append(_row(f"httpoxy-proxy-{label}-{state}", spelling, "http://127.0.0.2:8080", kept=False))
    return rows


CASES = _rows(kept=False)
TRUSTED_CASES = _rows(kept=True)
