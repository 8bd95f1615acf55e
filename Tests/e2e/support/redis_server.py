"""A real redis-server on a free loopback port, started and stopped by the test that needs it:
no persistence, no config file, nothing shared with a Redis the machine may run. `stop()` and
`start()` again on the same port stand for a Redis restart; `pause()`/`resume()` (SIGSTOP and
SIGCONT) for a Redis that accepts connections — the kernel completes the handshake — and never
answers."""

import shutil
import signal
import subprocess
import time
from pathlib import Path

from .child_process import terminate
from .ports import free_port, wait_for_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"


class RedisServer:
    def __init__(self, workdir: Path, password: str = None, port: int = None):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.password = password
        self.process = None
        self.log = None
        self.paused = False

    def start(self) -> "RedisServer":
        arguments = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", "--dir", str(self.workdir), "--daemonize", "no"]
        if self.password:
            arguments += ["--requirepass", self.password]
        self.log = open(self.workdir / f"redis-{self.port}.log", "ab")
        self.process = subprocess.Popen(arguments, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        wait_for_port(self.port, timeout=10)
        return self

    def url(self, password_in_url: bool = False, database: int = 0) -> str:
        auth = f":{self.password}@" if password_in_url and self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/{database}"

    def command(self, *arguments) -> str:
        """One command through redis-cli; its output as text."""
        cli = [REDIS_CLI, "-h", "127.0.0.1", "-p", str(self.port), "--no-auth-warning"]
        if self.password:
            cli += ["-a", self.password]
        return subprocess.run(cli + [str(a) for a in arguments], capture_output=True, text=True,
                              timeout=5, stdin=subprocess.DEVNULL).stdout

    def pause(self) -> None:
        self.process.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)
        self.paused = False

    def kill(self) -> None:
        """Gone at once, like a crashed pod: open connections are reset."""
        if self.paused:
            self.resume()
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.process is None:
            return
        if self.paused:
            self.resume()
        terminate(self.process)
        if self.log:
            self.log.close()
            self.log = None


def wait_until(predicate, timeout: float, interval: float = 0.05):
    """Polls `predicate` until it returns something truthy; the value, or None after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
