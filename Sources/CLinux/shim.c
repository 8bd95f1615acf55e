#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <stdio.h>
#include <stdlib.h>

const int GH_EPOLL_CTL_ADD = EPOLL_CTL_ADD, GH_EPOLL_CTL_MOD = EPOLL_CTL_MOD, GH_EPOLL_CTL_DEL = EPOLL_CTL_DEL;
unsigned char gh_no_storage_bytes[16] __attribute__((aligned(16)));

const uint32_t GH_EPOLLIN = EPOLLIN, GH_EPOLLOUT = EPOLLOUT, GH_EPOLLERR = EPOLLERR,
               GH_EPOLLHUP = EPOLLHUP, GH_EPOLLRDHUP = EPOLLRDHUP, GH_EPOLLET = EPOLLET;
const int GH_EMFILE = EMFILE, GH_ENFILE = ENFILE, GH_EAGAIN = EAGAIN, GH_EINTR = EINTR,
          GH_EINPROGRESS = EINPROGRESS, GH_ECONNRESET = ECONNRESET, GH_EPIPE = EPIPE;

int gh_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int gh_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &ev);
}

int gh_epoll_wait(int epfd, struct gh_event *out, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        out[i].events = evs[i].events;
        out[i].token = evs[i].data.u64;
    }
    return n;
}

int gh_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
int gh_eventfd_signal(int fd) { uint64_t one = 1; return (int)write(fd, &one, sizeof one); }
int gh_eventfd_drain(int fd) { uint64_t v; return (int)read(fd, &v, sizeof v); }

static void fill_set(sigset_t *set, const int *signals) {
    sigemptyset(set);
    for (const int *s = signals; *s; s++) sigaddset(set, *s);
}

int gh_block_signals(const int *signals) {
    sigset_t set;
    fill_set(&set, signals);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int gh_signalfd(const int *signals) {
    sigset_t set;
    fill_set(&set, signals);
    if (pthread_sigmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_CLOEXEC);
}

int gh_signalfd_read(int fd) {
    struct signalfd_siginfo info;
    ssize_t n;
    do { n = read(fd, &info, sizeof info); } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EAGAIN ? 0 : -1;
    if (n != sizeof info) return -1;
    return (int)info.ssi_signo;
}

int gh_socket_nonblocking(int domain, int type) {
    return socket(domain, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

int gh_accept4(int fd, struct sockaddr_storage *addr, socklen_t *len) {
    *len = sizeof *addr;
    return accept4(fd, (struct sockaddr *)addr, len, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int gh_set_int_option(int fd, int level, int name, int value) {
    return setsockopt(fd, level, name, &value, sizeof value);
}
int gh_tcp_nodelay(int fd) { return gh_set_int_option(fd, IPPROTO_TCP, TCP_NODELAY, 1); }
int gh_reuseport(int fd) {
    if (gh_set_int_option(fd, SOL_SOCKET, SO_REUSEADDR, 1) != 0) return -1;
    return gh_set_int_option(fd, SOL_SOCKET, SO_REUSEPORT, 1);
}

long gh_read_nocancel(int fd, void *buf, size_t len) { return syscall(SYS_read, fd, buf, len); }
long gh_recv_nocancel(int fd, void *buf, size_t len) { return syscall(SYS_recvfrom, fd, buf, len, 0, NULL, NULL); }

long gh_send_nocancel(int fd, const void *buf, size_t len) {
    return syscall(SYS_sendto, fd, buf, len, MSG_NOSIGNAL, NULL, 0);
}

long gh_send2_nocancel(int fd, const void *first, size_t first_len, const void *second, size_t second_len) {
    struct iovec parts[2] = {{(void *)first, first_len}, {(void *)second, second_len}};
    struct msghdr message = {0};
    message.msg_iov = parts;
    message.msg_iovlen = 2;
    return syscall(SYS_sendmsg, fd, &message, MSG_NOSIGNAL);
}

int gh_socket_error(int fd) {
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    return err;
}

static int gh_same_endpoint(const struct sockaddr_storage *a, const struct sockaddr_storage *b) {
    if (a->ss_family != b->ss_family) return 0;
    if (a->ss_family == AF_INET) {
        const struct sockaddr_in *x = (const struct sockaddr_in *)a, *y = (const struct sockaddr_in *)b;
        return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
    }
    if (a->ss_family == AF_INET6) {
        const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)a, *y = (const struct sockaddr_in6 *)b;
        return x->sin6_port == y->sin6_port && memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0;
    }
    return 0;
}

int gh_connect_error(int fd) {
    int err = gh_socket_error(fd);
    if (err != 0) return err;
    struct sockaddr_storage local, peer;
    socklen_t local_len = sizeof local, peer_len = sizeof peer;
    if (getsockname(fd, (struct sockaddr *)&local, &local_len) != 0) return errno;
    if (getpeername(fd, (struct sockaddr *)&peer, &peer_len) != 0) return errno;
    return gh_same_endpoint(&local, &peer) ? ECONNREFUSED : 0;
}

int gh_format_address(const struct sockaddr_storage *addr, char *out, int cap, int *port) {
    if (addr->ss_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)addr;
        if (!inet_ntop(AF_INET, &a->sin_addr, out, cap)) return -1;
        *port = ntohs(a->sin_port);
    } else if (addr->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)addr;
        if (!inet_ntop(AF_INET6, &a->sin6_addr, out, cap)) return -1;
        *port = ntohs(a->sin6_port);
    } else {
        return -1;
    }
    return (int)strlen(out);
}

int gh_make_address(const char *host, int port, struct sockaddr_storage *out) {
    memset(out, 0, sizeof *out);
    struct sockaddr_in *v4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        return sizeof *v4;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        return sizeof *v6;
    }
    return -1;
}

uint64_t gh_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

int64_t gh_realtime_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}

int gh_getrandom(void *buf, size_t len) { return (int)getrandom(buf, len, 0); }
int gh_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int gh_open_unlinked_tmpfile(const char *dir) {
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    char path[4096];
    if (snprintf(path, sizeof path, "%s/gatehouse-body-XXXXXX", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) return -1;
    unlink(path);
    return fd;
}

void gh_keep_freed_memory(size_t mmap_threshold, size_t trim_threshold) {
    mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
    mallopt(M_TRIM_THRESHOLD, (int)trim_threshold);
}
