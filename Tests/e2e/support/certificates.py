"""A small PKI made with the `openssl` command for the TLS tests: two CAs and the certificates
the scenarios need, all P-256 keys (fast to make).

  ca / ca_key            the trusted test CA
  other_ca               a second CA nobody is told to trust
  server                 DNS:localhost + IP:127.0.0.1, signed by ca
  server_renewed         the same names and key type, another serial (a renewal swapped on disk)
  expired                like server, valid 2020-01-01 .. 2020-01-02 only
  wrong_name             DNS:other.example, signed by ca
  untrusted              like server, signed by other_ca
  client                 a client certificate (clientAuth), signed by ca
  untrusted_client       a client certificate signed by other_ca

Each certificate is a `Credential` (cert_file, key_file). `openssl ca` is used for every leaf so
validity can be set exactly (`-startdate`/`-enddate`); `openssl x509 -req -not_before` would need
OpenSSL 3.4. The files are made once per test session under the pytest base temp directory and
reused by every module that asks for them.
"""

import datetime
import hashlib
import shutil
import ssl
import subprocess
from dataclasses import dataclass
from pathlib import Path

_CA_CONFIG = """\
[ ca ]
default_ca = test_ca

[ test_ca ]
dir = {directory}
database = $dir/index.txt
new_certs_dir = $dir/issued
certificate = $dir/ca.pem
private_key = $dir/ca.key
rand_serial = yes
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
email_in_dn = no

[ any_name ]
commonName = supplied
organizationName = optional
"""

_SERVER_EXTENSIONS = """\
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = {names}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""

_CLIENT_EXTENSIONS = """\
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""

LOCAL_NAMES = "DNS:localhost, IP:127.0.0.1"


@dataclass(frozen=True)
class Credential:
    cert_file: Path
    key_file: Path

    def fingerprint(self) -> str:
        """SHA-256 of the certificate's DER bytes, as `ssl` reports a peer's certificate."""
        der = ssl.PEM_cert_to_DER_cert(self.cert_file.read_text())
        return hashlib.sha256(der).hexdigest()


@dataclass(frozen=True)
class LocalPKI:
    directory: Path
    ca: Path
    other_ca: Path
    server: Credential
    server_renewed: Credential
    expired: Credential
    wrong_name: Credential
    untrusted: Credential
    client: Credential
    untrusted_client: Credential


# MARK: - openssl


def _openssl(*arguments, cwd: Path) -> None:
    result = subprocess.run(["openssl", *arguments], cwd=cwd, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=30)
    if result.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(arguments)} failed:\n{result.stderr}")


def _timestamp(moment: datetime.datetime) -> str:
    return moment.strftime("%Y%m%d%H%M%SZ")


class _Authority:
    """One CA directory: key, self-signed certificate, and the `openssl ca` database."""

    def __init__(self, directory: Path, common_name: str):
        self.directory = directory
        (directory / "issued").mkdir(parents=True, exist_ok=True)
        (directory / "index.txt").write_text("")
        self.config = directory / "ca.cnf"
        self.config.write_text(_CA_CONFIG.format(directory=directory))
        self.cert_file = directory / "ca.pem"
        _openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "ca.key",
                 cwd=directory)
        _openssl("req", "-x509", "-new", "-key", "ca.key", "-out", "ca.pem", "-days", "30",
                 "-subj", f"/CN={common_name}",
                 "-addext", "basicConstraints=critical,CA:TRUE",
                 "-addext", "keyUsage=critical,keyCertSign,cRLSign",
                 cwd=directory)

    def issue(self, name: str, common_name: str, extensions: str, out_dir: Path,
              not_before: datetime.datetime, not_after: datetime.datetime) -> Credential:
        key_file, cert_file = out_dir / f"{name}.key", out_dir / f"{name}.pem"
        request, extension_file = out_dir / f"{name}.csr", out_dir / f"{name}.ext"
        extension_file.write_text(extensions)
        _openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", str(key_file),
                 cwd=out_dir)
        _openssl("req", "-new", "-key", str(key_file), "-out", str(request),
                 "-subj", f"/CN={common_name}", cwd=out_dir)
        _openssl("ca", "-batch", "-notext", "-config", str(self.config),
                 "-extfile", str(extension_file), "-in", str(request), "-out", str(cert_file),
                 "-startdate", _timestamp(not_before), "-enddate", _timestamp(not_after),
                 cwd=self.directory)
        return Credential(cert_file, key_file)


# MARK: - The test PKI


def make_pki(directory: Path) -> LocalPKI:
    """Makes every file under `directory` (replacing what is there)."""
    if directory.exists():
        shutil.rmtree(directory)
    leaves = directory / "leaves"
    leaves.mkdir(parents=True)
    trusted = _Authority(directory / "ca", "Gatehouse Test CA")
    stranger = _Authority(directory / "other-ca", "Nobody Trusts This CA")
    now = datetime.datetime.now(datetime.timezone.utc)
    valid = (now - datetime.timedelta(days=1), now + datetime.timedelta(days=30))
    expired = (datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 2))
    server_ext = _SERVER_EXTENSIONS.format(names=LOCAL_NAMES)
    return LocalPKI(
        directory=directory,
        ca=trusted.cert_file,
        other_ca=stranger.cert_file,
        server=trusted.issue("server", "localhost", server_ext, leaves, *valid),
        server_renewed=trusted.issue("server-renewed", "localhost", server_ext, leaves, *valid),
        expired=trusted.issue("expired", "localhost", server_ext, leaves, *expired),
        wrong_name=trusted.issue("wrong-name", "other.example",
                                 _SERVER_EXTENSIONS.format(names="DNS:other.example"), leaves,
                                 *valid),
        untrusted=stranger.issue("untrusted", "localhost", server_ext, leaves, *valid),
        client=trusted.issue("client", "gatehouse-client", _CLIENT_EXTENSIONS, leaves, *valid),
        untrusted_client=stranger.issue("untrusted-client", "stranger-client",
                                        _CLIENT_EXTENSIONS, leaves, *valid),
    )


def session_pki(tmp_path_factory) -> LocalPKI:
    """The session's PKI: made by the first module that asks, reused by the others."""
    directory = tmp_path_factory.getbasetemp() / "test-pki"
    marker = directory / "complete"
    if marker.exists():
        return _load(directory)
    pki = make_pki(directory)
    marker.write_text("")
    return pki


def _load(directory: Path) -> LocalPKI:
    leaves = directory / "leaves"

    def leaf(name: str) -> Credential:
        return Credential(leaves / f"{name}.pem", leaves / f"{name}.key")

    return LocalPKI(directory=directory, ca=directory / "ca" / "ca.pem",
                   other_ca=directory / "other-ca" / "ca.pem", server=leaf("server"),
                   server_renewed=leaf("server-renewed"), expired=leaf("expired"),
                   wrong_name=leaf("wrong-name"), untrusted=leaf("untrusted"),
                   client=leaf("client"), untrusted_client=leaf("untrusted-client"))
