"""What the kernel holds for a local TCP port, from `ss`: sockets by state and the bytes still
queued for sending. A socket the gateway closed with unsent data lingers here (FIN-WAIT-1) even
though no process owns it any more."""

import subprocess
from collections import Counter


def sockets_of(port: int) -> list:
    """(state, send_queue_bytes) for every TCP socket whose local port is `port`."""
    output = subprocess.run(["ss", "-tn", "state", "all", f"sport = :{port}"], capture_output=True,
                            text=True, check=True).stdout.splitlines()
    rows = []
    for line in output[1:]:
        fields = line.split()
        if len(fields) >= 3 and fields[2].isdigit():
            rows.append((fields[0], int(fields[2])))
    return rows


def states(port: int) -> Counter:
    return Counter(state for state, _ in sockets_of(port))


def queued_after_close(port: int) -> int:
    """Bytes queued on sockets of `port` that the owner has already closed (FIN-WAIT-1, CLOSING,
    LAST-ACK): kernel memory an unread response still pins."""
    return sum(queued for state, queued in sockets_of(port)
               if state in ("FIN-WAIT-1", "CLOSING", "LAST-ACK"))
