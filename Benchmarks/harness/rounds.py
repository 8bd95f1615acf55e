"""Interleaved load rounds: every case of a section runs once per round, in a fixed order, so slow
drifts of the machine (other work, thermal limits) spread over all targets alike."""

import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import procfs
from .peers import Target
from .tools import log
from .wrk import POST_SCRIPT, WrkError, WrkResult, run_wrk


@dataclass(frozen=True)
class Case:
    """One row of a section: a target, the path it is loaded on and the credentials it sends.
    Scenario rows may name the whole URL (https listeners), the wrk script (request shape) and
    extra request headers."""

    label: str
    target: Target
    path: str
    authorization: str | None = None
    use_jwt_port: bool = False
    url: str | None = None
    script: Path = POST_SCRIPT
    headers: tuple[str, ...] = ()
    # Processes doing this case's work besides the target and the upstream (the redis-server a
    # store row uses): their CPU is the case's own, not other work that makes a round noisy.
    helper_pids: tuple[int, ...] = ()


@dataclass(frozen=True)
class Run:
    """One wrk run of a case, with the CPU and memory its target used meanwhile."""

    section: str
    body: str
    label: str
    round: int
    wrk: WrkResult
    cpu_us_per_request: float
    upstream_cpu_us_per_request: float
    rss_kib: int
    hwm_kib: int
    # CPU the rest of the machine used meanwhile (everything but the target, the upstream and wrk),
    # in percent of one CPU: other engineers' builds and tests show up here.
    other_cpu_percent: float = 0.0
    # wrk's own CPU per request: with the upstream's, what the target shares the machine with.
    wrk_cpu_us_per_request: float = 0.0
    # The share of all CPUs that idled meanwhile (percent): req/s ≈ busy CPUs ÷ (target + upstream
    # + wrk CPU per request), so it tells why req/s and CPU per request can disagree.
    idle_cpu_percent: float = 0.0
    # Context switches per request of the target and of the upstream: how often each went to sleep
    # or was preempted. Waking a sleeping process costs its waker CPU, so a target that sleeps
    # more makes the upstream and wrk pay more per request.
    switches_per_request: float = 0.0
    upstream_switches_per_request: float = 0.0


# A round during which the rest of the machine used more than this share of one CPU (percent) is
# noisy: another build or test halves req/s and inflates CPU time per request. A noisy round is
# left out for every target of its section and body alike (the rounds are interleaved, so round k
# of each target ran under the same conditions), never for one target alone, and only while at
# least one quiet round remains. Raw rows keep every round.
NOISY_OTHER_CPU_PERCENT = 25.0


@dataclass(frozen=True)
class Summary:
    """The median over a case's rounds (the quiet ones when there are any); memory is the highest seen."""

    section: str
    body: str
    label: str
    rounds: int
    requests_per_second: float
    p50_us: float
    p99_us: float
    cpu_us_per_request: float
    upstream_cpu_us_per_request: float
    rss_kib: int
    hwm_kib: int
    errors: int
    bytes_per_response: float = 0.0
    other_cpu_percent: float = 0.0
    # Rounds left out of the medians because other work competed with them.
    noisy_rounds: int = 0
    wrk_cpu_us_per_request: float = 0.0
    idle_cpu_percent: float = 0.0
    switches_per_request: float = 0.0
    upstream_switches_per_request: float = 0.0

    @property
    def rounds_text(self) -> str:
        """The rounds in the medians: "3", or "2 of 3" when a noisy round was left out."""
        if not self.noisy_rounds:
            return str(self.rounds)
        return f"{self.rounds} of {self.rounds + self.noisy_rounds}"


@dataclass
class LoadSettings:
    wrk: str
    duration_s: float
    warmup_s: float
    connections: int
    pause_s: float = 0.5


