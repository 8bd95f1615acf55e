"""`gatehouse demo` end to end: log in on the public door, use the token on the authenticated
door, and be refused without one or with an expired one (README, "Command line and signals" `demo`, "How a request is handled", "Observability"; README walk).

The demo's gateway, backend and admin listener run on free ports (`--port`,
$GATEHOUSE_DEMO_BACKEND_PORT, $GATEHOUSE_DEMO_ADMIN_PORT), so the module runs beside a `make demo`
on the default ports. Tokens are signed with $GATEHOUSE_DEMO_SECRET.
"""

import json
import os
import signal
import subprocess
import time

import httpx
import jwt
import pytest

from support.auth_checks import CHALLENGE_MISSING, challenge
from support.envelope import assert_httpx_envelope
from support.gateway import REPO_ROOT, gatehouse_binary
from support.ports import free_port, port_accepts

# In the smoke subset (pytest -m smoke): run against the statically linked build too.
pytestmark = pytest.mark.smoke

BACKEND_PORT = free_port()
ADMIN_PORT = free_port()
DEMO_SECRET = "e2e-demo-secret-0123456789abcdefghijklmnop"
EMAIL = "alice@example.com"
LOGIN = ("mutation createUserToken($email: String!, $password: String!) "
         "{ createUserToken(email: $email, password: $password) { token } }")
ME = "query me { me { id } }"


class Demo:
    """One `gatehouse demo --port N` process, run from the repository root so it finds the
    seed operations in config/operations."""

    def __init__(self, workdir):
        self.port = free_port()
        self.stdout_path = workdir / "demo-stdout.log"
        self.stderr_path = workdir / "demo-stderr.log"
        self._stdout = open(self.stdout_path, "wb")
        self._stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [gatehouse_binary(), "demo", "--port", str(self.port)],
            stdout=self._stdout, stderr=self._stderr, stdin=subprocess.DEVNULL, cwd=REPO_ROOT,
            env=dict(os.environ, GATEHOUSE_DEMO_SECRET=DEMO_SECRET, GATEHOUSE_DEMO_BACKEND_PORT=str(BACKEND_PORT),
                     GATEHOUSE_DEMO_ADMIN_PORT=str(ADMIN_PORT)))
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=5)

    def wait_ready(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gatehouse demo exited with {self.process.returncode}; stderr:\n"
                                   f"{self.stderr_path.read_text(errors='replace')}")
            if port_accepts(self.port) and port_accepts(BACKEND_PORT) and self.readyz() == 200:
                return
            time.sleep(0.05)
        raise TimeoutError(f"gatehouse demo not ready; stderr:\n{self.stderr_path.read_text()}")

    def readyz(self):
        try:
            return httpx.get(f"http://127.0.0.1:{ADMIN_PORT}/readyz", timeout=1).status_code
        except httpx.HTTPError:
            return None

    def stdout_text(self) -> str:
        return self.stdout_path.read_bytes().decode("utf-8", "replace")

    def stop(self):
        """SIGTERM and wait; the exit code (the process is killed if it hangs). Idempotent."""
        if self._stdout.closed:
            return self.process.returncode
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(timeout=8)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                code = "hung after SIGTERM (killed)"
        else:
            code = self.process.returncode
        self._stdout.close()
        self._stderr.close()
        return code


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    running = Demo(tmp_path_factory.mktemp("demo"))
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def post(demo, path: str, query: str = None, variables=None, token: str = None, **fields):
    payload = dict(fields)
    if query is not None:
        payload["query"] = query
    if variables is not None:
        payload["variables"] = variables
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    return demo.client.post(path, content=json.dumps(payload).encode(), headers=headers)


@pytest.fixture(scope="module")
def token(demo):
    response = post(demo, "/graphql/noauth", LOGIN, {"email": EMAIL, "password": "demo"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["createUserToken"]["token"]


# MARK: - The flow


def test_demo_prints_curl_commands(demo):
    deadline = time.monotonic() + 3
    while "curl" not in demo.stdout_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    text = demo.stdout_text()
    assert "curl" in text and f"127.0.0.1:{demo.port}" in text


def test_login_returns_a_token_signed_with_the_demo_secret(token):
    claims = jwt.decode(token, DEMO_SECRET, algorithms=["HS256"])
    assert claims["sub"] == EMAIL
    assert claims["exp"] > time.time()


def test_login_by_operation_name(demo):
    response = post(demo, "/graphql/noauth", operationName="createUserToken",
                    variables={"email": "bob@example.com", "password": "demo"})
    assert response.status_code == 200, response.text
    token = response.json()["data"]["createUserToken"]["token"]
    assert jwt.decode(token, DEMO_SECRET, algorithms=["HS256"])["sub"] == "bob@example.com"


def test_token_opens_the_authenticated_door(demo, token):
    """`me` echoes X-User-Id, which the backend only answers with the injected X-Service-Token."""
    response = post(demo, "/graphql", ME, token=token)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"me": {"id": EMAIL}}}


def test_pyjwt_token_with_the_demo_secret_opens_the_door(demo):
    now = int(time.time())
    minted = jwt.encode({"sub": "carol@example.com", "iat": now, "exp": now + 300}, DEMO_SECRET,
                        algorithm="HS256")
    response = post(demo, "/graphql", ME, token=minted)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"me": {"id": "carol@example.com"}}}


