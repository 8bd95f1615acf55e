"""Claims copied to headers, API keys, routes that accept either credential, and what the
metrics and the access log record about authentication (README, "Configuration" `auth`, "How a request is handled", "Observability").
"""

import pytest

from support.auth_checks import (assert_refused, assert_token_nowhere, auth_failures, bearer,
                                 send, wait_for_metric)
from support.auth_gateway import API_KEYS, CUSTOM_KEY, AuthKeys, auth_config, user_claims_defaults
from support.jwt_keys import claims, mint

# In the smoke subset (pytest -m smoke): run against the statically linked build too.
pytestmark = pytest.mark.smoke

INVALID_KEY = "invalid api key"


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return AuthKeys(tmp_path_factory.mktemp("claims-keys"))


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream, keys):
    return module_gateways.start(auth_config(keys, raw_upstream.url))


def token_for(keys, sub: str) -> str:
    return mint(claims(sub=sub, **user_claims_defaults()), "ES256", keys.ec256, kid="ec-256")


def admitted(gateway, upstream, path: str, headers):
    """Sends one request that must pass; returns (the request the upstream received, request id)."""
    upstream.reset()
    response, request_id = send(gateway, path, headers)
    assert response.status == 200, (response.status, response.body[:300])
    assert len(upstream.requests) == 1
    return upstream.requests[0], request_id


def user_id_headers(request) -> list:
    """Every header the upstream got whose name is some spelling of X-User-Id."""
    return [(name, value) for name, value in request.headers
            if name.lower().replace("_", "-") == "x-user-id"]


# MARK: - claims_to_headers


def test_subject_arrives_as_x_user_id(gateway, raw_upstream, keys):
    request, _ = admitted(gateway, raw_upstream, "/jwt", bearer(token_for(keys, "alice@example.com")))
    assert user_id_headers(request) == [("X-User-Id", "alice@example.com")]


@pytest.mark.parametrize("spelling", ["X-User-Id", "x-user-id", "X-USER-ID", "X_User_Id", "x_user_id"])
def test_client_copies_of_x_user_id_never_arrive(gateway, raw_upstream, keys, spelling):
    headers = [(spelling, "mallory"), *bearer(token_for(keys, "alice")), (spelling, "root")]
    request, _ = admitted(gateway, raw_upstream, "/jwt", headers)
    assert user_id_headers(request) == [("X-User-Id", "alice")]
    assert b"mallory" not in request.body and all("mallory" not in v for _, v in request.headers)


