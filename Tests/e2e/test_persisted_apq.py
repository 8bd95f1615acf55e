"""Apollo APQ / trusted documents: operations called by the SHA-256 of their text, in a POST
body or a GET `?extensions=` parameter (README, "Persisted operations"). Hashes are computed here with hashlib over
the exact file text a client would ship.
"""

import json
from urllib.parse import quote

import httpx
import pytest

from support.envelope import assert_httpx_envelope
from support.persisted_fixtures import client, gateway, movies  # noqa: F401 (fixtures)
from support.persisted_setup import OPERATION_FILES, file_hash, sha256_hex, stored_text

UNKNOWN_HASH = sha256_hex("query nobodyHoldsThis { movie(key: \"m1\") { title } }")


def extensions(sha: str) -> dict:
    return {"persistedQuery": {"version": 1, "sha256Hash": sha}}


def post_hash(client, path: str, sha: str, variables=None, **fields) -> httpx.Response:
    payload = {"extensions": extensions(sha), **fields}
    if variables is not None:
        payload["variables"] = variables
    return client.post(path, content=json.dumps(payload).encode(),
                       headers={"Content-Type": "application/json"})


def get_hash(client, path: str, sha: str, variables=None) -> httpx.Response:
    query = "extensions=" + quote(json.dumps(extensions(sha)), safe="")
    if variables is not None:
        query += "&variables=" + quote(json.dumps(variables), safe="")
    return client.get(f"{path}?{query}")


def assert_not_found(response) -> None:
    """HTTP 200 with the error Apollo clients look for, so they retry with the full text."""
    assert response.status_code == 200, response.text
    document = response.json()
    error = document["errors"][0]
    assert error["message"] == "PersistedQueryNotFound"
    assert error["extensions"]["code"] == "PERSISTED_QUERY_NOT_FOUND"
    assert "data" not in document or document["data"] is None


def assert_sent(movies, name: str, variables: dict) -> None:
    entry = movies.only_request()
    assert entry["method"] == "POST" and entry["target"] == "/graphql", entry
    assert entry["json"] == {"query": stored_text(name), "operationName": name, "variables": variables}


# MARK: - Unknown hashes


@pytest.mark.parametrize("path", ["/graphql", "/ops/", "/public"])
def test_unknown_hash_by_post_is_persisted_query_not_found(client, movies, path):
    assert_not_found(post_hash(client, path, UNKNOWN_HASH))
    assert movies.requests() == []


def test_unknown_hash_by_get_is_persisted_query_not_found(client, movies):
    assert_not_found(get_hash(client, "/graphql", UNKNOWN_HASH, {"key": "m1"}))
    assert movies.requests() == []


# MARK: - Known hashes


@pytest.mark.parametrize("name,variables,data", [
    ("getMovie", {"key": "m4"}, {"movie": {"key": "m4", "title": "Airplane!"}}),
    ("searchMovies", {"text": "Heat", "exact": True}, {"search": [{"key": "m2", "title": "Heat", "rating": 8.3}]}),
    ("appsetting", {}, {"appsetting": {"cdnUrl": "https://cdn.example.test/", "minVersion": "1.2.3"}}),
])
def test_file_hash_by_post_runs_the_operation(client, movies, name, variables, data):
    response = post_hash(client, "/graphql", file_hash(name), variables)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": data}
    assert_sent(movies, name, variables)


def test_stored_text_hash_runs_the_operation(client, movies):
    """A file holding a comment: its stored text has another hash, which is registered too."""
    assert file_hash("searchMovies") != sha256_hex(stored_text("searchMovies"))
    response = post_hash(client, "/graphql", sha256_hex(stored_text("searchMovies")), {"text": "Arrival"})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"search": [{"key": "m3", "title": "Arrival", "rating": 7.9}]}}
    assert_sent(movies, "searchMovies", {"text": "Arrival"})


def test_known_hash_on_an_only_route(client, movies):
    response = post_hash(client, "/ops/", file_hash("listMoviesByGenre"), {"genre": "COMEDY"})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"moviesByGenre": [{"key": "m4", "title": "Airplane!", "genre": "COMEDY"}]}}
    assert_sent(movies, "listMoviesByGenre", {"genre": "COMEDY"})


def test_known_hash_by_get_extensions(client, movies):
    response = get_hash(client, "/graphql", file_hash("getMovie"), {"key": "007"})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"movie": {"key": "007", "title": "Dr. No"}}}
    assert_sent(movies, "getMovie", {"key": "007"})


def test_mutation_hash_by_get_is_405(client, movies):
    response = get_hash(client, "/graphql", file_hash("createMovie"), {"title": "x"})
    assert_httpx_envelope(response, 405, "METHOD_NOT_ALLOWED", source="gateway")
    assert response.headers.get_list("allow") == ["POST"]
    assert movies.requests() == []


def test_mutation_hash_by_post_runs(client, movies):
    response = post_hash(client, "/ops/", file_hash("createMovie"), {"title": "By Hash"})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["createMovie"]["title"] == "By Hash"
    assert_sent(movies, "createMovie", {"title": "By Hash"})


def test_known_hash_of_a_non_listed_operation_is_403(client, movies):
    response = post_hash(client, "/public", file_hash("listMoviesByGenre"), {"genre": "SCIFI"})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert movies.requests() == []


# MARK: - Hash with text (APQ registration)


def test_text_with_a_wrong_hash_is_400(client, movies):
    text = OPERATION_FILES["appsetting"]
    response = post_hash(client, "/graphql", UNKNOWN_HASH, query=text)
    assert_httpx_envelope(response, 400, "BAD_REQUEST", source="gateway")
    assert movies.requests() == []


def test_registration_of_new_text_is_free_form(client, movies):
    text = "query titleOnly { movie(key: \"m3\") { title } }"
    allowed = post_hash(client, "/graphql", sha256_hex(text), query=text)
    assert allowed.status_code == 200, allowed.text
    assert allowed.json() == {"data": {"movie": {"title": "Arrival"}}}
    assert len(movies.requests()) == 1
    movies.clear()
    refused = post_hash(client, "/ops/", sha256_hex(text), query=text)
    assert_httpx_envelope(refused, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert movies.requests() == []
