// The reply guard of a Redis connection (see CLinux.h, gh_redis_reply_guard). hiredis's async
// API asserts, and so aborts the process, when a reply arrives that no command is waiting for;
// counted here as the reader builds each top-level reply, such a reply is refused instead, the
// reader fails, and hiredis drops the connection.
#include "CLinux.h"
#include <hiredis/read.h>

// The reader's own functions: the same table (hiredis's defaults) for every connection, stored
// by each connecting worker thread alike.
static redisReplyObjectFunctions *gh_reply_functions;

static redisReplyObjectFunctions *gh_original(void) {
    return __atomic_load_n(&gh_reply_functions, __ATOMIC_ACQUIRE);
}

static int gh_reply_admitted(const redisReadTask *task) {
    if (task->parent != NULL) return 1;  // an element of a reply already admitted
    gh_redis_reply_guard *guard = task->privdata;
    if (guard->owed <= 0) {
        guard->tripped = 1;
        return 0;
    }
    guard->owed -= 1;
    return 1;
}

static void *gh_guarded_string(const redisReadTask *task, char *text, size_t length) {
    return gh_reply_admitted(task) ? gh_original()->createString(task, text, length) : NULL;
}

static void *gh_guarded_array(const redisReadTask *task, int elements) {
    return gh_reply_admitted(task) ? gh_original()->createArray(task, elements) : NULL;
}

static void *gh_guarded_integer(const redisReadTask *task, long long value) {
    return gh_reply_admitted(task) ? gh_original()->createInteger(task, value) : NULL;
}

static void *gh_guarded_nil(const redisReadTask *task) {
    return gh_reply_admitted(task) ? gh_original()->createNil(task) : NULL;
}

static void gh_guarded_free(void *reply) { gh_original()->freeObject(reply); }

static redisReplyObjectFunctions gh_guarded_functions = {
    gh_guarded_string, gh_guarded_array, gh_guarded_integer, gh_guarded_nil, gh_guarded_free,
};

void gh_redis_reply_guard_install(void *reader, gh_redis_reply_guard *guard) {
    redisReader *r = reader;
    if (r->fn != &gh_guarded_functions) __atomic_store_n(&gh_reply_functions, r->fn, __ATOMIC_RELEASE);
    guard->owed = 0;
    guard->tripped = 0;
    r->privdata = guard;
    r->fn = &gh_guarded_functions;
}
