"""Before any load: every target answers what the upstream serves, sets the injected header, the
targets said to do Gatehouse's per-request work set the forwarding headers and a request id both
ways, and the JWT routes refuse a request without a valid token. A failed check stops the run,
since numbers for wrong answers mean nothing."""

import http.client
import time
from dataclasses import dataclass

from .fixtures import BODY_PATHS, CHECK_PATH, GATEWAY_CHECK_PATH, HS_PATH, INJECTED_HEADER_VALUE, RS_PATH, RS_REMOTE_PATH, Credentials
from .peers import Target

REQUEST_BODY = b'{"query":"query appsetting { appsetting { cdnUrl minVersion } }","variables":{}}'


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    body: bytes
    request_id: str = ""


def post(port: int, path: str, authorization: str | None = None) -> Answer:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        headers = {"Content-Type": "application/json"}
        if authorization:
            headers["Authorization"] = authorization
        connection.request("POST", path, body=REQUEST_BODY, headers=headers)
        response = connection.getresponse()
        return Answer(response.status, response.getheader("Content-Type", ""), response.read(),
                      response.getheader("X-Request-Id", ""))
    finally:
        connection.close()


# A route with a jwks_url answers 503 until its first key fetch has landed (just after start).
KEY_FETCH_WAIT_SECONDS = 5.0


def post_once_keys_arrive(port: int, path: str, authorization: str) -> Answer:
    deadline = time.monotonic() + KEY_FETCH_WAIT_SECONDS
    while True:
        answer = post(port, path, authorization)
        if answer.status != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def check_targets(targets: list[Target], bodies: dict[str, str], credentials: Credentials,
                  jwt_targets: list[Target], header_targets: list[Target] = ()) -> list[str]:
    """Every problem found, one line each; empty when all is well. Each of `header_targets` must
    also send X-Forwarded-For, X-Forwarded-Proto and X-Request-Id upstream and return an
    X-Request-Id (what Gatehouse does to every request)."""
    problems = []

    def expect(target: Target, what: str, answer: Answer, status: int, body: bytes | None = None) -> None:
        if answer.status != status:
            problems.append(f"{target.name} {what}: status {answer.status}, expected {status}: "
                            f"{answer.body[:200]!r}")
        elif body is not None and answer.body != body:
            problems.append(f"{target.name} {what}: body of {len(answer.body)} bytes differs from the "
                            f"upstream's {len(body)} bytes")
        elif status == 200 and not answer.content_type.startswith("application/json"):
            problems.append(f"{target.name} {what}: Content-Type {answer.content_type!r}")

    for target in targets:
        port = target.service.port
        for label, path in BODY_PATHS.items():
            expect(target, f"POST {path}", post(port, path), 200, bodies[label].encode())
        if target.name != "direct":
            expect(target, f"POST {CHECK_PATH} (injected header)", post(port, CHECK_PATH), 200,
                   INJECTED_HEADER_VALUE.encode())
    for target in header_targets:
        problems.extend(gateway_header_problems(target))

    for target in jwt_targets:
        port = target.jwt_port or target.service.port
        hs, rs = f"Bearer {credentials.hs_token}", f"Bearer {credentials.rs_token}"
        expect(target, f"POST {HS_PATH} with HS256 token", post(port, HS_PATH, hs), 200, bodies["100B"].encode())
        expect(target, f"POST {RS_PATH} with RS256 token", post(port, RS_PATH, rs), 200, bodies["100B"].encode())
        expect(target, f"POST {HS_PATH} without token", post(port, HS_PATH), 401)
        expect(target, f"POST {HS_PATH} with the RS256 token", post(port, HS_PATH, rs), 401)
        expect(target, f"POST {RS_PATH} with the HS256 token", post(port, RS_PATH, hs), 401)
        tampered = credentials.rs_token[:-4] + ("AAAA" if not credentials.rs_token.endswith("AAAA") else "BBBB")
        expect(target, f"POST {RS_PATH} with a bad signature", post(port, RS_PATH, f"Bearer {tampered}"), 401)
        if target.name == "gatehouse":
            expect(target, f"POST {RS_REMOTE_PATH} with RS256 token (keys from the URL)",
                   post_once_keys_arrive(port, RS_REMOTE_PATH, rs), 200, bodies["100B"].encode())
    return problems


def gateway_header_problems(target: Target) -> list[str]:
    """What the proxy left out of Gatehouse's per-request headers, one line each."""
    answer = post(target.service.port, GATEWAY_CHECK_PATH)
    forwarded_for, proto, request_id = (answer.body.decode(errors="replace").split("|") + ["", ""])[:3]
    problems = []
    if answer.status != 200 or forwarded_for != "127.0.0.1" or proto != "http" or not request_id:
        problems.append(f"{target.name} POST {GATEWAY_CHECK_PATH}: upstream saw for|proto|id {answer.body[:200]!r}")
    if not answer.request_id:
        problems.append(f"{target.name} POST {GATEWAY_CHECK_PATH}: no X-Request-Id in the response")
    return problems
