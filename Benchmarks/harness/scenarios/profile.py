"""profile: where each proxy's CPU goes per request — user space, reads, writes, epoll_wait — and,
inside the kernel's share, the peers' TCP work that loopback runs on the proxy's time (see
`harness/cpu_profile.py`); then what that leaves as a ceiling for req/s.

The standard run's load (wrk -t1 -c64, the 100 B and 8 KiB POSTs) through Gatehouse, nginx and
haproxy (one worker each, the same upstream), in interleaved rounds. During each wrk run `perf
record -a -g -e cpu-clock` samples every CPU (a timer, so it works in VMs without hardware
counters); the proxy's samples are sorted by where they fell, and its CPU µs/req (from /proc) is
split in those shares.

The same recordings say which process ran on which CPU. The ceiling table is the arithmetic
behind the standard run's CPU_SHARE_NOTE: wrk, the upstream and the proxy share the machine, so
with every CPU busy req/s cannot pass CPUs ÷ (proxy + upstream + wrk µs/req), and with the proxy
on a CPU of its own it cannot pass 1 ÷ the slower of the proxy and wrk + upstream. The ratio of
two proxies' ceilings is the most the cheaper one's lower cost can buy; the last row of each body
asks the same with Gatehouse's user-space time taken out altogether."""

import os
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import checks, fixtures, procfs, tools
from ..cpu_profile import IDLE, OTHERS, PLACES, Profile, profile_of, record
from ..fixtures import BODY_PATHS
from ..peers import Target
from ..tools import log
from ..wrk import WrkResult, run_wrk
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text

NAME = "profile"
TITLE = "Profile: where each proxy's CPU goes, and the req/s ceiling it leaves"
QUESTION = ("How much of each proxy's CPU per request is its own code and how much is the kernel — "
            "and of that, the TCP work of the other end of each loopback connection, which the kernel "
            "runs on the sender's time — and how far a proxy's lower cost can lift req/s when wrk and "
            "the upstream share the same CPUs.")
BODIES = ("100B", "8KiB")
SECONDS = 5.0
WARM_SECONDS = 2.0
# Samples per second per CPU: some 4,000 of the proxy per round, enough for shares within ~1 %.
FREQUENCY = 999
# wrk runs this much longer than the recording, which starts this much after wrk.
LEAD_SECONDS = 0.5


def planned_seconds(args) -> float:
    per_record = SECONDS + 2 * LEAD_SECONDS + 6  # perf script reads each recording back
    return len(BODIES) * 3 * (WARM_SECONDS + args.rounds * per_record) + 20


@dataclass
class Sampled:
    """One target on one body: its rounds' numbers and its samples over all rounds."""

    label: str
    requests_per_second: list[float] = field(default_factory=list)
    proxy_us: list[float] = field(default_factory=list)
    upstream_us: list[float] = field(default_factory=list)
    wrk_us: list[float] = field(default_factory=list)
    # Per round: the proxy's samples and the share of them in user space.
    round_samples: list[int] = field(default_factory=list)
    round_user_shares: list[float] = field(default_factory=list)
    profile: Profile = field(default_factory=Profile)

    @property
    def cpu_us(self) -> float:
        return statistics.median(self.proxy_us)

    @property
    def peers_us(self) -> float:
        """Upstream + wrk CPU per request."""
        return statistics.median(self.upstream_us) + statistics.median(self.wrk_us)

    @property
    def machine_us(self) -> float:
        """Proxy + upstream + wrk CPU per request: what one request costs the machine."""
        return self.cpu_us + self.peers_us

    @property
    def slower_side_us(self) -> float:
        """With the proxy on a CPU of its own and the other two on another, the side that sets req/s."""
        return max(self.cpu_us, self.peers_us)

    def place_us(self, count: int) -> float:
        return self.profile.share(count) * self.cpu_us


