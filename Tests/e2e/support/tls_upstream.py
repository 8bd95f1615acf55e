"""An https upstream: support.raw_upstream.RawUpstream behind Python's `ssl`, so every scripted
behavior works over TLS too. It also records each TLS handshake: whether it succeeded, whether
the session was resumed (counted on the server side, `session_reused`), the SNI name the
client sent, the ALPN protocol chosen and the client certificate's subject.

TLSUpstream runs the handshake at the start of RawUpstream's per-connection `_serve`, on the
connection's own thread (a client that stalls a handshake cannot block the accept loop), then
lets RawUpstream read requests and run behaviors over the `ssl` socket.
"""

import ssl
import threading
import time
from dataclasses import dataclass

from .raw_upstream import RawUpstream, UpstreamConnection
from .upstream_scripts import head_bytes

HANDSHAKE_TIMEOUT = 5.0


@dataclass
class Handshake:
    ok: bool
    reused: bool = False
    server_name: str = None  # SNI as sent, None when the client sent none
    alpn: str = None
    client_subject: str = None  # the client certificate's commonName, when one was sent
    error: str = None


def server_context(credential, client_ca=None, alpn=("http/1.1",)) -> ssl.SSLContext:
    """A server context presenting `credential`; `client_ca` set = a client certificate is required."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(credential.cert_file), str(credential.key_file))
    if client_ca is not None:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(str(client_ca))
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context


class TLSUpstream(RawUpstream):
    def __init__(self, credential, client_ca=None):
        self.context = server_context(credential, client_ca)
        self.context.sni_callback = self._remember_server_name
        self.handshake_lock = threading.Lock()
        self.handshake_log = []
        super().__init__()

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}"

    # MARK: - Test-facing API

    def reset(self, behavior=None) -> None:
        super().reset(behavior)
        with self.handshake_lock:
            self.handshake_log.clear()

    @property
    def handshakes(self) -> list:
        with self.handshake_lock:
            return list(self.handshake_log)

    def completed_handshakes(self) -> list:
        return [handshake for handshake in self.handshakes if handshake.ok]

    def wait_for_handshakes(self, count: int, timeout: float = HANDSHAKE_TIMEOUT) -> list:
        """The handshakes once `count` are recorded (or what is recorded at the deadline). A
        refused one is recorded on the connection's thread when its handshake fails, which may
        be after the gateway, told by the alert, has already answered its client."""
        deadline = time.monotonic() + timeout
        while len(self.handshakes) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return self.handshakes

    # MARK: - TLS

    @staticmethod
    def _remember_server_name(sock, server_name, context):
        sock.requested_server_name = server_name

    def _serve(self, connection: UpstreamConnection) -> None:
        tls = self.context.wrap_socket(connection.sock, server_side=True,
                                       do_handshake_on_connect=False)
        connection.sock = tls
        tls.settimeout(HANDSHAKE_TIMEOUT)
        try:
            tls.do_handshake()
        except (ssl.SSLError, OSError) as error:
            self._record(Handshake(ok=False, server_name=getattr(tls, "requested_server_name", None),
                                   error=str(error)))
            connection.alive = False
            tls.close()
            return
        peer = tls.getpeercert() or {}
        subject = dict(pair for entry in peer.get("subject", ()) for pair in entry)
        self._record(Handshake(ok=True, reused=tls.session_reused,
                               server_name=getattr(tls, "requested_server_name", None),
                               alpn=tls.selected_alpn_protocol(),
                               client_subject=subject.get("commonName")))
        super()._serve(connection)

    def _record(self, handshake: Handshake) -> None:
        with self.handshake_lock:
            self.handshake_log.append(handshake)


# MARK: - Behaviors for TLS connections


def respond_then_close_notify(body: bytes = b'{"data":{"ok":true}}'):
    """200 with `Connection: close`, then a clean TLS shutdown (close_notify) and close, the way
    nginx ends a connection it will not keep."""
    data = head_bytes(200, [("Content-Type", "application/json"), ("Content-Length", len(body)),
                            ("Connection", "close")], "OK") + body

    def behave(connection, request, stop):
        connection.send(data)
        try:
            connection.sock.settimeout(1.0)
            connection.sock.unwrap()
        except (ssl.SSLError, OSError):
            pass
        return False

    return behave


def echo_body():
    """200 `application/octet-stream` with the request body as it arrived."""

    def behave(connection, request, stop):
        headers = [("Content-Type", "application/octet-stream"),
                   ("Content-Length", len(request.body))]
        connection.send(head_bytes(200, headers, "OK") + request.body)
        return True

    return behave
