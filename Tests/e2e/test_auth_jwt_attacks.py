"""Attacks on the JWT door: each is a 401 (or the stated status) with the exact challenge, the
gateway's envelope, no trace of the token in the response or the logs, one more count in
`gatehouse_auth_failures_total`, and not one byte sent upstream (README, "How a request is handled").
"""

import time

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

from support.auth_checks import assert_refused, bearer, send
from support.auth_gateway import (HMAC_AUDIENCE, HMAC_SECRET, ISSUER, LEEWAY_SECONDS,
                                  AuthKeys, auth_config, user_claims_defaults)
from support.jwt_keys import (b64url, claims, compact_json, forge, forge_hmac, mint,
                              replace_signature, resign_hmac, with_padding)


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    return AuthKeys(tmp_path_factory.mktemp("jwt-attack-keys"))


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream, keys):
    return module_gateways.start(auth_config(keys, raw_upstream.url))


def user_token(keys, **claim_changes) -> str:
    """A valid RS256 token for /jwt, with claims changed (None removes one)."""
    payload = claims(**{**user_claims_defaults(), **claim_changes})
    return mint(payload, "RS256", keys.rsa, kid="rsa-1")


def rsa_signed(keys, header: dict, payload: dict) -> str:
    """A real RS256 (PKCS#1 v1.5, SHA-256) signature by rsa-1 over any header."""
    signing_input = b64url(compact_json(header)) + "." + b64url(compact_json(payload))
    signature = keys.rsa.private_key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return signing_input + "." + b64url(signature)


def refused(gateway, upstream, token: str, description: str, reason: str, path: str = "/jwt"):
    return assert_refused(gateway, upstream, path, bearer(token), description, reason=reason,
                          secrets=[token])


# MARK: - Missing and foreign credentials


def test_no_authorization_is_the_bare_challenge(gateway, raw_upstream):
    assert_refused(gateway, raw_upstream, "/jwt", [], None, reason="missing")


def test_basic_credentials_are_malformed(gateway, raw_upstream):
    secret = "dXNlcjpwYXNzd29yZC1zZWNyZXQ="
    assert_refused(gateway, raw_upstream, "/jwt", [("Authorization", f"Basic {secret}")],
                   "malformed token", reason="malformed", secrets=[secret])


def test_two_authorization_headers_are_a_400(gateway, raw_upstream, keys):
    token = user_token(keys)
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token) + bearer(token), False,
                   status=400, code="BAD_REQUEST", secrets=[token])


# MARK: - Algorithm attacks


@pytest.mark.parametrize("alg", ["none", "None", "nOnE", "NONE"])
@pytest.mark.parametrize("path", ["/jwt", "/hs"])
def test_unsigned_token_is_refused(gateway, raw_upstream, alg, path):
    payload = claims(**user_claims_defaults()) if path == "/jwt" else claims(aud=HMAC_AUDIENCE)
    token = forge(compact_json({"alg": alg, "typ": "JWT"}), compact_json(payload))
    assert token.endswith(".")
    refused(gateway, raw_upstream, token, "unsupported algorithm", "unsupported_algorithm", path)


def test_hs256_signed_with_the_rsa_public_key_is_refused(gateway, raw_upstream, keys):
    """Key confusion: the public PEM as an HMAC secret must not pass an RS256 provider."""
    payload = claims(**user_claims_defaults())
    for pem in (keys.rsa.public_pem, keys.rsa.public_pem.strip()):
        token = forge_hmac({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}, payload, pem)
        refused(gateway, raw_upstream, token, "unsupported algorithm", "unsupported_algorithm")


def test_rsa_signature_under_an_es256_header_does_not_fit_the_key(gateway, raw_upstream, keys):
    token = rsa_signed(keys, {"alg": "ES256", "kid": "rsa-1"}, claims(**user_claims_defaults()))
    refused(gateway, raw_upstream, token, "signing key does not fit the algorithm", "invalid_key")


def test_rsa_signature_under_an_es256_header_naming_the_ec_key_is_bad(gateway, raw_upstream, keys):
    token = rsa_signed(keys, {"alg": "ES256", "kid": "ec-256"}, claims(**user_claims_defaults()))
    refused(gateway, raw_upstream, token, "bad signature", "bad_signature")


