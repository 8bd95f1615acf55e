"""Credentials the gateway did not verify never reach the upstream, and a key taken out of the
JWK Set stops its tokens (README "Identity providers" `token_from`, "How a request is handled").

`query:NAME`: the parameter the gateway verifies is cut from the URL the upstream gets, so a
second parameter of that name — written plainly or with percent-escapes the upstream decodes to
it — would arrive unverified: such a request is refused like a malformed token (as two
Authorization headers are refused), with nothing sent upstream. `cookie:NAME`: a Cookie is
forwarded as it is, so two cookies of the name are refused too, and so is a token in two of a
provider's sources (a header and a query parameter, say). `jwks_file`: a token already in
the verified-token cache is refused as soon as the rewritten file without its key is in use.
"""

import os
import time

import pytest

from support.auth_checks import assert_refused, bearer, send
from support.gateway import base_config
from support.jwt_keys import claims, compact_json, forge, mint, rsa_key, write_jwk_set

MALFORMED = "malformed token"
UNKNOWN_KEY = "unknown signing key"
# How long a rewritten jwks_file may take to be in use: the file is looked at once a second
# (about 1 s; the rest is room for a busy machine).
FILE_RELOAD_SECONDS = 3.0


@pytest.fixture(scope="module")
def signing_key():
    return rsa_key("k1")


@pytest.fixture(scope="module")
def gateway(module_gateways, raw_upstream, signing_key, tmp_path_factory):
    jwks = write_jwk_set(tmp_path_factory.mktemp("smuggling-keys") / "jwks.json", signing_key)

    def provider(source: str) -> dict:
        return {"type": "jwt", "algorithms": ["RS256"], "jwks_file": jwks, "token_from": ["header", source]}

    def config(port, admin):
        document = base_config(port, admin, upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "3s"}},
                               routes=[{"path": "/q", "upstream": "raw", "auth": "query-jwt"},
                                       {"path": "/c", "upstream": "raw", "auth": "cookie-jwt"}])
        document["auth"] = {"query-jwt": provider("query:access_token"), "cookie-jwt": provider("cookie:session")}
        return document

    return module_gateways.start(config)


@pytest.fixture(scope="module")
def good(signing_key) -> str:
    return mint(claims(sub="alice"), "RS256", signing_key, kid="k1")


@pytest.fixture(scope="module")
def other(signing_key) -> str:
    """A genuine token of another subject: the gateway would admit one subject, the upstream read another."""
    return mint(claims(sub="bob"), "RS256", signing_key, kid="k1")


@pytest.fixture(scope="module")
def forged() -> str:
    """Claims of the attacker's choosing under the published kid, and no real signature."""
    return forge(compact_json({"alg": "RS256", "kid": "k1"}), compact_json(claims(sub="admin", role="admin")), b"x")


def admitted(gateway, upstream, path: str, headers=()):
    """One request that must pass; the request the upstream received."""
    upstream.reset()
    response, _ = send(gateway, path, list(headers))
    assert response.status == 200, (response.status, response.body[:300])
    assert len(upstream.requests) == 1
    return upstream.requests[0]


def cookies_received(request) -> list:
    return [value for name, value in request.headers if name.lower() == "cookie"]


# MARK: - query:access_token

# Query strings, with {good}, {other} and {forged} for the tokens. A forged copy first is no case
# here: it is the one verified, and refused for its signature.
TWO_PARAMETERS = {
    "valid-then-forged": "access_token={good}&access_token={forged}",
    "another-subject-second": "access_token={good}&lang=en&access_token={other}",
    "valid-then-empty": "page=2&access_token={good}&access_token=",
    "escaped-underscore-second": "access_token={good}&access%5Ftoken={forged}",
    "escaped-underscore-first": "access%5ftoken={forged}&access_token={good}",
    "escaped-letter-second": "access_token={good}&%61ccess_toke%6E={forged}",
}


@pytest.mark.parametrize("query", TWO_PARAMETERS.values(), ids=TWO_PARAMETERS.keys())
def test_two_token_parameters_are_refused(gateway, raw_upstream, good, other, forged, query):
    """Whichever copy the gateway would verify, the other reaches the upstream unverified: 401
    malformed, not one byte upstream. The valid token alone still passes, its pair cut from the
    URL, a parameter with a name like it left alone."""
    path = "/q?" + query.format(good=good, other=other, forged=forged)
    assert_refused(gateway, raw_upstream, path, [], MALFORMED, reason="malformed", secrets=[good, other, forged],
                   route="/q")
    forwarded = admitted(gateway, raw_upstream, f"/q?page=2&access_token={good}&access_tokens=1&lang=en")
    assert forwarded.target.endswith("/graphql?page=2&access_tokens=1&lang=en"), forwarded.target


# MARK: - cookie:session

