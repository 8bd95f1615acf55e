"""Queries and mutations go through Gatehouse to a real GraphQL server and back (README, "How a request is handled")."""

import json
import subprocess
from urllib.parse import quote

import httpx
import pytest

from support.envelope import REQUEST_ID
from support.gateway import base_config
from support.graphql_client import graphql_post

# In the smoke subset (pytest -m smoke): run against the statically linked build too.
pytestmark = pytest.mark.smoke


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    upstream_url = f"{graphql_upstream.url}/graphql"
    return module_gateways.start(lambda port, admin: base_config(
        port, admin,
        upstreams={"app": {"url": upstream_url, "timeout": "5s"}},
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/graphql/noauth", "upstream": "app", "auth": "none",
             "upstream_path": "/graphql/noauth"},
            {"path": "/api", "upstream": "app", "auth": "none"},
        ]))


@pytest.fixture
def client(gateway):
    with httpx.Client(base_url=gateway.url, timeout=10) as client:
        yield client


@pytest.fixture(autouse=True)
def clean_upstream(graphql_upstream):
    graphql_upstream.clear()


# MARK: - GraphQL over httpx


def test_query_returns_the_upstream_answer(client):
    response = graphql_post(client, '{ hello(name: "Gatehouse") }')
    assert response.status_code == 200
    assert response.json() == {"data": {"hello": "Hello, Gatehouse!"}}
    assert response.headers["content-type"].startswith("application/json")
    assert REQUEST_ID.match(response.headers["x-request-id"])


def test_query_with_variables(client):
    response = graphql_post(client, "query($genre: String) { movies(genre: $genre) { title } }",
                            {"genre": "crime"})
    assert response.status_code == 200
    assert response.json() == {"data": {"movies": [{"title": "Heat"}]}}


def test_mutation_then_query_sees_it(client):
    created = graphql_post(client, "mutation($t: String!, $g: String!) "
                                   "{ createMovie(title: $t, genre: $g) { title genre } }",
                           {"t": "Gattaca", "g": "e2e-genre"})
    assert created.status_code == 200
    assert created.json() == {"data": {"createMovie": {"title": "Gattaca", "genre": "e2e-genre"}}}
    listed = graphql_post(client, '{ movies(genre: "e2e-genre") { title } }')
    assert listed.json() == {"data": {"movies": [{"title": "Gattaca"}]}}


def test_graphql_error_answer_passes_through(client):
    response = graphql_post(client, "{ noSuchField }")
    assert response.status_code == 200
    document = response.json()
    assert "errors" in document and "noSuchField" in document["errors"][0]["message"]


def test_get_query_is_forwarded(client, graphql_upstream):
    response = client.get("/graphql", params={"query": '{ hello(name: "get") }'})
    assert response.status_code == 200
    assert response.json() == {"data": {"hello": "Hello, get!"}}
    [seen] = graphql_upstream.requests()
    assert seen["method"] == "GET"


# MARK: - curl


def curl(*arguments) -> subprocess.CompletedProcess:
    return subprocess.run(["curl", "-sS", "--max-time", "10", *arguments], capture_output=True,
                          text=True, timeout=20)


def test_curl_post(gateway):
    result = curl("-H", "Content-Type: application/json",
                  "--data", json.dumps({"query": '{ hello(name: "curl") }'}),
                  "-w", "\n%{http_code}", f"{gateway.url}/graphql")
    assert result.returncode == 0, result.stderr
    body, status = result.stdout.rsplit("\n", 1)
    assert status == "200"
    assert json.loads(body) == {"data": {"hello": "Hello, curl!"}}


def test_curl_get_and_mutation(gateway):
    movies = quote('{ movies(genre: "scifi") { title } }')
    get = curl(f"{gateway.url}/graphql?query={movies}")
    assert get.returncode == 0, get.stderr
    titles = {m["title"] for m in json.loads(get.stdout)["data"]["movies"]}
    assert {"Alien", "Arrival"} <= titles
    mutation = curl("-H", "Content-Type: application/json", "--data",
                    json.dumps({"query": 'mutation { createMovie(title: "Curl", genre: "c") '
                                         '{ title } }'}),
                    f"{gateway.url}/graphql")
    assert json.loads(mutation.stdout) == {"data": {"createMovie": {"title": "Curl"}}}


# MARK: - Paths and query strings


@pytest.mark.parametrize("query_string", [
    "a=1&b=2",
    "b=2&a=1&a=3",
    "x=%20y%2B&empty=&flag",
    "path=a/../b&slash=%2F&dot=%2e%2e",
    "nul=%00&pct=%25",
    "q=%7Bhello%7D&operationName=",
])
def test_query_string_is_forwarded_unchanged(client, graphql_upstream, query_string):
    response = client.post(f"/graphql?{query_string}", content=b'{"query":"{ hello }"}',
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    [seen] = graphql_upstream.requests()
    assert seen["path"] == f"/graphql?{query_string}"


def test_query_string_takes_no_part_in_routing(client):
    response = client.post("/api?route=/graphql/noauth", content=b'{"query":"{ hello }"}',
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 200


@pytest.mark.parametrize("client_path, upstream_path", [
    ("/graphql", "/graphql"),
    ("/graphql/noauth", "/graphql/noauth"),
    ("/api", "/graphql"),
    ("/api?x=1", "/graphql?x=1"),
])
def test_upstream_path(client, graphql_upstream, client_path, upstream_path):
    response = client.post(client_path, content=b'{"query":"{ hello }"}',
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 200
    assert response.json() == {"data": {"hello": "Hello, world!"}}
    [seen] = graphql_upstream.requests()
    assert seen["path"] == upstream_path


# MARK: - IPv6 listener


def test_ipv6_listener(gateway_factory, graphql_upstream):
    upstream_url = f"{graphql_upstream.url}/graphql"

    def config(port, admin):
        built = base_config(port, admin, upstreams={"app": {"url": upstream_url}},
                            routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}])
        built["server"]["listen"] = f"[::1]:{port}"
        return built

    gateway = gateway_factory.start(config, listen_host="::1")
    with httpx.Client(base_url=gateway.url, timeout=5) as client:
        response = graphql_post(client, '{ hello(name: "six") }')
    assert response.json() == {"data": {"hello": "Hello, six!"}}
    [seen] = graphql_upstream.requests()
    forwarded_for = [value for name, value in seen["headers"] if name == "x-forwarded-for"]
    assert forwarded_for == ["::1"]
