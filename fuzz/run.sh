#!/usr/bin/env bash
# Runs each fuzz target for SECONDS (default 20) from its seed corpus, then prints executions
# and new findings per target. A crash leaves its input in $FUZZ_OUT/crashes/<target>-…: add it
# to fuzz/regressions/<target>/ (replayed at the start of every run) and to the conformance
# table when it is a request. Exits 1 when any target crashed.
#   fuzz/run.sh [SECONDS] [TARGET...]      build first with fuzz/build.sh
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

OUT="${FUZZ_OUT:-.build/fuzz}"
SECONDS_PER_TARGET="${1:-20}"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
    for harness in fuzz/*/Harness.swift; do targets+=("$(basename "$(dirname "$harness")")"); done
fi

mkdir -p "$OUT/crashes" "$OUT/logs"
failed=0
for target in "${targets[@]}"; do
    work="fuzz/corpus-work/$target"
    mkdir -p "$work" "fuzz/regressions/$target"
    log="$OUT/logs/$target.log"
    "$OUT/bin/$target" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$OUT/crashes/$target-" \
        "$work" "fuzz/corpus/$target" "fuzz/regressions/$target" >"$log" 2>&1
    status=$?
    executions="$(grep -o 'number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')"
    coverage="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$')"
    if ((status != 0)); then
        failed=1
        echo "fuzz: $target CRASHED after ${executions:-?} executions; see $log"
        grep -m3 -E 'Fatal error|Precondition failed|ERROR: libFuzzer|deadly signal' "$log" | sed 's/^/    /'
        ls "$OUT/crashes/$target-"* 2>/dev/null | sed 's/^/    input: /'
    else
        echo "fuzz: $target ${executions:-?} executions, coverage ${coverage:-?} edges, no crash"
    fi
done
exit "$failed"
