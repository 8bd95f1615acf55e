// hiredis (Debian libhiredis-dev): the asynchronous API, driven by GatehouseIO's event loop
// through the `ev` hooks of redisAsyncContext (see Sources/GatehouseIO/Redis/RedisConnection.swift).
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
