"""`gatehouse sdk swift`: what it writes, usage errors (exit 2), schema and operation errors with
their file:line:column (exit 1). Building and running the generated client is scripts/test-sdk.sh."""

import pytest

from support.gateway import REPO_ROOT, run_cli
from support.yaml_writer import to_yaml

STARWARS = REPO_ROOT / "Tests" / "GatehouseSDKTests" / "Fixtures" / "starwars"

SCHEMA = """
type Query { movie(key: ID!): Movie }
type Mutation { rate(key: ID!, stars: Int!): Movie }
type Movie { key: ID! title: String! }
"""


def config(tmp_path, operations: dict) -> str:
    """A config whose operations dir holds `operations` (file name -> text)."""
    directory = tmp_path / "operations"
    directory.mkdir()
    for name, text in operations.items():
        (directory / name).write_text(text)
    path = tmp_path / "gatehouse.yaml"
    path.write_text(to_yaml({
        "upstreams": {"app": {"url": "http://127.0.0.1:4000/graphql"}},
        "operations": {"dir": str(directory)},
        "routes": [{"path": "/graphql", "upstream": "app", "auth": "none"},
                   {"path": "/ops/*", "upstream": "app", "auth": "none", "persisted": "only"}],
    }))
    return str(path)


def schema(tmp_path, text: str = SCHEMA) -> str:
    path = tmp_path / "schema.graphql"
    path.write_text(text)
    return str(path)


def sdk(*arguments):
    return run_cli("sdk", "swift", *arguments, timeout=30.0)


# MARK: - Writing a package


def test_writes_a_package_with_one_file_per_operation(tmp_path):
    out = tmp_path / "out"
    result = sdk("--config", str(STARWARS / "gatehouse.yaml"), "--schema", str(STARWARS / "schema.graphql"),
                 "--out", str(out), "--package", "StarWarsAPI", "--scalar", "URL=URL")
    assert result.returncode == 0, result.stderr
    assert (out / "Package.swift").read_text().startswith("// swift-tools-version:6.0\n")
    operations = sorted(path.name for path in (out / "Sources" / "StarWarsAPI" / "Operations").iterdir())
    assert operations == ["CreateReviewMutation.swift", "FriendsOfFriendsQuery.swift", "HeroForEpisodeQuery.swift",
                          "ReviewsQuery.swift", "SearchQuery.swift", "StarshipsByIdsQuery.swift",
                          "TwoHeroesQuery.swift"]


def test_generating_again_rewrites_nothing_and_removes_stale_files(tmp_path):
    out = tmp_path / "out"
    arguments = ["--config", config(tmp_path, {"movie.graphql": "query movie($key: ID!) { movie(key: $key) { title } }"}),
                 "--schema", schema(tmp_path), "--out", str(out)]
    assert sdk(*arguments).returncode == 0
    stale = out / "Sources" / "GatehouseAPI" / "Operations" / "OldQuery.swift"
    stale.write_text("// an operation that is gone\n")
    result = sdk(*arguments)
    assert result.returncode == 0, result.stderr
    assert "0 written" in result.stdout and "1 removed" in result.stdout
    assert not stale.exists()


def test_refuses_a_directory_holding_another_package(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "Package.swift").write_text("// swift-tools-version:6.0\n// someone else's package\n")
    result = sdk("--config", config(tmp_path, {}), "--schema", schema(tmp_path), "--out", str(out))
    assert result.returncode == 1
    assert "not written by gatehouse sdk" in result.stderr


# MARK: - Usage errors: exit 2


@pytest.mark.parametrize("arguments, message", [
    ([], "sdk needs a language"),
    (["kotlin"], "unknown sdk language \"kotlin\""),
    (["swift", "--out", "x"], "sdk swift needs --schema"),
    (["swift", "--schema", "s.graphql"], "sdk swift needs --out"),
    (["swift", "--schema", "s", "--out", "x", "--package", "9lives"], "--package takes a Swift identifier"),
    (["swift", "--schema", "s", "--out", "x", "--scalar", "URL"], "--scalar takes GraphQLName=SwiftType"),
    (["swift", "--schema", "s", "--out", "x", "--color"], "unknown option --color"),
])
def test_usage_errors_exit_2(arguments, message):
    result = run_cli("sdk", *arguments)
    assert result.returncode == 2
    assert message in result.stderr
    assert "gatehouse sdk swift" in result.stderr


# MARK: - Schema and operation errors: exit 1, file:line:column


def test_a_schema_error_names_its_place(tmp_path):
    path = schema(tmp_path, "type Query {\n  movie: Film\n}\n")
    result = sdk("--config", config(tmp_path, {}), "--schema", path, "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert f"{path}:2:3: unknown type \"Film\" of field \"Query.movie\"" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_operation_error_names_its_place_in_the_operation_file(tmp_path):
    path = config(tmp_path, {"movie.graphql": "query movie($key: ID!) {\n  movie(key: $key) {\n    rating\n  }\n}\n"})
    result = sdk("--config", path, "--schema", schema(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    operation_file = tmp_path / "operations" / "movie.graphql"
    assert f"{operation_file}:3:5: type \"Movie\" has no field \"rating\"" in result.stderr


def test_operations_the_gateway_refuses_are_reported_as_it_reports_them(tmp_path):
    path = config(tmp_path, {"a.graphql": "query { movie(key: 1) { title } }"})
    result = sdk("--config", path, "--schema", schema(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "a.graphql:1:1: anonymous query: persisted operations must be named" in result.stderr


def test_a_config_error_exits_1_with_its_key(tmp_path):
    path = tmp_path / "gatehouse.yaml"
    path.write_text("routes: []\n")
    result = sdk("--config", str(path), "--schema", schema(tmp_path), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert "routes" in result.stderr
