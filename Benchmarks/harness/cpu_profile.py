"""Where one process's CPU time goes, from `perf record -a -g -e cpu-clock` samples: user space,
or the kernel under each kind of system call, and within those the work the kernel does for the
other end of a loopback connection on the caller's CPU.

On loopback a send does not stop at the sending socket: the kernel runs the receiving socket's
input path (softirq `net_rx_action`: TCP receive, the ACK it processes, waking the reader) before
the call returns, and charges it to the sender. A read that frees the receive queue may send an
ACK (`__tcp_transmit_skb` under the read), and that ACK is delivered the same way. Both are the
peers' work done on the proxy's time, which no proxy can avoid; this module counts them apart so a
profile shows what is left to a proxy's own code."""

import re
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

# A kernel stack's system call: `__x64_sys_<name>`, or an inner frame of it when the outer one was
# inlined away (`__sys_sendmsg`, `ksys_read`, `do_writev`, `do_epoll_wait`).
SYSCALL_FRAME = re.compile(r"^(?:_{2,4}(?:x64_|ia32_|do_|se_)?sys_|ksys_|do_|vfs_)(\w+)$")
READS = {"read", "readv", "recvfrom", "recvmsg", "recvmmsg"}
WRITES = {"write", "writev", "sendto", "sendmsg", "sendmmsg", "sendfile64", "splice"}
WAITS = {"epoll_wait", "epoll_pwait", "epoll_pwait2"}
# Frames of the receiving side of a loopback transmit, run by the sender's softirq.
DELIVERY_FRAMES = ("net_rx_action", "__netif_receive_skb")
# A segment leaving under a read: the ACK the read decided to send.
TRANSMIT_FRAME = "__tcp_transmit_skb"
KERNEL_DSO = "[kernel.kallsyms]"

PLACES = ("user space", "reads", "writes", "epoll_wait", "other system calls", "other kernel")
# Who a CPU's sample belonged to, for the placement table.
IDLE = "idle"
OTHERS = "others"


@dataclass
class Profile:
    """Sample counts of one process: per place, and the peer work inside reads and writes."""

    samples: int = 0
    places: Counter = field(default_factory=Counter)
    # Writes' samples spent delivering into the receiving socket.
    delivery_in_writes: int = 0
    # Reads' samples spent sending (and delivering) an ACK.
    acks_in_reads: int = 0
    # Every sample of the recording per CPU, by whom it found running there (the proxy, the
    # upstream, wrk, idle, others); the CPU where the proxy ran most first. Ranked per recording,
    # so recordings add up even when the scheduler put the proxy on another CPU each time.
    placement: list[Counter] = field(default_factory=list)

    def add(self, other: "Profile") -> None:
        self.samples += other.samples
        self.places.update(other.places)
        self.delivery_in_writes += other.delivery_in_writes
        self.acks_in_reads += other.acks_in_reads
        for rank, owners in enumerate(other.placement):
            if rank == len(self.placement):
                self.placement.append(Counter())
            self.placement[rank].update(owners)

    def share(self, count: int) -> float:
        return count / self.samples if self.samples else 0.0

    @property
    def peer_work(self) -> int:
        """Samples that were the peers' TCP work run on this process's time."""
        return self.delivery_in_writes + self.acks_in_reads


def record(perf: str, output: Path, seconds: float, frequency: int) -> subprocess.Popen:
    """Starts sampling every CPU (call graphs) for `seconds`; wait on the returned process."""
    return subprocess.Popen([perf, "record", "-a", "-g", "-e", "cpu-clock", "-F", str(frequency),
                             "-o", str(output), "--", "sleep", f"{seconds:g}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def profile_of(perf: str, data: Path, pid: int, named: dict[int | str, str]) -> Profile:
    """The samples of process `pid` (all its threads) in a recording, classified; `named` names
    the other processes the placement counts apart, by pid or by command name (the upstream, wrk)."""
    script = subprocess.run([perf, "script", "-i", str(data), "-F", "comm,pid,cpu,ip,sym,dso"],
                            capture_output=True, text=True, check=True, timeout=600).stdout
    return classify(script, pid, named)


def classify(script: str, pid: int, named: dict[int | str, str]) -> Profile:
    """`perf script -F comm,pid,cpu,ip,sym,dso` text → the profile of `pid`. A sample is a header
    line (`<comm> <pid> [<cpu>]`) and its stack, innermost frame first, up to a blank line."""
    profile = Profile()
    by_cpu: dict[int, Counter] = {}
    for block in script.split("\n\n"):
        lines = block.strip("\n").split("\n")
        header = lines[0].split() if lines else []
        if len(header) < 3 or not header[-1].startswith("["):
            continue
        command, sample_pid, cpu = " ".join(header[:-2]), int(header[-2]), int(header[-1].strip("[]"))
        owner = ("proxy" if sample_pid == pid else IDLE if sample_pid == 0
                 else named.get(sample_pid, named.get(command, OTHERS)))
        by_cpu.setdefault(cpu, Counter())[owner] += 1
        if sample_pid != pid:
            continue
        frames = [parse_frame(line) for line in lines[1:] if line.strip()]
        profile.samples += 1
        place = place_of(frames)
        profile.places[place] += 1
        symbols = [symbol for symbol, _ in frames]
        if place == "writes" and any(symbol in DELIVERY_FRAMES for symbol in symbols):
            profile.delivery_in_writes += 1
        elif place == "reads" and TRANSMIT_FRAME in symbols:
            profile.acks_in_reads += 1
    profile.placement = sorted(by_cpu.values(), key=lambda owners: -owners["proxy"])
    return profile


def parse_frame(line: str) -> tuple[str, str]:
    """`<ip> <symbol+offset> (<dso>)` → (symbol, dso)."""
    body = line.strip()
    dso = ""
    if body.endswith(")") and " (" in body:
        body, dso = body[:-1].rsplit(" (", 1)
    parts = body.split(None, 1)
    symbol = parts[1] if len(parts) > 1 else ""
    return symbol.split("+0x", 1)[0], dso


def place_of(frames: list[tuple[str, str]]) -> str:
    if not frames or frames[0][1] != KERNEL_DSO:
        return "user space"
    names = [match.group(1) for match in map(SYSCALL_FRAME.match, (symbol for symbol, _ in frames)) if match]
    for name in reversed(names):  # the outermost frame names the call
        if name in READS:
            return "reads"
        if name in WRITES:
            return "writes"
        if name in WAITS:
            return "epoll_wait"
    if any(symbol == "do_syscall_64" for symbol, _ in frames):
        return "other system calls"
    return "other kernel"
