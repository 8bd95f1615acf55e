#!/usr/bin/env python3
"""Gatehouse side by side with nginx and haproxy in front of one nginx upstream.

Starts the upstream (nginx, 1 worker, fixed JSON bodies of 100 B, 8 KiB and 64 KiB), nginx and
haproxy as reverse-proxy peers (1 worker/thread, keep-alive pools, one injected header) and
Gatehouse (1 worker, the same routes and header), checks that all of them answer correctly, then
loads them with wrk in interleaved rounds and reports req/s, latency, CPU µs per request and memory
per target, with the ratios between them. See Benchmarks/README.md.

    python3 Benchmarks/bench.py --quick     # about a minute: 100 B body, one round
    python3 Benchmarks/bench.py             # the full run, about 12 minutes; writes RESULTS.md
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

from harness import checks, fixtures, idle, machine, procfs, report, tools
from harness.fixtures import BODY_PATHS, HS_PATH, RS_PATH
from harness.peers import Peers, PeerSettings, Target
from harness.rounds import Case, LoadSettings, RoundRunner
from harness.services import ServiceGroup
from harness.tools import log

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_RESULTS = BENCH_DIR / "RESULTS.md"
# Every proxy's connection limit: room for the idle test's connections and the load.
MAX_CONNECTIONS = 12_000
# Descriptors wanted for this process and the proxies it starts (they inherit the limit).
WANTED_OPEN_FILES = 65_536
# Above this 1-minute load average other work is competing for the CPUs.
BUSY_LOAD = 0.5


# MARK: - Command line

def parse_arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Gatehouse vs nginx vs haproxy, side by side.")
    parser.add_argument("--quick", action="store_true",
                        help="100 B body only, one round of 5 s after a 2 s warm-up; no JWT, idle "
                             "or workers rounds; writes no RESULTS.md unless --results is given")
    parser.add_argument("--rounds", type=int, help="interleaved rounds per case (default 3; quick 1)")
    parser.add_argument("--duration", type=float, help="seconds per wrk run (default 10; quick 5)")
    parser.add_argument("--warmup", type=float, help="warm-up seconds per case (default 3; quick 2)")
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (default 64)")
    parser.add_argument("--idle-connections", type=int, default=10_000,
                        help="connections held open by the idle test (default 10000)")
    parser.add_argument("--bin", help="gatehouse binary (default $GATEHOUSE_BIN, else "
                                      ".build/release/gatehouse, built when missing or outdated)")
    parser.add_argument("--results", type=Path, help=f"Markdown results file (full run default: {DEFAULT_RESULTS})")
    parser.add_argument("--no-results", action="store_true", help="print only, write no results file")
    parser.add_argument("--keep", action="store_true", help="keep the run directory (configs, logs)")
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (1 if args.quick else 3)
    args.duration = args.duration or (5.0 if args.quick else 10.0)
    args.warmup = args.warmup if args.warmup is not None else (2.0 if args.quick else 3.0)
    if args.no_results:
        args.results = None
    elif args.results is None and not args.quick:
        args.results = DEFAULT_RESULTS
    return args


def _terminate(signum, frame):
    # SIGTERM unwinds like Ctrl-C does, through the `finally` that stops every process.
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    args = parse_arguments(argv)
    signal.signal(signal.SIGTERM, _terminate)
    programs = tools.ensure_programs()
    tools.ensure_python_packages()
    binary = tools.ensure_gatehouse(args.bin or os.environ.get("GATEHOUSE_BIN"))
    fd_limit = machine.raise_open_file_limit(WANTED_OPEN_FILES)
    work_dir = Path(tempfile.mkdtemp(prefix="gatehouse-bench-"))
    services = ServiceGroup(work_dir)
    try:
        return run(args, argv, programs, binary, fd_limit, work_dir, services)
    finally:
        services.stop_all()
        if args.keep:
            log(f"run directory kept: {work_dir}")
        else:
            shutil.rmtree(work_dir, ignore_errors=True)


# MARK: - The run

def run(args: argparse.Namespace, argv: list[str], programs: dict[str, str], binary: Path,
        fd_limit: int, work_dir: Path, services: ServiceGroup) -> int:
    full = not args.quick
    machine_info = machine.describe()
    notes = []
    if float(machine_info["load average at start"].split()[0]) > BUSY_LOAD:
        notes.append(f"the machine was busy at the start (load {machine_info['load average at start']}); "
                     "other work competes for the CPUs and makes the numbers noisy")
        log(f"warning: {notes[-1]}")
    log(f"planned load: about {planned_minutes(args):.0f} min; work dir {work_dir}")

    bodies = fixtures.write_bodies(work_dir / "bodies")
    credentials = fixtures.make_credentials(work_dir)
    peers = Peers(PeerSettings(work_dir, programs, binary, credentials, bodies["100B"],
                               MAX_CONNECTIONS, fd_limit), services)
    start_rss = {}
    upstream = peers.start_upstream()
    nginx = peers.start_nginx()
    haproxy = peers.start_haproxy(with_jwt=full)
    gatehouse = peers.start_gatehouse("gatehouse", workers=1)
    gatehouse_two = peers.start_gatehouse("gatehouse-2w", workers=2) if full else None
    for target in peers.targets.values():
        start_rss[target.name] = procfs.rss_kib(target.measured_pid)
    if peers.haproxy_jwt_note:
        notes.append(peers.haproxy_jwt_note)

    jwt_targets = []
    if full:
        jwt_targets = [gatehouse, haproxy] if haproxy.jwt_port else [gatehouse]
    problems = checks.check_targets(list(peers.targets.values()), bodies, credentials, jwt_targets)
    if problems:
        raise SystemExit("bench: the targets do not answer as they must:\n  " + "\n  ".join(problems))
    log("all targets answer correctly")

    runner = RoundRunner(LoadSettings(programs["wrk"], args.duration, args.warmup, args.connections), upstream)
    proxies = [upstream, nginx, haproxy, gatehouse]
    body_labels = list(BODY_PATHS) if full else ["100B"]
    runner.run_section("proxy", body_labels,
                       {body: [Case(target.name, target, BODY_PATHS[body]) for target in proxies]
                        for body in body_labels}, args.rounds)
    idle_results = []
    if full:
        runner.run_section("jwt", ["100B"], {"100B": jwt_cases(gatehouse, haproxy, credentials)}, args.rounds)
        runner.run_section("workers", ["100B"], {"100B": [
            Case("gatehouse 1 worker", gatehouse, BODY_PATHS["100B"]),
            Case("gatehouse 2 workers", gatehouse_two, BODY_PATHS["100B"])]}, args.rounds)
        services.stop(gatehouse_two.service)
        idle_results = idle_section(args, peers, [nginx, haproxy, gatehouse])

    versions = {
        "gatehouse": tools.program_version([str(binary), "version"]) + f" ({binary})",
        "nginx": tools.program_version([programs["nginx"], "-v"]),
        "haproxy": tools.program_version([programs["haproxy"], "-v"]),
        "wrk": tools.program_version([programs["wrk"], "-v"]),
    }
    result = report.Report(
        mode="quick" if args.quick else "full", command=command_line(argv), machine=machine_info,
        versions=versions,
        settings={"wrk": f"1 thread, {args.connections} connections, POST of a GraphQL query (conf/post.lua)",
                  "rounds": f"{args.rounds} × {args.duration:g} s per case after a {args.warmup:g} s warm-up",
                  "open file limit": str(fd_limit)},
        summaries=runner.summaries(), runs=runner.runs, idle=idle_results, start_rss_kib=start_rss,
        notes=notes, crashes=runner.crashes)
    stop_and_check_exit(services, gatehouse, result)
    print(report.as_text(result), flush=True)
    if args.results:
        args.results.write_text(report.as_markdown(result))
        log(f"results written to {args.results}")
    return 1 if result.crashes else 0


def jwt_cases(gatehouse: Target, haproxy: Target, credentials: fixtures.Credentials) -> list[Case]:
    hs, rs = f"Bearer {credentials.hs_token}", f"Bearer {credentials.rs_token}"
    cases = [Case("gatehouse none", gatehouse, BODY_PATHS["100B"]),
             Case("gatehouse HS256", gatehouse, HS_PATH, hs),
             Case("gatehouse RS256", gatehouse, RS_PATH, rs)]
    if haproxy.jwt_port:
        cases += [Case("haproxy none", haproxy, BODY_PATHS["100B"]),
                  Case("haproxy HS256", haproxy, HS_PATH, hs, use_jwt_port=True),
                  Case("haproxy RS256", haproxy, RS_PATH, rs, use_jwt_port=True)]
    return cases


def idle_section(args: argparse.Namespace, peers: Peers,
                 targets: list[Target]) -> list[idle.IdleResult]:
    results = []
    for target in targets:
        if not target.is_running():
            continue
        # haproxy may hold fewer connections under the descriptor limit (see conf/haproxy.cfg).
        capacity = peers.haproxy_max_connections if target.name == "haproxy" else MAX_CONNECTIONS
        count = min(args.idle_connections, capacity - 2 * args.connections)
        log(f"idle: {count} keep-alive connections to {target.name}")
        item = idle.measure_idle(target, target.name, count, BODY_PATHS["100B"], checks.REQUEST_BODY)
        log(f"idle: {target.name} {item.bytes_per_connection / 1024:.2f} KiB per connection "
            f"({item.failed} failed, {item.closed_by_server} closed by the server)")
        results.append(item)
    return results


def stop_and_check_exit(services: ServiceGroup, gatehouse: Target, result: report.Report) -> None:
    """SIGTERM must drain and exit 0 (SPEC §1); anything else is worth a line in the report."""
    if gatehouse.service.is_running():
        services.stop(gatehouse.service, grace=25.0)
        code = gatehouse.service.process.returncode
        if code != 0:
            result.notes.append(f"gatehouse {gatehouse.service.exit_description()} after SIGTERM "
                                f"(expected status 0):\n{gatehouse.service.log_tail()}")


def planned_minutes(args: argparse.Namespace) -> float:
    if args.quick:
        cases = [(4, 1)]
    else:
        cases = [(4, 3), (6, 1), (2, 1)]
    seconds = sum(count * bodies * (args.warmup + args.rounds * args.duration) for count, bodies in cases)
    return seconds / 60 + (0.0 if args.quick else 1.0)


def command_line(argv: list[str]) -> str:
    prefix = f"GATEHOUSE_BIN={os.environ['GATEHOUSE_BIN']} " if os.environ.get("GATEHOUSE_BIN") else ""
    return prefix + shlex.join(["python3", "Benchmarks/bench.py", *argv])


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        log("interrupted; every started process was stopped")
        sys.exit(130)
