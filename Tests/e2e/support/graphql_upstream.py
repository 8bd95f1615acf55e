"""A real GraphQL upstream: strawberry on uvicorn, plus plain ASGI side routes.

Run as `python3 graphql_upstream.py --port N`. Routes:
  POST/GET /graphql, /graphql/noauth  GraphQL (hello, echoHeaders, movies, big, slow; createMovie;
                                      uploadFile/uploadFiles over multipart: sha256 and size of each file)
  POST /echo                          the exact request body back, with X-Body-Sha256
  GET  /blob?size=N[&chunked=1]       N deterministic bytes, with Content-Length or chunked
  GET  /sse?count=N&interval=S[&silence=S][&type=T]
                                      N server-sent events S seconds apart (`data: event i`),
                                      then `silence` seconds of nothing before the end
  GET  /_requests, DELETE /_requests  what was received (not through these two routes)
  WS   /graphql                        subscriptions (countdown) over graphql-transport-ws or graphql-ws
  WS   /ws/echo                        every message back as it came (text or binary)
  GET  /_websockets                    the WebSocket handshakes received (path, headers, messages)
Every request is recorded with its client address, so tests can count the distinct upstream
connections the gateway used (one client port per TCP connection).
"""

import argparse
import asyncio
import hashlib
import json
import os
import sys
import threading
from typing import AsyncGenerator, Optional
from urllib.parse import parse_qs

import strawberry
import uvicorn
from strawberry.asgi import GraphQL
from strawberry.file_uploads import Upload
from strawberry.types import Info

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from payload import deterministic_bytes  # noqa: E402

# MARK: - Schema


@strawberry.type
class Movie:
    title: str
    genre: str


MOVIES = [Movie(title="Alien", genre="scifi"), Movie(title="Heat", genre="crime"),
          Movie(title="Arrival", genre="scifi")]


@strawberry.type
class Query:
    @strawberry.field
    def hello(self, name: str = "world") -> str:
        return f"Hello, {name}!"

    @strawberry.field
    def echo_headers(self, info: Info) -> str:
        raw = info.context["request"].headers.raw
        return json.dumps([[k.decode("latin-1"), v.decode("latin-1")] for k, v in raw])

    @strawberry.field
    def movies(self, genre: Optional[str] = None) -> list[Movie]:
        return [m for m in MOVIES if genre is None or m.genre == genre]

    @strawberry.field
    def big(self, size: int) -> str:
        return "x" * size

    @strawberry.field
    async def slow(self, seconds: float) -> str:
        await asyncio.sleep(seconds)
        return "done"


@strawberry.type
class UploadedFile:
    sha256: str
    size: int
    filename: str


UPLOAD_READ_CHUNK = 1 << 20


async def digest_upload(file) -> UploadedFile:
    digest = hashlib.sha256()
    size = 0
    while chunk := await file.read(UPLOAD_READ_CHUNK):
        digest.update(chunk)
        size += len(chunk)
    return UploadedFile(sha256=digest.hexdigest(), size=size, filename=file.filename or "")


@strawberry.type
class Mutation:
    @strawberry.mutation
    async def upload_file(self, file: Upload) -> UploadedFile:
        return await digest_upload(file)

    @strawberry.mutation
    async def upload_files(self, files: list[Upload]) -> list[UploadedFile]:
        return [await digest_upload(file) for file in files]

    @strawberry.mutation
    def create_movie(self, title: str, genre: str) -> Movie:
        movie = Movie(title=title, genre=genre)
        MOVIES.append(movie)
        return movie


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def countdown(self, start: int = 3, interval: float = 0.05) -> AsyncGenerator[int, None]:
        for value in range(start, 0, -1):
            yield value
            await asyncio.sleep(interval)


graphql_app = GraphQL(strawberry.Schema(query=Query, mutation=Mutation, subscription=Subscription),
                      multipart_uploads_enabled=True)

# WebSocket handshakes as received, and the first message of each (e.g. a connection_init).
WEBSOCKETS = []

# MARK: - Recording

RECORDED = []
RECORD_LOCK = threading.Lock()


def target_of(scope) -> str:
    path = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string") or b""
    return (path + (b"?" + query if query else b"")).decode("latin-1")


