#!/usr/bin/env python3
"""Differential check: the same raw requests to Gatehouse, nginx 1.22 and haproxy 2.6, each in
front of its own recording upstream, flagging where they disagree on accept (forwarded) versus
refuse (answered by the proxy, nothing forwarded).

  python3 scripts/differential.py                  every conformance row, one line each
  python3 scripts/differential.py --random 500     500 mutated rows against Gatehouse and nginx
  python3 scripts/differential.py --json out.json  also write every outcome as JSON

The rows and the gateway config come from Tests/e2e/conformance; nginx and haproxy get the
same four doors (/graphql/noauth and /public/ open, /graphql and /api/ behind X-Api-Key: k-123).
Disagreements are printed; the dangerous direction is Gatehouse forwarding what nginx refuses.
Exit status is 0: this is a report, not a gate.
"""

import argparse
import json
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

E2E = Path(__file__).resolve().parents[1] / "Tests" / "e2e"
sys.path.insert(0, str(E2E))

from conformance.table import CASES  # noqa: E402
from conformance.test_conformance import conformance_config  # noqa: E402
from support.gateway import Gateway  # noqa: E402
from support.ports import free_port, wait_for_port  # noqa: E402
from support.raw_upstream import RawUpstream  # noqa: E402
from support.upstream_scripts import answer_with_target  # noqa: E402

# MARK: - Peers

NGINX_CONF = """
worker_processes 1;
error_log {dir}/error.log;
pid {dir}/nginx.pid;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy;
  fastcgi_temp_path {dir}/fcgi; uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
  upstream recorder {{ server 127.0.0.1:{upstream}; keepalive 8; }}
  server {{
    listen 127.0.0.1:{port};
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header X-Service-Token s3cret;
    location = /graphql/noauth {{ proxy_pass http://recorder; }}
    location /public/ {{ proxy_pass http://recorder; }}
    location = /graphql {{ if ($http_x_api_key != "k-123") {{ return 401; }} proxy_pass http://recorder; }}
    location /api/ {{ if ($http_x_api_key != "k-123") {{ return 401; }} proxy_pass http://recorder; }}
    location / {{ return 404; }}
  }}
}}
"""

HAPROXY_CONF = """
global
  maxconn 256
defaults
  mode http
  timeout connect 2s
  timeout client 5s
  timeout server 5s
  timeout http-request 5s
frontend doors
  bind 127.0.0.1:{port}
  acl public_door path /graphql/noauth
  acl public_door path_beg /public/
  acl key_door path /graphql
  acl key_door path_beg /api/
  acl has_key req.hdr(x-api-key) -m str k-123
  http-request return status 401 if key_door !has_key
  http-request return status 404 unless public_door or key_door
  http-request set-header X-Service-Token s3cret
  default_backend recorder
backend recorder
  server one 127.0.0.1:{upstream}
"""


class Peer:
    """A proxy process in front of its own recording upstream."""

    def __init__(self, name: str, port: int, upstream: RawUpstream, process=None, gateway=None):
        self.name, self.port, self.upstream = name, port, upstream
        self.process, self.gateway = process, gateway

    def exit_status(self) -> str:
        process = self.gateway.process if self.gateway is not None else self.process
        code = process.poll()
        return "still running" if code is None else f"exited with {code}"

    def stop(self) -> None:
        if self.gateway is not None:
            self.gateway.stop()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=5)
        self.upstream.stop()


def start_gatehouse(workdir: Path) -> Peer:
    upstream = RawUpstream()
    gateway = Gateway(workdir / "gatehouse", lambda p, a: conformance_config(p, a, upstream.url)).start()
    return Peer("gatehouse", gateway.port, upstream, gateway=gateway)


