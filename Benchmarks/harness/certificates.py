"""A throwaway CA and a server certificate for localhost and 127.0.0.1, made with the openssl CLI
for every run that needs TLS (the upstream's and the proxies' https listeners)."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

# ECDSA P-256: what current deployments issue; with keep-alive the handshake cost hardly counts.
_KEY_OPTIONS = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
_SERVER_EXTENSIONS = """basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1
"""


@dataclass(frozen=True)
class TLSFiles:
    ca_file: Path
    cert_file: Path
    key_file: Path


def make_server_certificate(directory: Path, openssl: str = "openssl", days: int = 2) -> TLSFiles:
    directory.mkdir(parents=True, exist_ok=True)

    def run(arguments: list) -> None:
        completed = subprocess.run([openssl, *map(str, arguments)], capture_output=True, text=True)
        if completed.returncode != 0:
            raise SystemExit(f"bench: openssl {arguments[0]} failed:\n{completed.stdout}{completed.stderr}")

    ca_key, ca_cert = directory / "ca.key", directory / "ca.pem"
    key, request, cert = directory / "server.key", directory / "server.csr", directory / "server.pem"
    extensions = directory / "server.ext"
    extensions.write_text(_SERVER_EXTENSIONS)
    run(["req", "-x509", *_KEY_OPTIONS, "-keyout", ca_key, "-out", ca_cert, "-days", days,
         "-subj", "/CN=Gatehouse bench CA",
         "-addext", "basicConstraints=critical,CA:TRUE",
         "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    run(["req", "-new", *_KEY_OPTIONS, "-keyout", key, "-out", request, "-subj", "/CN=localhost"])
    run(["x509", "-req", "-in", request, "-CA", ca_cert, "-CAkey", ca_key, "-CAcreateserial",
         "-out", cert, "-days", days, "-sha256", "-extfile", extensions])
    return TLSFiles(ca_cert, cert, key)

