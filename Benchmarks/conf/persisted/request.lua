-- wrk script for one request shape of the persisted scenario, rendered per shape by
-- harness/scenarios/persisted.py (which also sends the same request in its checks): the method,
-- and for POST the JSON body. The path and query string are in the URL wrk is given.
wrk.method = "{{METHOD}}"
local body = '{{BODY}}'
if body ~= "" then
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end
wrk.headers["Accept"] = "application/json"

done = require("bench_result").done
