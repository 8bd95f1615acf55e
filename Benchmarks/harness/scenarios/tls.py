"""TLS (issue 7): req/s and CPU per request of nginx and Gatehouse with an https upstream next to
an http one, and with an https listener next to a plain one, in the same run.

The upstream nginx answers the small body on a plain and on an https port (a CA and a
localhost/127.0.0.1 certificate made with the openssl CLI for the run). nginx proxies to the https
port with verification, SNI and session reuse over a keep-alive pool; Gatehouse the same through
an `https://localhost:PORT` upstream with the run's CA. Both also listen with TLS (nginx on a
second port, Gatehouse in a second process with `server.tls`); wrk keeps its connections alive,
so the handshakes happen at the start and the rounds measure the record layer."""

import http.client
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

from .. import fixtures
from ..certificates import make_server_certificate
from ..checks import REQUEST_BODY
from ..peers import Target
from ..rounds import Case, RoundRunner, Summary
from ..services import free_ports
from ..tools import log
from .context import Outcome, ScenarioContext
from .section import ScenarioReport, Table, as_markdown, as_text, change, cpu, milliseconds, rps

NAME = "tls"
TITLE = "TLS: https upstream and https listener next to plain http"
QUESTION = ("Issue 7: https-upstream vs http-upstream req/s and CPU per request for Gatehouse and for "
            "nginx (`proxy_pass https://…` with `proxy_ssl_session_reuse on`), and TLS on the "
            "listener, all in the same run. 1 worker each; wrk uses keep-alive, so handshakes happen "
            "once per connection at the start of a round.")
SECTION = "tls"
BODY_LABEL = "100B"
SMALL_PATH = "/small"
TLS_UPSTREAM_PATH = "/tls-upstream/small"
TLS_CHECK_PATH = "/tls-upstream/tls-check"


@dataclass(frozen=True)
class Leg:
    """One row: a target loaded through one listener, forwarding over one kind of upstream leg."""

    target: str
    listener: str
    upstream: str
    proxy: Target
    url: str

    @property
    def label(self) -> str:
        if self.target == "direct":
            return f"direct {self.listener}"
        return f"{self.target} {self.listener}->{self.upstream}"


def planned_seconds(args) -> float:
    return 10 * (args.warmup + args.rounds * args.duration)


# MARK: - The run

def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    small_body = fixtures.json_body(fixtures.BODY_SIZES[BODY_LABEL])
    tls_files = make_server_certificate(context.work_dir / "tls", context.programs["openssl"])
    upstream_tls_port, nginx_tls_port = free_ports(2)
    files = {"CA_FILE": tls_files.ca_file, "CERT_FILE": tls_files.cert_file, "KEY_FILE": tls_files.key_file,
             "UPSTREAM_TLS_PORT": upstream_tls_port}

    peers = context.peers(small_body)
    upstream = peers.start_upstream("tls/upstream-nginx.conf", files)
    nginx = peers.start_nginx("tls/proxy-nginx.conf", {**files, "PROXY_TLS_PORT": nginx_tls_port})
    gatehouse = peers.start_gatehouse("gatehouse", 1, "tls/gatehouse.yaml", files)
    gatehouse_tls = peers.start_gatehouse("gatehouse-tls-listener", 1, "tls/gatehouse-tls-listener.yaml", files)

    def http_url(target: Target, path: str) -> str:
        return f"http://127.0.0.1:{target.service.port}{path}"

    def https_url(port: int, path: str) -> str:
        return f"https://127.0.0.1:{port}{path}"

    legs = [
        Leg("direct", "http", "—", upstream, http_url(upstream, SMALL_PATH)),
        Leg("direct", "https", "—", upstream, https_url(upstream_tls_port, SMALL_PATH)),
        Leg("nginx", "http", "http", nginx, http_url(nginx, SMALL_PATH)),
        Leg("nginx", "http", "https", nginx, http_url(nginx, TLS_UPSTREAM_PATH)),
        Leg("nginx", "https", "http", nginx, https_url(nginx_tls_port, SMALL_PATH)),
        Leg("nginx", "https", "https", nginx, https_url(nginx_tls_port, TLS_UPSTREAM_PATH)),
        Leg("gatehouse", "http", "http", gatehouse, http_url(gatehouse, SMALL_PATH)),
        Leg("gatehouse", "http", "https", gatehouse, http_url(gatehouse, TLS_UPSTREAM_PATH)),
        Leg("gatehouse", "https", "http", gatehouse_tls, https_url(gatehouse_tls.service.port, SMALL_PATH)),
        Leg("gatehouse", "https", "https", gatehouse_tls,
            https_url(gatehouse_tls.service.port, TLS_UPSTREAM_PATH)),
    ]
    client_context = ssl.create_default_context(cafile=str(tls_files.ca_file))
    problems, negotiated = check_legs(legs, small_body.encode(), client_context)
    upstream_legs, upstream_problems = check_upstream_legs([nginx, gatehouse], client_context)
    problems += upstream_problems
    if problems:
        raise SystemExit("bench: the TLS targets do not answer as they must:\n  " + "\n  ".join(problems))
    log("tls: every listener and upstream leg answers correctly")

    runner = RoundRunner(context.load_settings(), upstream)
    cases = [Case(leg.label, leg.proxy, "", url=leg.url) for leg in legs]
    runner.run_section(SECTION, [BODY_LABEL], {BODY_LABEL: cases}, args.rounds)

    context.finish_machine(machine_info)
    notes = list(context.notes)
    for target in (gatehouse, gatehouse_tls):
        exit_note = context.stop_gatehouse_checked(target)
        if exit_note:
            notes.append(exit_note)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 thread, {args.connections} keep-alive connections, POST of a GraphQL query "
                "(conf/post.lua); https URLs make wrk speak TLS itself",
         "certificates": "ECDSA P-256 server certificate for localhost and 127.0.0.1 from a run-time CA "
                         "(openssl CLI)",
         **context.round_settings()},
        context.versions("nginx", "wrk", commands={"openssl": [context.programs["openssl"], "version"]}),
        tables=[leg_table(runner.summaries(), legs),
                Table("Negotiated", ["leg", "protocol", "cipher"], negotiated + upstream_legs,
                      "What each https listener offered wrk's peer (checked with Python's ssl) and what "
                      "each proxy negotiated with the upstream (the upstream's $ssl_protocol and $ssl_cipher).")],
        runs=runner.runs, notes=notes, crashes=runner.crashes)
    return Outcome(as_text(report), as_markdown(report), bool(runner.crashes))


