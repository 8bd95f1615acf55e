"""Requests with credentials, and the checks every refusal must pass (README, "How a request is handled").

A refusal is a 401 (or the stated status) with the exact `WWW-Authenticate` challenge, the
envelope with code UNAUTHENTICATED from the gateway, nothing at all sent upstream, the token
absent from the response and the gateway's output, and — when a reason is given — one more
count in `gatehouse_auth_failures_total{route,reason}`.
"""

import itertools
import re
import time

from .envelope import assert_raw_envelope
from .raw_http import RawClient

CHALLENGE_MISSING = 'Bearer realm="gatehouse"'
QUERY_BODY = b'{"query":"{ hello }"}'

# Request ids only need to be unique within one test run.
_request_numbers = itertools.count(1)


def challenge(description: str) -> str:
    return f'Bearer realm="gatehouse", error="invalid_token", error_description="{description}"'


def next_request_id(prefix: str = "auth") -> str:
    return f"{prefix}-{time.monotonic_ns()}-{next(_request_numbers)}"


# MARK: - Sending


def send(gateway, path: str, headers=None, body: bytes = QUERY_BODY, method: str = "POST",
         request_id: str = None):
    """One request on a fresh connection; returns (RawResponse, request id)."""
    request_id = request_id or next_request_id()
    pairs = [("Content-Type", "application/json"), ("X-Request-Id", request_id), *(headers or [])]
    with RawClient(gateway.port, timeout=5.0) as client:
        client.request(method, path, headers=pairs, body=body if method == "POST" else b"")
        return client.read_response(method=method), request_id


def bearer(token: str) -> list:
    return [("Authorization", f"Bearer {token}")]


# MARK: - Metrics


def metric_value(text: str, name: str, **labels) -> float:
    """The sample of `name` whose labels include `labels`; 0 when there is none."""
    pattern = re.compile(r"^" + re.escape(name) + r"\{([^}]*)\}\s+(\S+)$", re.MULTILINE)
    for match in pattern.finditer(text):
        found = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', match.group(1)))
        if all(found.get(key) == value for key, value in labels.items()):
            return float(match.group(2))
    return 0.0


def auth_failures(gateway, route: str, reason: str) -> float:
    return metric_value(gateway.metrics_text(), "gatehouse_auth_failures_total",
                        route=route, reason=reason)


def wait_for_metric(gateway, route: str, reason: str, at_least: float,
                    timeout: float = 2.0) -> float:
    deadline = time.monotonic() + timeout
    while True:
        value = auth_failures(gateway, route, reason)
        if value >= at_least or time.monotonic() >= deadline:
            return value
        time.sleep(0.05)


# MARK: - Refusals


def assert_token_nowhere(gateway, response, request_id: str, secrets) -> None:
    """No secret in the response, and none in the gateway's stdout (access log) or stderr,
    once the access-log line of the request has been written. A request refused before its
    head was parsed keeps no client X-Request-Id, so the line is found by the one answered."""
    request_id = response.header("x-request-id") or request_id
    entries = gateway.wait_for_access_log(lambda e: e.get("request_id") == request_id)
    assert len(entries) == 1, f"{len(entries)} access-log lines for {request_id}"
    exposed = response.head_bytes + response.body
    output = gateway.stdout_text() + gateway.stderr_text()
    for secret in secrets:
        if not secret:
            continue
        assert secret.encode() not in exposed, f"the response holds {secret[:40]!r}…"
        assert secret not in output, f"the gateway's output holds {secret[:40]!r}…"


def assert_refused(gateway, upstream, path: str, headers, description, reason: str = None,
                   status: int = 401, code: str = "UNAUTHENTICATED", secrets=(),
                   route: str = None) -> dict:
    """Sends one request and checks the whole refusal; returns the envelope's extensions.

    `description` None expects the bare challenge of missing credentials; False expects no
    `WWW-Authenticate` at all (a 400). `reason` is the metrics label that must count one more.
    """
    route = route or path.split("?")[0]
    before = auth_failures(gateway, route, reason) if reason else None
    upstream.reset()
    response, request_id = send(gateway, path, headers)
    extensions = assert_raw_envelope(response, status, code, source="gateway")
    challenges = response.header_values("www-authenticate")
    if description is False:
        assert challenges == [], f"unexpected WWW-Authenticate {challenges!r}"
    elif description is None:
        assert challenges == [CHALLENGE_MISSING], challenges
    else:
        assert challenges == [challenge(description)], challenges
    assert upstream.bytes_received == 0, \
        f"the upstream received {upstream.bytes_received} bytes: {upstream.requests!r}"
    assert_token_nowhere(gateway, response, request_id, secrets)
    if reason:
        after = wait_for_metric(gateway, route, reason, before + 1)
        assert after == before + 1, \
            f"gatehouse_auth_failures_total{{route={route!r},reason={reason!r}}} {before} -> {after}"
    return extensions
