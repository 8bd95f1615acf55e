/* The load generator of the `websocket` benchmark scenario: ONE WebSocket connection through the
 * proxy under test, a window of masked text messages in flight (pipelined: each echo that comes
 * back lets one more go), for a fixed time; prints what came back as JSON. One thread, no
 * allocation in the loop, every frame pre-built once, so the proxy is the slower part. Compiled
 * by Benchmarks/harness/websocket_tools.py with `cc -O2`.
 *
 *     ws_load PORT PATH SECONDS WINDOW SIZE          load; prints {"messages": N, "seconds": S}
 *     ws_load PORT PATH check SIZE                   one message each way, compared byte for byte
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define INPUT_CAPACITY (1024 * 1024)
/* Any fixed key will do: the proxy re-masks or forwards it, the echo unmasks. */
static const unsigned char MASKING_KEY[4] = {0x37, 0xFA, 0x21, 0x3D};
/* A fixed, valid handshake key (RFC 6455 section 4.1: 16 bytes, base64). */
static const char HANDSHAKE_KEY[] = "dGhlIHNhbXBsZSBub25jZQ==";

static double now_seconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static int connect_and_upgrade(int port, const char *path) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                                  .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) die("ws_load: connect");
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    char request[512];
    int length = snprintf(request, sizeof request,
                          "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, port, HANDSHAKE_KEY);
    if (write(fd, request, (size_t)length) != length) die("ws_load: write handshake");
    /* Read the 101 byte by byte so no frame byte after it is swallowed. */
    char head[2048];
    size_t used = 0;
    while (used < sizeof head - 1) {
        if (read(fd, head + used, 1) != 1) die("ws_load: read handshake");
        used++;
        if (used >= 4 && memcmp(head + used - 4, "\r\n\r\n", 4) == 0) break;
    }
    head[used] = 0;
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
        fprintf(stderr, "ws_load: no 101: %s\n", head);
        exit(1);
    }
    return fd;
}

/* A masked text frame with `size` bytes of printable ASCII; returns its length. */
static size_t build_frame(unsigned char *frame, size_t size, unsigned char *payload_out) {
    size_t header = 2;
    frame[0] = 0x81;
    if (size < 126) {
        frame[1] = 0x80 | (unsigned char)size;
    } else if (size <= 0xFFFF) {
        frame[1] = 0x80 | 126;
        frame[2] = (unsigned char)(size >> 8);
        frame[3] = (unsigned char)size;
        header = 4;
    } else {
        frame[1] = 0x80 | 127;
        for (int i = 0; i < 8; i++) frame[2 + i] = (unsigned char)((uint64_t)size >> (56 - 8 * i));
        header = 10;
    }
    memcpy(frame + header, MASKING_KEY, 4);
    header += 4;
    for (size_t i = 0; i < size; i++) {
        unsigned char byte = (unsigned char)('a' + (i * 7) % 26);
        payload_out[i] = byte;
        frame[header + i] = byte ^ MASKING_KEY[i & 3];
    }
    return header + size;
}

/* Whole server frames at the start of `in`: their count, and the bytes they take in `used`. */
static long whole_frames(const unsigned char *in, size_t length, size_t *used, const unsigned char **payload,
                         uint64_t *payload_length) {
    long frames = 0;
    size_t at = 0;
    while (length - at >= 2) {
        const unsigned char *frame = in + at;
        size_t header = 2;
        uint64_t size = frame[1] & 0x7F;
        if (size == 126) {
            if (length - at < 4) break;
            size = (uint64_t)frame[2] << 8 | frame[3];
            header = 4;
        } else if (size == 127) {
            if (length - at < 10) break;
            size = 0;
            for (int i = 0; i < 8; i++) size = size << 8 | frame[2 + i];
            header = 10;
        }
        if (length - at < header + size) break;
        if (payload) {
            *payload = frame + header;
            *payload_length = size;
        }
        at += header + (size_t)size;
        frames++;
    }
    *used = at;
    return frames;
}

static int check(int fd, size_t size) {
    unsigned char *frame = malloc(size + 14), *expected = malloc(size), *in = malloc(size + 16);
    size_t length = build_frame(frame, size, expected), have = 0, used = 0;
    if (write(fd, frame, length) != (ssize_t)length) die("ws_load: write");
    const unsigned char *payload = NULL;
    uint64_t payload_length = 0;
    while (whole_frames(in, have, &used, &payload, &payload_length) == 0) {
        ssize_t n = read(fd, in + have, size + 16 - have);
        if (n <= 0) die("ws_load: read echo");
        have += (size_t)n;
    }
    int same = in[0] == 0x81 && payload_length == size && memcmp(payload, expected, size) == 0;
    printf("{\"check\": %s, \"size\": %zu}\n", same ? "true" : "false", size);
    return same ? 0 : 1;
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 5 && strcmp(argv[3], "check") == 0) {
        return check(connect_and_upgrade(atoi(argv[1]), argv[2]), (size_t)atol(argv[4]));
    }
    if (argc != 6) {
        fprintf(stderr, "usage: ws_load PORT PATH SECONDS WINDOW SIZE | ws_load PORT PATH check SIZE\n");
        return 2;
    }
    int fd = connect_and_upgrade(atoi(argv[1]), argv[2]);
    double seconds = atof(argv[3]);
    long window = atol(argv[4]);
    size_t size = (size_t)atol(argv[5]);
    unsigned char *frame = malloc(size + 14), *payload = malloc(size);
    size_t frame_length = build_frame(frame, size, payload);
    /* Room for a whole window of frames to go out in one write. */
    size_t out_capacity = frame_length * (size_t)window;
    unsigned char *out = malloc(out_capacity), *in = malloc(INPUT_CAPACITY);
    size_t out_start = 0, out_length = 0, in_length = 0;
    for (long i = 0; i < window; i++) {
        memcpy(out + out_length, frame, frame_length);
        out_length += frame_length;
    }
    long received = 0, owed = 0;
    double started = now_seconds(), ends = started + seconds;
    struct pollfd watch = {.fd = fd};
    while (now_seconds() < ends) {
        watch.events = POLLIN | (out_length > out_start ? POLLOUT : 0);
        if (poll(&watch, 1, 100) < 0 && errno != EINTR) die("ws_load: poll");
        if (watch.revents & POLLOUT) {
            ssize_t n = write(fd, out + out_start, out_length - out_start);
            if (n < 0 && errno != EAGAIN && errno != EINTR) die("ws_load: write");
            if (n > 0) out_start += (size_t)n;
            if (out_start == out_length) out_start = out_length = 0;
        }
        if (watch.revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(fd, in + in_length, INPUT_CAPACITY - in_length);
            if (n <= 0) die("ws_load: read");
            in_length += (size_t)n;
            size_t used = 0;
            long frames = whole_frames(in, in_length, &used, NULL, NULL);
            memmove(in, in + used, in_length - used);
            in_length -= used;
            received += frames;
            owed += frames;
        }
        /* Each echo back lets one more message go, as the window allows room in `out`. */
        if (out_start > 0 && out_start == out_length) out_start = out_length = 0;
        while (owed > 0 && out_length + frame_length <= out_capacity) {
            if (out_start > 0) {
                memmove(out, out + out_start, out_length - out_start);
                out_length -= out_start;
                out_start = 0;
            }
            memcpy(out + out_length, frame, frame_length);
            out_length += frame_length;
            owed--;
        }
    }
    double elapsed = now_seconds() - started;
    printf("{\"messages\": %ld, \"seconds\": %.6f}\n", received, elapsed);
    return 0;
}