# MARK: - Checks

def post(url: str, client_context: ssl.SSLContext) -> tuple[int, bytes, tuple | None]:
    """POSTs the GraphQL body; returns status, body and (protocol, cipher) on https."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        # Verified by name: localhost is 127.0.0.1 here, and the certificate names both.
        connection = http.client.HTTPSConnection("localhost", parts.port, timeout=5, context=client_context)
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    try:
        connection.request("POST", parts.path, body=REQUEST_BODY, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        session = None
        if parts.scheme == "https" and connection.sock is not None:
            session = (connection.sock.version(), connection.sock.cipher()[0])
        return response.status, response.read(), session
    finally:
        connection.close()


def check_legs(legs: list[Leg], expected: bytes,
               client_context: ssl.SSLContext) -> tuple[list[str], list[list[str]]]:
    problems, negotiated = [], []
    for leg in legs:
        try:
            status, body, session = post(leg.url, client_context)
        except (OSError, ssl.SSLError) as error:
            problems.append(f"{leg.label}: {error}")
            continue
        if status != 200 or body != expected:
            problems.append(f"{leg.label}: status {status}, body {body[:200]!r}")
        if session and leg.upstream in ("—", "http"):
            negotiated.append([f"client -> {leg.target} https listener", session[0], session[1]])
    return problems, negotiated


def check_upstream_legs(proxies: list[Target],
                        client_context: ssl.SSLContext) -> tuple[list[list[str]], list[str]]:
    rows, problems = [], []
    for proxy in proxies:
        status, body, _ = post(f"http://127.0.0.1:{proxy.service.port}{TLS_CHECK_PATH}", client_context)
        if status != 200:
            problems.append(f"{proxy.name} {TLS_CHECK_PATH}: status {status}, body {body[:200]!r}")
            continue
        protocol, _, cipher = body.decode(errors="replace").partition(" ")
        rows.append([f"{proxy.name} -> upstream https", protocol, cipher])
    return rows, problems


# MARK: - Table

LEG_HEADERS = ["target", "listener", "upstream", "req/s", "req/s vs http->http", "p50 ms", "p99 ms",
               "CPU µs/req", "CPU µs/req vs http->http", "upstream CPU µs/req", "errors",
               "other CPU %", "rounds"]


def leg_table(summaries: list[Summary], legs: list[Leg]) -> Table:
    by_label = {summary.label: summary for summary in summaries if summary.section == SECTION}
    rows = []
    for leg in legs:
        summary = by_label.get(leg.label)
        if summary is None:
            continue
        # Each target against its own all-plain row.
        plain = next((by_label.get(other.label) for other in legs
                      if other.target == leg.target and other.listener == "http"
                      and other.upstream in ("http", "—")), None)
        if plain is None or plain is summary:
            versus_rps = versus_cpu = "—"
        else:
            versus_rps = change(summary.requests_per_second, plain.requests_per_second, 0)
            versus_cpu = change(summary.cpu_us_per_request, plain.cpu_us_per_request)
        rows.append([leg.target, leg.listener, leg.upstream, rps(summary), versus_rps,
                     milliseconds(summary.p50_us), milliseconds(summary.p99_us), cpu(summary), versus_cpu,
                     f"{summary.upstream_cpu_us_per_request:.1f}", str(summary.errors),
                     f"{summary.other_cpu_percent:.0f}", summary.rounds_text])
    return Table("Per listener and upstream leg (median over rounds)", LEG_HEADERS, rows,
                 "CPU µs/req is the target's own CPU time per request (nginx: its worker; direct: the "
                 "upstream worker). The change is against the same target with plain http on both legs. "
                 "The upstream column shows what the https leg costs the upstream.")
