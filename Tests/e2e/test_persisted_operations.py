"""Persisted operations held by the gateway: calls by name (POST and GET with typed variables),
free-form queries on `allow` and `only` routes, and `operations:` allow-lists (README, "Persisted operations").

The upstream is a real strawberry server that records each request whole, so every test checks
both the answer and the exact GraphQL POST the gateway made of the call.
"""

import json
from urllib.parse import quote

import httpx
import pytest

from support.envelope import assert_httpx_envelope
from support.persisted_fixtures import client, gateway, movies  # noqa: F401 (fixtures)
from support.movies_client import header_values
from support.persisted_setup import stored_text

# In the smoke subset (pytest -m smoke): run against the statically linked build too.
pytestmark = pytest.mark.smoke


def post_json(client, path: str, payload: dict) -> httpx.Response:
    return client.post(path, content=json.dumps(payload).encode(),
                       headers={"Content-Type": "application/json"})


def assert_sent_stored(movies, name: str, variables: dict) -> dict:
    """The upstream got one normal GraphQL POST of the stored document; returns its record."""
    entry = movies.only_request()
    assert entry["method"] == "POST" and entry["target"] == "/graphql", entry
    assert [v.split(";")[0].strip() for v in header_values(entry, "content-type")] == ["application/json"]
    assert entry["json"] == {"query": stored_text(name), "operationName": name, "variables": variables}
    return entry


def assert_nothing_sent(movies) -> None:
    assert movies.requests() == [], "the upstream received a request"


def get(client, path: str, pairs=()) -> httpx.Response:
    """GET with a query string built from (name, value) pairs, each percent-encoded."""
    query = "&".join(f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in pairs)
    return client.get(path + ("?" + query if query else ""))


# MARK: - Calls by name with POST


def test_post_by_name_sends_the_stored_document(client, movies):
    variables = {"genre": "SCIFI", "limit": 2}
    response = post_json(client, "/graphql", {"operationName": "listMoviesByGenre", "variables": variables})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"moviesByGenre": [
        {"key": "m1", "title": "Alien", "genre": "SCIFI"},
        {"key": "m3", "title": "Arrival", "genre": "SCIFI"}]}}
    assert_sent_stored(movies, "listMoviesByGenre", variables)


def test_post_by_name_includes_the_fragments_it_uses(client, movies):
    response = post_json(client, "/ops/getMovie", {"operationName": "getMovie", "variables": {"key": "m2"}})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"movie": {"key": "m2", "title": "Heat"}}}
    entry = assert_sent_stored(movies, "getMovie", {"key": "m2"})
    assert "fragment MovieFields on Movie" in entry["json"]["query"]


def test_post_by_name_without_variables_sends_an_empty_object(client, movies):
    response = post_json(client, "/public", {"operationName": "appsetting"})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"appsetting": {"cdnUrl": "https://cdn.example.test/",
                                                       "minVersion": "1.2.3"}}}
    assert_sent_stored(movies, "appsetting", {})


def test_mutation_by_name_with_post(client, movies):
    response = post_json(client, "/ops/createMovie",
                         {"operationName": "createMovie", "variables": {"title": "Dune \u2013 Part 1"}})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["createMovie"]["title"] == "Dune \u2013 Part 1"
    assert_sent_stored(movies, "createMovie", {"title": "Dune \u2013 Part 1"})


def test_post_of_an_unknown_name_on_only_is_refused(client, movies):
    response = post_json(client, "/ops/nothing", {"operationName": "noSuchOperation"})
    assert_httpx_envelope(response, 400, "BAD_REQUEST", source="gateway")
    assert "noSuchOperation" in response.json()["errors"][0]["message"]
    assert_nothing_sent(movies)


# MARK: - Calls by name with GET: typed variables


