"""The programs a run needs: nginx, haproxy, wrk, openssl, curl and redis-server (installed through apt when missing), the
Python packages that mint tokens, and the gatehouse release binary."""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_GATEHOUSE_BIN = REPO_ROOT / ".build" / "release" / "gatehouse"

# Each program and the Debian package that provides it (openssl makes the tls scenario's
# certificates, curl checks the gzip scenario's answers, redis-server holds the stores scenario's
# shared state and redis-cli checks it).
APT_PROVIDERS = {"nginx": "nginx-light", "haproxy": "haproxy", "wrk": "wrk", "openssl": "openssl", "curl": "curl",
                 "redis-server": "redis-server", "redis-cli": "redis-tools"}
PIP_PROVIDERS = {"jwt": "pyjwt", "cryptography": "cryptography"}
# nginx and haproxy live in sbin, which a non-root PATH often lacks.
_SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])


def log(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def which(program: str) -> str | None:
    return shutil.which(program, path=_SEARCH_PATH)


# MARK: - System programs

def ensure_programs() -> dict[str, str]:
    """Absolute paths of every program in APT_PROVIDERS, installing only the missing ones."""
    missing = [program for program in APT_PROVIDERS if which(program) is None]
    if missing:
        apt_install([APT_PROVIDERS[program] for program in missing], missing, update=True)
    paths = {}
    for program in APT_PROVIDERS:
        path = which(program)
        if path is None:
            raise SystemExit(f"bench: {program} still missing after installing {APT_PROVIDERS[program]}")
        paths[program] = path
    return paths


def ensure_optional_program(program: str, package: str) -> str:
    """A program only one scenario needs (valgrind for `instructions`), installed when missing."""
    if which(program) is None:
        apt_install([package], [program], update=True)
    path = which(program)
    if path is None:
        raise SystemExit(f"bench: {program} still missing after installing {package}")
    return path


def apt_install(packages: list[str], programs: list[str], update: bool = False) -> None:
    """Installs `packages` (for the missing `programs`) through apt, as root or with sudo."""
    log(f"installing {' '.join(packages)}")
    as_root = [] if os.geteuid() == 0 else (["sudo"] if which("sudo") else None)
    if as_root is None:
        raise SystemExit(f"bench: {', '.join(programs)} missing and not root (no sudo either)")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if update:
        subprocess.run(as_root + ["apt-get", "update", "-q"], check=True, env=env)
    subprocess.run(as_root + ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + packages,
                   check=True, env=env)


def ensure_python_packages() -> None:
    missing = [package for module, package in PIP_PROVIDERS.items()
               if importlib.util.find_spec(module) is None]
    if not missing:
        return
    log(f"installing Python packages {' '.join(missing)}")
    flags = ["-q", "--disable-pip-version-check"]
    if (Path(sysconfig.get_paths()["stdlib"]) / "EXTERNALLY-MANAGED").exists():
        # The packages only mint test tokens; next to the system ones is where we want them.
        flags.append("--break-system-packages")
    subprocess.run([sys.executable, "-m", "pip", "install", *flags, *missing], check=True)
    importlib.invalidate_caches()


def program_version(command: list[str]) -> str:
    """The first line a program prints about its version (nginx prints to stderr)."""
    result = subprocess.run(command, capture_output=True, text=True)
    text = (result.stdout + result.stderr).strip()
    return text.splitlines()[0] if text else "unknown"


def haproxy_has_jwt_verify(version_line: str) -> bool:
    """jwt_verify arrived in haproxy 2.5."""
    match = re.search(r"version (\d+)\.(\d+)", version_line)
    return bool(match) and (int(match.group(1)), int(match.group(2))) >= (2, 5)


# MARK: - Gatehouse

def newest_source_mtime() -> float:
    newest = (REPO_ROOT / "Package.swift").stat().st_mtime
    for path in (REPO_ROOT / "Sources").rglob("*"):
        if path.is_file():
            newest = max(newest, path.stat().st_mtime)
    return newest


def ensure_gatehouse(explicit: str | None) -> Path:
    """The binary to benchmark. An explicit one (--bin or GATEHOUSE_BIN) is used as it is, with a
    warning when older than the sources; the default one is built when missing or outdated."""
    if explicit:
        binary = Path(explicit).resolve()
        if not binary.is_file():
            raise SystemExit(f"bench: gatehouse binary {binary} does not exist")
        if binary.stat().st_mtime < newest_source_mtime():
            log(f"warning: {binary} is older than the sources")
        return binary
    binary = DEFAULT_GATEHOUSE_BIN
    if not binary.is_file() or binary.stat().st_mtime < newest_source_mtime():
        log("building the release binary (swift build -c release)")
        subprocess.run(["swift", "build", "-c", "release"], cwd=REPO_ROOT, check=True)
    return binary