def run(context: ScenarioContext) -> Outcome:
    perf = tools.ensure_optional_program("perf", "linux-perf")
    refuse_without_kernel_samples()
    machine_info = context.describe_machine()
    bodies = fixtures.write_bodies(context.work_dir / "bodies")
    credentials = fixtures.make_credentials(context.work_dir)
    peers = context.peers(bodies["100B"], credentials)
    upstream = peers.start_upstream()
    targets = [peers.start_gatehouse("gatehouse", workers=1), peers.start_nginx(), peers.start_haproxy(with_jwt=False)]
    problems = checks.check_targets(targets, bodies, credentials, [])
    if problems:
        raise SystemExit("bench: the targets do not answer as they must:\n  " + "\n  ".join(problems))

    wrk = context.programs["wrk"]
    results = {(body, target.name): Sampled(target.name) for body in BODIES for target in targets}
    for body in BODIES:
        for target in targets:
            run_wrk(wrk, target.url(BODY_PATHS[body]), WARM_SECONDS, context.args.connections)
    rounds = context.args.rounds
    for round_index in range(rounds):
        for body in BODIES:
            for target in targets:
                sample_round(context, perf, wrk, upstream, target, body, round_index, results[(body, target.name)])

    context.finish_machine(machine_info)
    by_body = {body: [results[(body, target.name)] for target in targets] for body in BODIES}
    tables = [places_table(body, sampled) for body, sampled in by_body.items()]
    tables += [placement_table(by_body), ceiling_table(by_body), rounds_table(by_body)]
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"wrk -t1 -c{context.args.connections}, POST of a GraphQL query (conf/post.lua); "
                 f"{rounds} rounds of {SECONDS + 2 * LEAD_SECONDS:g} s per case after a {WARM_SECONDS:g} s "
                 "warm-up, cases interleaved",
         "sampling": f"perf record -a -g -e cpu-clock -F {FREQUENCY}, {SECONDS:g} s inside each wrk run"},
        context.versions("nginx", "haproxy", "wrk", commands={"perf": [perf, "--version"]}),
        tables=tables,
        notes=context.notes + [
            "Shares are of the proxy process's own samples (every thread); µs are those shares of its "
            "CPU µs/req from /proc, medians over the rounds. The recording itself takes a little CPU, "
            "so req/s here runs somewhat below the standard run's.",
            "Peers' TCP work: inside writes, the receiving socket's input path (softirq net_rx_action: "
            "TCP receive, ACK processing, waking the reader) that loopback runs before the send "
            "returns; inside reads, the ACK a read sends when it frees the queue (the upstream's "
            "8 KiB answer comes as two segments, head then body, and the kernel acknowledges "
            "them at once). On a network the receiver's CPU would do this work."])
    return Outcome(as_text(report), as_markdown(report), False)


def refuse_without_kernel_samples() -> None:
    """perf must see the kernel's stacks: as root, or with perf_event_paranoid ≤ 1 and kernel
    addresses readable (kptr_restrict 0)."""
    if os.geteuid() == 0:
        return
    paranoid = int(Path("/proc/sys/kernel/perf_event_paranoid").read_text())
    restrict = int(Path("/proc/sys/kernel/kptr_restrict").read_text())
    if paranoid > 1 or restrict > 0:
        raise SystemExit("bench: the profile scenario needs kernel samples: run it as root, or set "
                         "kernel.perf_event_paranoid=1 and kernel.kptr_restrict=0")


def sample_round(context: ScenarioContext, perf: str, wrk: str, upstream: Target, target: Target, body: str,
                 round_index: int, into: Sampled) -> None:
    pid, upstream_pid = target.measured_pid, upstream.measured_pid
    cpu_before, upstream_before = procfs.cpu_seconds(pid), procfs.cpu_seconds(upstream_pid)
    children_before = procfs.waited_children_cpu_seconds()
    outcome: dict[str, WrkResult] = {}
    load = threading.Thread(target=lambda: outcome.setdefault("wrk", run_wrk(
        wrk, target.url(BODY_PATHS[body]), SECONDS + 2 * LEAD_SECONDS, context.args.connections)))
    load.start()
    time.sleep(LEAD_SECONDS)
    data = context.work_dir / f"perf.{body}.{target.name}.{round_index}.data"
    recording = record(perf, data, SECONDS, FREQUENCY)
    perf_cpu = reap_with_cpu(recording)
    load.join()
    cpu_after, upstream_after = procfs.cpu_seconds(pid), procfs.cpu_seconds(upstream_pid)
    wrk_cpu = procfs.waited_children_cpu_seconds() - children_before - perf_cpu
    result = outcome.get("wrk")
    if result is None or recording.returncode != 0:
        raise SystemExit(f"bench: profile round {round_index + 1} of {target.name} on {body} failed "
                         f"(perf: {recording.stderr.read() if recording.stderr else ''})")
    requests = max(result.requests, 1)
    into.requests_per_second.append(result.requests_per_second)
    into.proxy_us.append((cpu_after - cpu_before) * 1e6 / requests)
    into.upstream_us.append((upstream_after - upstream_before) * 1e6 / requests)
    into.wrk_us.append(wrk_cpu * 1e6 / requests)
    profile = profile_of(perf, data, pid, {upstream_pid: "upstream", "wrk": "wrk"})
    data.unlink(missing_ok=True)
    into.profile.add(profile)
    into.round_samples.append(profile.samples)
    into.round_user_shares.append(profile.share(profile.places["user space"]))
    log(f"profile {body} {target.name:<9} round {round_index + 1}/{context.args.rounds}: {result.requests_per_second:8.0f} "
        f"req/s  {into.proxy_us[-1]:5.1f} µs/req  {profile.samples} samples, user space "
        f"{profile.share(profile.places['user space']) * 100:4.1f}%")


