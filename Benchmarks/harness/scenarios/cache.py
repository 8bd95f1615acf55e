"""Response cache: cache hits on a persisted GET route next to nginx's proxy_cache (with
proxy_cache_lock, keyed on the same URL, in front of the same upstream), and what a miss costs
next to the same route uncached.

Gatehouse (1 worker) serves one persisted GET call three ways: `/ops/*` uncached (the baseline),
`/cached/*` with `cache: {max_age: 1h}` (every request after the first a hit), and `/cached/*`
with `Cache-Control: no-cache` (every request forwarded, captured and stored again: the miss
path); the uncached row sends the same `Cache-Control: no-cache`, so the two requests differ in
their route only. nginx (1 worker) caches the same URL. A second Gatehouse keeps the same `/cached/*` route in
a Redis store (`cache.store: shared`, a redis-server of the run's own): its hits are one GET per
request on the worker's connection, next to the memory store's. Rounds are interleaved like the
other scenarios."""

import http.client

from .. import fixtures
from ..peers import Target
from ..rounds import Case, RoundRunner, Summary
from ..templates import render_to
from ..tools import log
from . import persisted
from .context import Outcome, ScenarioContext
from .stores import start_redis
from .section import ScenarioReport, Table, as_markdown, as_text, change, cpu, milliseconds, rps

NAME = "cache"
TITLE = "Response cache: hits next to nginx proxy_cache, a miss next to the uncached route"
QUESTION = ("Cache-hit req/s and CPU per request on a persisted GET route against nginx `proxy_cache` "
            "with `proxy_cache_lock` keyed on the same URL and the same upstream; and the cost of a miss "
            "against the same route without a cache. Goals: hit req/s ≥ 1.5× nginx, hit CPU µs/req "
            "≤ 0.7× nginx, miss CPU µs/req ≤ 1.1× the uncached route.")
CALL = f"{persisted.OPERATION}?genre=drama&limit=5"
SECTION = "cache"
BODY_LABEL = "100B"
HIT, NGINX_HIT, UNCACHED, MISS = ("gatehouse hit", "nginx proxy_cache hit", "gatehouse uncached",
                                  "gatehouse miss (no-cache)")
REDIS_HIT = "gatehouse hit (Redis store)"
# What makes every request of the miss row a miss (forwarded, captured and stored again).
NO_CACHE = "Cache-Control: no-cache"
CASE_COUNT = 5
# What the goals ask (the task that introduced the cache).
GOAL_HIT_RPS, GOAL_HIT_CPU, GOAL_MISS_CPU = 1.5, 0.7, 1.1


def planned_seconds(args) -> float:
    return CASE_COUNT * (args.warmup + args.rounds * args.duration)


def run(context: ScenarioContext) -> Outcome:
    args = context.args
    machine_info = context.describe_machine()
    small_body = fixtures.json_body(fixtures.BODY_SIZES[BODY_LABEL])
    operations_dir = persisted.held_operations_dir(context)
    peers = context.peers(small_body)
    upstream = peers.start_upstream()
    gatehouse = peers.start_gatehouse("gatehouse", workers=1, template="cache/gatehouse.yaml",
                                      extra={"OPERATIONS_DIR": operations_dir, "CACHE_STORE": ""})
    nginx = peers.start_nginx(template="cache/proxy-nginx.conf")
    redis = start_redis(context)
    gatehouse_redis = peers.start_gatehouse("gatehouse-redis", workers=1, template="cache/gatehouse.yaml",
                                            extra={"OPERATIONS_DIR": operations_dir,
                                                   "CACHE_STORE": redis_cache_store(redis.service.port)})
    problems = check(gatehouse, nginx, small_body.encode(), gatehouse_redis)
    if problems:
        raise SystemExit("bench: the cache targets do not behave as they must:\n  " + "\n  ".join(problems))
    log("cache: hits, misses and nginx's cache answer as they must")

    script = render_to("persisted/request.lua", {"METHOD": "GET", "BODY": ""}, context.work_dir / "cache-get.lua")
    cases = [
        Case(HIT, gatehouse, f"/cached/{CALL}", script=script),
        Case(REDIS_HIT, gatehouse_redis, f"/cached/{CALL}", script=script, helper_pids=(redis.measured_pid,)),
        Case(NGINX_HIT, nginx, f"/ops/{CALL}", script=script),
        # The baseline sends the miss's request, header and all: the two differ in the route only,
        # so their difference is what the cache does.
        Case(UNCACHED, gatehouse, f"/ops/{CALL}", script=script, headers=(NO_CACHE,)),
        Case(MISS, gatehouse, f"/cached/{CALL}", script=script, headers=(NO_CACHE,)),
    ]
    runner = RoundRunner(context.load_settings(), upstream)
    runner.run_section(SECTION, [BODY_LABEL], {BODY_LABEL: cases}, args.rounds)

    context.finish_machine(machine_info)
    exit_note = context.stop_gatehouse_checked(gatehouse)
    redis_exit_note = context.stop_gatehouse_checked(gatehouse_redis)
    report = ScenarioReport(
        TITLE, QUESTION, machine_info, context.command,
        {"load": f"1 thread, {args.connections} connections, GET /…/{CALL}", **context.round_settings()},
        context.versions("nginx", "wrk", commands={"redis-server": [context.programs["redis-server"], "--version"]}),
        tables=[case_table(runner.summaries()), goal_table(runner.summaries())],
        runs=runner.runs,
        notes=context.notes + ["indicative: the machine is shared; every round is in the raw rows"]
        + ["the Redis-store row's CPU µs/req counts Gatehouse only, not redis-server"]
        + [note for note in (exit_note, redis_exit_note) if note],
        crashes=runner.crashes)
    return Outcome(as_text(report), as_markdown(report), bool(runner.crashes))


