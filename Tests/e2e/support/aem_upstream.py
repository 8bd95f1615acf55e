"""AEM-like answers for the raw upstream (support/raw_upstream.py), which records each request
line exactly as it arrived: persisted-query GETs are answered with JSON naming the request line
they came in on, so the client's response shows the round trip too.
"""

import json

from .raw_upstream import response_bytes


def answer_with_request_line():
    """A behavior: HTTP 200 `{"data":{"requestLine":"GET /graphql/execute.json/… HTTP/1.1"}}`."""

    def behave(conn, request, stop):
        line = f"{request.method} {request.target} {request.version}"
        body = json.dumps({"data": {"requestLine": line}}).encode()
        conn.send(response_bytes(200, body, [("Content-Type", "application/json")]))
        return True

    return behave


def request_line(request) -> str:
    """The request line a ReceivedRequest came in on."""
    return f"{request.method} {request.target} {request.version}"
