"""haproxy as the load balancer in front of several gateways: round robin, each backend taken in
and out of rotation by an HTTP health check of its admin listener's /readyz — the part of a
Kubernetes Service that readiness probes and the endpoints controller play. The runtime API
(a stats socket) tells which backends haproxy currently counts as up."""

import csv
import io
import shutil
import socket
import subprocess
import time
from pathlib import Path

from .child_process import terminate
from .ports import free_port, wait_for_port

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
BACKEND = "gateways"
# Health checks every 100 ms, one failure takes a backend out and one success brings it back:
# a gateway leaves rotation within about 0.1 s of its /readyz turning 503.
CHECK_INTERVAL = "100ms"

CONFIG_TEMPLATE = """\
global
    stats socket {socket} level admin
    nbthread 1

defaults
    mode http
    option http-keep-alive
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    # A connection a draining gateway refuses is retried once on another backend: nothing was
    # sent yet, so this is always safe (haproxy's default retry-on: conn-failure).
    retries 1
    option redispatch 1

frontend public
    bind 127.0.0.1:{port}
    default_backend {backend}

backend {backend}
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter {interval} fall 1 rise 1
{servers}
"""


class HAProxyBalancer:
    def __init__(self, workdir: Path, backends: dict):
        """`backends`: name -> (listen port, admin port) of each gateway."""
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.socket_path = self.workdir / "haproxy.sock"
        servers = "\n".join(f"    server {name} 127.0.0.1:{port} check port {admin}"
                            for name, (port, admin) in backends.items())
        config = self.workdir / "haproxy.cfg"
        config.write_text(CONFIG_TEMPLATE.format(socket=self.socket_path, port=self.port,
                                                 backend=BACKEND, interval=CHECK_INTERVAL,
                                                 servers=servers))
        self.log = open(self.workdir / "haproxy.log", "wb")
        self.process = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], stdout=self.log,
                                        stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        wait_for_port(self.port, timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def server_states(self) -> dict:
        """Backend name -> haproxy's status for it ("UP", "DOWN", ...)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stats:
            stats.connect(str(self.socket_path))
            stats.sendall(b"show stat\n")
            reply = b""
            while chunk := stats.recv(65536):
                reply += chunk
        rows = csv.DictReader(io.StringIO(reply.decode().lstrip("# ")))
        return {row["svname"]: row["status"] for row in rows
                if row["pxname"] == BACKEND and row["svname"] not in ("FRONTEND", "BACKEND")}

    def wait_for_states(self, wanted: dict, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            states = self.server_states()
            if all(states.get(name, "").startswith(state) for name, state in wanted.items()):
                return
            if time.monotonic() >= deadline:
                raise TimeoutError(f"haproxy backends {states}, wanted {wanted}")
            time.sleep(0.05)

    def stop(self) -> None:
        terminate(self.process)
        self.log.close()