TWO_COOKIES = {
    "valid-then-forged": [("Cookie", "session={good}; session={forged}")],
    "another-subject-second": [("Cookie", "theme=dark; session={good}; session={other}")],
    "two-cookie-lines": [("Cookie", "session={good}"), ("Cookie", "theme=dark; session={forged}")],
}


@pytest.mark.parametrize("cookies", TWO_COOKIES.values(), ids=TWO_COOKIES.keys())
def test_two_token_cookies_are_refused(gateway, raw_upstream, good, other, forged, cookies):
    """The Cookie header goes upstream as it came: a second `session` there would be one the
    gateway never verified. One `session` passes, in one Cookie line or beside another line."""
    headers = [(name, value.format(good=good, other=other, forged=forged)) for name, value in cookies]
    assert_refused(gateway, raw_upstream, "/c", headers, MALFORMED, reason="malformed",
                   secrets=[good, other, forged])
    forwarded = admitted(gateway, raw_upstream, "/c", [("Cookie", f"theme=dark; session={good}; sessions=1")])
    assert cookies_received(forwarded) == [f"theme=dark; session={good}; sessions=1"]
    forwarded = admitted(gateway, raw_upstream, "/c", [("Cookie", f"session={good}"), ("Cookie", "theme=dark")])
    assert any(good in value for value in cookies_received(forwarded))


# MARK: - a token in two sources

TWO_SOURCES = {
    "header-and-forged-query": ("/q?access_token={forged}", [("Authorization", "Bearer {good}")]),
    "header-and-escaped-query": ("/q?access%5Ftoken={other}", [("Authorization", "Bearer {good}")]),
    "header-and-forged-cookie": ("/c", [("Authorization", "Bearer {good}"), ("Cookie", "session={forged}")]),
    "query-and-forged-header": ("/q?access_token={good}", [("Authorization", "Bearer {forged}")]),
}


@pytest.mark.parametrize("path, headers", TWO_SOURCES.values(), ids=TWO_SOURCES.keys())
def test_a_token_in_two_sources_is_refused(gateway, raw_upstream, good, other, forged, path, headers):
    """One source is verified; the other goes upstream too (a header, a cookie, a query parameter
    other than the verified one) and could be the one the upstream reads."""
    filled = [(name, value.format(good=good, other=other, forged=forged)) for name, value in headers]
    assert_refused(gateway, raw_upstream, path.format(good=good, other=other, forged=forged), filled, MALFORMED,
                   reason="malformed", secrets=[good, other, forged])
    admitted(gateway, raw_upstream, "/q?page=1", [("Authorization", f"Bearer {good}")])


# MARK: - jwks_file revocation


def test_a_key_removed_from_the_jwks_file_stops_its_cached_tokens(gateway_factory, raw_upstream, tmp_path):
    """Emergency revocation of a leaked signing key: k1 is taken out of the file. A k1 token
    verified before (so in the worker's verified-token cache) is refused as soon as the new file
    is in use — seen by a k1 token never used before being refused — not 30 s later; a k2 token
    verified before keeps passing."""
    leaked, kept = rsa_key("k1"), rsa_key("k2")
    jwks = tmp_path / "jwks.json"
    write_jwk_set(jwks, leaked, kept)

    def config(port, admin):
        document = base_config(port, admin, upstreams={"raw": {"url": f"{raw_upstream.url}/graphql", "timeout": "3s"}},
                               routes=[{"path": "/rotating", "upstream": "raw", "auth": "file-jwt"}])
        document["auth"] = {"file-jwt": {"type": "jwt", "algorithms": ["RS256"], "jwks_file": str(jwks)}}
        return document

    gateway = gateway_factory.start(config)
    cached = mint(claims(sub="leaked-cached"), "RS256", leaked, kid="k1")
    survivor = mint(claims(sub="kept-cached"), "RS256", kept, kid="k2")
    for token in (cached, cached, survivor):
        admitted(gateway, raw_upstream, "/rotating", bearer(token))

    write_jwk_set(tmp_path / "jwks.json.new", kept)
    os.replace(tmp_path / "jwks.json.new", jwks)
    rewritten = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        fresh = mint(claims(sub=f"leaked-fresh-{attempt}"), "RS256", leaked, kid="k1")
        raw_upstream.reset()
        response, _ = send(gateway, "/rotating", bearer(fresh))
        if response.status == 401:
            break
        assert response.status == 200, (response.status, response.body[:300])
        assert time.monotonic() - rewritten < FILE_RELOAD_SECONDS, "the rewritten jwks_file was never used"
        time.sleep(0.1)
    print(f"jwks_file rewritten: in use after {time.monotonic() - rewritten:.2f} s")

    assert_refused(gateway, raw_upstream, "/rotating", bearer(cached), UNKNOWN_KEY, reason="unknown_key",
                   secrets=[cached])
    admitted(gateway, raw_upstream, "/rotating", bearer(survivor))