def recording(app):
    """Records each request as it arrives (so a test can see a request still being served),
    then fills in its body length and hash as the application reads the body."""

    async def wrapped(scope, receive, send):
        if scope["type"] != "http" or scope["path"] == "/_requests":
            return await app(scope, receive, send)
        digest = hashlib.sha256()
        entry = {
            "method": scope["method"],
            "path": target_of(scope),
            "http_version": scope.get("http_version"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
            "body_length": 0,
            "body_sha256": digest.hexdigest(),
            "body_complete": False,
            "answered": False,
            "client": list(scope.get("client") or []),
        }
        with RECORD_LOCK:
            RECORDED.append(entry)

        async def counting_receive():
            message = await receive()
            if message["type"] == "http.request":
                body = message.get("body", b"")
                digest.update(body)
                with RECORD_LOCK:
                    entry["body_length"] += len(body)
                    entry["body_sha256"] = digest.hexdigest()
                    entry["body_complete"] = not message.get("more_body", False)
            return message

        try:
            await app(scope, counting_receive, send)
        finally:
            with RECORD_LOCK:
                entry["answered"] = True

    return wrapped


# MARK: - Side routes


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


async def send_simple(send, status: int, body: bytes, headers=()):
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


async def echo(scope, receive, send):
    body = await read_body(receive)
    await send_simple(send, 200, body, [(b"content-type", b"application/octet-stream"),
                                        (b"x-body-sha256", hashlib.sha256(body).hexdigest().encode())])


async def blob(scope, receive, send):
    await read_body(receive)
    params = parse_qs(scope.get("query_string", b"").decode())
    size = int(params.get("size", ["0"])[0])
    data = deterministic_bytes(size)
    if params.get("chunked", ["0"])[0] == "1":
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/octet-stream")]})
        step = 64 * 1024
        for offset in range(0, size, step):
            await send({"type": "http.response.body", "body": data[offset:offset + step],
                        "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    else:
        await send_simple(send, 200, data, [(b"content-type", b"application/octet-stream")])


async def server_sent_events(scope, receive, send):
    await read_body(receive)
    params = parse_qs(scope.get("query_string", b"").decode())
    count = int(params.get("count", ["3"])[0])
    interval = float(params.get("interval", ["0.1"])[0])
    silence = float(params.get("silence", ["0"])[0])
    media_type = params.get("type", ["text/event-stream"])[0].encode()
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", media_type), (b"cache-control", b"no-cache")]})
    for index in range(count):
        if index:
            await asyncio.sleep(interval)
        await send({"type": "http.response.body", "body": f"data: event {index}\n\n".encode(),
                    "more_body": True})
    await asyncio.sleep(silence)
    await send({"type": "http.response.body", "body": b""})


def log_route(entries: list):
    """A route answering with `entries` as JSON (GET) or clearing them (DELETE)."""
    async def route(scope, receive, send):
        await read_body(receive)
        with RECORD_LOCK:
            if scope["method"] == "DELETE":
                entries.clear()
            body = json.dumps(entries).encode()
        await send_simple(send, 200, body, [(b"content-type", b"application/json")])
    return route


def recording_websocket(app):
    async def wrapped(scope, receive, send):
        entry = {"path": target_of(scope), "messages": 0, "closed_code": None,
                 "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
                 "subprotocols": list(scope.get("subprotocols") or [])}
        with RECORD_LOCK:
            WEBSOCKETS.append(entry)

        async def counting_receive():
            message = await receive()
            with RECORD_LOCK:
                if message["type"] == "websocket.receive":
                    entry["messages"] += 1
                elif message["type"] == "websocket.disconnect":
                    entry["closed_code"] = message.get("code")
            return message

        await app(scope, counting_receive, send)
    return wrapped


async def websocket_echo(scope, receive, send):
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("bytes") is not None:
            await send({"type": "websocket.send", "bytes": message["bytes"]})
        else:
            await send({"type": "websocket.send", "text": message["text"]})


async def router(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    path = scope["path"]
    if scope["type"] == "websocket":
        handler = websocket_echo if path == "/ws/echo" else graphql_app
        return await recording_websocket(handler)(scope, receive, send)
    if path in ("/graphql", "/graphql/noauth"):
        return await graphql_app(scope, receive, send)
    routes = {"/echo": echo, "/blob": blob, "/sse": server_sent_events, "/_requests": log_route(RECORDED),
              "/_websockets": log_route(WEBSOCKETS)}
    handler = routes.get(path)
    if handler is None:
        await read_body(receive)
        return await send_simple(send, 404, b"not found", [(b"content-type", b"text/plain")])
    return await handler(scope, receive, send)


app = recording(router)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    arguments = parser.parse_args()
    uvicorn.run(app, host="127.0.0.1", port=arguments.port, log_level="warning",
                access_log=False, timeout_keep_alive=120, lifespan="on", ws="websockets",
                ws_max_size=8 * 1024 * 1024)


if __name__ == "__main__":
    main()
