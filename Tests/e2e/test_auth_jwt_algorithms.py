"""JWTs minted outside Gatehouse open the door for every supported algorithm (README, "Configuration" `auth`, "How a request is handled").

Keys are generated at test time, published in a JWK Set file; `kid` picks the key, and a token
without `kid` is checked only against the key without one.
"""

import pytest

from support.auth_checks import assert_refused, bearer, challenge, send
from support.auth_gateway import (ASYMMETRIC_ALGORITHMS, AUDIENCES, HMAC_ALGORITHMS, HMAC_AUDIENCE,
                                  HMAC_SECRET, AuthKeys, auth_config, user_claims_defaults)
from support.jwt_keys import claims, mint

# The 40-byte secret is above the gateway's 32-byte minimum and below pyjwt's advice for
# HS384/HS512; it is kept short on purpose, to show the gateway accepts what it documents.
pytestmark = pytest.mark.filterwarnings("ignore::jwt.warnings.InsecureKeyLengthWarning")


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return AuthKeys(tmp_path_factory.mktemp("jwt-algorithms-keys"))


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream, keys):
    return module_gateways.start(auth_config(keys, raw_upstream.url))


def assert_admitted(gateway, upstream, path: str, token: str, scheme: str = "Bearer",
                    subject: str = None) -> None:
    """200 from the upstream, which got exactly one request carrying the subject as X-User-Id."""
    upstream.reset()
    response, _ = send(gateway, path, [("Authorization", f"{scheme} {token}")])
    assert response.status == 200, (response.status, response.body[:300])
    assert response.json() == {"data": {"ok": True}}
    assert len(upstream.requests) == 1
    if subject is not None:
        assert upstream.requests[0].header("X-User-Id") == subject


# MARK: - Every algorithm


@pytest.mark.parametrize("algorithm", ASYMMETRIC_ALGORITHMS)
def test_public_key_algorithm_with_kid_is_admitted(gateway, raw_upstream, keys, algorithm):
    key = keys.for_algorithm(algorithm)
    token = mint(claims(sub=f"sub-{algorithm}", **user_claims_defaults()), algorithm, key, kid=key.kid)
    assert_admitted(gateway, raw_upstream, "/jwt", token, subject=f"sub-{algorithm}")


@pytest.mark.parametrize("algorithm", HMAC_ALGORITHMS)
def test_hmac_algorithm_is_admitted(gateway, raw_upstream, algorithm):
    token = mint(claims(sub=f"svc-{algorithm}", aud=HMAC_AUDIENCE), algorithm, HMAC_SECRET)
    assert_admitted(gateway, raw_upstream, "/hs", token)


@pytest.mark.parametrize("algorithm", HMAC_ALGORITHMS)
def test_hmac_with_another_secret_is_a_bad_signature(gateway, raw_upstream, algorithm):
    token = mint(claims(aud=HMAC_AUDIENCE), algorithm, b"another-secret-of-enough-length-0123456789")
    assert_refused(gateway, raw_upstream, "/hs", bearer(token), "bad signature",
                   reason="bad_signature", secrets=[token])


# MARK: - Key selection


def test_kid_selects_the_second_rsa_key(gateway, raw_upstream, keys):
    token = mint(claims(sub="second-key", **user_claims_defaults()), "RS256", keys.rsa_second,
                 kid="rsa-2")
    assert_admitted(gateway, raw_upstream, "/jwt", token, subject="second-key")


def test_kid_naming_another_key_is_a_bad_signature(gateway, raw_upstream, keys):
    token = mint(claims(**user_claims_defaults()), "RS256", keys.rsa_second, kid="rsa-1")
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token), "bad signature",
                   reason="bad_signature", secrets=[token])


def test_token_without_kid_uses_the_key_without_kid(gateway, raw_upstream, keys):
    token = mint(claims(sub="no-kid", **user_claims_defaults()), "RS256", keys.rsa_without_kid)
    assert_admitted(gateway, raw_upstream, "/jwt", token, subject="no-kid")


def test_token_without_kid_is_not_checked_against_keys_with_one(gateway, raw_upstream, keys):
    token = mint(claims(**user_claims_defaults()), "RS256", keys.rsa)
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token), "bad signature",
                   reason="bad_signature", secrets=[token])


def test_published_kid_with_a_stranger_key_is_a_bad_signature(gateway, raw_upstream, keys):
    token = mint(claims(**user_claims_defaults()), "RS256", keys.stranger, kid="rsa-1")
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token), "bad signature",
                   reason="bad_signature", secrets=[token])


def test_es256_token_naming_the_p384_key_does_not_fit(gateway, raw_upstream, keys):
    token = mint(claims(**user_claims_defaults()), "ES256", keys.ec256, kid="ec-384")
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token),
                   "signing key does not fit the algorithm", reason="invalid_key", secrets=[token])


# MARK: - Claims that pass


def test_audience_array_with_one_configured_value_passes(gateway, raw_upstream, keys):
    payload = claims(sub="multi-aud", iss=user_claims_defaults()["iss"],
                     aud=["someone-else", AUDIENCES[1]])
    token = mint(payload, "ES256", keys.ec256, kid="ec-256")
    assert_admitted(gateway, raw_upstream, "/jwt", token, subject="multi-aud")


def test_nbf_in_the_past_passes(gateway, raw_upstream, keys):
    payload = claims(sub="nbf-past", nbf=claims()["iat"] - 60, **user_claims_defaults())
    token = mint(payload, "RS256", keys.rsa, kid="rsa-1")
    assert_admitted(gateway, raw_upstream, "/jwt", token, subject="nbf-past")


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "BeArEr"])
def test_bearer_scheme_is_case_insensitive(gateway, raw_upstream, keys, scheme):
    token = mint(claims(sub="any-case", **user_claims_defaults()), "RS256", keys.rsa, kid="rsa-1")
    assert_admitted(gateway, raw_upstream, "/jwt", token, scheme=scheme, subject="any-case")


def test_refusal_description_is_fixed_text(gateway, raw_upstream, keys):
    """The challenge is the same whatever the token holds: it never reflects token bytes."""
    token = mint(claims(sub="x", iss="https://evil.example/\"injected", aud=AUDIENCES[0]),
                 "RS256", keys.rsa, kid="rsa-1")
    raw_upstream.reset()
    response, _ = send(gateway, "/jwt", bearer(token))
    assert response.status == 401
    assert response.header_values("www-authenticate") == [challenge("wrong issuer")]
