#!/usr/bin/env bash
# make test-smoke: the binary built with the Swift runtime linked in (make build-static, as the
# Dockerfile builds it) needs no libswift*.so or Foundation library at run time — only the C
# libraries the runtime image installs — and passes the e2e smoke subset (`pytest -m smoke`).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

PYTHON="${PYTHON:-python3}"
BINARY="${1:-.build/static/release/gatehouse}"

echo "smoke-static: shared libraries of $BINARY"
libraries="$(ldd "$BINARY")"
echo "$libraries"
if grep -Eq 'libswift|libFoundation|lib_FoundationICU|libdispatch|libBlocksRuntime' <<<"$libraries"; then
    echo "smoke-static: FAIL: $BINARY still needs Swift runtime libraries" >&2
    exit 1
fi
if grep -q 'not found' <<<"$libraries"; then
    echo "smoke-static: FAIL: $BINARY needs a library this machine does not have" >&2
    exit 1
fi
echo "smoke-static: no Swift runtime library needed"

GATEHOUSE_BIN="$(realpath "$BINARY")" "$PYTHON" -m pytest -q -m smoke Tests/e2e
