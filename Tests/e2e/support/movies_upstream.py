"""A strawberry GraphQL upstream for persisted operations, recording every request whole.

Run as `python3 movies_upstream.py --port N`. Routes:
  POST/GET /graphql            GraphQL: movie(key: ID!), moviesByGenre(genre: Genre!, limit: Int = 10,
                               tags: [String!]), search(text: String, exact: Boolean, minRating: Float),
                               appsetting; mutation createMovie(title: String!)
  GET /_requests, DELETE /_requests   what was received: method, target, headers and the body text
"""

import argparse
import json
import threading
from enum import Enum
from typing import Optional

import strawberry
import uvicorn
from strawberry.asgi import GraphQL

# MARK: - Schema


@strawberry.enum
class Genre(Enum):
    ACTION = "ACTION"
    COMEDY = "COMEDY"
    DRAMA = "DRAMA"
    SCIFI = "SCIFI"


@strawberry.type
class Movie:
    key: strawberry.ID
    title: str
    genre: Genre
    rating: float
    tags: list[str]


@strawberry.type
class AppSetting:
    cdn_url: str
    min_version: str


MOVIES = [
    Movie(key=strawberry.ID("m1"), title="Alien", genre=Genre.SCIFI, rating=8.5, tags=["space", "horror"]),
    Movie(key=strawberry.ID("m2"), title="Heat", genre=Genre.ACTION, rating=8.3, tags=["crime"]),
    Movie(key=strawberry.ID("m3"), title="Arrival", genre=Genre.SCIFI, rating=7.9, tags=["space"]),
    Movie(key=strawberry.ID("m4"), title="Airplane!", genre=Genre.COMEDY, rating=7.7, tags=["spoof"]),
    Movie(key=strawberry.ID("007"), title="Dr. No", genre=Genre.ACTION, rating=7.2, tags=["spy"]),
    Movie(key=strawberry.ID("m6"), title="Alien Nation", genre=Genre.SCIFI, rating=6.2, tags=[]),
]
MOVIES_LOCK = threading.Lock()


@strawberry.type
class Query:
    @strawberry.field
    def movie(self, key: strawberry.ID) -> Optional[Movie]:
        return next((m for m in MOVIES if m.key == key), None)

    @strawberry.field
    def movies_by_genre(self, genre: Genre, limit: Optional[int] = 10,
                        tags: Optional[list[str]] = None) -> list[Movie]:
        found = [m for m in MOVIES if m.genre == genre and (not tags or set(tags) & set(m.tags))]
        return found[:limit if limit is not None else len(found)]

    @strawberry.field
    def search(self, text: Optional[str] = None, exact: Optional[bool] = None,
               min_rating: Optional[float] = None) -> list[Movie]:
        def matches(movie: Movie) -> bool:
            if text is not None and (movie.title != text if exact else text not in movie.title):
                return False
            return min_rating is None or movie.rating >= min_rating

        return [m for m in MOVIES if matches(m)]

    @strawberry.field
    def appsetting(self) -> AppSetting:
        return AppSetting(cdn_url="https://cdn.example.test/", min_version="1.2.3")


@strawberry.type
class Mutation:
    @strawberry.mutation
    def create_movie(self, title: str) -> Movie:
        with MOVIES_LOCK:
            movie = Movie(key=strawberry.ID(f"new-{len(MOVIES) + 1}"), title=title, genre=Genre.DRAMA,
                          rating=0.0, tags=[])
            MOVIES.append(movie)
        return movie


graphql_app = GraphQL(strawberry.Schema(query=Query, mutation=Mutation))

# MARK: - Recording

RECORDED = []
RECORD_LOCK = threading.Lock()


async def read_body(receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            break
    return b"".join(chunks)


async def send_json(send, status: int, value) -> None:
    body = json.dumps(value).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["path"] == "/_requests":
        await read_body(receive)
        with RECORD_LOCK:
            if scope["method"] == "DELETE":
                RECORDED.clear()
            snapshot = list(RECORDED)
        return await send_json(send, 200, snapshot)

    body = await read_body(receive)
    query = scope.get("query_string") or b""
    target = (scope.get("raw_path") or scope["path"].encode()) + (b"?" + query if query else b"")
    with RECORD_LOCK:
        RECORDED.append({
            "method": scope["method"],
            "target": target.decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
            "body": body.decode("utf-8", "replace"),
        })
    if scope["path"] != "/graphql":
        return await send_json(send, 404, {"error": "not found"})

    replayed = False

    async def replay():
        nonlocal replayed
        if replayed:
            return {"type": "http.disconnect"}
        replayed = True
        return {"type": "http.request", "body": body, "more_body": False}

    await graphql_app(scope, replay, send)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    arguments = parser.parse_args()
    uvicorn.run(app, host="127.0.0.1", port=arguments.port, log_level="warning",
                access_log=False, timeout_keep_alive=120, lifespan="on")


if __name__ == "__main__":
    main()
