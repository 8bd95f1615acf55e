"""WebSocket relay: messages per second through ONE tunnel, 1 KiB text messages both ways (the
client keeps a window of messages in flight, the upstream echoes each), Gatehouse (1 worker)
against nginx (1 worker, `proxy_pass` with the Upgrade/Connection headers) in front of the same
echo upstream. The echo and the load generator are small C programs (Benchmarks/tools/), and a
`direct` row (load straight at the echo) shows how far above the proxies they reach."""

import statistics
import time
from dataclasses import dataclass

from .. import procfs
from ..peers import Target
from ..tools import log
from ..websocket_tools import LoadResult, check_echo, compile_tools, run_load
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text, change

NAME = "websocket"
TITLE = "WebSocket relay: one tunnel, 1 KiB messages both ways, Gatehouse against nginx"
QUESTION = ("Messages per second through one WebSocket tunnel (1 KiB text messages, a pipelined window "
            "from the client, the upstream echoing each) and the proxy's CPU µs per message, Gatehouse "
            "(1 worker) against nginx (1 worker) in front of the same echo upstream. Goals: msg/s ≥ 1.0× "
            "nginx, CPU µs per message ≤ nginx.")
PATH = "/ws"
MESSAGE_BYTES = 1024
# Messages in flight: enough that neither side waits for a round trip.
WINDOW = 64
# Sizes checked byte for byte through every target before the load (7-bit, 16-bit, 64-bit lengths).
CHECK_SIZES = (100, MESSAGE_BYTES, 70_000)
DIRECT, NGINX, GATEHOUSE = "direct", "nginx", "gatehouse"
# A message is one frame each way; CPU per message is the target's CPU over the echoed messages.
PER_MESSAGE = "per echoed message (one frame each way)"
# Rounds during which the rest of the machine used more than this share of one CPU are noted.
NOISY_OTHER_CPU_PERCENT = 25.0


def planned_seconds(args) -> float:
    return 3 * (args.warmup + args.rounds * args.duration)


@dataclass(frozen=True)
class Round:
    target: str
    round: int
    load: LoadResult
    cpu_us_per_message: float
    echo_cpu_us_per_message: float
    other_cpu_percent: float

    @property
    def load_cpu_us_per_message(self) -> float:
        return self.load.cpu_seconds * 1e6 / max(self.load.messages, 1)


def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    tools = compile_tools(context.work_dir)
    peers = context.peers(small_body="")
    echo_service = context.services.start("ws-echo", [str(tools["ws_echo"]), str(peers.upstream_port)],
                                          peers.upstream_port)
    echo = Target(DIRECT, echo_service, echo_service.pid)
    gatehouse = peers.start_gatehouse("gatehouse", workers=1, template="websocket/gatehouse.yaml")
    nginx = peers.start_nginx(template="websocket/proxy-nginx.conf")
    targets = [echo, nginx, gatehouse]
    problems = [problem for target in targets for size in CHECK_SIZES
                if (problem := check_echo(tools["ws_load"], target.service.port, PATH, size))]
    if problems:
        raise SystemExit("bench: the WebSocket targets do not echo as they must:\n  " + "\n  ".join(problems))
    log("websocket: every target echoes 100 B, 1 KiB and 70 KB messages byte for byte")

    rounds: list[Round] = []
    crashes: list[str] = []
    if args.warmup > 0:
        for target in targets:
            measure(tools["ws_load"], target, echo, -1, args.warmup)
    for index in range(args.rounds):
        for target in targets:
            if not target.is_running():
                crashes.append(f"{target.name} {target.service.exit_description()}:\n{target.service.log_tail()}")
                continue
            measured = measure(tools["ws_load"], target, echo, index, args.duration)
            rounds.append(measured)
            log(f"websocket {target.name:<10} round {index + 1}/{args.rounds}: "
                f"{measured.load.messages_per_second:9.0f} msg/s  {measured.cpu_us_per_message:5.2f} µs/msg  "
                f"other CPU {measured.other_cpu_percent:3.0f}%")

    context.finish_machine(machine_info)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    medians = {name: median(rounds, name) for name in (DIRECT, NGINX, GATEHOUSE)}
    noisy = [r for r in rounds if r.other_cpu_percent > NOISY_OTHER_CPU_PERCENT]
    notes = context.notes + ["indicative: the machine is shared; every round is in the table above"]
    if noisy:
        notes.append(f"{len(noisy)} of {len(rounds)} runs had other work above {NOISY_OTHER_CPU_PERCENT:.0f}% of one CPU")
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 WebSocket connection, {MESSAGE_BYTES} B text messages, a window of {WINDOW} in flight, "
                 f"the upstream echoing each", **context.round_settings()},
        context.versions("nginx", commands={"cc": ["cc", "--version"]}),
        tables=[round_table(rounds), median_table(medians), goal_table(medians)],
        notes=notes + ([exit_note] if exit_note else []), crashes=crashes)
    return Outcome(as_text(report), as_markdown(report), bool(crashes))