@pytest.mark.parametrize("pairs,variables,data", [
    ([("key", "m3")], {"key": "m3"}, {"movie": {"key": "m3", "title": "Arrival"}}),
    ([("key", "007")], {"key": "007"}, {"movie": {"key": "007", "title": "Dr. No"}}),
], ids=["id", "id-with-leading-zeros"])
def test_get_id_variable_is_a_string(client, movies, pairs, variables, data):
    response = get(client, "/ops/getMovie", pairs)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": data}
    assert_sent_stored(movies, "getMovie", variables)


def test_get_enum_int_and_repeated_list(client, movies):
    pairs = [("genre", "SCIFI"), ("limit", "5"), ("tags", "space"), ("tags", "horror")]
    response = get(client, "/ops/listMoviesByGenre", pairs)
    assert response.status_code == 200, response.text
    assert [m["key"] for m in response.json()["data"]["moviesByGenre"]] == ["m1", "m3"]
    entry = assert_sent_stored(movies, "listMoviesByGenre",
                               {"genre": "SCIFI", "limit": 5, "tags": ["space", "horror"]})
    assert '"limit":5' in entry["body"].replace(" ", "")


def test_get_single_list_value_is_a_one_element_list(client, movies):
    response = get(client, "/ops/listMoviesByGenre", [("genre", "ACTION"), ("tags", "spy")])
    assert response.status_code == 200, response.text
    assert [m["key"] for m in response.json()["data"]["moviesByGenre"]] == ["007"]
    assert_sent_stored(movies, "listMoviesByGenre", {"genre": "ACTION", "tags": ["spy"]})


def test_get_string_boolean_and_float(client, movies):
    pairs = [("text", "Alien Nation"), ("exact", "true"), ("minRating", "6.0")]
    response = get(client, "/ops/searchMovies", pairs)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"search": [{"key": "m6", "title": "Alien Nation", "rating": 6.2}]}}
    entry = assert_sent_stored(movies, "searchMovies",
                               {"text": "Alien Nation", "exact": True, "minRating": 6.0})
    assert isinstance(entry["json"]["variables"]["minRating"], float)
    assert isinstance(entry["json"]["variables"]["exact"], bool)


@pytest.mark.parametrize("value,expected", [("false", False), ("true", True)])
def test_get_boolean_values(client, movies, value, expected):
    response = get(client, "/ops/searchMovies", [("text", "Alien"), ("exact", value)])
    assert response.status_code == 200, response.text
    titles = [m["title"] for m in response.json()["data"]["search"]]
    assert titles == (["Alien"] if expected else ["Alien", "Alien Nation"])
    assert_sent_stored(movies, "searchMovies", {"text": "Alien", "exact": expected})


def test_get_string_keeps_special_characters(client, movies):
    text = "a&b=c+d %e/\u00fc\u00df"
    response = get(client, "/ops/searchMovies", [("text", text)])
    assert response.status_code == 200, response.text
    assert_sent_stored(movies, "searchMovies", {"text": text})


def test_get_variables_json_parameter(client, movies):
    variables = {"genre": "SCIFI", "limit": 1, "tags": ["space"]}
    response = get(client, "/ops/listMoviesByGenre", [("variables", json.dumps(variables))])
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"moviesByGenre": [{"key": "m1", "title": "Alien", "genre": "SCIFI"}]}}
    assert_sent_stored(movies, "listMoviesByGenre", variables)


def test_get_query_parameter_wins_over_variables_json(client, movies):
    pairs = [("variables", json.dumps({"genre": "COMEDY", "limit": 3})), ("genre", "ACTION")]
    response = get(client, "/ops/listMoviesByGenre", pairs)
    assert response.status_code == 200, response.text
    assert_sent_stored(movies, "listMoviesByGenre", {"genre": "ACTION", "limit": 3})


def test_get_optional_variables_may_be_left_out(client, movies):
    response = get(client, "/ops/searchMovies")
    assert response.status_code == 200, response.text
    keys = [movie["key"] for movie in response.json()["data"]["search"]]
    assert keys[:6] == ["m1", "m2", "m3", "m4", "007", "m6"]  # and any the mutation test created
    assert_sent_stored(movies, "searchMovies", {})


