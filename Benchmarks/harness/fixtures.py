"""What the peers serve and check: fixed JSON bodies, the HS256 secret, an RSA key with its JWK Set,
and the tokens the JWT rounds send. Keys and tokens are made fresh for every run."""

import base64
import json
import secrets
import string
import time
from dataclasses import dataclass
from pathlib import Path

# Paths served by the upstream, by body size; every proxy forwards them unchanged.
BODY_PATHS = {"100B": "/small", "8KiB": "/8k", "64KiB": "/64k"}
BODY_SIZES = {"100B": 100, "8KiB": 8 * 1024, "64KiB": 64 * 1024}
HS_PATH = "/hs/small"
RS_PATH = "/rs/small"
# The RS256 route whose keys Gatehouse fetches from a URL (the upstream serves the same JWKS).
RS_REMOTE_PATH = "/rs-remote/small"
JWKS_URL_PATH = "/jwks.json"
CHECK_PATH = "/check"
# Echoes what a proxy sent upstream of Gatehouse's per-request headers (gateway_headers.py).
GATEWAY_CHECK_PATH = "/check-gateway"
INJECTED_HEADER_VALUE = "secret"
RS_KEY_ID = "bench-rsa"


# MARK: - Bodies

def json_body(size: int) -> str:
    """A GraphQL-shaped JSON answer of exactly `size` bytes (ASCII, no quote, "$" or backslash, so it
    fits an nginx `return` string unescaped)."""
    if size <= 200:
        head = '{"data":{"appsetting":{"cdnUrl":"https://cdn.example.com/app","minVersion":"2.4.0","pad":"'
        tail = '"}}}'
        return _padded(head, tail, size)
    items = []
    head = '{"data":{"movies":['
    tail_head = '],"pad":"'
    tail = '"}}'
    frame = len(head) + len(tail_head) + len(tail)
    length = 0
    while True:
        index = len(items)
        item = (f'{{"id":"m{index:05d}","title":"Movie {index:05d}","genre":"drama",'
                f'"posterUrl":"https://cdn.example.com/posters/{index:05d}.jpg"}}')
        separator = 1 if items else 0
        if frame + length + separator + len(item) > size:
            break
        items.append(item)
        length += separator + len(item)
    return _padded(head + ",".join(items) + tail_head, tail, size)


def _padded(head: str, tail: str, size: int) -> str:
    padding = size - len(head) - len(tail)
    if padding < 0:
        raise ValueError(f"body of {size} bytes too small for its frame")
    body = head + "x" * padding + tail
    json.loads(body)
    return body


def write_bodies(directory: Path) -> dict[str, str]:
    """Writes the file-served bodies; returns every body by its label."""
    directory.mkdir(parents=True, exist_ok=True)
    bodies = {label: json_body(size) for label, size in BODY_SIZES.items()}
    (directory / "8k.json").write_text(bodies["8KiB"])
    (directory / "64k.json").write_text(bodies["64KiB"])
    return bodies


# MARK: - Keys and tokens

@dataclass(frozen=True)
class Credentials:
    hs_secret: str
    jwks_file: Path
    rs_public_key_file: Path
    rs_certificate_file: Path
    hs_token: str
    rs_token: str


def make_credentials(directory: Path, lifetime_seconds: int = 6 * 3600) -> Credentials:
    import jwt
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    alphabet = string.ascii_letters + string.digits
    hs_secret = "".join(secrets.choice(alphabet) for _ in range(48))
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public_key = key.public_key()

    public_pem = public_key.public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)
    public_key_file = directory / "rs256-public.pem"
    public_key_file.write_bytes(public_pem)
    certificate_file = directory / "rs256-cert.pem"
    certificate_file.write_bytes(_self_signed_certificate(key))

    numbers = public_key.public_numbers()
    jwks = {"keys": [{"kty": "RSA", "kid": RS_KEY_ID, "use": "sig", "alg": "RS256",
                      "n": _base64url_uint(numbers.n), "e": _base64url_uint(numbers.e)}]}
    jwks_file = directory / "jwks.json"
    jwks_file.write_text(json.dumps(jwks))

    now = int(time.time())
    claims = {"sub": "bench-user", "iat": now, "exp": now + lifetime_seconds}
    hs_token = jwt.encode(claims, hs_secret, algorithm="HS256")
    rs_private_pem = key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption())
    rs_token = jwt.encode(claims, rs_private_pem, algorithm="RS256", headers={"kid": RS_KEY_ID})
    return Credentials(hs_secret, jwks_file, public_key_file, certificate_file, hs_token, rs_token)


def _base64url_uint(value: int) -> str:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _self_signed_certificate(key) -> bytes:
    """haproxy releases that take only certificates for jwt_verify get this one."""
    import datetime
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.x509.oid import NameOID

    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gatehouse-bench")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder()
                   .subject_name(name).issuer_name(name)
                   .public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .sign(key, hashes.SHA256()))
    return certificate.public_bytes(serialization.Encoding.PEM)
