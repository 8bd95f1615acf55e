-- wrk script: POST of a small GraphQL query, the request apps send most. An Authorization
-- header is added when BENCH_AUTHORIZATION is set (the JWT rounds). Headers given with wrk -H
-- (Accept-Encoding in the gzip scenario) are kept. The result line comes from bench_result.lua.
wrk.method = "POST"
wrk.body = '{"query":"query appsetting { appsetting { cdnUrl minVersion } }","variables":{}}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json"

local authorization = os.getenv("BENCH_AUTHORIZATION")
if authorization ~= nil and authorization ~= "" then
  wrk.headers["Authorization"] = authorization
end

done = require("bench_result").done
