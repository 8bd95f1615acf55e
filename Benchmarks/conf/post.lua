-- wrk script: POST of a small GraphQL query, the request apps send most. An Authorization
-- header is added when BENCH_AUTHORIZATION is set (the JWT rounds). At the end one line
-- "BENCH-JSON {...}" carries exact counts and latency percentiles (microseconds) for the harness.
wrk.method = "POST"
wrk.body = '{"query":"query appsetting { appsetting { cdnUrl minVersion } }","variables":{}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"

local authorization = os.getenv("BENCH_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  wrk.headers["Authorization"] = authorization
end

done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH-JSON {"requests":%d,"duration_us":%d,"bytes":%d,' ..
    '"connect_errors":%d,"read_errors":%d,"write_errors":%d,"status_errors":%d,"timeouts":%d,' ..
    '"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d,"max_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency:percentile(99.9), latency.max, latency.mean))
end
