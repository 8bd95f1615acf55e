"""The gateway under test as a child process: config file, start, readiness, logs, signals."""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from .ports import free_port, port_accepts
from .yaml_writer import to_yaml

REPO_ROOT = Path(__file__).resolve().parents[3]


def gatehouse_binary() -> str:
    """GATEHOUSE_BIN, or the release build in the repository."""
    return os.environ.get("GATEHOUSE_BIN") or str(REPO_ROOT / ".build" / "release" / "gatehouse")


def run_cli(*arguments, env=None, timeout: float = 15.0, cwd=None) -> subprocess.CompletedProcess:
    """Runs one `gatehouse …` command to completion and captures its output as text."""
    return subprocess.run([gatehouse_binary(), *arguments], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=cwd, stdin=subprocess.DEVNULL)


# MARK: - Config


def base_config(listen_port: int, admin_port: int, upstreams: dict, routes: list,
                **server_overrides) -> dict:
    """A whole config: short timeouts and one worker unless a test says otherwise."""
    server = {
        "listen": f"127.0.0.1:{listen_port}",
        "admin_listen": f"127.0.0.1:{admin_port}",
        "workers": 1,
        "header_timeout": "5s",
        "body_timeout": "5s",
        "idle_timeout": "15s",
        "drain_timeout": "5s",
        "access_log": "stdout",
    }
    server.update(server_overrides)
    return {"server": server, "upstreams": upstreams, "routes": routes}


def graphql_door_config(listen_port: int, admin_port: int, graphql_url: str, extra_routes=()) -> dict:
    """One public route, /graphql, to upstream `app` at `graphql_url` (e.g. the strawberry
    upstream's /graphql), plus `extra_routes`."""
    return base_config(listen_port, admin_port, upstreams={"app": {"url": graphql_url}},
                       routes=[{"path": "/graphql", "upstream": "app", "auth": "none"}, *extra_routes])


# MARK: - Process


class Gateway:
    """One `gatehouse run --config PATH` process with stdout (access log) and stderr in files."""

    def __init__(self, workdir: Path, config_for_ports, env=None, listen_host: str = "127.0.0.1"):
        """`config_for_ports(listen_port, admin_port)` returns the config dict (or YAML text);
        `listen_host` is where the config makes it listen (used for readiness and `url`)."""
        self.workdir = Path(workdir)
        self.listen_host = listen_host
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.admin_port = free_port()
        self.config_path = self.workdir / "gatehouse.yaml"
        self.stdout_path = self.workdir / "stdout.log"
        self.stderr_path = self.workdir / "stderr.log"
        self.env = dict(os.environ, **(env or {}))
        self.process = None
        self.write_config(config_for_ports(self.port, self.admin_port))

    @property
    def url(self) -> str:
        host = f"[{self.listen_host}]" if ":" in self.listen_host else self.listen_host
        return f"http://{host}:{self.port}"

    @property
    def admin_url(self) -> str:
        return f"http://127.0.0.1:{self.admin_port}"

    def write_config(self, config) -> None:
        """Replaces the config file atomically, so a reload never reads half a file."""
        text = config if isinstance(config, str) else to_yaml(config)
        staging = self.config_path.with_suffix(".yaml.new")
        staging.write_text(text)
        os.replace(staging, self.config_path)

    # MARK: - Lifecycle

    def start(self, ready_timeout: float = 10.0) -> "Gateway":
        self._stdout = open(self.stdout_path, "wb")
        self._stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [gatehouse_binary(), "run", "--config", str(self.config_path)],
            stdout=self._stdout, stderr=self._stderr, stdin=subprocess.DEVNULL,
            env=self.env, cwd=self.workdir)
        self.wait_ready(ready_timeout)
        return self

    def wait_ready(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gatehouse exited with {self.process.returncode} before it was "
                                   f"ready; stderr:\n{self.stderr_text()}")
            if port_accepts(self.port, self.listen_host) and self.readyz_status() == 200:
                return
            time.sleep(0.05)
        raise TimeoutError(f"gatehouse not ready within {timeout}s; stderr:\n{self.stderr_text()}")

    def readyz_status(self):
        try:
            return httpx.get(f"{self.admin_url}/readyz", timeout=1.0).status_code
        except httpx.HTTPError:
            return None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        self.process.send_signal(signum)

    def sighup(self) -> None:
        self.signal(signal.SIGHUP)

    def reload(self, config) -> None:
        """Writes a new config and sends SIGHUP."""
        self.write_config(config)
        self.sighup()

    def terminate(self) -> None:
        self.signal(signal.SIGTERM)

    def wait_exit(self, timeout: float = 5.0):
        """The exit code, or None when the process is still running after `timeout`."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, timeout: float = 6.0):
        """SIGTERM and wait; returns the exit code (the process is killed if it hangs)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.terminate()
            code = self.wait_exit(timeout)
            if code is None:
                self.process.kill()
                self.process.wait()
                code = "hung after SIGTERM (killed)"
        else:
            code = self.process.returncode
        for stream in (self._stdout, self._stderr):
            stream.close()
        return code

    # MARK: - Output

    def stdout_text(self) -> str:
        return self.stdout_path.read_bytes().decode("utf-8", "replace")

    def stderr_text(self) -> str:
        return self.stderr_path.read_bytes().decode("utf-8", "replace")

    def access_log(self) -> list:
        """Every JSON object line on stdout (the access log)."""
        entries = []
        for line in self.stdout_text().splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError:
                    continue
        return entries

    def wait_for_access_log(self, predicate, timeout: float = 3.0) -> list:
        """Access-log entries matching `predicate`, waiting until at least one is written."""
        deadline = time.monotonic() + timeout
        while True:
            matching = [entry for entry in self.access_log() if predicate(entry)]
            if matching or time.monotonic() >= deadline:
                return matching
            time.sleep(0.05)

    def metrics_text(self) -> str:
        response = httpx.get(f"{self.admin_url}/metrics", timeout=2.0)
        response.raise_for_status()
        return response.text


class GatewayFactory:
    """Starts gateways for a test or a module and stops them all afterwards.

    `stop_all()` returns a description of every gateway that did not exit 0 on SIGTERM or had
    already died, so the owning fixture can fail on it.
    """

    def __init__(self, base_dir: Path):
        self.base_dir = Path(base_dir)
        self.gateways = []

    def start(self, config_for_ports, env=None, name: str = None,
              listen_host: str = "127.0.0.1") -> Gateway:
        gateway = self.create(config_for_ports, env=env, name=name, listen_host=listen_host)
        return gateway.start()

    def create(self, config_for_ports, env=None, name: str = None,
               listen_host: str = "127.0.0.1") -> Gateway:
        workdir = self.base_dir / (name or f"gateway-{len(self.gateways)}")
        gateway = Gateway(workdir, config_for_ports, env=env, listen_host=listen_host)
        self.gateways.append(gateway)
        return gateway

    def stop_all(self) -> list:
        problems = []
        for gateway in self.gateways:
            if gateway.process is None:
                continue
            was_running = gateway.running
            code = gateway.stop()
            if code != 0:
                problems.append(f"{gateway.workdir.name}: exit {code} "
                                f"({'on SIGTERM' if was_running else 'died during the test'}); "
                                f"stderr tail:\n{gateway.stderr_text()[-2000:]}")
        self.gateways.clear()
        return problems