def test_client_x_user_id_without_a_token_opens_nothing(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/jwt", [("X-User-Id", "admin")], None, reason="missing")


def test_api_key_on_a_claims_route_drops_the_client_x_user_id(gateway, raw_upstream):
    """An API key has no claims, yet the route's claim header is still the gateway's alone."""
    headers = [("X-Api-Key", API_KEYS[0]), ("X-User-Id", "mallory"), ("X_User_Id", "mallory")]
    request, _ = admitted(gateway, raw_upstream, "/either", headers)
    assert user_id_headers(request) == []


# MARK: - A route with [user-jwt, app-keys]


def test_either_route_accepts_a_token(gateway, raw_upstream, keys):
    request, _ = admitted(gateway, raw_upstream, "/either", bearer(token_for(keys, "via-token")))
    assert user_id_headers(request) == [("X-User-Id", "via-token")]


@pytest.mark.parametrize("key", API_KEYS)
def test_either_route_accepts_an_api_key(gateway, raw_upstream, key):
    admitted(gateway, raw_upstream, "/either", [("X-Api-Key", key)])


def test_two_api_key_headers_are_refused_with_nothing_upstream(gateway, raw_upstream):
    """Two keys are no key: the upstream might read the copy the gateway did not check."""
    assert_refused(gateway, raw_upstream, "/either", [("X-Api-Key", API_KEYS[0]), ("X-Api-Key", "forged")], INVALID_KEY,
                   reason="invalid_api_key", secrets=["forged"])


def test_either_route_without_credentials_is_missing(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/either", [], None, reason="missing")


def test_either_route_with_a_wrong_key_only_is_invalid(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/either", [("X-Api-Key", "wrong-key")], INVALID_KEY,
                   reason="invalid_api_key", secrets=["wrong-key"])


def test_either_route_with_an_expired_token_only_is_expired(gateway, raw_upstream, keys):
    token = mint(claims(exp=1_000_000, iat=999_000, **user_claims_defaults()), "ES256", keys.ec256,
                 kid="ec-256")
    assert_refused(gateway, raw_upstream, "/either", bearer(token), "token expired", reason="expired",
                   secrets=[token])


# MARK: - API keys


@pytest.mark.parametrize("key", API_KEYS)
def test_each_configured_key_works(gateway, raw_upstream, key):
    request, _ = admitted(gateway, raw_upstream, "/keys", [("X-Api-Key", key)])
    assert user_id_headers(request) == []


def test_key_header_name_is_case_insensitive(gateway, raw_upstream):
    admitted(gateway, raw_upstream, "/keys", [("x-api-key", API_KEYS[1])])


@pytest.mark.parametrize("value", ["wrong-key", API_KEYS[0].upper(), API_KEYS[0] + "x",
                                   API_KEYS[0][:-1], API_KEYS[0] + " " + API_KEYS[1]],
                         ids=["other", "upper-case", "longer", "shorter", "two-keys"])
def test_wrong_key_is_invalid(gateway, raw_upstream, value):
    assert_refused(gateway, raw_upstream, "/keys", [("X-Api-Key", value)], INVALID_KEY,
                   reason="invalid_api_key", secrets=[value])


def test_missing_key_is_missing(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/keys", [], None, reason="missing")


def test_key_in_another_header_is_missing(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/keys",
                   [("Authorization", f"Bearer {API_KEYS[0]}"), ("X-App-Token", API_KEYS[0])],
                   None, reason="missing")


def test_custom_header_name_carries_the_key(gateway, raw_upstream):
    admitted(gateway, raw_upstream, "/custom-keys", [("X-App-Token", CUSTOM_KEY)])


def test_custom_route_ignores_x_api_key(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/custom-keys", [("X-Api-Key", CUSTOM_KEY)], None,
                   reason="missing")


def test_custom_route_refuses_a_key_of_another_provider(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/custom-keys", [("X-App-Token", API_KEYS[0])],
                   INVALID_KEY, reason="invalid_api_key")


# MARK: - Metrics and access log


def test_refusals_count_per_route_and_reason(gateway, raw_upstream, keys):
    expired = mint(claims(exp=1_000_000, iat=999_000, **user_claims_defaults()), "ES256",
                   keys.ec256, kid="ec-256")
    before = {(route, reason): auth_failures(gateway, route, reason)
              for route in ("/jwt", "/keys") for reason in ("expired", "missing", "invalid_api_key")}
    for _ in range(3):
        send(gateway, "/jwt", bearer(expired))
    send(gateway, "/keys", [("X-Api-Key", "nope")])
    send(gateway, "/keys", [])
    send(gateway, "/keys", [])
    assert wait_for_metric(gateway, "/jwt", "expired", before[("/jwt", "expired")] + 3) \
        == before[("/jwt", "expired")] + 3
    assert wait_for_metric(gateway, "/keys", "missing", before[("/keys", "missing")] + 2) \
        == before[("/keys", "missing")] + 2
    assert auth_failures(gateway, "/keys", "invalid_api_key") == before[("/keys", "invalid_api_key")] + 1
    # Other cells did not move.
    assert auth_failures(gateway, "/jwt", "missing") == before[("/jwt", "missing")]
    assert auth_failures(gateway, "/keys", "expired") == before[("/keys", "expired")]
    assert auth_failures(gateway, "/jwt", "invalid_api_key") == before[("/jwt", "invalid_api_key")]


def test_admitted_request_counts_no_failure(gateway, raw_upstream, keys):
    text_before = gateway.metrics_text()
    admitted(gateway, raw_upstream, "/jwt", bearer(token_for(keys, "counted")))
    text_after = gateway.metrics_text()
    failures = [line for line in text_after.splitlines()
                if line.startswith('gatehouse_auth_failures_total{route="/jwt"')]
    assert failures, "no gatehouse_auth_failures_total samples for /jwt"
    for line in failures:
        assert line in text_before.splitlines(), f"{line} moved on an admitted request"


def test_access_log_records_the_subject(gateway, raw_upstream, keys):
    token = token_for(keys, "logged-subject@example.com")
    upstream_request, request_id = admitted(gateway, raw_upstream, "/jwt", bearer(token))
    entries = gateway.wait_for_access_log(lambda e: e.get("request_id") == request_id)
    assert len(entries) == 1
    assert entries[0]["subject"] == "logged-subject@example.com"
    assert entries[0]["status"] == 200 and entries[0]["route"] == "/jwt"
    assert token not in gateway.stdout_text() + gateway.stderr_text()
    assert upstream_request.header("X-User-Id") == "logged-subject@example.com"


def test_access_log_of_a_refusal_has_no_subject(gateway, raw_upstream, keys):
    token = mint(claims(sub="never-logged", aud="nobody", iss=user_claims_defaults()["iss"]),
                 "ES256", keys.ec256, kid="ec-256")
    raw_upstream.reset()
    response, request_id = send(gateway, "/jwt", bearer(token))
    assert response.status == 401
    assert_token_nowhere(gateway, response, request_id, [token])
    entry = gateway.wait_for_access_log(lambda e: e.get("request_id") == request_id)[0]
    assert entry["subject"] is None
    assert entry["status"] == 401 and entry["error_code"] == "UNAUTHENTICATED"
    assert "never-logged" not in gateway.stdout_text()


def test_access_log_never_holds_an_api_key(gateway, raw_upstream):
    _, request_id = admitted(gateway, raw_upstream, "/keys", [("X-Api-Key", API_KEYS[0])])
    gateway.wait_for_access_log(lambda e: e.get("request_id") == request_id)
    response, wrong_id = send(gateway, "/keys", [("X-Api-Key", API_KEYS[1] + "-wrong")])
    assert response.status == 401
    gateway.wait_for_access_log(lambda e: e.get("request_id") == wrong_id)
    output = gateway.stdout_text() + gateway.stderr_text()
    assert API_KEYS[0] not in output and API_KEYS[1] not in output
