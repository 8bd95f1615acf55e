"""Clients of a gateway whose listener speaks TLS (`server.tls`): the strict raw client of
support.raw_http over an `ssl` socket, and what a test wants to know about the handshake
(the certificate the gateway presented, the ALPN protocol it chose).
"""

import hashlib
import socket
import ssl

from .raw_http import RawClient

SERVER_NAME = "localhost"


def client_context(ca_file, credential=None, alpn=None) -> ssl.SSLContext:
    """Verifies the gateway against `ca_file`; presents `credential` (mTLS) when given."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(str(ca_file))
    if credential is not None:
        context.load_cert_chain(str(credential.cert_file), str(credential.key_file))
    if alpn:
        context.set_alpn_protocols(list(alpn))
    return context


class TLSRawClient(RawClient):
    """One TLS connection to 127.0.0.1:port, checked for the name `localhost`; the handshake
    completes in the constructor (an `ssl.SSLError` there means the gateway refused it)."""

    def __init__(self, port: int, context: ssl.SSLContext, timeout: float = 10.0,
                 server_name: str = SERVER_NAME):
        super().__init__(port, timeout=timeout)
        try:
            self.sock = context.wrap_socket(self.sock, server_hostname=server_name)
        except BaseException:
            self.close()
            raise

    @property
    def peer_fingerprint(self) -> str:
        """SHA-256 of the DER certificate the gateway presented."""
        return hashlib.sha256(self.sock.getpeercert(binary_form=True)).hexdigest()

    @property
    def alpn(self):
        return self.sock.selected_alpn_protocol()

    def is_closed(self, timeout: float = 2.0) -> bool:
        """As RawClient.is_closed, with a TLS alert or unclean TLS EOF counted as closed."""
        try:
            return super().is_closed(timeout)
        except (ssl.SSLError, ConnectionError):
            return True


def presented_fingerprint(port: int, ca_file, timeout: float = 5.0) -> str:
    """Connects, completes a handshake and returns the fingerprint of the gateway's certificate."""
    with TLSRawClient(port, client_context(ca_file), timeout=timeout) as client:
        return client.peer_fingerprint


def plain_exchange(port: int, data: bytes, timeout: float = 3.0) -> tuple:
    """Sends `data` in the clear and reads until the peer closes.

    Returns (bytes received, closed: True when EOF or reset arrived within `timeout`).
    """
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        sock.settimeout(timeout)
        while True:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                return received, False
            except ConnectionResetError:
                return received, True
            if not chunk:
                return received, True
            received += chunk
