"""Identity providers with remote keys (README, "Identity providers"): a JWK Set fetched over
https from a local server signed by the test CA, found directly or through OpenID discovery,
refreshed within `refresh: {min, max}`, rotated, failing and hanging; the Firebase preset
pointed at the local server; tokens from cookies and query strings; `check --online`.
"""

import http.client
import json
import secrets
import time

import httpx
import pytest

from support.auth_checks import bearer, send
from support.certificates import session_pki
from support.gateway import base_config, run_cli
from support.jwks_server import DISCOVERY_PATH, JWKSServer
from support.jwt_keys import claims, compact_json, forge, mint, rsa_key

REFRESH_MIN = 2  # seconds: the unknown-kid refetch limit in these tests


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return session_pki(tmp_path_factory)


@pytest.fixture
def idp(pki):
    server = JWKSServer(pki.server, keys=[rsa_key("k1")])
    yield server
    server.stop()


def provider(idp, pki, **extra):
    settings = {"type": "jwt", "algorithms": ["RS256"], "issuer": idp.issuer,
                "jwks_url": idp.jwks_url, "refresh": {"min": f"{REFRESH_MIN}s", "max": "1h"},
                "tls": {"ca_file": str(pki.ca)}}
    settings.update(extra)
    return {key: value for key, value in settings.items() if value is not None}


def gateway_config(upstream_url, providers: dict, route_auth="remote"):
    def config(port, admin):
        document = base_config(port, admin, upstreams={"raw": {"url": f"{upstream_url}/graphql", "timeout": "3s"}},
                               routes=[{"path": "/jwt", "upstream": "raw", "auth": route_auth},
                                       {"path": "/open", "upstream": "raw", "auth": "none"}])
        document["auth"] = providers
        return document
    return config


def token(key, issuer, kid=None, **extra):
    return mint(claims(iss=issuer, **extra), "RS256", key, kid=kid if kid is not None else key.kid)


def status_of(gateway, headers, path="/jwt"):
    response, _ = send(gateway, path, headers)
    return response


