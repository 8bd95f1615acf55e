/* The WebSocket echo upstream of the `websocket` benchmark scenario: one thread, one epoll
 * loop, every connection answered with a 101 and then every data frame sent back unmasked with
 * the same opcode and payload (RFC 6455 section 5). Small and fast on purpose: the proxies in
 * front of it must be the slower part of the path. Compiled by Benchmarks/harness/websocket_tools.py
 * with `cc -O2 ... -lcrypto` (SHA-1 and base64 for Sec-WebSocket-Accept).
 *
 *     ws_echo PORT
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

/* Room for several 1 KiB frames per read and for a 64 KiB check message. */
#define INPUT_CAPACITY (256 * 1024)
/* Stop reading a connection while this much echo waits to be written (backpressure). */
#define OUTPUT_HIGH_WATER (512 * 1024)
#define MAX_EVENTS 64
/* RFC 6455 section 1.3. */
static const char ACCEPT_GUID[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

struct connection {
    int fd;
    int upgraded;
    int closing;
    size_t in_length;
    unsigned char in[INPUT_CAPACITY];
    unsigned char *out;
    size_t out_start, out_length, out_capacity;
};

static int epoll_fd;

static void out_append(struct connection *c, const void *bytes, size_t count) {
    if (c->out_start > 0 && c->out_start == c->out_length) c->out_start = c->out_length = 0;
    if (c->out_length + count > c->out_capacity) {
        size_t capacity = c->out_capacity ? c->out_capacity : 64 * 1024;
        while (capacity < c->out_length + count) capacity *= 2;
        c->out = realloc(c->out, capacity);
        c->out_capacity = capacity;
    }
    memcpy(c->out + c->out_length, bytes, count);
    c->out_length += count;
}

static void close_connection(struct connection *c) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c->out);
    free(c);
}

static void set_interest(struct connection *c) {
    struct epoll_event event = {.data.ptr = c, .events = 0};
    if (c->out_length - c->out_start < OUTPUT_HIGH_WATER && !c->closing) event.events |= EPOLLIN;
    if (c->out_length > c->out_start) event.events |= EPOLLOUT;
    epoll_ctl(epoll_fd, EPOLL_CTL_MOD, c->fd, &event);
}

/* Returns 0 when the connection must close. */
static int flush(struct connection *c) {
    while (c->out_length > c->out_start) {
        ssize_t n = write(c->fd, c->out + c->out_start, c->out_length - c->out_start);
        if (n < 0) return errno == EAGAIN || errno == EINTR;
        c->out_start += (size_t)n;
    }
    c->out_start = c->out_length = 0;
    return !c->closing;
}

static const char *find_header(const char *head, const char *name) {
    size_t length = strlen(name);
    for (const char *line = strstr(head, "\r\n"); line; line = strstr(line + 2, "\r\n")) {
        if (strncasecmp(line + 2, name, length) == 0 && line[2 + length] == ':') {
            const char *value = line + 3 + length;
            while (*value == ' ') value++;
            return value;
        }
    }
    return NULL;
}

/* Returns bytes used from the input, 0 when the head is incomplete, -1 to close. */
static long handshake(struct connection *c) {
    c->in[c->in_length < INPUT_CAPACITY ? c->in_length : INPUT_CAPACITY - 1] = 0;
    char *end = strstr((char *)c->in, "\r\n\r\n");
    if (!end) return c->in_length >= INPUT_CAPACITY - 1 ? -1 : 0;
    const char *key = find_header((char *)c->in, "Sec-WebSocket-Key");
    if (!key) return -1;
    size_t key_length = strcspn(key, " \r\n");
    unsigned char material[128], digest[SHA_DIGEST_LENGTH], accept[64];
    if (key_length + sizeof ACCEPT_GUID > sizeof material) return -1;
    memcpy(material, key, key_length);
    memcpy(material + key_length, ACCEPT_GUID, sizeof ACCEPT_GUID - 1);
    SHA1(material, key_length + sizeof ACCEPT_GUID - 1, digest);
    EVP_EncodeBlock(accept, digest, SHA_DIGEST_LENGTH);
    char response[256];
    int length = snprintf(response, sizeof response,
                          "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
    out_append(c, response, (size_t)length);
    c->upgraded = 1;
    return end + 4 - (char *)c->in;
}

/* Echoes every whole frame in the input; returns bytes used. */
static size_t echo_frames(struct connection *c) {
    size_t used = 0;
    while (c->in_length - used >= 2) {
        unsigned char *frame = c->in + used;
        size_t available = c->in_length - used, header = 2;
        uint64_t length = frame[1] & 0x7F;
        if (length == 126) {
            if (available < 4) break;
            length = (uint64_t)frame[2] << 8 | frame[3];
            header = 4;
        } else if (length == 127) {
            if (available < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = length << 8 | frame[2 + i];
            header = 10;
        }
        int masked = frame[1] & 0x80;
        unsigned char *key = frame + header;
        if (masked) header += 4;
        if (available < header + length) break;
        unsigned char *payload = frame + header;
        if (masked) for (uint64_t i = 0; i < length; i++) payload[i] ^= key[i & 3];
        unsigned char reply[10];
        size_t reply_header = 2;
        reply[0] = frame[0];
        if (length < 126) {
            reply[1] = (unsigned char)length;
        } else if (length <= 0xFFFF) {
            reply[1] = 126;
            reply[2] = (unsigned char)(length >> 8);
            reply[3] = (unsigned char)length;
            reply_header = 4;
        } else {
            reply[1] = 127;
            for (int i = 0; i < 8; i++) reply[2 + i] = (unsigned char)(length >> (56 - 8 * i));
            reply_header = 10;
        }
        out_append(c, reply, reply_header);
        out_append(c, payload, (size_t)length);
        if ((frame[0] & 0x0F) == 0x8) c->closing = 1;
        used += header + (size_t)length;
    }
    return used;
}

static void readable(struct connection *c) {
    ssize_t n = read(c->fd, c->in + c->in_length, INPUT_CAPACITY - c->in_length);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return close_connection(c);
    if (n < 0) return;
    c->in_length += (size_t)n;
    size_t used = 0;
    if (!c->upgraded) {
        long head = handshake(c);
        if (head < 0) return close_connection(c);
        used = (size_t)head;
    }
    if (c->upgraded) {
        memmove(c->in, c->in + used, c->in_length - used);
        c->in_length -= used;
        used = echo_frames(c);
    }
    memmove(c->in, c->in + used, c->in_length - used);
    c->in_length -= used;
    if (c->in_length == INPUT_CAPACITY) return close_connection(c);  /* a frame larger than the buffer */
    if (!flush(c)) return close_connection(c);
    set_interest(c);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: ws_echo PORT\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);  /* a client gone mid-write is an error return, not the end of the echo */
    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int on = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 512) != 0) {
        perror("ws_echo: listen");
        return 1;
    }
    epoll_fd = epoll_create1(0);
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, listener, &event);
    struct epoll_event events[MAX_EVENTS];
    for (;;) {
        int ready = epoll_wait(epoll_fd, events, MAX_EVENTS, -1);
        for (int i = 0; i < ready; i++) {
            struct connection *c = events[i].data.ptr;
            if (!c) {
                int fd;
                while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
                    struct connection *added = calloc(1, sizeof *added);
                    added->fd = fd;
                    struct epoll_event watch = {.events = EPOLLIN, .data.ptr = added};
                    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &watch);
                }
                continue;
            }
            if (events[i].events & EPOLLOUT) {
                if (!flush(c)) {
                    close_connection(c);
                    continue;
                }
                set_interest(c);
            }
            if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) readable(c);
        }
    }
}
