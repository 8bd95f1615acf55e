"""The error envelope of README, "The error envelope", checked field by field."""

import json
import re

REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")
RETRYABLE_STATUSES = {429, 502, 503, 504}
BASE_EXTENSIONS = {"code", "status", "source", "retryable", "requestId"}
# Extensions the contract adds for some codes.
OPTIONAL_EXTENSIONS = {"retryAfter", "upstreamStatus"}


def _header(headers, name: str):
    """First value of `name` from httpx headers or a RawResponse-style header list."""
    if hasattr(headers, "get") and not isinstance(headers, list):
        return headers.get(name)
    for key, value in headers:
        if key.lower() == name.lower():
            return value
    return None


def assert_envelope(status: int, headers, body: bytes, expected_status: int, code: str,
                    source: str = None, exact_extensions: bool = True) -> dict:
    """Asserts the response is the gateway's error envelope; returns `extensions`.

    `exact_extensions`: the five base fields only (plus the documented optional ones).
    """
    assert status == expected_status, f"expected HTTP {expected_status}, got {status}: {body[:300]!r}"
    content_type = _header(headers, "content-type") or ""
    assert content_type.split(";")[0].strip().lower() == "application/json", \
        f"Content-Type {content_type!r}"
    assert (_header(headers, "cache-control") or "").lower() == "no-store", \
        f"Cache-Control {_header(headers, 'cache-control')!r}"
    document = json.loads(body)
    assert set(document) == {"errors"}, f"top-level keys {sorted(document)}"
    assert isinstance(document["errors"], list) and len(document["errors"]) == 1, document
    error = document["errors"][0]
    assert set(error) == {"message", "extensions"}, f"error keys {sorted(error)}"
    assert isinstance(error["message"], str) and error["message"].strip(), error
    extensions = error["extensions"]
    missing = BASE_EXTENSIONS - set(extensions)
    assert not missing, f"extensions lack {sorted(missing)}: {extensions}"
    if exact_extensions:
        extra = set(extensions) - BASE_EXTENSIONS - OPTIONAL_EXTENSIONS
        assert not extra, f"unexpected extensions {sorted(extra)}: {extensions}"
    assert extensions["code"] == code, f"code {extensions['code']!r}, expected {code!r}"
    assert extensions["status"] == expected_status and isinstance(extensions["status"], int)
    assert extensions["source"] in ("gateway", "upstream"), extensions
    if source is not None:
        assert extensions["source"] == source, f"source {extensions['source']!r}, expected {source!r}"
    assert extensions["retryable"] is (expected_status in RETRYABLE_STATUSES), \
        f"retryable {extensions['retryable']!r} for {expected_status}"
    request_id = _header(headers, "x-request-id")
    assert request_id, "no X-Request-Id on the envelope"
    assert REQUEST_ID.match(request_id), f"bad X-Request-Id {request_id!r}"
    assert extensions["requestId"] == request_id, \
        f"requestId {extensions['requestId']!r} != X-Request-Id {request_id!r}"
    return extensions


def assert_raw_envelope(response, expected_status: int, code: str, **kwargs) -> dict:
    """`assert_envelope` for a support.raw_http.RawResponse."""
    return assert_envelope(response.status, response.headers, response.body, expected_status,
                           code, **kwargs)


def assert_httpx_envelope(response, expected_status: int, code: str, **kwargs) -> dict:
    return assert_envelope(response.status_code, response.headers, response.content,
                           expected_status, code, **kwargs)
