-- Shared by every wrk script of the harness (loaded with require; the harness puts this
-- directory on LUA_PATH). Its `done` prints one line "BENCH-JSON {...}" with exact counts and
-- latency percentiles (microseconds), which harness/wrk.py reads.
local result = {}

function result.done(summary, latency, requests)
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

return result