@pytest.mark.parametrize("alg,kid,size", [("ES256", "ec-256", 32), ("ES384", "ec-384", 48)])
def test_ecdsa_zero_signature_is_refused(gateway, raw_upstream, keys, alg, kid, size):
    """r = s = 0 verifies against every message in broken ECDSA code ("psychic signatures")."""
    token = mint(claims(**user_claims_defaults()), alg, keys.for_algorithm(alg), kid=kid)
    forged = replace_signature(token, bytes(2 * size))
    refused(gateway, raw_upstream, forged, "bad signature", "bad_signature")


def test_embedded_jwk_header_is_ignored(gateway, raw_upstream, keys):
    """A token carrying its own key (`jwk`, `jku`, `x5u`) is checked against the set only."""
    header = {"alg": "RS256", "kid": "rsa-1", "jwk": keys.stranger.jwk(),
              "jku": "http://127.0.0.1:1/jwks.json", "x5u": "http://127.0.0.1:1/cert.pem"}
    token = mint(claims(**user_claims_defaults()), "RS256", keys.stranger, headers=header)
    refused(gateway, raw_upstream, token, "bad signature", "bad_signature")


def test_duplicate_alg_members_are_malformed(gateway, raw_upstream, keys):
    header = b'{"alg":"HS256","alg":"none","typ":"JWT"}'
    token = resign_hmac(header, claims(aud=HMAC_AUDIENCE), HMAC_SECRET)
    refused(gateway, raw_upstream, token, "malformed token", "malformed", "/hs")
    header = b'{"alg":"RS256","kid":"rsa-1","alg":"HS256"}'
    token = resign_hmac(header, claims(**user_claims_defaults()), keys.rsa.public_pem)
    refused(gateway, raw_upstream, token, "malformed token", "malformed")


# MARK: - Key ids


@pytest.mark.parametrize("kid", ["../../dev/null", "/dev/null", "rsa-9", "RSA-1", "rsa-1 ",
                                 "http://127.0.0.1:1/key"])
def test_unknown_kid_is_refused(gateway, raw_upstream, keys, kid):
    token = mint(claims(**user_claims_defaults()), "RS256", keys.rsa, kid=kid)
    refused(gateway, raw_upstream, token, "unknown signing key", "unknown_key")


# MARK: - Time claims


def test_expired_beyond_the_leeway_is_refused(gateway, raw_upstream, keys):
    now = int(time.time())
    token = user_token(keys, exp=now - (LEEWAY_SECONDS + 1), iat=now - 600)
    refused(gateway, raw_upstream, token, "token expired", "expired")


def test_expired_within_the_leeway_passes(gateway, raw_upstream, keys):
    now = int(time.time())
    token = user_token(keys, sub="in-leeway", exp=now - (LEEWAY_SECONDS - 1), iat=now - 600)
    raw_upstream.reset()
    response, _ = send(gateway, "/jwt", bearer(token))
    assert response.status == 200, response.body[:300]
    assert [r.header("X-User-Id") for r in raw_upstream.requests] == ["in-leeway"]


def test_expired_without_leeway_is_refused(gateway, raw_upstream):
    now = int(time.time())
    token = mint(claims(aud=HMAC_AUDIENCE, exp=now - 2, iat=now - 60), "HS256", HMAC_SECRET)
    refused(gateway, raw_upstream, token, "token expired", "expired", "/hs")


def test_nbf_in_the_future_is_refused(gateway, raw_upstream, keys):
    token = user_token(keys, nbf=int(time.time()) + LEEWAY_SECONDS + 60)
    refused(gateway, raw_upstream, token, "token not yet valid", "not_yet_valid")


@pytest.mark.parametrize("exp", [None, "tomorrow", "1999999999", True, [1999999999], {"at": 1}],
                         ids=["missing", "word", "numeric-string", "bool", "array", "object"])
def test_exp_missing_or_not_a_number_is_malformed(gateway, raw_upstream, keys, exp):
    token = user_token(keys, exp=exp)
    if exp is None:
        assert '"exp"' not in token
    refused(gateway, raw_upstream, token, "malformed token", "malformed")