def reap_with_cpu(process: subprocess.Popen) -> float:
    """Waits for `process` and returns the CPU seconds it used (taken apart from wrk's: both are
    this process's children)."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


# MARK: - Tables

def places_table(body: str, sampled: list[Sampled]) -> Table:
    headers = ["proxy", "CPU µs/req", *(f"{place} µs" for place in PLACES), "peers' TCP work µs",
               "of it in writes / reads", "samples"]
    rows = []
    for item in sampled:
        profile = item.profile
        rows.append([item.label, f"{item.cpu_us:.1f}",
                     *(f"{item.place_us(profile.places[place]):.1f} ({profile.share(profile.places[place]) * 100:.0f}%)"
                       for place in PLACES),
                     f"{item.place_us(profile.peer_work):.1f} ({profile.share(profile.peer_work) * 100:.0f}%)",
                     f"{item.place_us(profile.delivery_in_writes):.1f} / {item.place_us(profile.acks_in_reads):.1f}",
                     str(profile.samples)])
    return Table(f"Where the CPU goes, {body} answers", headers, rows,
                 "Each proxy's CPU µs per request, split by where its samples fell (share of its samples "
                 "in brackets). Peers' TCP work is inside the reads and writes columns, not added to them.")


def rounds_table(by_body: dict[str, list[Sampled]]) -> Table:
    rows = []
    for body, sampled in by_body.items():
        for item in sampled:
            for index, rps in enumerate(item.requests_per_second):
                rows.append([body, item.label, str(index + 1), f"{rps:.0f}", f"{item.proxy_us[index]:.1f}",
                             f"{item.upstream_us[index]:.1f}", f"{item.wrk_us[index]:.1f}",
                             f"{item.round_user_shares[index] * 100:.1f}", str(item.round_samples[index])])
    return Table("Every round", ["body", "proxy", "round", "req/s", "proxy µs/req", "upstream µs/req", "wrk µs/req",
                                 "user space %", "proxy samples"], rows,
                 "Each recorded wrk run; the tables above use their medians (CPU) and their pooled samples "
                 "(shares).")


OWNERS = ("proxy", "upstream", "wrk", IDLE, OTHERS)


def placement_table(by_body: dict[str, list[Sampled]]) -> Table:
    rows = []
    for body, sampled in by_body.items():
        for item in sampled:
            cells = []
            for owners in item.profile.placement:
                total = sum(owners.values()) or 1
                cells.append(" · ".join(f"{owner} {owners[owner] * 100 / total:.0f}" for owner in OWNERS))
            rows.append([body, item.label, *cells])
    columns = max(len(item.profile.placement) for sampled in by_body.values() for item in sampled)
    names = ["the proxy's CPU"] + [f"CPU {rank + 1}" if columns > 2 else "the other CPU" for rank in range(1, columns)]
    return Table("Who ran where", ["body", "proxy", *(f"{name} (% of its time)" for name in names)], rows,
                 "Each CPU's time during the recordings, by what it was running: the proxy, the upstream, "
                 "wrk, nothing (idle) or anything else. The CPU where the proxy ran most comes first (per "
                 "recording, so rounds add up). When the scheduler keeps the proxy on a CPU of its own and "
                 "wrk and the upstream on the other, req/s is set by whichever side is slower, and a proxy "
                 "cheaper than wrk + upstream leaves its own CPU idling.")


def ceiling_table(by_body: dict[str, list[Sampled]]) -> Table:
    cpus = os.cpu_count() or 1
    rows = []
    for body, sampled in by_body.items():
        gatehouse = next(item for item in sampled if item.label == "gatehouse")
        for item in sampled:
            rows.append([body, item.label, f"{item.cpu_us:.1f}", f"{item.peers_us:.1f}", f"{item.machine_us:.1f}",
                         f"{cpus * 1e6 / item.machine_us:.0f}", f"{1e6 / item.slower_side_us:.0f}",
                         f"{statistics.median(item.requests_per_second):.0f}",
                         f"{item.machine_us / gatehouse.machine_us:.2f} / "
                         f"{item.slower_side_us / gatehouse.slower_side_us:.2f}"])
        user = gatehouse.place_us(gatehouse.profile.places["user space"])
        bare, bare_side = gatehouse.machine_us - user, max(gatehouse.cpu_us - user, gatehouse.peers_us)
        rows.append([body, "gatehouse, no user-space time", f"{gatehouse.cpu_us - user:.1f}", f"{gatehouse.peers_us:.1f}",
                     f"{bare:.1f}", f"{cpus * 1e6 / bare:.0f}", f"{1e6 / bare_side:.0f}", "—",
                     ", ".join(f"{item.machine_us / bare:.2f} / {item.slower_side_us / bare_side:.2f} ({item.label})"
                               for item in sampled if item is not gatehouse)])
    return Table("What bounds req/s",
                 ["body", "proxy", "proxy µs/req", "upstream + wrk µs/req", "all three µs/req",
                  "req/s, CPUs shared", "req/s, proxy on a CPU of its own", "req/s measured",
                  "Gatehouse's ceilings ÷ this (shared / own CPU)"],
                 rows,
                 f"Two ceilings on {cpus} CPUs. Shared: every CPU busy, so req/s = CPUs ÷ the three processes' "
                 "CPU per request. Own CPU (the placement \"Who ran where\" shows the scheduler choosing "
                 "for Gatehouse on two CPUs): the proxy on one, wrk and the upstream on the other, so req/s = 1 ÷ the slower "
                 "side. The last column divides this proxy's ceilings into Gatehouse's: the req/s ratio "
                 "Gatehouse can reach against it. The \"no user-space time\" row takes Gatehouse's own code "
                 "out entirely: no change to that code can lift the ratio past its figures on this machine.")
