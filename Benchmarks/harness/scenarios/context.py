"""What every scenario gets from bench.py, and the pieces they all use: load settings, peers,
the machine header, versions and the end-of-run exit check."""

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from .. import machine, tools
from ..fixtures import Credentials
from ..peers import Peers, PeerSettings, Target
from ..rounds import LoadSettings
from ..services import ServiceGroup
from ..tools import log

# Every proxy's connection limit: room for the idle test's connections and the load.
MAX_CONNECTIONS = 12_000
# Above this many CPUs busy just before a scenario starts (none of its processes running yet),
# other work is competing for the CPUs. The load average would also count the previous scenario.
BUSY_CPUS = 0.25


@dataclass(frozen=True)
class Outcome:
    """A finished scenario: its terminal table, its RESULTS.md section, and whether a process died."""

    text: str
    markdown: str
    failed: bool


@dataclass
class ScenarioContext:
    args: argparse.Namespace
    command: str
    programs: dict[str, str]
    binary: Path
    fd_limit: int
    work_dir: Path
    services: ServiceGroup
    notes: list[str] = field(default_factory=list)

    # MARK: - Setup

    def describe_machine(self) -> dict[str, str]:
        """The machine header; a busy machine at the start is noted, since it skews every number."""
        info = machine.describe()
        busy = machine.busy_cpus()
        info["CPU busy before start"] = f"{busy * 100:.0f}% of one CPU (1 s sample)"
        if busy > BUSY_CPUS:
            self.notes.append(f"the machine was busy at the start ({busy * 100:.0f}% of one CPU, load "
                              f"{info['load average at start']}); other work competes for the CPUs and "
                              "makes the numbers noisy (see the other CPU % column)")
            log(f"warning: {self.notes[-1]}")
        return info

    def peers(self, small_body: str, credentials: Credentials | None = None) -> Peers:
        return Peers(PeerSettings(self.work_dir, self.programs, self.binary, credentials, small_body,
                                  MAX_CONNECTIONS, self.fd_limit), self.services)

    def load_settings(self) -> LoadSettings:
        return LoadSettings(self.programs["wrk"], self.args.duration, self.args.warmup, self.args.connections)

    def round_settings(self) -> dict[str, str]:
        return {"rounds": f"{self.args.rounds} × {self.args.duration:g} s per case after a "
                          f"{self.args.warmup:g} s warm-up, cases interleaved",
                "open file limit": str(self.fd_limit)}

    def versions(self, *programs: str, commands: dict[str, list[str]] | None = None) -> dict[str, str]:
        """Versions of gatehouse, of the named programs (nginx, wrk, …) and of `commands` run as given."""
        found = {"gatehouse": tools.program_version([str(self.binary), "version"]) + f" ({self.binary})"}
        for program in programs:
            found[program] = tools.program_version([self.programs[program], "-v"])
        for name, command in (commands or {}).items():
            found[name] = tools.program_version(command)
        return found

    # MARK: - Teardown

    def finish_machine(self, info: dict[str, str]) -> None:
        info["load average at end"] = machine.load_average()

    def stop_gatehouse_checked(self, gatehouse: Target) -> str | None:
        """SIGTERM must drain and exit 0 (README, "Command line and signals"); anything else is returned as a note."""
        if not gatehouse.service.is_running():
            return None
        self.services.stop(gatehouse.service, grace=25.0)
        code = gatehouse.service.process.returncode
        if code != 0:
            return (f"{gatehouse.name} {gatehouse.service.exit_description()} after SIGTERM "
                    f"(expected status 0):\n{gatehouse.service.log_tail()}")
        return None