def test_backend_refuses_callers_without_the_service_token(demo):
    """The backend answers only the gateway: directly, `me` is a GraphQL Unauthorized."""
    response = httpx.post(f"http://127.0.0.1:{BACKEND_PORT}/graphql", timeout=5,
                          content=json.dumps({"query": ME}).encode(),
                          headers={"Content-Type": "application/json", "X-User-Id": EMAIL})
    errors = response.json().get("errors") or []
    assert errors and errors[0]["message"] == "Unauthorized", response.text


def test_no_token_is_401(demo):
    response = post(demo, "/graphql", ME)
    assert_httpx_envelope(response, 401, "UNAUTHENTICATED", source="gateway")
    assert response.headers.get_list("www-authenticate") == [CHALLENGE_MISSING]


def test_expired_token_is_401_invalid_token(demo):
    now = int(time.time())
    expired = jwt.encode({"sub": EMAIL, "iat": now - 7200, "exp": now - 3600}, DEMO_SECRET,
                         algorithm="HS256")
    response = post(demo, "/graphql", ME, token=expired)
    assert_httpx_envelope(response, 401, "UNAUTHENTICATED", source="gateway")
    assert response.headers.get_list("www-authenticate") == [challenge("token expired")]
    assert expired not in response.text


def test_token_signed_with_another_secret_is_a_bad_signature(demo):
    now = int(time.time())
    forged = jwt.encode({"sub": EMAIL, "iat": now, "exp": now + 300},
                        "not-the-demo-secret-0123456789abcdefghij", algorithm="HS256")
    response = post(demo, "/graphql", ME, token=forged)
    assert_httpx_envelope(response, 401, "UNAUTHENTICATED", source="gateway")
    assert response.headers.get_list("www-authenticate") == [challenge("bad signature")]


def test_public_door_refuses_other_operations(demo):
    response = post(demo, "/graphql/noauth", ME)
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")


@pytest.mark.parametrize("query", [
    'mutation createUserToken { createMovie(title: "via the public door", genre: "drama", year: 2020) { key } }',
    'query appsetting { listMoviesByGenre(genre: "drama") { title } }',
    "query appsetting { me { id } }",
])
def test_public_door_refuses_other_text_under_an_allowed_name(demo, token, query):
    """The allow-list holds documents, not names: any text can call itself appsetting."""
    response = post(demo, "/graphql/noauth", query)
    assert_httpx_envelope(response, 403, "OPERATION_NOT_ALLOWED", source="gateway")
    movies = post(demo, "/graphql", '{ listMoviesByGenre(genre: "drama", limit: 50) { title } }', token=token)
    assert movies.status_code == 200 and "via the public door" not in movies.text


def test_aem_adventure_by_name(demo, token):
    response = demo.client.get("/content/adventure-by-slug", params={"slug": "bali-surf-camp"},
                               headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    items = response.json()["data"]["adventureList"]["items"]
    assert [item["slug"] for item in items] == ["bali-surf-camp"]


# MARK: - Selection sets: the backend returns what was asked, no more


def test_a_query_gets_only_the_field_it_asks_for(demo, token):
    response = post(demo, "/graphql", '{ getMovieByKey(key: "m4") { title } }', token=token)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"getMovieByKey": {"title": "Groundhog Day"}}}


def test_aliases_fragments_and_typename_shape_the_answer(demo, token):
    query = ('query ($genre: String!) { first: listMoviesByGenre(genre: $genre, limit: 1) '
             '{ __typename ...Names } } fragment Names on Movie { name: title }')
    response = post(demo, "/graphql", query, {"genre": "drama"}, token=token)
    assert response.status_code == 200, response.text
    assert response.json() == {"data": {"first": [{"__typename": "Movie", "name": "The Shawshank Redemption"}]}}


def test_stored_operation_answers_an_enum_value_the_schema_does_not_list(demo, token):
    """config/schema.graphql lists STANDARD, WIDESCREEN and ULTRAWIDE; m7 is IMAX_EXPANDED."""
    response = demo.client.get("/ops/getMovieByKey", params={"key": "m7"},
                               headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    movie = response.json()["data"]["getMovieByKey"]
    assert movie["aspectRatio"] == "IMAX_EXPANDED"
    assert list(movie) == ["key", "title", "genre", "year", "rating", "aspectRatio"]


def test_unknown_field_is_a_validation_error(demo, token):
    response = post(demo, "/graphql", "{ appsetting { cdnUrl secret } }", token=token)
    assert response.status_code == 200, response.text
    body = response.json()
    assert "data" not in body
    assert body["errors"][0]["extensions"]["code"] == "GRAPHQL_VALIDATION_FAILED"


# MARK: - Shutdown (last: it stops the demo)


def test_demo_drains_and_exits_0_on_sigterm(demo):
    code = demo.stop()
    assert code == 0, f"gatehouse demo exited {code} on SIGTERM; stderr:\n" \
                      f"{demo.stderr_path.read_text(errors='replace')[-2000:]}"
    assert not port_accepts(BACKEND_PORT), "the demo backend still accepts connections"