# MARK: - GET refusals


def test_mutation_over_get_is_405_with_allow_post(client, movies):
    response = get(client, "/ops/createMovie", [("title", "Nope")])
    assert_httpx_envelope(response, 405, "METHOD_NOT_ALLOWED", source="gateway")
    assert response.headers.get_list("allow") == ["POST"]
    assert_nothing_sent(movies)


@pytest.mark.parametrize("path,pairs,variable", [
    ("/ops/getMovie", [], "$key"),
    ("/ops/listMoviesByGenre", [("limit", "3")], "$genre"),
    ("/ops/listMoviesByGenre", [("genre", "SCIFI"), ("limit", "1.5")], "$limit"),
    ("/ops/listMoviesByGenre", [("genre", "SCIFI"), ("limit", "ten")], "$limit"),
    ("/ops/listMoviesByGenre", [("genre", "SCIFI"), ("limit", "99999999999")], "$limit"),
    ("/ops/listMoviesByGenre", [("genre", "SCIFI"), ("limit", "1"), ("limit", "2")], "$limit"),
    ("/ops/searchMovies", [("exact", "yes")], "$exact"),
    ("/ops/searchMovies", [("exact", "True")], "$exact"),
    ("/ops/searchMovies", [("minRating", "NaN")], "$minRating"),
    ("/ops/searchMovies", [("minRating", "8,5")], "$minRating"),
    ("/ops/searchMovies", [("text", "a"), ("text", "b")], "$text"),
], ids=["missing-id", "missing-enum", "int-fraction", "int-word", "int-overflow", "int-twice",
        "bool-yes", "bool-capital", "float-nan", "float-comma", "string-twice"])
def test_wrong_or_missing_variable_is_400_naming_it(client, movies, path, pairs, variable):
    response = get(client, path, pairs)
    assert_httpx_envelope(response, 400, "BAD_REQUEST", source="gateway")
    message = response.json()["errors"][0]["message"]
    assert variable in message, message
    assert_nothing_sent(movies)


def test_unknown_variable_is_400_naming_it(client, movies):
    response = get(client, "/ops/getMovie", [("key", "m1"), ("kee", "m2")])
    assert_httpx_envelope(response, 400, "BAD_REQUEST", source="gateway")
    assert "kee" in response.json()["errors"][0]["message"]
    assert_nothing_sent(movies)


def test_get_of_an_unknown_name_is_404(client, movies):
    response = get(client, "/ops/noSuchOperation", [("x", "1")])
    assert_httpx_envelope(response, 404, "NOT_FOUND", source="gateway")
    assert_nothing_sent(movies)


# MARK: - Free-form queries


FREE_FORM = "query appsetting { appsetting { cdnUrl } }"


@pytest.mark.parametrize("path", ["/ops/appsetting", "/public"])
def test_free_form_post_is_refused_on_only(client, movies, path):
    response = post_json(client, path, {"query": FREE_FORM})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)


def test_free_form_post_with_a_held_name_is_refused_on_only(client, movies):
    """Naming a held operation does not make arbitrary text acceptable."""
    response = post_json(client, "/public", {"query": "query appsetting { __schema { types { name } } }",
                                             "operationName": "appsetting"})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)


def test_free_form_get_is_refused_on_only(client, movies):
    response = get(client, "/public", [("query", FREE_FORM)])
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)


def test_free_form_post_passes_untouched_on_allow(client, movies):
    body = b'{"query":"{ movie(key: \\"m4\\") { title } }","variables":{}}'
    response = client.post("/graphql", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"movie": {"title": "Airplane!"}}}
    entry = movies.only_request()
    assert entry["body"].encode() == body


