"""slowhttptest (Debian) against the gateway: slow headers (slowloris), slow bodies (R-U-Dead-Yet)
and slow reads. The probe connection slowhttptest makes each second must always be answered,
and the attack's connections must be closed by the gateway's timeouts rather than pile up."""

import csv
import os
import shutil
import subprocess
import time

import pytest

from support.gateway import base_config
from support.kernel_sockets import queued_after_close, states

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("slowhttptest") is None, reason="slowhttptest not installed")]

SECONDS = 8


@pytest.fixture(scope="module")
def gateway(module_gateways, graphql_upstream):
    return module_gateways.start(lambda port, admin: base_config(
        port, admin, header_timeout="2s", body_timeout="2s", idle_timeout="5s",
        upstreams={"app": {"url": f"{graphql_upstream.url}/graphql", "timeout": "2s"}},
        routes=[
            {"path": "/graphql", "upstream": "app", "auth": "none"},
            {"path": "/blob", "upstream": "app", "auth": "none", "upstream_path": "/blob",
             "methods": ["GET"]},
        ]))


def start_slowhttptest(tmp_path, *arguments) -> tuple:
    """Starts one attack of SECONDS; returns (process, report path)."""
    prefix = tmp_path / "report"
    process = subprocess.Popen(["slowhttptest", *arguments, "-l", str(SECONDS), "-p", "2", "-g",
                                "-o", str(prefix)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    return process, prefix.with_suffix(".csv")


def finish(process, report) -> list:
    """Waits for the attack to end; its per-second CSV rows as dicts."""
    output, _ = process.communicate(timeout=SECONDS + 30)
    assert report.exists(), f"no report: {output[-2000:]}"
    with open(report) as rows:
        return list(csv.DictReader(rows))


def run_slowhttptest(tmp_path, *arguments) -> list:
    return finish(*start_slowhttptest(tmp_path, *arguments))


def assert_service_stayed_up(rows: list) -> None:
    """slowhttptest's probe (a fresh request each second) was always answered. The run may end
    before SECONDS: it stops as soon as the gateway has closed every attacking connection."""
    assert len(rows) >= 2, rows
    down = [row["Seconds"] for row in rows if int(row["Service Available"]) == 0]
    assert not down, f"the probe was not answered at seconds {down}"


def assert_attack_closed(rows: list, connections: int) -> None:
    """slowhttptest writes a row a second and exits as soon as every attacking connection is
    closed, often before its row for the last closes: an early end is itself the proof."""
    ended_early = int(rows[-1]["Seconds"]) < SECONDS - 1
    closed = max(int(row["Closed"]) for row in rows)
    assert ended_early or closed >= connections * 0.9, \
        f"the gateway's timeouts closed only {closed} of {connections} in {SECONDS} s"


def test_slow_headers(gateway, tmp_path):
    rows = run_slowhttptest(tmp_path, "-H", "-c", "400", "-r", "200", "-i", "1",
                            "-u", f"{gateway.url}/graphql")
    assert_service_stayed_up(rows)
    assert_attack_closed(rows, 400)


def test_slow_body(gateway, tmp_path):
    rows = run_slowhttptest(tmp_path, "-B", "-c", "400", "-r", "200", "-i", "1", "-s", "8192",
                            "-u", f"{gateway.url}/graphql")
    assert_service_stayed_up(rows)
    assert_attack_closed(rows, 400)


SLOW_READ = ("-X", "-c", "100", "-r", "100", "-w", "10", "-y", "20", "-n", "2", "-z", "32", "-k", "2")


def test_slow_read_is_cut_off_at_the_route_timeout(gateway, tmp_path):
    """Readers that take 32 bytes every 2 s: at the route timeout (2 s) the gateway gives up on
    each and closes its descriptor, and the probe is answered throughout."""
    process, report = start_slowhttptest(tmp_path, *SLOW_READ, "-u", f"{gateway.url}/blob?size=1048576")
    time.sleep(5.0)
    descriptors = len(os.listdir(f"/proc/{gateway.process.pid}/fd"))
    established = states(gateway.port)["ESTAB"]
    rows = finish(process, report)
    assert descriptors < 60, f"the gateway still holds {descriptors} descriptors"
    assert established < 20, f"{established} slow readers still established after the route timeout"
    assert_service_stayed_up(rows)


def test_slow_read_leaves_no_kernel_memory_behind(gateway, tmp_path):
    """A response cut off at the route timeout is reset, not closed with its unsent part still
    queued: a plain close() leaves FIN-WAIT-1 orphans that keep ~1.6 MB each in the kernel for as
    long as the reader trickles (nginx's reset_timedout_connection)."""
    process, report = start_slowhttptest(tmp_path, *SLOW_READ, "-u", f"{gateway.url}/blob?size=1048576")
    time.sleep(5.0)
    queued = queued_after_close(gateway.port)
    finish(process, report)
    assert queued < 8 * 1024 * 1024, f"{queued / 1e6:.0f} MB still queued on closed connections"
