#!/usr/bin/env python3
"""Gatehouse side by side with nginx and haproxy in front of one nginx upstream.

The standard run starts the upstream (nginx, 1 worker, fixed JSON bodies of 100 B, 8 KiB and
64 KiB), nginx and haproxy as reverse-proxy peers (1 worker/thread, keep-alive pools, one injected
header) and Gatehouse (1 worker, the same routes and header), checks that all of them answer
correctly, then loads them with wrk in interleaved rounds and reports req/s, latency, CPU µs per
request and memory per target, with the ratios between them. Focused scenarios (persisted
operations, TLS, gzip, stores) compare request shapes side by side in the same way. See
Benchmarks/README.md.

    python3 Benchmarks/bench.py --quick                  # under 2 minutes: 100 B body, 3 s rounds
    python3 Benchmarks/bench.py                          # the standard run, about 24 minutes
    python3 Benchmarks/bench.py --scenario tls --scenario gzip --rounds 2
"""

import sys

# The harness runs from the source tree; keep __pycache__ directories out of it.
sys.dont_write_bytecode = True

import argparse
import os
import shlex
import shutil
import signal
import tempfile
from pathlib import Path

from harness import machine, results_file, tools
from harness.scenarios import cache, compression, instructions, persisted, profile, standard, stores, tls, websocket
from harness.scenarios.context import ScenarioContext
from harness.services import ServiceGroup
from harness.tools import log

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_RESULTS = BENCH_DIR / "RESULTS.md"
# Descriptors wanted for this process and the proxies it starts (they inherit the limit).
WANTED_OPEN_FILES = 65_536
# Every scenario by its --scenario name, in the order a run with several of them takes.
SCENARIOS = {module.NAME: module for module in (standard, persisted, tls, compression, stores, cache, websocket,
                                                 instructions, profile)}


# MARK: - Command line

DEFAULT_ROUNDS = 5


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Gatehouse vs nginx vs haproxy, side by side.")
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS), metavar="NAME",
                        help="what to run, repeatable: " + ", ".join(SCENARIOS) +
                             " (default: standard). See Benchmarks/README.md")
    parser.add_argument("--quick", action="store_true",
                        help="standard: 100 B body only, no JWT, idle or workers rounds; every scenario: "
                             "rounds of 3 s after a 1 s warm-up; writes no RESULTS.md unless "
                             "--results is given")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per case (default 5, also with --quick)")
    parser.add_argument("--duration", type=float, help="seconds per wrk run (default 10; quick 3)")
    parser.add_argument("--warmup", type=float, help="warm-up seconds per case (default 3; quick 1)")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (default 64)")
    parser.add_argument("--idle-connections", type=int, default=10_000,
                        help="connections held open by the idle test (default 10000)")
    parser.add_argument("--bin", help="gatehouse binary (default $GATEHOUSE_BIN, else "
                                      ".build/release/gatehouse, built when missing or outdated)")
    parser.add_argument("--results", type=Path,
                        help=f"Markdown results file; each scenario rewrites its own section "
                             f"(default without --quick: {DEFAULT_RESULTS})")
    parser.add_argument("--no-results", action="store_true", help="print only, write no results file")
    parser.add_argument("--keep", action="store_true", help="keep the run directories (configs, logs)")
    args = parser.parse_args(argv)
    # Each scenario once, in the order of SCENARIOS.
    chosen = set(args.scenario or [standard.NAME])
    args.scenario = [name for name in SCENARIOS if name in chosen]
    # Five interleaved rounds at least, quick or not: a median of fewer is one lucky round away
    # from another verdict.
    args.rounds = args.rounds or DEFAULT_ROUNDS
    args.duration = args.duration or (3.0 if args.quick else 10.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 3.0)
    if args.no_results:
        args.results = None
    elif args.results is None and not args.quick:
        args.results = DEFAULT_RESULTS
    return args


def _terminate(signum, frame):
    # SIGTERM unwinds like Ctrl-C does, through the `finally` that stops every process.
    raise SystemExit(128 + signum)


# MARK: - The run

def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    signal.signal(signal.SIGTERM, _terminate)
    programs = tools.ensure_programs()
    tools.ensure_python_packages()
    binary = tools.ensure_gatehouse(args.bin or os.environ.get("GATEHOUSE_BIN"))
    fd_limit = machine.raise_open_file_limit(WANTED_OPEN_FILES)
    minutes = sum(SCENARIOS[name].planned_seconds(args) for name in args.scenario) / 60
    log(f"scenarios {', '.join(args.scenario)}: about {minutes:.0f} min of load")
    failed = False
    for name in args.scenario:
        failed |= run_scenario(name, args, argv, programs, binary, fd_limit)
    return 1 if failed else 0


def run_scenario(name: str, args: argparse.Namespace, argv: list[str], programs: dict[str, str],
                 binary: Path, fd_limit: int) -> bool:
    """Runs one scenario with processes of its own, stopped at its end; True when one died."""
    work_dir = Path(tempfile.mkdtemp(prefix=f"gatehouse-bench-{name}-"))
    services = ServiceGroup(work_dir)
    log(f"scenario {name}: work dir {work_dir}")
    try:
        context = ScenarioContext(args, command_line(argv), programs, binary, fd_limit, work_dir, services)
        outcome = SCENARIOS[name].run(context)
    finally:
        services.stop_all()
        if args.keep:
            log(f"run directory kept: {work_dir}")
        else:
            shutil.rmtree(work_dir, ignore_errors=True)
    print(outcome.text, end="\n\n", flush=True)
    if args.results:
        results_file.write_section(args.results, name, outcome.markdown)
        log(f"section {name} written to {args.results}")
    return outcome.failed


def command_line(argv: list[str]) -> str:
    prefix = f"GATEHOUSE_BIN={os.environ['GATEHOUSE_BIN']} " if os.environ.get("GATEHOUSE_BIN") else ""
    return prefix + shlex.join(["python3", "Benchmarks/bench.py", *argv])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        log("interrupted; every started process was stopped")
        sys.exit(130)
