#!/usr/bin/env bash
# End-to-end check of `gatehouse sdk swift` (make test-sdk; make test runs it after the release
# build):
#   1. generates the Star Wars fixture's client (Tests/GatehouseSDKTests/Fixtures/starwars) and
#      the demo's (config/demo.yaml, config/schema.graphql) into .build/sdk-starwars and
#      .build/sdk-demo;
#   2. builds Tests/SDKEndToEnd, which uses both, in one package build with warnings as errors
#      (Swift 6 language mode: complete concurrency checking); the scratch path is kept, so a
#      second run is incremental;
#   3. runs it against `gatehouse demo --port <free port>` and against a gateway whose upstream
#      answers 429, so every demo operation round-trips through its door and the errors are
#      checked.
# GATEHOUSE_BIN names the gateway binary (default .build/release/gatehouse); SDK_DEMO_CONFIG and
# SDK_DEMO_SCHEMA the demo's config and schema (default config/demo.yaml, config/schema.graphql).
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${GATEHOUSE_BIN:-.build/release/gatehouse}
SWIFT=${SWIFT:-swift}
PYTHON=${PYTHON:-python3}
SCRATCH=.build/sdk-e2e
FIXTURE=Tests/GatehouseSDKTests/Fixtures/starwars
DEMO_CONFIG=${SDK_DEMO_CONFIG:-config/demo.yaml}
DEMO_SCHEMA=${SDK_DEMO_SCHEMA:-config/schema.graphql}
# How long a started gateway may take to answer before the run gives up (a loaded 2-core machine).
READY_SECONDS=20
# The Retry-After the rate-limited upstream sends; Tests/SDKEndToEnd expects this number.
RETRY_AFTER=7

[ -x "$BIN" ] || { echo "test-sdk: $BIN not found; build it first (swift build -c release)" >&2; exit 1; }

pids=()
work=$(mktemp -d)
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_until_listening() { # port what log
    for _ in $(seq $((READY_SECONDS * 10))); do
        if curl -s -o /dev/null "http://127.0.0.1:$1/"; then return 0; fi
        sleep 0.1
    done
    echo "test-sdk: $2 did not answer on port $1 within ${READY_SECONDS}s; the end of its output:" >&2
    tail -n 20 "$3" >&2
    exit 1
}

"$BIN" sdk swift --config "$FIXTURE/gatehouse.yaml" --schema "$FIXTURE/schema.graphql" \
    --out .build/sdk-starwars --package StarWarsAPI --scalar URL=URL

if [ ! -f "$DEMO_CONFIG" ] || [ ! -f "$DEMO_SCHEMA" ]; then
    echo "test-sdk: skipping the demo round trip: $DEMO_CONFIG and $DEMO_SCHEMA are not in this checkout;"
    echo "test-sdk: building the Star Wars fixture's client alone"
    "$SWIFT" build --package-path .build/sdk-starwars --scratch-path "$SCRATCH-starwars" -Xswiftc -strict-concurrency=complete -Xswiftc -warnings-as-errors
    exit 0
fi

"$BIN" sdk swift --config "$DEMO_CONFIG" --schema "$DEMO_SCHEMA" --out .build/sdk-demo \
    --package GatehouseDemoAPI
"$SWIFT" build --package-path Tests/SDKEndToEnd --scratch-path "$SCRATCH" -Xswiftc -strict-concurrency=complete -Xswiftc -warnings-as-errors

# The demo: gateway, backend and admin listener on free ports, so this runs beside `make demo`.
demo_port=$(free_port)
GATEHOUSE_DEMO_BACKEND_PORT=$(free_port) GATEHOUSE_DEMO_ADMIN_PORT=$(free_port) \
    "$BIN" demo --port "$demo_port" > "$work/demo.log" 2>&1 &
pids+=($!)

# A gateway in front of an upstream that answers every request with 429 and Retry-After.
upstream_port=$(free_port)
"$PYTHON" - "$upstream_port" "$RETRY_AFTER" > "$work/upstream.log" 2>&1 <<'PY' &
import http.server, sys

class RateLimited(http.server.BaseHTTPRequestHandler):
    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = b'{"errors":[{"message":"slow down"}]}'
        self.send_response(429)
        self.send_header("Retry-After", sys.argv[2])
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    do_GET = do_POST = answer

http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), RateLimited).serve_forever()
PY
pids+=($!)
limited_port=$(free_port)
cat > "$work/rate-limited.yaml" <<YAML
server:
  listen: "127.0.0.1:$limited_port"
  workers: 1
  admin_listen: ""
  access_log: "off"
upstreams:
  limited:
    url: "http://127.0.0.1:$upstream_port/graphql"
operations:
  dir: config/operations
routes:
  - path: /ops/*
    upstream: limited
    auth: none
    persisted: only
YAML
"$BIN" run --config "$work/rate-limited.yaml" > "$work/rate-limited.log" 2>&1 &
pids+=($!)

wait_until_listening "$demo_port" "gatehouse demo" "$work/demo.log"
wait_until_listening "$upstream_port" "the rate-limited upstream" "$work/upstream.log"
wait_until_listening "$limited_port" "the rate-limited gateway" "$work/rate-limited.log"

if ! "$SCRATCH/debug/SDKEndToEnd" --port "$demo_port" --rate-limited-port "$limited_port"; then
    echo "test-sdk: failed; the demo's log:" >&2
    tail -n 40 "$work/demo.log" >&2
    exit 1
fi
