"""The standard run: Gatehouse next to nginx and haproxy on bodies of 100 B, 8 KiB and 64 KiB,
then (full run) JWT routes, one worker against two, and idle keep-alive memory."""

from .. import checks, fixtures, gateway_headers, idle, procfs, report
from ..fixtures import BODY_PATHS, HS_PATH, RS_PATH, RS_REMOTE_PATH
from ..peers import Peers, Target
from ..report import NONE_WITH_TOKEN
from ..rounds import Case, RoundRunner
from ..tools import log
from .context import MAX_CONNECTIONS, Outcome, ScenarioContext

NAME = "standard"


def planned_seconds(args) -> float:
    # (cases, bodies) per section: proxy, then jwt and workers in a full run; idle about a minute.
    sections = [(5, 1)] if args.quick else [(5, 3), (9, 1), (2, 1)]
    load = sum(cases * bodies * (args.warmup + args.rounds * args.duration) for cases, bodies in sections)
    return load + (0.0 if args.quick else 60.0)


# Why req/s and CPU per request can tell different stories on a small machine.
CPU_SHARE_NOTE = (
    "wrk, the upstream and the proxy share the machine's CPUs, so req/s ≈ busy CPUs ÷ (proxy + "
    "upstream + wrk CPU µs/req), busy CPUs being the machine's CPUs less the idle CPU % share: a "
    "proxy's saving moves req/s only by its part of that sum, and not at all when the CPUs idle "
    "more (the scheduler may leave a proxy that needs less CPU than wrk and the upstream together "
    "a CPU of its own, where it waits for them). CPU µs/req is the proxy's own cost.")


def run(context: ScenarioContext) -> Outcome:
    args = context.args
    full = not args.quick
    machine_info = context.describe_machine()

    bodies = fixtures.write_bodies(context.work_dir / "bodies")
    credentials = fixtures.make_credentials(context.work_dir)
    peers = context.peers(bodies["100B"], credentials)
    start_rss = {}
    upstream = peers.start_upstream()
    nginx = peers.start_nginx()
    nginx_headers = peers.start_nginx(name=gateway_headers.TARGET, with_gateway_headers=True)
    haproxy = peers.start_haproxy(with_jwt=full)
    gatehouse = peers.start_gatehouse("gatehouse", workers=1)
    gatehouse_two = peers.start_gatehouse("gatehouse-2w", workers=2) if full else None
    for target in peers.targets.values():
        start_rss[target.name] = procfs.rss_kib(target.measured_pid)
    if peers.haproxy_jwt_note:
        context.notes.append(peers.haproxy_jwt_note)

    jwt_targets = []
    if full:
        jwt_targets = [gatehouse, haproxy] if haproxy.jwt_port else [gatehouse]
    # Gatehouse is checked too: the second nginx is there to match what it does.
    problems = checks.check_targets(list(peers.targets.values()), bodies, credentials, jwt_targets,
                                    header_targets=[nginx_headers, gatehouse])
    if problems:
        raise SystemExit("bench: the targets do not answer as they must:\n  " + "\n  ".join(problems))
    log("all targets answer correctly")

    runner = RoundRunner(context.load_settings(), upstream)
    proxies = [upstream, nginx, nginx_headers, haproxy, gatehouse]
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
        context.services.stop(gatehouse_two.service)
        idle_results = idle_section(args, peers, [nginx, haproxy, gatehouse])

    context.finish_machine(machine_info)
    result = report.Report(
        mode="quick" if args.quick else "full", command=context.command, machine=machine_info,
        versions=context.versions("nginx", "haproxy", "wrk"),
        settings={"load": f"1 thread, {args.connections} connections, POST of a GraphQL query (conf/post.lua)",
                  gateway_headers.TARGET: "the nginx peer plus X-Forwarded-For, X-Forwarded-Proto and "
                                          "X-Request-Id (both ways), as Gatehouse sends (no goal is judged on it)",
                  **context.round_settings()},
        summaries=runner.summaries(), runs=runner.runs, idle=idle_results, start_rss_kib=start_rss,
        notes=context.notes + [CPU_SHARE_NOTE], crashes=runner.crashes)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    if exit_note:
        result.notes.append(exit_note)
    return Outcome(report.as_text(result), report.as_markdown(result), bool(result.crashes))


def jwt_cases(gatehouse: Target, haproxy: Target, credentials: fixtures.Credentials) -> list[Case]:
    """Each JWT route beside the `auth: none` route loaded with the same request, token and all:
    the ratio is what verifying costs, not what a longer request costs wrk, the kernel and the
    upstream (the proxies forward the Authorization header on both routes)."""
    hs, rs = f"Bearer {credentials.hs_token}", f"Bearer {credentials.rs_token}"
    cases = [Case(f"gatehouse {NONE_WITH_TOKEN['HS256']}", gatehouse, BODY_PATHS["100B"], hs),
             Case("gatehouse HS256", gatehouse, HS_PATH, hs),
             Case(f"gatehouse {NONE_WITH_TOKEN['RS256']}", gatehouse, BODY_PATHS["100B"], rs),
             Case("gatehouse RS256", gatehouse, RS_PATH, rs),
             Case("gatehouse RS256 remote keys", gatehouse, RS_REMOTE_PATH, rs)]
    if haproxy.jwt_port:
        cases += [Case(f"haproxy {NONE_WITH_TOKEN['HS256']}", haproxy, BODY_PATHS["100B"], hs),
                  Case("haproxy HS256", haproxy, HS_PATH, hs, use_jwt_port=True),
                  Case(f"haproxy {NONE_WITH_TOKEN['RS256']}", haproxy, BODY_PATHS["100B"], rs),
                  Case("haproxy RS256", haproxy, RS_PATH, rs, use_jwt_port=True)]
    return cases


def idle_section(args, peers: Peers, targets: list[Target]) -> list[idle.IdleResult]:
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