def measure(load, target: Target, echo: Target, index: int, seconds: float) -> Round:
    pid = target.measured_pid
    cpu_before, echo_before = procfs.cpu_seconds(pid), procfs.cpu_seconds(echo.measured_pid)
    machine_before, started = procfs.machine_busy_seconds(), time.monotonic()
    result = run_load(load, target.service.port, PATH, seconds, WINDOW, MESSAGE_BYTES)
    cpu_after, echo_after = procfs.cpu_seconds(pid), procfs.cpu_seconds(echo.measured_pid)
    machine_after, elapsed = procfs.machine_busy_seconds(), time.monotonic() - started
    ours = result.cpu_seconds + (echo_after - echo_before) + (cpu_after - cpu_before if pid != echo.measured_pid else 0)
    messages = max(result.messages, 1)
    time.sleep(0.5)
    return Round(target.name, index, result, (cpu_after - cpu_before) * 1e6 / messages,
                 (echo_after - echo_before) * 1e6 / messages,
                 max(0.0, (machine_after - machine_before) - ours) / elapsed * 100)


@dataclass(frozen=True)
class Median:
    messages_per_second: float
    cpu_us_per_message: float
    echo_cpu_us_per_message: float
    load_cpu_us_per_message: float
    rounds: int


def median(rounds: list[Round], target: str) -> Median | None:
    mine = [r for r in rounds if r.target == target]
    if not mine:
        return None
    return Median(statistics.median(r.load.messages_per_second for r in mine),
                  statistics.median(r.cpu_us_per_message for r in mine),
                  statistics.median(r.echo_cpu_us_per_message for r in mine),
                  statistics.median(r.load_cpu_us_per_message for r in mine), len(mine))


# MARK: - Tables

def round_table(rounds: list[Round]) -> Table:
    rows = [[r.target, str(r.round + 1), f"{r.load.messages_per_second:.0f}", f"{r.cpu_us_per_message:.2f}",
             f"{r.echo_cpu_us_per_message:.2f}", f"{r.load_cpu_us_per_message:.2f}", f"{r.other_cpu_percent:.0f}"]
            for r in sorted(rounds, key=lambda r: (r.target, r.round))]
    return Table("Every round", ["target", "round", "msg/s", "CPU µs/msg", "echo CPU µs/msg", "load CPU µs/msg",
                                 "other CPU %"], rows,
                 f"CPU µs/msg is the target process's own CPU time {PER_MESSAGE}; for `direct` it is the echo "
                 "itself. The echo and load columns show the C peers' cost for the same messages.")


def median_table(medians: dict[str, Median | None]) -> Table:
    rows = [[name, f"{m.messages_per_second:.0f}", f"{m.cpu_us_per_message:.2f}", f"{m.echo_cpu_us_per_message:.2f}",
             f"{m.load_cpu_us_per_message:.2f}", str(m.rounds)]
            for name, m in medians.items() if m is not None]
    return Table("Median over rounds", ["target", "msg/s", "CPU µs/msg", "echo CPU µs/msg", "load CPU µs/msg",
                                        "rounds"], rows)


def goal_table(medians: dict[str, Median | None]) -> Table:
    ours, theirs = medians.get(GATEHOUSE), medians.get(NGINX)
    rows = []
    for goal, attribute, at_least, digits in (("msg/s ≥ 1.0× nginx", "messages_per_second", True, 0),
                                              ("CPU µs/msg ≤ nginx", "cpu_us_per_message", False, 2)):
        if ours is None or theirs is None or not getattr(theirs, attribute):
            rows.append([goal, "—", "—"])
            continue
        value, base = getattr(ours, attribute), getattr(theirs, attribute)
        passed = value / base >= 1.0 if at_least else value / base <= 1.0
        rows.append([goal, f"{value / base:.2f}× ({change(value, base, digits)})", "PASS" if passed else "FAIL"])
    return Table("Goals (indicative: shared machine)", ["goal", "measured", "verdict"], rows)
