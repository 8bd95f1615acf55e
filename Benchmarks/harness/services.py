"""Starting the benchmarked processes and making sure every one of them is gone at the end."""

import os
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path


def free_ports(count: int) -> list[int]:
    """Distinct free TCP ports on 127.0.0.1; the sockets stay open until all are picked so the
    kernel cannot hand out the same port twice."""
    sockets = []
    try:
        for _ in range(count):
            probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            probe.bind(("127.0.0.1", 0))
            sockets.append(probe)
        return [probe.getsockname()[1] for probe in sockets]
    finally:
        for probe in sockets:
            probe.close()


def port_accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


class ServiceError(RuntimeError):
    pass


@dataclass
class Service:
    """One started process: its name, command, port and log file."""

    name: str
    command: list[str]
    port: int
    log_path: Path
    process: subprocess.Popen = field(repr=False)

    @property
    def pid(self) -> int:
        return self.process.pid

    def is_running(self) -> bool:
        return self.process.poll() is None

    def log_tail(self, lines: int = 20) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def exit_description(self) -> str:
        code = self.process.poll()
        if code is None:
            return "running"
        if code < 0:
            return f"killed by signal {signal.Signals(-code).name}"
        return f"exited with status {code}"


class ServiceGroup:
    """Every process the run starts. Each runs in its own session so a Ctrl-C at the terminal
    reaches only the harness, which then stops them in order; stop_all runs from a `finally`."""

    def __init__(self, work_dir: Path):
        self.work_dir = work_dir
        self.services: list[Service] = []

    def start(self, name: str, command: list[str], port: int, ready_timeout: float = 15.0,
              env: dict | None = None) -> Service:
        log_path = self.work_dir / f"{name}.log"
        log_file = open(log_path, "wb")
        try:
            process = subprocess.Popen(
                command, cwd=self.work_dir, stdin=subprocess.DEVNULL, stdout=log_file,
                stderr=subprocess.STDOUT, start_new_session=True,
                env={**os.environ, **(env or {})})
        finally:
            log_file.close()
        service = Service(name, command, port, log_path, process)
        self.services.append(service)
        self._wait_until_ready(service, ready_timeout)
        return service

    def stop(self, service: Service, grace: float = 5.0) -> None:
        if service.is_running():
            self._signal_group(service, signal.SIGTERM)
            try:
                service.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._signal_group(service, signal.SIGKILL)
                service.process.wait()
        if service in self.services:
            self.services.remove(service)

    def stop_all(self) -> None:
        for service in reversed(list(self.services)):
            self.stop(service)

    # MARK: - Internals

    @staticmethod
    def _signal_group(service: Service, signum: int) -> None:
        # The service leads its own process group (start_new_session), so this reaches its
        # workers too and nothing else.
        try:
            os.killpg(service.pid, signum)
        except ProcessLookupError:
            pass

    @staticmethod
    def _wait_until_ready(service: Service, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not service.is_running():
                raise ServiceError(f"{service.name} {service.exit_description()} at start:\n"
                                   f"{service.log_tail()}")
            if port_accepts(service.port):
                return
            time.sleep(0.05)
        raise ServiceError(f"{service.name} did not accept on port {service.port} within "
                           f"{timeout:.0f}s:\n{service.log_tail()}")
