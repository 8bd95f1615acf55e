"""More ways for support.raw_upstream.RawUpstream to answer: each function returns a behavior
`(connection, request, stop) -> keep_open`, the same shape raw_upstream's own behaviors have.

  answer_with_target     200 JSON naming the request target, so pipelined answers can be matched
  send_in_pieces         the given bytes in pieces with pauses (slow drip, reset mid-way)
  send_then_reset        the given bytes, then an RST instead of the rest
  send_and_hold          the given bytes, then silence with the connection kept open
  answer_with_close      the given bytes and the FIN in one go (corked: small answers share a segment)
"""

import json
import socket
import struct

JSON_HEADERS = [("Content-Type", "application/json")]


def reset_now(connection) -> None:
    """Closes with SO_LINGER 0, which sends an RST instead of a FIN."""
    connection.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    connection.sock.close()


def head_bytes(status: int, headers, reason: str = "Status") -> bytes:
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def answer_with_target():
    """200 with `{"data":{"target": <target>, "method": <method>}}`, keep-alive."""

    def behave(connection, request, stop):
        body = json.dumps({"data": {"target": request.target, "method": request.method}}).encode()
        connection.send(head_bytes(200, [*JSON_HEADERS, ("Content-Length", len(body))], "OK") + body)
        return True

    return behave


def send_in_pieces(data: bytes, piece: int = 1, pause: float = 0.05, keep_open: bool = False):
    """`data` `piece` bytes at a time with `pause` seconds between pieces."""

    def behave(connection, request, stop):
        for offset in range(0, len(data), piece):
            if stop.wait(pause):
                return False
            connection.send(data[offset:offset + piece])
        return keep_open

    return behave


def send_then_reset(data: bytes, pause: float = 0.05):
    """`data`, a short pause so it is read first, then an RST."""

    def behave(connection, request, stop):
        if data:
            connection.send(data)
        stop.wait(pause)
        reset_now(connection)
        return False

    return behave


def send_and_hold(data: bytes, limit: float = 30.0):
    """`data`, then silence until the gateway closes (or `limit` passes)."""

    def behave(connection, request, stop):
        if data:
            connection.send(data)
        connection.wait_for_peer_close(stop, limit)
        return False

    return behave


def answer_with_close(data: bytes):
    """`data` then the FIN, held back with TCP_CORK until the close so that a small answer and
    its end arrive together: the gateway learns of the end with the bytes before it."""

    def behave(connection, request, stop):
        connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
        connection.sock.sendall(data)
        connection.sock.shutdown(socket.SHUT_WR)
        return False

    return behave