def start_nginx(workdir: Path) -> Peer:
    upstream, port = RawUpstream(), free_port()
    directory = workdir / "nginx"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "nginx.conf").write_text(NGINX_CONF.format(dir=directory, port=port, upstream=upstream.port))
    process = subprocess.Popen(["nginx", "-p", str(directory), "-c", str(directory / "nginx.conf"),
                                "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port)
    return Peer("nginx", port, upstream, process=process)


def start_haproxy(workdir: Path) -> Peer:
    upstream, port = RawUpstream(), free_port()
    config = workdir / "haproxy.cfg"
    config.write_text(HAPROXY_CONF.format(port=port, upstream=upstream.port))
    process = subprocess.Popen(["haproxy", "-f", str(config), "-db"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    wait_for_port(port)
    return Peer("haproxy", port, upstream, process=process)


# MARK: - One exchange


def outcome(peer: Peer, data: bytes, half_close: bool = False) -> dict:
    """Sends `data` on a fresh connection; what came back and what reached the upstream."""
    peer.upstream.reset(answer_with_target())
    received = b""
    closed = False
    try:
        sock = socket.create_connection(("127.0.0.1", peer.port), timeout=3)
    except OSError as error:
        return {"statuses": [], "closed": True, "forwarded": [], "upstream_bytes": 0,
                "down": f"{peer.name} refused the connection ({error}); {peer.exit_status()}"}
    with sock:
        try:
            sock.sendall(data)
            if half_close:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        sock.settimeout(1.0)
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    closed = True
                    break
                received += chunk
        except socket.timeout:
            pass
        except OSError:
            closed = True
    time.sleep(0.05)
    statuses = [int(line.split(b" ")[1]) for line in received.split(b"\r\n")
                if line.startswith(b"HTTP/1.") and len(line.split(b" ")) > 1
                and line.split(b" ")[1].isdigit()]
    forwarded = [(r.method, r.target) for r in peer.upstream.requests]
    return {"statuses": statuses, "closed": closed, "forwarded": forwarded,
            "upstream_bytes": peer.upstream.bytes_received}


def verdict(result: dict) -> str:
    """`forwarded` when any byte reached the upstream, else `refused NNN` / `no answer`."""
    if result.get("down"):
        return "DOWN"
    if result["upstream_bytes"]:
        return "forwarded"
    return f"refused {result['statuses'][0]}" if result["statuses"] else "no answer"


# MARK: - Random requests


TOKENS = [b"\r\n", b"\n", b"\r", b" ", b"\t", b"\x00", b"\x7f", b":", b";", b",", b"..", b"%2e",
          b"%2f", b"/", b"\\", b"chunked", b"Content-Length: 5\r\n", b"Transfer-Encoding: chunked\r\n",
          b"Host: x\r\n", b"0\r\n\r\n", b"\xff", b"HTTP/1.0", b"HTTP/1.1"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        position = rng.randrange(len(data) + 1)
        choice = rng.random()
        if choice < 0.4:
            data[position:position] = rng.choice(TOKENS)
        elif choice < 0.7 and position < len(data):
            del data[position:position + rng.randint(1, 3)]
        elif position < len(data):
            data[position] = rng.randrange(256)
    return bytes(data)


# MARK: - Main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--random", type=int, default=0, help="mutated requests instead of the table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write every outcome here")
    arguments = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="gatehouse-differential-"))
    peers = [start_gatehouse(workdir)]
    if shutil.which("nginx"):
        peers.append(start_nginx(workdir))
    if shutil.which("haproxy") and not arguments.random:
        peers.append(start_haproxy(workdir))
    try:
        if arguments.random:
            rng = random.Random(arguments.seed)
            rows = [(f"random-{i}", mutate(rng.choice(CASES).data, rng), False) for i in range(arguments.random)]
        else:
            rows = [(case.id, case.data, case.half_close) for case in CASES]
        results, disagreements = [], 0
        for row_id, data, half_close in rows:
            outcomes = {peer.name: outcome(peer, data, half_close) for peer in peers}
            verdicts = {name: verdict(result) for name, result in outcomes.items()}
            kinds = {v.split(" ")[0] for v in verdicts.values()}
            differs = len(kinds) > 1
            disagreements += differs
            dangerous = verdicts["gatehouse"] == "forwarded" and any(
                v.startswith("refused") for n, v in verdicts.items() if n != "gatehouse")
            for result in outcomes.values():
                if result.get("down"):
                    print(f"!! {row_id}: {result['down']}")
            if differs or not arguments.random:
                mark = "!!" if dangerous else ("<>" if differs else "  ")
                print(f"{mark} {row_id:48} " + "  ".join(f"{n}={v:14}" for n, v in verdicts.items()))
                if arguments.random and differs:
                    print(f"   bytes: {data[:200]!r}")
            results.append({"id": row_id, "data": data.decode("latin-1"), "outcomes": outcomes,
                            "verdicts": verdicts, "differs": differs, "dangerous": dangerous})
        print(f"{len(rows)} requests, {disagreements} disagreements on accept/refuse, "
              f"{sum(r['dangerous'] for r in results)} where only Gatehouse forwarded")
        if arguments.json:
            arguments.json.write_text(json.dumps(results, indent=1))
    finally:
        survived = all(peer.exit_status() == "still running" for peer in peers)
        for peer in peers:
            peer.stop()
        if survived:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"a peer died; its files are in {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
