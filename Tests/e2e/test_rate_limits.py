"""Rate limits (README "Rate limits"): GCRA exactness over ten seconds, one allowance per key
(header, subject, API key, client address behind a trusted proxy), `ip` limits refusing bad
tokens before any is verified, the RateLimit fields on every response of a limited route, the
429 envelope on a connection that stays open, the refusal metric, and `gatehouse check` on
limits no request could ever satisfy.
"""

import time
import uuid

import pytest

from support.auth_checks import QUERY_BODY, bearer, metric_value
from support.envelope import assert_raw_envelope
from support.gateway import base_config, run_cli
from support.jwt_keys import claims, mint
from support.raw_http import RawClient
from support.yaml_writer import to_yaml

SECRET = b"rate-limit-tests-secret-0123456789abcdef"  # HS256 wants at least 32 bytes
API_KEYS = ["rl-key-one-7d2c9e", "rl-key-two-41ab0f"]
MINUTE = 60

# (path, auth, rate_limit) of every route; the upstream is the strawberry app.
ROUTES = [
    ("/exact", "none", [{"name": "exact", "key": "header:X-Client", "rate": "10/s", "burst": 5}]),
    ("/by-header", "none", [{"name": "per-tenant", "key": "header:X-Tenant", "rate": "1/m", "burst": 2}]),
    ("/by-ip", "none", [{"name": "per-ip", "key": "ip", "rate": "1/m", "burst": 2}]),
    ("/by-subject", "user-jwt", [{"key": "subject", "rate": "1/m", "burst": 2}]),
    ("/by-key", "app-keys", [{"key": "api_key", "rate": "1/m", "burst": 2}]),
    ("/guarded", "user-jwt", [{"name": "guard-ip", "key": "ip", "rate": "1/m", "burst": 3}]),
    ("/layered", "none", [{"name": "whole-route", "key": "route", "rate": "100/s"},
                          {"name": "per-tenant", "key": "header:X-Tenant", "rate": "1/m", "burst": 2}]),
    ("/open", "none", None),
]


def limits_config(upstream_url: str, routes_table=ROUTES):
    """`config_for_ports` for a gateway with the routes of `routes_table`."""

    def config(port, admin):
        routes = []
        for path, auth, limits in routes_table:
            route = {"path": path, "upstream": "app", "auth": auth}
            if limits:
                route["rate_limit"] = limits
            routes.append(route)
        document = base_config(port, admin, upstreams={"app": {"url": f"{upstream_url}/graphql"}},
                               routes=routes, trusted_proxies=["127.0.0.1/32"])
        document["auth"] = {
            "user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET.decode()},
            "app-keys": {"type": "api_key", "header": "X-Api-Key", "keys": API_KEYS},
        }
        return document

    return config


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(limits_config(graphql_upstream.url))


@pytest.fixture(autouse=True)
def clean_upstream(graphql_upstream):
    graphql_upstream.clear()


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def token(sub: str) -> str:
    return mint(claims(sub=sub), "HS256", SECRET)


def post(client: RawClient, path: str, headers=()):
    client.request("POST", path, headers=[("Content-Type", "application/json"), *headers], body=QUERY_BODY)
    return client.read_response(method="POST")


def statuses(gateway, path: str, headers, count: int) -> list:
    """`count` requests on one keep-alive connection; their statuses."""
    with RawClient(gateway.port, timeout=5.0) as client:
        return [post(client, path, headers).status for _ in range(count)]


def rate_limit_fields(response) -> tuple:
    return response.header("RateLimit-Policy"), response.header("RateLimit")


def assert_rate_limited(response, policy: str, retry_after: int = None) -> None:
    """The 429 envelope with Retry-After equal to extensions.retryAfter, and the fields."""
    extensions = assert_raw_envelope(response, 429, "RATE_LIMITED", source="gateway")
    header = response.header("Retry-After")
    assert header is not None and header.isdigit(), f"Retry-After {header!r}"
    assert extensions["retryAfter"] == int(header)
    if retry_after is not None:
        assert int(header) == retry_after
    assert not response.wants_close, "a refusal keeps the connection"
    policy_field, limit_field = rate_limit_fields(response)
    assert policy_field and policy_field.startswith(f'"{policy}";'), policy_field
    assert limit_field and limit_field.startswith(f'"{policy}";r=0;'), limit_field


# MARK: - Exactness


def test_ten_per_second_with_burst_five_over_ten_seconds(gateway, graphql_upstream):
    """One key, a request every 20 ms for 10 s: the burst of 5 plus one per 100 ms pass."""
    key = [("X-Client", unique("exact"))]
    allowed = refused = 0
    with RawClient(gateway.port, timeout=5.0) as client:
        started = time.monotonic()
        while time.monotonic() - started < 10.0:
            response = post(client, "/exact", key)
            if response.status == 200:
                allowed += 1
                assert response.header("RateLimit-Policy") == '"exact";q=10;w=1'
            else:
                refused += 1
                assert_rate_limited(response, "exact", retry_after=1)
                assert response.header("RateLimit") == '"exact";r=0;t=1'
            time.sleep(0.02)
    print(f"exactness (10/s, burst 5, one key, 10 s): {allowed} allowed, {refused} refused")
    assert 103 <= allowed <= 107, (allowed, refused)
    assert refused > 0
    assert len(graphql_upstream.requests()) == allowed, "a refused request never reaches the upstream"


