#ifndef GATEHOUSE_CLINUX_H
#define GATEHOUSE_CLINUX_H
// Linux system interfaces Glibc's Swift overlay lacks or imports awkwardly
// (epoll_event is packed on x86_64; several flags are macros).
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <signal.h>

struct gh_event {
    uint32_t events;
    uint64_t token;
};

// epoll
int gh_epoll_create(void);
int gh_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token);
/// Waits for events; copies them into `out` (at most `max`). Returns the count, or -1 with errno.
int gh_epoll_wait(int epfd, struct gh_event *out, int max, int timeout_ms);

extern const int GH_EPOLL_CTL_ADD, GH_EPOLL_CTL_MOD, GH_EPOLL_CTL_DEL;
extern const uint32_t GH_EPOLLIN, GH_EPOLLOUT, GH_EPOLLERR, GH_EPOLLHUP, GH_EPOLLRDHUP, GH_EPOLLET;

// The storage every empty ByteBuffer points at: never written to, never freed. A C array's
// address is a constant for Swift, where a static allocation would be made lazily (a
// `swift_once` on every buffer emptied).
extern unsigned char gh_no_storage_bytes[16];
static inline void *gh_no_storage(void) { return gh_no_storage_bytes; }

// eventfd, signalfd
int gh_eventfd(void);
int gh_eventfd_signal(int fd);
int gh_eventfd_drain(int fd);
/// Blocks `signals` (a zero-terminated list) in the calling thread and returns a signalfd for them.
int gh_signalfd(const int *signals);
/// Reads one pending signal from a signalfd; returns its number, 0 when none, -1 on error.
int gh_signalfd_read(int fd);
/// Blocks the given zero-terminated list of signals in the calling thread (threads created after inherit it).
int gh_block_signals(const int *signals);

// memory
/// Has the C allocator keep freed memory for reuse instead of handing it back to the kernel
/// (`mallopt`): blocks below `mmap_threshold` come from the heap, and a heap keeps up to
/// `trim_threshold` of free space before it is trimmed.
void gh_keep_freed_memory(size_t mmap_threshold, size_t trim_threshold);

// sockets
int gh_socket_nonblocking(int domain, int type);
int gh_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len);
int gh_set_int_option(int fd, int level, int name, int value);
int gh_tcp_nodelay(int fd);
int gh_reuseport(int fd);
int gh_socket_error(int fd);
// The outcome of a non-blocking connect once writable: 0, or an errno (ECONNREFUSED for a socket
// connected to itself).
int gh_connect_error(int fd);
/// read(2), recv(2) and send(2) with MSG_NOSIGNAL, made directly: glibc's own wrappers are
/// cancellation points, and in a process with threads each call pays a cancel-enable and
/// -disable around the syscall. The gateway never cancels a thread. Sockets are read with
/// recv, which goes straight to the socket layer; read(2) passes through the file layer first
/// (about 2% of a proxied request's CPU in `perf`). -1 with errno set on failure.
long gh_read_nocancel(int fd, void *buf, size_t len);
long gh_recv_nocancel(int fd, void *buf, size_t len);
long gh_send_nocancel(int fd, const void *buf, size_t len);
/// One send of two buffers, the first before the second (sendmsg with two iovecs, MSG_NOSIGNAL).
long gh_send2_nocancel(int fd, const void *first, size_t first_len, const void *second, size_t second_len);
/// What a Redis connection is owed: every command sent adds one reply, every top-level reply
/// the reader builds takes one. A reply beyond them is refused (`tripped`), so the reader fails
/// and hiredis drops the connection, where its async API would assert and abort the process.
typedef struct gh_redis_reply_guard {
    long owed;
    int tripped;
} gh_redis_reply_guard;
/// Puts `guard` in front of the reply functions of `reader` (a connection's `redisReader *`).
void gh_redis_reply_guard_install(void *reader, gh_redis_reply_guard *guard);

/// Formats an address (v4 or v6) into `out`; returns the length, or -1.
int gh_format_address(const struct sockaddr_storage *addr, char *out, int cap, int *port);
/// Parses a numeric host (v4 or v6) and port into a sockaddr; returns its length, or -1.
int gh_make_address(const char *host, int port, struct sockaddr_storage *out);

// time
uint64_t gh_monotonic_ns(void);
int64_t gh_realtime_ns(void);

// misc
int gh_getrandom(void *buf, size_t len);
int gh_set_thread_name(const char *name);
extern const int GH_EMFILE, GH_ENFILE, GH_EAGAIN, GH_EINTR, GH_EINPROGRESS, GH_ECONNRESET, GH_EPIPE;

// Temporary files
/// An unlinked read-write file in `dir` (O_TMPFILE, or mkstemp + unlink where the file system
/// lacks it): it vanishes when closed, even after a crash. -1 with errno set on failure.
int gh_open_unlinked_tmpfile(const char *dir);

// ThreadSanitizer
/// Its runtime's annotations for synchronization it cannot see (GatehouseIO's `Locked`): only a
/// build made with -sanitize=thread and GATEHOUSE_TSAN calls them, and only it links them.
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);

#endif