def test_free_form_get_passes_on_allow(client, movies):
    response = get(client, "/graphql", [("query", "{ movie(key: \"m2\") { title } }")])
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"movie": {"title": "Heat"}}}
    entry = movies.only_request()
    assert entry["method"] == "GET"


# MARK: - Allow-lists


def test_listed_name_passes(client, movies):
    response = post_json(client, "/public", {"operationName": "appsetting", "variables": {}})
    assert response.status_code == 200, response.text
    assert_sent_stored(movies, "appsetting", {})


@pytest.mark.parametrize("name", ["listMoviesByGenre", "createMovie", "noSuchOperation", "AppSetting"])
def test_non_listed_name_is_403(client, movies, name):
    response = post_json(client, "/public", {"operationName": name, "variables": {"genre": "SCIFI"}})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)


def test_allow_list_on_an_allow_route_passes_the_stored_text(client, movies):
    """Free-form text passes when it is the stored document of a listed name: the same tokens,
    whatever the white space, commas and comments."""
    movies.clear()
    reformatted = "# the client's own copy\n" + " ".join(stored_text("searchMovies").split()).replace(") {", "){,")
    listed = post_json(client, "/listed", {"query": reformatted, "variables": {"text": "Heat"}})
    assert listed.status_code == 200, listed.text
    assert listed.json()["data"]["search"][0]["key"] == "m2"
    assert movies.only_request()["json"]["query"] == reformatted, "the text is forwarded as the client sent it"


@pytest.mark.parametrize("query", [
    # The listed name on another document: a name proves nothing about what the text does.
    "query searchMovies { search(text: \"Heat\") { key } }",
    "mutation searchMovies { createMovie(title: \"pwned\") { key } }",
    "query searchMovies { appsetting { cdnUrl } }",
    # The stored document with one field more, or with another operation beside it.
    stored_text("searchMovies").replace("rating\n", "rating\n    genre\n"),
    stored_text("searchMovies") + "\nmutation createMovie { createMovie(title: \"x\") { key } }",
])
def test_allow_list_refuses_other_text_under_a_listed_name(client, movies, query):
    response = post_json(client, "/listed", {"query": query, "operationName": "searchMovies"})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert "stored document" in response.json()["errors"][0]["message"]
    assert_nothing_sent(movies)


def test_allow_list_on_an_allow_route_checks_free_form_names(client, movies):
    unlisted = post_json(client, "/listed", {"query": "query appsetting { appsetting { cdnUrl } }"})
    assert_httpx_envelope(unlisted, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    anonymous = post_json(client, "/listed", {"query": "{ appsetting { cdnUrl } }"})
    assert_httpx_envelope(anonymous, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)


def test_allow_list_applies_to_calls_by_name_on_an_allow_route(client, movies):
    response = post_json(client, "/listed", {"operationName": "getMovie", "variables": {"key": "m1"}})
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    assert_nothing_sent(movies)
    response = post_json(client, "/listed", {"operationName": "searchMovies", "variables": {"text": "Arr"}})
    assert response.status_code == 200, response.text
    assert_sent_stored(movies, "searchMovies", {"text": "Arr"})


def test_refused_post_then_pipelined_request_on_one_connection(gateway, movies):
    """The refused request's body, already read with its head, is skipped: the next request on
    the same connection is answered, not parsed from the body's bytes."""
    from support.raw_http import RawClient
    body = json.dumps({"query": FREE_FORM}).encode()
    refused = (b"POST /public HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(body)) + body
    called = json.dumps({"operationName": "appsetting"}).encode()
    allowed = (b"POST /public HTTP/1.1\r\nHost: gatehouse.test\r\nContent-Type: application/json\r\n"
               b"Content-Length: %d\r\n\r\n" % len(called)) + called
    with RawClient(gateway.port) as raw:
        raw.send(refused + allowed)
        first = raw.read_response()
        second = raw.read_response()
    assert first.status == 403
    assert second.status == 200, second.body