# MARK: - One allowance per key


def test_header_values_are_separate_keys_and_missing_is_its_own(gateway):
    first, second = unique("tenant"), unique("tenant")
    assert statuses(gateway, "/by-header", [("X-Tenant", first)], 3) == [200, 200, 429]
    assert statuses(gateway, "/by-header", [("X-Tenant", second)], 3) == [200, 200, 429]
    assert statuses(gateway, "/by-header", [("X-Tenant", first)], 1) == [429]


def test_missing_header_counts_under_the_empty_key(gateway):
    # The first test to send no X-Tenant to /by-header: the empty key starts with a full burst.
    assert statuses(gateway, "/by-header", [], 3) == [200, 200, 429]
    assert statuses(gateway, "/by-header", [("X-Tenant", "")], 1) == [429]
    assert statuses(gateway, "/by-header", [("X-Tenant", unique("tenant"))], 1) == [200]


def test_subjects_are_separate_keys(gateway):
    alice, bob = token(unique("alice")), token(unique("bob"))
    assert statuses(gateway, "/by-subject", bearer(alice), 3) == [200, 200, 429]
    assert statuses(gateway, "/by-subject", bearer(bob), 3) == [200, 200, 429]


def test_api_keys_are_separate_keys(gateway):
    first, second = [("X-Api-Key", API_KEYS[0])], [("X-Api-Key", API_KEYS[1])]
    assert statuses(gateway, "/by-key", first, 3) == [200, 200, 429]
    assert statuses(gateway, "/by-key", second, 3) == [200, 200, 429]


def test_api_keys_never_appear_in_the_output(gateway):
    statuses(gateway, "/by-key", [("X-Api-Key", API_KEYS[0])], 1)
    output = gateway.stdout_text() + gateway.stderr_text()
    assert all(key not in output for key in API_KEYS)


def test_client_addresses_behind_a_trusted_proxy_are_separate_keys(gateway):
    first, second = "203.0.113.7", "198.51.100.9"
    assert statuses(gateway, "/by-ip", [("X-Forwarded-For", first)], 3) == [200, 200, 429]
    assert statuses(gateway, "/by-ip", [("X-Forwarded-For", second)], 3) == [200, 200, 429]
    # Entries left of the first untrusted hop are the client's own words: they change nothing.
    assert statuses(gateway, "/by-ip", [("X-Forwarded-For", f"192.0.2.1, {first}")], 1) == [429]
    assert statuses(gateway, "/by-ip", [("X-Forwarded-For", f"{first}, 192.0.2.44")], 2) == [200, 200]


# MARK: - Placement


def test_ip_limit_refuses_bad_tokens_before_verifying_them(gateway):
    """Three bad tokens are verified (and counted as failures); the flood after them is not."""
    forged = token("mallory")[:-4] + "AAAA"
    failures_before = sum(metric_value(gateway.metrics_text(), "gatehouse_auth_failures_total",
                                       route="/guarded", reason=reason)
                          for reason in ("bad_signature", "malformed"))
    seen = statuses(gateway, "/guarded", bearer(forged), 30)
    assert seen == [401] * 3 + [429] * 27
    text = gateway.metrics_text()
    failures = sum(metric_value(text, "gatehouse_auth_failures_total", route="/guarded", reason=reason)
                   for reason in ("bad_signature", "malformed"))
    assert failures - failures_before == 3
    assert metric_value(text, "gatehouse_rate_limited_total", route="/guarded", policy="guard-ip") == 27


# MARK: - Fields and envelope


def test_rate_limit_fields_count_down_and_the_refusal_reports_the_wait(gateway):
    tenant = [("X-Tenant", unique("fields"))]
    with RawClient(gateway.port, timeout=5.0) as client:
        first, second, third = (post(client, "/by-header", tenant) for _ in range(3))
    assert rate_limit_fields(first) == ('"per-tenant";q=1;w=60', '"per-tenant";r=1;t=60')
    assert rate_limit_fields(second) == ('"per-tenant";q=1;w=60', '"per-tenant";r=0;t=120')
    assert_rate_limited(third, "per-tenant", retry_after=MINUTE)
    assert third.header("RateLimit") == '"per-tenant";r=0;t=120'


def test_the_limit_closest_to_exhaustion_is_reported(gateway):
    tenant = [("X-Tenant", unique("layered"))]
    with RawClient(gateway.port, timeout=5.0) as client:
        responses = [post(client, "/layered", tenant) for _ in range(3)]
    assert [r.status for r in responses] == [200, 200, 429]
    assert rate_limit_fields(responses[0]) == ('"per-tenant";q=1;w=60', '"per-tenant";r=1;t=60')
    assert_rate_limited(responses[2], "per-tenant", retry_after=MINUTE)