def redis_cache_store(port: int) -> str:
    """The config lines that keep the response cache in the run's redis-server."""
    return (f'stores:\n  shared: {{type: redis, url: "redis://127.0.0.1:{port}/0"}}\n'
            "cache: {store: shared}\n")


# MARK: - Checks

def get(port: int, path: str, headers: dict | None = None) -> tuple[int, bytes, dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read(), {k.lower(): v for k, v in response.getheaders()}
    finally:
        connection.close()


def check(gatehouse: Target, nginx: Target, expected: bytes, gatehouse_redis: Target) -> list[str]:
    """Every cache answers the upstream's body, the second call from the cache."""
    problems = []
    for target, path, hit_prefix in ((gatehouse, f"/cached/{CALL}", "gatehouse; hit"),
                                     (gatehouse_redis, f"/cached/{CALL}", "gatehouse; hit"),
                                     (nginx, f"/ops/{CALL}", "HIT")):
        answers = [get(target.service.port, path) for _ in range(2)]
        for status, body, _ in answers:
            if status != 200 or body != expected:
                problems.append(f"{target.name} {path}: status {status}, body {body[:200]!r}")
        if not answers[1][2].get("cache-status", "").startswith(hit_prefix):
            problems.append(f"{target.name} {path}: second call not a hit ({answers[1][2].get('cache-status')!r})")
    _, _, miss_headers = get(gatehouse.service.port, f"/cached/{CALL}", {"Cache-Control": "no-cache"})
    if miss_headers.get("cache-status") != "gatehouse; fwd=request; stored":
        problems.append(f"gatehouse no-cache: Cache-Status {miss_headers.get('cache-status')!r}")
    return problems


# MARK: - Tables

CASE_HEADERS = ["case", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "upstream CPU µs/req", "errors",
                "other CPU %", "rounds"]


def case_table(summaries: list[Summary]) -> Table:
    rows = [[s.label, rps(s), milliseconds(s.p50_us), milliseconds(s.p99_us), cpu(s),
             f"{s.upstream_cpu_us_per_request:.1f}", str(s.errors), f"{s.other_cpu_percent:.0f}", s.rounds_text]
            for s in summaries if s.section == SECTION]
    return Table("Per case (median over rounds)", CASE_HEADERS, rows,
                 "CPU µs/req is the target's own CPU time per request; upstream CPU near 0 means the "
                 "cache answered.")


def goal_table(summaries: list[Summary]) -> Table:
    by_label = {s.label: s for s in summaries if s.section == SECTION}
    rows = []

    def ratio_row(goal: str, value: Summary | None, base: Summary | None, attribute: str, limit: float,
                  at_least: bool):
        if value is None or base is None or not getattr(base, attribute):
            rows.append([goal, "—", "—"])
            return
        ratio = getattr(value, attribute) / getattr(base, attribute)
        passed = ratio >= limit if at_least else ratio <= limit
        rows.append([goal, f"{ratio:.2f}× ({change(getattr(value, attribute), getattr(base, attribute))})",
                     "PASS" if passed else "FAIL"])

    hit, nginx_hit, uncached, miss = (by_label.get(label) for label in (HIT, NGINX_HIT, UNCACHED, MISS))
    ratio_row(f"hit req/s ≥ {GOAL_HIT_RPS}× nginx", hit, nginx_hit, "requests_per_second", GOAL_HIT_RPS, True)
    ratio_row(f"hit CPU µs/req ≤ {GOAL_HIT_CPU}× nginx", hit, nginx_hit, "cpu_us_per_request", GOAL_HIT_CPU, False)
    ratio_row(f"miss CPU µs/req ≤ {GOAL_MISS_CPU}× uncached", miss, uncached, "cpu_us_per_request",
              GOAL_MISS_CPU, False)
    return Table("Goals (indicative: shared machine)", ["goal", "measured", "verdict"], rows)