@dataclass
class RoundRunner:
    settings: LoadSettings
    upstream: Target
    runs: list[Run] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    _dead: set[str] = field(default_factory=set)

    # MARK: - Sections

    def run_section(self, section: str, bodies: list[str], cases_by_body: dict[str, list[Case]],
                    rounds: int) -> None:
        """Warm every case up, then `rounds` rounds of body by body, case by case."""
        for body in bodies:
            for case in cases_by_body[body]:
                if self.settings.warmup_s > 0:
                    self._measure(section, body, case, -1, self.settings.warmup_s)
        for round_index in range(rounds):
            for body in bodies:
                for case in cases_by_body[body]:
                    run = self._measure(section, body, case, round_index, self.settings.duration_s)
                    if run is not None:
                        self.runs.append(run)
                        log(f"{section} {body} {case.label:<24} round {round_index + 1}/{rounds}: "
                            f"{run.wrk.requests_per_second:9.0f} req/s  p99 {run.wrk.p99_us / 1000:6.2f} ms  "
                            f"{run.cpu_us_per_request:5.1f} µs/req  errors {run.wrk.errors}  "
                            f"other CPU {run.other_cpu_percent:3.0f}%")

    def summaries(self) -> list[Summary]:
        groups: dict[tuple[str, str, str], list[Run]] = {}
        for run in self.runs:
            groups.setdefault((run.section, run.body, run.label), []).append(run)
        noisy = self.noisy_rounds()
        return [self._summarize(key, runs, noisy.get((key[0], key[1]), set())) for key, runs in groups.items()]

    def noisy_rounds(self) -> dict[tuple[str, str], set[int]]:
        """Per section and body, the round indexes left out for every target: those in which any
        target's run was noisy, unless that would leave no round at all."""
        by_case: dict[tuple[str, str], dict[int, list[Run]]] = {}
        for run in self.runs:
            by_case.setdefault((run.section, run.body), {}).setdefault(run.round, []).append(run)
        result = {}
        for key, rounds in by_case.items():
            noisy = {index for index, runs in rounds.items()
                     if any(run.other_cpu_percent > NOISY_OTHER_CPU_PERCENT for run in runs)}
            result[key] = noisy if len(noisy) < len(rounds) else set()
        return result

    # MARK: - One run

    def _measure(self, section: str, body: str, case: Case, round_index: int,
                 duration_s: float) -> Run | None:
        target = case.target
        if target.name in self._dead:
            return None
        if not target.is_running():
            self._record_crash(target, f"found dead before {section} {body} {case.label}")
            return None
        pid, upstream_pid = target.measured_pid, self.upstream.measured_pid
        cpu_before, upstream_before = procfs.cpu_seconds(pid), procfs.cpu_seconds(upstream_pid)
        machine_before, wrk_before = procfs.machine_busy_seconds(), procfs.waited_children_cpu_seconds()
        helpers_before = sum(procfs.cpu_seconds(helper) for helper in case.helper_pids)
        switches_before, upstream_switches_before = procfs.context_switches(pid), procfs.context_switches(upstream_pid)
        started = time.monotonic()
        try:
            with procfs.RSSSampler(pid) as sampler:
                url = case.url or target.url(case.path, case.use_jwt_port)
                result = run_wrk(self.settings.wrk, url, duration_s, self.settings.connections,
                                 authorization=case.authorization, script=case.script,
                                 headers=case.headers)
        except WrkError as error:
            self._record_crash(target, f"wrk failed during {section} {body} {case.label}: {error}")
            return None
        if not target.is_running():
            self._record_crash(target, f"died during {section} {body} {case.label} round {round_index + 1} "
                                       f"({result.requests} requests done, {result.errors} errors)")
            return None
        cpu_after, upstream_after = procfs.cpu_seconds(pid), procfs.cpu_seconds(upstream_pid)
        machine_after, wrk_after = procfs.machine_busy_seconds(), procfs.waited_children_cpu_seconds()
        helpers_after = sum(procfs.cpu_seconds(helper) for helper in case.helper_pids)
        switches_after, upstream_switches_after = procfs.context_switches(pid), procfs.context_switches(upstream_pid)
        elapsed = time.monotonic() - started
        ours = (cpu_after - cpu_before) + (wrk_after - wrk_before) + (helpers_after - helpers_before)
        if upstream_pid != pid:
            ours += upstream_after - upstream_before
        other_percent = max(0.0, (machine_after - machine_before) - ours) / elapsed * 100
        cpus = os.cpu_count() or 1
        idle_percent = max(0.0, 1 - (machine_after - machine_before) / (elapsed * cpus)) * 100
        time.sleep(self.settings.pause_s)
        requests = max(result.requests, 1)
        return Run(section, body, case.label, round_index, result,
                   (cpu_after - cpu_before) * 1e6 / requests,
                   (upstream_after - upstream_before) * 1e6 / requests,
                   sampler.max_kib, procfs.peak_rss_kib(pid), other_percent,
                   (wrk_after - wrk_before) * 1e6 / requests, idle_percent,
                   (switches_after - switches_before) / requests,
                   (upstream_switches_after - upstream_switches_before) / requests)

    def _record_crash(self, target: Target, what: str) -> None:
        self._dead.add(target.name)
        message = (f"{target.name} (pid {target.service.pid}) {what}; {target.service.exit_description()}\n"
                   f"last log lines:\n{target.service.log_tail()}")
        self.crashes.append(message)
        log(message)

    @staticmethod
    def _summarize(key: tuple[str, str, str], runs: list[Run], noisy: set[int]) -> Summary:
        section, body, label = key
        used = [run for run in runs if run.round not in noisy] or runs
        return Summary(
            section, body, label, len(used),
            statistics.median(run.wrk.requests_per_second for run in used),
            statistics.median(run.wrk.p50_us for run in used),
            statistics.median(run.wrk.p99_us for run in used),
            statistics.median(run.cpu_us_per_request for run in used),
            statistics.median(run.upstream_cpu_us_per_request for run in used),
            max(run.rss_kib for run in runs),
            max(run.hwm_kib for run in runs),
            sum(run.wrk.errors + run.wrk.timeouts for run in runs),
            statistics.median(run.wrk.bytes_per_response for run in used),
            statistics.median(run.other_cpu_percent for run in used),
            len(runs) - len(used),
            statistics.median(run.wrk_cpu_us_per_request for run in used),
            statistics.median(run.idle_cpu_percent for run in used),
            statistics.median(run.switches_per_request for run in used),
            statistics.median(run.upstream_switches_per_request for run in used),
        )