def test_gateway_errors_on_a_limited_route_carry_the_fields(gateway):
    """A 401 after the pre-authentication stage reports that stage's limit."""
    with RawClient(gateway.port, timeout=5.0) as client:
        client.request("GET", "/guarded?query=%7Bhello%7D", headers=[("X-Forwarded-For", "192.0.2.200")])
        response = client.read_response()
    assert response.status == 401
    policy_field, limit_field = rate_limit_fields(response)
    assert policy_field == '"guard-ip";q=1;w=60'
    assert limit_field == '"guard-ip";r=2;t=60'


def test_routes_without_limits_carry_no_fields(gateway):
    with RawClient(gateway.port, timeout=5.0) as client:
        response = post(client, "/open")
    assert response.status == 200
    assert rate_limit_fields(response) == (None, None)


def test_refusals_are_counted_by_route_and_policy(gateway):
    tenant = [("X-Tenant", unique("metric"))]
    before = metric_value(gateway.metrics_text(), "gatehouse_rate_limited_total",
                          route="/by-header", policy="per-tenant")
    assert statuses(gateway, "/by-header", tenant, 5) == [200, 200, 429, 429, 429]
    after = metric_value(gateway.metrics_text(), "gatehouse_rate_limited_total",
                         route="/by-header", policy="per-tenant")
    assert after - before == 3


# MARK: - Reload


def test_limit_state_survives_a_reload(gateway_factory, graphql_upstream):
    """The memory store belongs to the process, not to a configuration."""
    before = [("/r", "none", [{"name": "per-tenant", "key": "header:X-Tenant", "rate": "1/m", "burst": 1}])]
    after = before + [("/added", "none", None)]
    gateway = gateway_factory.start(limits_config(graphql_upstream.url, before))
    tenant = [("X-Tenant", unique("reload"))]
    assert statuses(gateway, "/r", tenant, 1) == [200]
    gateway.reload(limits_config(graphql_upstream.url, after)(gateway.port, gateway.admin_port))
    deadline = time.monotonic() + 5.0
    while statuses(gateway, "/added", [], 1) != [200]:
        assert time.monotonic() < deadline, "the reload did not take effect"
        time.sleep(0.05)
    assert statuses(gateway, "/r", tenant, 1) == [429]


# MARK: - gatehouse check


def check_lines(tmp_path, route_auth, limits) -> list:
    config = {
        "server": {"listen": "127.0.0.1:18080", "admin_listen": "", "workers": 1},
        "upstreams": {"app": {"url": "http://127.0.0.1:4000/graphql"}},
        "auth": {"user-jwt": {"type": "jwt", "algorithms": ["HS256"], "secret": SECRET.decode()},
                 "app-keys": {"type": "api_key", "keys": API_KEYS}},
        "routes": [{"path": "/g", "upstream": "app", "auth": route_auth, "rate_limit": limits}],
    }
    path = tmp_path / "gatehouse.yaml"
    path.write_text(to_yaml(config))
    result = run_cli("check", "--config", str(path))
    assert result.returncode == 1, (result.stdout, result.stderr)
    return [line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize("auth, limit, expected", [
    ("none", {"key": "subject", "rate": "1/s"},
     'routes[0].rate_limit[0].key: "subject" needs an authenticated route; this route has auth: none'),
    ("none", {"key": "api_key", "rate": "1/s"},
     'routes[0].rate_limit[0].key: "api_key" needs an authenticated route; this route has auth: none'),
    ("user-jwt", {"key": "api_key", "rate": "1/s"},
     "routes[0].rate_limit[0].key: \"api_key\" needs an api_key provider in the route's auth; none of user-jwt is one"),
    ("app-keys", {"key": "subject", "rate": "1/s"},
     "routes[0].rate_limit[0].key: \"subject\" needs a jwt provider in the route's auth; API keys have no subject (use key: api_key)"),
    ("none", {"key": "ip", "rate": "1/s", "burst": 0},
     "routes[0].rate_limit[0].burst: must be between 1 and 1000000"),
    ("none", {"key": "ip", "rate": "0/m"},
     'routes[0].rate_limit[0].rate: rate "0/m" allows no request; remove the limit or raise it'),
    ("none", {"key": "ip", "rate": "1/s", "store": "shared"},
     'routes[0].rate_limit[0].store: unknown store "shared" (expected "memory")'),
])
def test_check_refuses_impossible_limits(tmp_path, auth, limit, expected):
    assert expected in check_lines(tmp_path, auth, [limit])


def test_check_refuses_duplicate_policy_names(tmp_path):
    lines = check_lines(tmp_path, "none", [{"name": "a", "key": "ip", "rate": "1/s"},
                                           {"name": "a", "key": "route", "rate": "9/s"}])
    assert ('routes[0].rate_limit[1].name: policy name "a" is already used by routes[0].rate_limit[0]; '
            "give each limit of a route its own name") in lines
