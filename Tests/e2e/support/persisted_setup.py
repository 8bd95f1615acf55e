"""The operations directory and gateway config the persisted-operation suites share (README, "Persisted operations").

Routes, all to the movies upstream's /graphql:
  /graphql  persisted: allow
  /ops/*    persisted: only        (calls by name, GET /ops/<name>?var=…)
  /public   persisted: only, operations: [appsetting]
  /listed   persisted: allow, operations: [listMoviesByGenre, searchMovies]
"""

import hashlib

from .gateway import base_config

FRAGMENT_FILE = "fragment MovieFields on Movie {\n  key\n  title\n}\n"

OPERATION_FILES = {
    "getMovie": "query getMovie($key: ID!) {\n  movie(key: $key) {\n    ...MovieFields\n  }\n}\n",
    "listMoviesByGenre": (
        "query listMoviesByGenre($genre: Genre!, $limit: Int = 10, $tags: [String!]) {\n"
        "  moviesByGenre(genre: $genre, limit: $limit, tags: $tags) {\n    key\n    title\n    genre\n  }\n}\n"),
    "searchMovies": (
        "# Search by title and rating.\n"
        "query searchMovies($text: String, $exact: Boolean, $minRating: Float) {\n"
        "  search(text: $text, exact: $exact, minRating: $minRating) {\n    key\n    title\n    rating\n  }\n}\n"),
    "createMovie": "mutation createMovie($title: String!) {\n  createMovie(title: $title) {\n    key\n    title\n  }\n}\n",
    "appsetting": "query appsetting {\n  appsetting {\n    cdnUrl\n    minVersion\n  }\n}\n",
}


def stored_text(name: str) -> str:
    """The text the gateway holds and sends: the definition (comments and surrounding blank
    lines are not part of it), then the fragments it uses, joined by a newline."""
    text = OPERATION_FILES[name]
    definition = text[text.index("query " if "query " in text else "mutation "):].strip()
    if name == "getMovie":
        return definition + "\n" + FRAGMENT_FILE.strip()
    return definition


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def file_hash(name: str) -> str:
    """The SHA-256 of the exact file text, as a client computes it over the file it ships."""
    return sha256_hex(OPERATION_FILES[name])


def write_operations(directory) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "fragments.graphql").write_text(FRAGMENT_FILE)
    for name, text in OPERATION_FILES.items():
        (directory / f"{name}.graphql").write_text(text)
    return str(directory)


def persisted_config(upstream_url: str, operations_dir: str):
    def config(port, admin):
        document = base_config(
            port, admin,
            upstreams={"movies": {"url": f"{upstream_url}/graphql", "timeout": "5s"}},
            routes=[
                {"path": "/graphql", "upstream": "movies", "auth": "none", "persisted": "allow"},
                {"path": "/ops/*", "upstream": "movies", "auth": "none", "persisted": "only"},
                {"path": "/public", "upstream": "movies", "auth": "none", "persisted": "only",
                 "operations": ["appsetting"]},
                {"path": "/listed", "upstream": "movies", "auth": "none", "persisted": "allow",
                 "operations": ["listMoviesByGenre", "searchMovies"]},
            ])
        document["operations"] = {"dir": operations_dir}
        return document

    return config