def eventually(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


# MARK: - Fetching and rotation


def test_keys_from_jwks_url_verify_tokens(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": provider(idp, pki)}))
    assert eventually(lambda: status_of(gateway, bearer(token(key, idp.issuer))).status == 200)
    assert status_of(gateway, bearer(token(rsa_key("k1"), idp.issuer))).status == 401  # same kid, other key
    metrics = gateway.metrics_text()
    assert 'gatehouse_jwks_refresh_total{provider="remote",outcome="success"}' in metrics
    assert 'gatehouse_jwks_key_age_seconds{provider="remote"}' in metrics


def test_discovery_finds_the_key_set(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    settings = provider(idp, pki, jwks_url=None, discovery=True)
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
    assert eventually(lambda: status_of(gateway, bearer(token(key, idp.issuer))).status == 200)
    assert idp.count(DISCOVERY_PATH) >= 1


def test_rotation_new_kid_accepted_after_refetch_and_removed_kid_refused(gateway_factory, raw_upstream, idp, pki):
    old = idp.keys[0]
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": provider(idp, pki)}))
    old_token = token(old, idp.issuer)
    assert eventually(lambda: status_of(gateway, bearer(old_token)).status == 200)
    new = rsa_key("k2")
    idp.set_keys(new)  # the old key is removed as the new one is published
    time.sleep(REFRESH_MIN)  # past refresh.min since the first fetch: an unknown kid may refetch
    new_token = token(new, idp.issuer)
    fetches = idp.count()
    # The unknown kid starts a refetch and the request waits for it.
    response = status_of(gateway, bearer(new_token))
    assert response.status == 200, response.body
    assert idp.count() == fetches + 1
    # Another unknown kid within refresh.min is refused at once, with no fetch.
    started = time.monotonic()
    response = status_of(gateway, bearer(token(rsa_key("k3"), idp.issuer)))
    assert response.status == 401 and time.monotonic() - started < 1.0
    assert "unknown signing key" in response.header("WWW-Authenticate")
    assert idp.count() == fetches + 1
    # The refetch dropped k1: its cached verification no longer counts.
    response = status_of(gateway, bearer(old_token))
    assert response.status == 401, response.body


def test_random_unknown_kids_cost_at_most_one_fetch_per_refresh_min(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": provider(idp, pki)}))
    assert eventually(lambda: status_of(gateway, bearer(token(key, idp.issuer))).status == 200)
    before = idp.count()
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=5)
    payload = compact_json(claims(iss=idp.issuer))
    for number in range(10_000):
        header = compact_json({"alg": "RS256", "typ": "JWT", "kid": secrets.token_hex(8)})
        forged = forge(header, payload, secrets.token_bytes(256))
        connection.request("POST", "/jwt", body=b'{"query":"{ hello }"}',
                           headers={"Content-Type": "application/json", "Authorization": f"Bearer {forged}"})
        response = connection.getresponse()
        response.read()
        assert response.status == 401
    connection.close()
    elapsed = time.monotonic() - started
    allowed = 1 + int(elapsed // REFRESH_MIN) + 1
    assert idp.count() - before <= allowed, (idp.count() - before, elapsed)


# MARK: - Failures


def test_server_down_at_start_answers_503_then_recovers(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    idp.set_mode("fail")
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": provider(idp, pki)}))
    idp.wait_for_count(1)
    response = status_of(gateway, bearer(token(key, idp.issuer)))
    assert response.status == 503
    extensions = response.json()["errors"][0]["extensions"]
    assert extensions["code"] == "UNAVAILABLE" and extensions["retryable"] is True
    assert status_of(gateway, [], path="/open").status == 200
    idp.set_mode("ok")
    assert eventually(lambda: status_of(gateway, bearer(token(key, idp.issuer))).status == 200, timeout=10)


def test_server_down_later_keeps_the_last_good_keys(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    settings = provider(idp, pki, refresh={"min": "1s", "max": "1s"})
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
    assert eventually(lambda: status_of(gateway, bearer(token(key, idp.issuer))).status == 200)
    idp.set_mode("fail")
    failed_before = idp.count()
    idp.wait_for_count(failed_before + 2)
    assert status_of(gateway, bearer(token(key, idp.issuer, sub="fresh"))).status == 200
    assert 'outcome="failure"' in gateway.metrics_text()
    idp.set_mode("hang")
    time.sleep(1.5)
    assert status_of(gateway, bearer(token(key, idp.issuer, sub="during-hang"))).status == 200


def test_a_secret_in_the_key_urls_query_is_sent_but_never_shown(gateway_factory, raw_upstream, idp, pki):
    """A key set's url may carry an access key in its query: the fetch sends it, while /status and
    the log name the url with its query as `?…`."""
    secret = secrets.token_hex(12)
    settings = provider(idp, pki, jwks_url=f"{idp.jwks_url}?access_key={secret}")
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
    # The local server answers only /jwks: this path is a 404, so the fetch fails and is reported.
    idp.wait_for_count(1, path=f"/jwks?access_key={secret}")

    def reported_error():
        document = httpx.get(f"{gateway.admin_url}/status", timeout=2).json()
        return next((source["last_error"] for source in document["identity_providers"] if source["last_error"]), None)

    assert eventually(lambda: reported_error() is not None)
    status_text = httpx.get(f"{gateway.admin_url}/status", timeout=2).text
    assert "/jwks?…" in reported_error() and secret not in status_text
    assert "/jwks?…" in gateway.stderr_text() and secret not in gateway.stderr_text()


def test_cache_control_max_age_is_honoured_within_min_and_max(gateway_factory, raw_upstream, pki):
    server = JWKSServer(pki.server, keys=[rsa_key("k1")], cache_control="public, max-age=2")
    try:
        settings = {"type": "jwt", "algorithms": ["RS256"], "jwks_url": server.jwks_url,
                    "refresh": {"min": "1s", "max": "1h"}, "tls": {"ca_file": str(pki.ca)}}
        gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
        server.wait_for_count(1)
        time.sleep(5.2)
        # max-age=2 within [1s, 1h]: a fetch at 0, ~2, ~4 (and maybe one at the edge).
        assert 3 <= server.count() <= 4, server.count()
        server.cache_control = "max-age=0"  # clamped up to min (1 s)
        first = server.count()
        time.sleep(3.2)
        assert 2 <= server.count() - first <= 4, server.count() - first
        server.cache_control = "max-age=86400000"  # clamped down to max (1 h): no more fetches soon
        time.sleep(1.2)
        settled = server.count()
        time.sleep(2.5)
        assert server.count() == settled
    finally:
        server.stop()


# MARK: - Firebase preset


def test_firebase_preset_with_a_local_key_url(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    project = "demo-project"
    settings = {"type": "firebase", "project_id": project, "jwks_url": idp.jwks_url,
                "tls": {"ca_file": str(pki.ca)}}
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
    issuer = f"https://securetoken.google.com/{project}"
    now = int(time.time())
    good = mint(claims(iss=issuer, aud=project, sub="firebase-user", auth_time=now - 60), "RS256", key, kid="k1")
    assert eventually(lambda: status_of(gateway, bearer(good)).status == 200)
    future_auth = mint(claims(iss=issuer, aud=project, auth_time=now + 3600), "RS256", key, kid="k1")
    empty_subject = mint(claims(iss=issuer, aud=project, sub="", auth_time=now - 60), "RS256", key, kid="k1")
    wrong_audience = mint(claims(iss=issuer, aud="other", auth_time=now - 60), "RS256", key, kid="k1")
    for refused in (future_auth, empty_subject, wrong_audience):
        assert status_of(gateway, bearer(refused)).status == 401


# MARK: - token_from


def test_cookie_and_query_token_sources(gateway_factory, raw_upstream, idp, pki):
    key = idp.keys[0]
    settings = provider(idp, pki, token_from=["header", "cookie:session", "query:access_token"])
    gateway = gateway_factory.start(gateway_config(raw_upstream.url, {"remote": settings}))
    good = token(key, idp.issuer)
    assert eventually(lambda: status_of(gateway, bearer(good)).status == 200)

    raw_upstream.reset()
    response = status_of(gateway, [("Cookie", f"theme=dark; session={good}; x=1")])
    assert response.status == 200
    forwarded = raw_upstream.requests[0]
    assert any(name.lower() == "cookie" and good in value for name, value in forwarded.headers)

    raw_upstream.reset()
    response, request_id = send(gateway, f"/jwt?page=2&access_token={good}&lang=en")
    assert response.status == 200
    forwarded = raw_upstream.requests[0]
    assert good not in forwarded.target and forwarded.target.endswith("?page=2&lang=en"), forwarded.target
    raw_upstream.reset()
    response, _ = send(gateway, f"/jwt?access_token={good}")
    assert response.status == 200 and "?" not in raw_upstream.requests[0].target
    entries = gateway.wait_for_access_log(lambda entry: entry.get("request_id") == request_id)
    assert entries and all(good not in json.dumps(entry) for entry in entries)
    assert good not in gateway.stdout_text() and good not in gateway.stderr_text()

    assert status_of(gateway, [("Cookie", "session=not-a-jwt")]).status == 401
    assert status_of(gateway, [("Cookie", "other=1")]).status == 401


# MARK: - check --online


def test_check_online_reports_an_unreachable_issuer(tmp_path, refused_port, pki):
    config = {
        "server": {"listen": "127.0.0.1:0"},
        "upstreams": {"raw": {"url": "http://127.0.0.1:9/graphql"}},
        "routes": [{"path": "/jwt", "upstream": "raw", "auth": "corp"}],
        "auth": {"corp": {"type": "jwt", "algorithms": ["RS256"], "discovery": True,
                          "issuer": f"https://127.0.0.1:{refused_port}/"}},
    }
    path = tmp_path / "gatehouse.yaml"
    path.write_text(json.dumps(config))
    offline = run_cli("check", "--config", str(path))
    assert offline.returncode == 0, offline.stdout + offline.stderr
    online = run_cli("check", "--config", str(path), "--online")
    assert online.returncode == 1
    assert "auth.corp" in online.stdout and "connect" in online.stdout, online.stdout


def test_check_online_accepts_a_reachable_key_set(tmp_path, idp, pki):
    config = {
        "server": {"listen": "127.0.0.1:0"},
        "upstreams": {"raw": {"url": "http://127.0.0.1:9/graphql"}},
        "routes": [{"path": "/jwt", "upstream": "raw", "auth": "corp"}],
        "auth": {"corp": {"type": "jwt", "algorithms": ["RS256"], "discovery": True, "issuer": idp.issuer,
                          "tls": {"ca_file": str(pki.ca)}}},
    }
    path = tmp_path / "gatehouse.yaml"
    path.write_text(json.dumps(config))
    online = run_cli("check", "--config", str(path), "--online")
    assert online.returncode == 0, online.stdout + online.stderr