# MARK: - Audience and issuer


@pytest.mark.parametrize("aud", ["android-app", ["android-app", "tv-app"], "IOS-APP", "ios-app ", []],
                         ids=["other", "other-array", "case", "trailing-space", "empty-array"])
def test_wrong_audience_is_refused(gateway, raw_upstream, keys, aud):
    refused(gateway, raw_upstream, user_token(keys, aud=aud), "wrong audience", "wrong_audience")


def test_missing_audience_is_refused(gateway, raw_upstream, keys):
    token = user_token(keys, aud=None)
    refused(gateway, raw_upstream, token, "wrong audience", "wrong_audience")


@pytest.mark.parametrize("iss", [ISSUER.rstrip("/"), ISSUER + "/", ISSUER.upper(), None],
                         ids=["no-trailing-slash", "double-slash", "upper-case", "missing"])
def test_wrong_issuer_is_refused(gateway, raw_upstream, keys, iss):
    assert iss != ISSUER
    refused(gateway, raw_upstream, user_token(keys, iss=iss), "wrong issuer", "wrong_issuer")


# MARK: - Shape


def test_two_segments_are_malformed(gateway, raw_upstream, keys):
    token = user_token(keys).rsplit(".", 1)[0]
    refused(gateway, raw_upstream, token, "malformed token", "malformed")


def test_four_segments_are_malformed(gateway, raw_upstream, keys):
    token = user_token(keys) + "." + b64url(b"extra")
    refused(gateway, raw_upstream, token, "malformed token", "malformed")


def test_base64_padding_is_malformed(gateway, raw_upstream, keys):
    token = user_token(keys)
    padded = with_padding(token)
    assert "=" in padded, "every segment happened to be a multiple of four long"
    refused(gateway, raw_upstream, padded, "malformed token", "malformed")


def test_standard_base64_alphabet_is_malformed(gateway, raw_upstream, keys):
    token = user_token(keys)
    swapped = token.replace("-", "+").replace("_", "/")
    if swapped == token:
        pytest.skip("the token holds no URL-safe-only characters")
    refused(gateway, raw_upstream, swapped, "malformed token", "malformed")


def sixty_four_kib_token(keys) -> str:
    """A validly signed token of at least 64 KiB (a large claim)."""
    token = user_token(keys, pad="p" * (48 * 1024))
    assert len(token) >= 64 * 1024, len(token)
    return token


def test_64_kib_token_exceeds_the_default_header_limit(gateway, raw_upstream, keys):
    token = sixty_four_kib_token(keys)
    assert_refused(gateway, raw_upstream, "/jwt", bearer(token), False, status=431,
                   code="HEADERS_TOO_LARGE", secrets=[token])


def test_64_kib_token_under_a_larger_header_limit_is_malformed(gateway_factory, raw_upstream, keys):
    big = gateway_factory.start(auth_config(keys, raw_upstream.url, max_header_bytes="256KiB"))
    token = sixty_four_kib_token(keys)
    assert_refused(big, raw_upstream, "/jwt", bearer(token), "malformed token", reason="malformed",
                   secrets=[token])


# MARK: - Claims copied to headers


@pytest.mark.parametrize("sub", ["alice\r\nX-Injected: yes", "alice\nX-Injected: yes", "al\rice",
                                 "al\x00ice", "al\tice", "\u00e5lice", "alice\u2028"],
                         ids=["crlf", "lf", "cr", "nul", "tab", "non-ascii", "line-separator"])
def test_claim_that_cannot_be_a_header_value_is_refused(gateway, raw_upstream, keys, sub):
    refused(gateway, raw_upstream, user_token(keys, sub=sub), "invalid claim", "invalid_claim")


def test_refusal_envelope_fields(gateway, raw_upstream, keys):
    token = user_token(keys, aud="nobody")
    extensions = assert_refused(gateway, raw_upstream, "/jwt", bearer(token), "wrong audience",
                                secrets=[token])
    assert extensions["status"] == 401 and extensions["retryable"] is False
