"""Starts the upstream and the three proxies side by side, each configured from Benchmarks/conf/."""

import grp
import os
import pwd
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from . import gateway_headers, procfs
from .fixtures import Credentials
from .services import Service, ServiceGroup, free_ports
from .templates import render, render_to
from .tools import log, program_version, haproxy_has_jwt_verify


@dataclass
class Target:
    """Something wrk can load: the upstream itself ("direct") or a proxy in front of it."""

    name: str
    service: Service
    # The process whose CPU and memory are the target's: an nginx worker, haproxy, gatehouse.
    measured_pid: int
    # haproxy serves its JWT routes on a frontend of their own.
    jwt_port: int | None = None

    def url(self, path: str, use_jwt_port: bool = False) -> str:
        port = self.jwt_port if use_jwt_port and self.jwt_port else self.service.port
        return f"http://127.0.0.1:{port}{path}"

    def is_running(self) -> bool:
        return self.service.is_running() and Path(f"/proc/{self.measured_pid}").exists()


@dataclass
class PeerSettings:
    work_dir: Path
    programs: dict[str, str]
    gatehouse_bin: Path
    # Keys and tokens for the JWT routes; scenarios without them pass None.
    credentials: Credentials | None
    small_body: str
    max_connections: int
    fd_limit: int


