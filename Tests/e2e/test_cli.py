"""The command line: check, version, usage errors, config errors at start (README, "Command line and signals")."""

import os

import pytest

from support.gateway import run_cli
from support.yaml_writer import to_yaml

GOOD = {
    "server": {"listen": "127.0.0.1:18080", "admin_listen": "", "workers": 1},
    "upstreams": {"app": {"url": "http://127.0.0.1:4000/graphql", "timeout": "5s"}},
    "routes": [{"path": "/graphql", "upstream": "app", "auth": "none"}],
}


def write(tmp_path, config, name="gatehouse.yaml"):
    path = tmp_path / name
    path.write_text(config if isinstance(config, str) else to_yaml(config))
    return path


def output_lines(result) -> list:
    return [line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def with_changes(**changes) -> dict:
    config = {key: (dict(value) if isinstance(value, dict) else list(value))
              for key, value in GOOD.items()}
    config.update(changes)
    return config


# MARK: - version and usage


def test_version_exits_0_and_prints_something():
    result = run_cli("version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


@pytest.mark.parametrize("arguments", [["frobnicate"], ["run", "--bogus-flag"],
                                       ["check", "--config"], ["token", "--sub"]])
def test_usage_errors_exit_2(arguments):
    result = run_cli(*arguments)
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.strip(), "a usage error should say what is wrong"


# MARK: - check


def test_check_accepts_a_good_config(tmp_path):
    result = run_cli("check", "--config", str(write(tmp_path, GOOD)))
    assert result.returncode == 0, output_lines(result)


def test_check_accepts_json(tmp_path):
    import json

    result = run_cli("check", "--config", str(write(tmp_path, json.dumps(GOOD), "gatehouse.json")))
    assert result.returncode == 0, output_lines(result)


def test_check_names_an_unknown_upstream(tmp_path):
    config = with_changes(routes=[{"path": "/graphql", "upstream": "ap", "auth": "none"}])
    result = run_cli("check", "--config", str(write(tmp_path, config)))
    assert result.returncode == 1
    assert 'routes[0].upstream: unknown upstream "ap"' in output_lines(result)


def test_check_reports_every_problem_at_once(tmp_path):
    config = with_changes(
        server={**GOOD["server"], "lisen": "127.0.0.1:1"},
        routes=[{"path": "/graphql", "upstream": "ap", "auth": "none"},
                {"path": "/other", "upstream": "app"}])
    config["upstreams"] = {"app": {"url": "${E2E_SURELY_UNSET_VARIABLE}"}}
    env = {key: value for key, value in os.environ.items() if key != "E2E_SURELY_UNSET_VARIABLE"}
    result = run_cli("check", "--config", str(write(tmp_path, config)), env=env)
    assert result.returncode == 1
    lines = output_lines(result)
    for key_path in ("server.lisen:", "routes[0].upstream:", "routes[1].auth:", "upstreams.app.url:"):
        assert any(line.startswith(key_path) for line in lines), f"no line for {key_path} in {lines}"


@pytest.mark.parametrize("change, key_path", [
    ({"server": {**GOOD["server"], "header_timeout": "soon"}}, "server.header_timeout:"),
    ({"server": {**GOOD["server"], "max_body_bytes": "ten megs"}}, "server.max_body_bytes:"),
    ({"server": {**GOOD["server"], "listen": "nowhere"}}, "server.listen:"),
    ({"upstreams": {"app": {"url": "ftp://127.0.0.1/x"}}}, "upstreams.app.url:"),
    ({"routes": [{"path": "/graphql", "upstream": "app", "auth": "none", "methods": ["GET"],
                  "colour": "red"}]}, "routes[0].colour:"),
    ({"routes": [{"path": "/graphql", "upstream": "app", "auth": "nobody"}]}, "routes[0].auth"),
], ids=["duration", "size", "listen", "url-scheme", "unknown-route-key", "unknown-auth"])
def test_check_names_the_key_of_each_problem(tmp_path, change, key_path):
    result = run_cli("check", "--config", str(write(tmp_path, with_changes(**change))))
    assert result.returncode == 1
    assert any(line.startswith(key_path) for line in output_lines(result)), output_lines(result)


def test_check_uses_gatehouse_config_from_the_environment(tmp_path):
    good = write(tmp_path, GOOD, "good.yaml")
    bad = write(tmp_path, with_changes(routes=[{"path": "/x", "upstream": "nope", "auth": "none"}]),
                "bad.yaml")
    assert run_cli("check", env={**os.environ, "GATEHOUSE_CONFIG": str(good)}).returncode == 0
    assert run_cli("check", env={**os.environ, "GATEHOUSE_CONFIG": str(bad)}).returncode == 1


def test_check_substitutes_environment_variables(tmp_path):
    config = with_changes(upstreams={"app": {"url": "http://127.0.0.1:${E2E_UPSTREAM_PORT:-4000}/gql",
                                             "headers": {"X-Token": "${E2E_TOKEN}"}}})
    path = write(tmp_path, config)
    assert run_cli("check", "--config", str(path),
                   env={**os.environ, "E2E_TOKEN": "t"}).returncode == 0
    env = {key: value for key, value in os.environ.items() if key != "E2E_TOKEN"}
    assert run_cli("check", "--config", str(path), env=env).returncode == 1


# MARK: - run


def test_run_with_a_bad_config_exits_1_naming_the_key(tmp_path):
    config = with_changes(routes=[{"path": "/graphql", "upstream": "ap", "auth": "none"}])
    result = run_cli("run", "--config", str(write(tmp_path, config)), timeout=10)
    assert result.returncode == 1
    assert "routes[0].upstream" in result.stderr


def test_run_with_a_missing_config_file_exits_1(tmp_path):
    result = run_cli("run", "--config", str(tmp_path / "absent.yaml"), timeout=10)
    assert result.returncode == 1
    assert result.stderr.strip()
