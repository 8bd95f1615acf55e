"""`gatehouse check` on an operations directory: every problem at once, each as
`operations.dir: <file>:<line>:<col>: message`, exit 1 (README, "Command line and signals" `check`, "Configuration", "Persisted operations").
"""

import re

from support.gateway import run_cli
from support.persisted_setup import write_operations
from support.yaml_writer import to_yaml

LINE = re.compile(r"^operations\.dir: (?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<message>.+)$")


def config_with_operations(tmp_path, directory: str):
    path = tmp_path / "gatehouse.yaml"
    path.write_text(to_yaml({
        "server": {"listen": "127.0.0.1:18080", "admin_listen": "", "workers": 1},
        "upstreams": {"app": {"url": "http://127.0.0.1:4000/graphql"}},
        "operations": {"dir": directory},
        "routes": [{"path": "/graphql", "upstream": "app", "auth": "none", "persisted": "only"}],
    }))
    return path


def problems(result) -> list:
    return [line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()]


def test_valid_operations_dir_passes(tmp_path):
    directory = write_operations(tmp_path / "operations")
    result = run_cli("check", "--config", str(config_with_operations(tmp_path, directory)))
    assert result.returncode == 0, problems(result)


def test_syntax_error_is_reported_with_file_line_and_column(tmp_path):
    directory = tmp_path / "operations"
    write_operations(directory)
    broken = directory / "broken.graphql"
    broken.write_text('query broken {\n  movie(key: "1" {\n    title\n  }\n}\n')
    result = run_cli("check", "--config", str(config_with_operations(tmp_path, str(directory))))
    assert result.returncode == 1, problems(result)
    lines = problems(result)
    assert len(lines) == 1, lines
    match = LINE.match(lines[0])
    assert match, lines[0]
    # The `{` where `)` or an argument name belongs: line 2, column 18.
    assert (match["file"], match["line"], match["column"]) == (str(broken), "2", "18"), lines[0]


def test_every_problem_is_reported_at_once(tmp_path):
    directory = tmp_path / "operations"
    directory.mkdir()
    (directory / "a_unterminated.graphql").write_text('query a {\n  movie(key: "m1) { title }\n}\n')
    (directory / "b_anonymous.graphql").write_text("{ appsetting { cdnUrl } }\n")
    (directory / "c_first.graphql").write_text("query twice { appsetting { cdnUrl } }\n")
    (directory / "d_second.graphql").write_text("\n\nquery twice { appsetting { minVersion } }\n")
    (directory / "e_fragment.graphql").write_text("query usesMissing {\n  movie(key: \"1\") { ...Nope }\n}\n")
    result = run_cli("check", "--config", str(config_with_operations(tmp_path, str(directory))))
    assert result.returncode == 1, problems(result)
    located = {}
    for line in problems(result):
        match = LINE.match(line)
        assert match, f"not `operations.dir: file:line:col: message`: {line!r}"
        located[match["file"].rsplit("/", 1)[-1]] = (int(match["line"]), int(match["column"]), match["message"])
    assert set(located) == {"a_unterminated.graphql", "b_anonymous.graphql", "d_second.graphql",
                            "e_fragment.graphql"}, located
    assert located["a_unterminated.graphql"][0] == 2
    assert located["b_anonymous.graphql"][:2] == (1, 1)
    assert located["d_second.graphql"][:2] == (3, 1)
    assert "twice" in located["d_second.graphql"][2]
    assert located["e_fragment.graphql"][0] == 2 and "Nope" in located["e_fragment.graphql"][2]


def test_missing_operations_dir_is_reported(tmp_path):
    missing = str(tmp_path / "no-such-dir")
    result = run_cli("check", "--config", str(config_with_operations(tmp_path, missing)))
    assert result.returncode == 1
    assert any(line.startswith("operations.dir: ") for line in problems(result)), problems(result)