class Peers:
    """The running processes of one benchmark run."""

    def __init__(self, settings: PeerSettings, services: ServiceGroup):
        self.settings = settings
        self.services = services
        self.upstream: Target | None = None
        self.targets: dict[str, Target] = {}
        self.haproxy_jwt_note = ""
        user = pwd.getpwuid(os.geteuid())
        self._common = {
            "DIR": settings.work_dir,
            "USER": user.pw_name,
            "GROUP": grp.getgrgid(user.pw_gid).gr_name,
            "SMALL_BODY": settings.small_body,
            "MAX_CONNECTIONS": settings.max_connections,
            "FD_LIMIT": settings.fd_limit,
        }
        if settings.credentials:
            self._common.update(HS_SECRET=settings.credentials.hs_secret,
                                JWKS_FILE=settings.credentials.jwks_file)
        else:
            # The upstream's /jwks.json location names a file; without credentials it answers 404.
            self._common.update(JWKS_FILE=Path(settings.work_dir) / "no-credentials-jwks.json")
        (self.upstream_port,) = free_ports(1)
        # haproxy needs two descriptors per connection plus a few of its own.
        self.haproxy_max_connections = min(settings.max_connections, (settings.fd_limit - 64) // 2)

    # MARK: - Starting

    # Scenarios pass their own template (a path under conf/) and the placeholders only it has
    # (`extra`: a TLS port, certificate files, an operations directory).
    def start_upstream(self, template: str = "upstream-nginx.conf", extra: dict | None = None) -> Target:
        values = {**self._common, "UPSTREAM_PORT": self.upstream_port, **(extra or {})}
        self._make_nginx_temp_dirs("upstream-nginx-temp")
        conf = render_to(template, values, self.settings.work_dir / "upstream-nginx.conf")
        service = self.services.start("upstream-nginx", self._nginx_command(conf), self.upstream_port)
        self.upstream = Target("direct", service, self._nginx_worker(service))
        self.targets["direct"] = self.upstream
        return self.upstream

    def start_nginx(self, template: str = "proxy-nginx.conf", extra: dict | None = None,
                    name: str = "nginx", with_gateway_headers: bool = False,
                    wrapper: list[str] | None = None, ready_timeout: float = 15.0) -> Target:
        """`with_gateway_headers`: the standard run's second nginx (gateway_headers.py). `wrapper`
        as for start_gatehouse: nginx then runs without a master, one process that serves."""
        (port,) = free_ports(1)
        service_name = "proxy-nginx" if name == "nginx" else f"proxy-{name.replace('+', '-')}"
        values = {**self._common, "UPSTREAM_PORT": self.upstream_port, "PROXY_PORT": port,
                  "NGINX_NAME": service_name, "NGINX_MASTER_PROCESS": "off" if wrapper else "on",
                  **gateway_headers.nginx_location(with_gateway_headers), **(extra or {})}
        self._make_nginx_temp_dirs(f"{service_name}-temp")
        conf = render_to(template, values, self.settings.work_dir / f"{service_name}.conf")
        service = self.services.start(service_name, (wrapper or []) + self._nginx_command(conf), port,
                                      ready_timeout=ready_timeout)
        return self._add(Target(name, service, service.pid if wrapper else self._nginx_worker(service)))

    def start_haproxy(self, with_jwt: bool, extra: dict | None = None, wrapper: list[str] | None = None,
                      ready_timeout: float = 15.0) -> Target:
        port, jwt_port = free_ports(2)
        values = {**self._common, "UPSTREAM_PORT": self.upstream_port, "PROXY_PORT": port,
                  "JWT_PORT": jwt_port, "HAPROXY_MAXCONN": self.haproxy_max_connections, **(extra or {})}
        haproxy = self.settings.programs["haproxy"]
        cfg_path = self.settings.work_dir / "haproxy.cfg"
        base = render("haproxy.cfg", values)
        cfg_path.write_text(base)
        use_jwt_port = None
        if with_jwt:
            use_jwt_port = self._write_haproxy_jwt_config(haproxy, cfg_path, base, values)
        service = self.services.start("haproxy", (wrapper or []) + [haproxy, "-db", "-f", str(cfg_path)], port,
                                      ready_timeout=ready_timeout)
        return self._add(Target("haproxy", service, service.pid, jwt_port=use_jwt_port))

    def start_gatehouse(self, name: str, workers: int, template: str = "gatehouse.yaml",
                        extra: dict | None = None, wrapper: list[str] | None = None,
                        ready_timeout: float = 15.0) -> Target:
        """`wrapper` runs the binary under another program (valgrind), which then has its pid."""
        (port,) = free_ports(1)
        values = {**self._common, "UPSTREAM_PORT": self.upstream_port, "PROXY_PORT": port,
                  "WORKERS": workers, **(extra or {})}
        conf = render_to(template, values, self.settings.work_dir / f"{name}.yaml")
        binary = str(self.settings.gatehouse_bin)
        check = subprocess.run([binary, "check", "--config", str(conf)], capture_output=True, text=True,
                               cwd=self.settings.work_dir)
        if check.returncode != 0:
            raise SystemExit(f"bench: gatehouse check refused {conf}:\n{check.stdout}{check.stderr}")
        service = self.services.start(name, (wrapper or []) + [binary, "run", "--config", str(conf)], port,
                                      ready_timeout=ready_timeout)
        return self._add(Target(name, service, service.pid))

    # MARK: - Helpers

    def _add(self, target: Target) -> Target:
        self.targets[target.name] = target
        return target

    def _make_nginx_temp_dirs(self, name: str) -> None:
        for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (self.settings.work_dir / name / sub).mkdir(parents=True, exist_ok=True)

    def _nginx_command(self, conf: Path) -> list[str]:
        # -e keeps the startup error log out of /var/log/nginx; -p keeps relative paths in the run dir.
        return [self.settings.programs["nginx"], "-p", f"{self.settings.work_dir}/",
                "-e", str(self.settings.work_dir / f"{conf.stem}.startup.log"), "-c", str(conf)]

    @staticmethod
    def _nginx_worker(service: Service, timeout: float = 5.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            workers = procfs.children(service.pid)
            if workers:
                return workers[0]
            time.sleep(0.05)
        raise RuntimeError(f"{service.name}: no worker process under master {service.pid}")

    def _write_haproxy_jwt_config(self, haproxy: str, cfg_path: Path, base: str,
                                  values: dict) -> int | None:
        """Appends the JWT frontend when this haproxy can verify tokens; returns its port, or None
        with the reason in haproxy_jwt_note."""
        version = program_version([haproxy, "-v"])
        if not haproxy_has_jwt_verify(version):
            self.haproxy_jwt_note = f"{version}: no jwt_verify (needs 2.5 or later); JWT comparison skipped"
            return None
        credentials = self.settings.credentials
        # Newer releases read a public key file; some take only a certificate.
        problems = []
        for key_file in (credentials.rs_public_key_file, credentials.rs_certificate_file):
            jwt_part = render("haproxy-jwt.cfg", {**values, "RS_KEY_FILE": key_file})
            cfg_path.write_text(base + jwt_part)
            check = subprocess.run([haproxy, "-c", "-f", str(cfg_path)], capture_output=True, text=True)
            if check.returncode == 0:
                return values["JWT_PORT"]
            problems.append(f"{key_file.name}: {(check.stdout + check.stderr).strip()}")
        cfg_path.write_text(base)
        self.haproxy_jwt_note = "haproxy refused the JWT frontend; JWT comparison skipped:\n" + "\n".join(problems)
        log(self.haproxy_jwt_note)
        return None
