"""Signing keys made at test time, their JWK Set, and tokens minted or forged outside Gatehouse.

Tokens are minted with pyjwt (the gateway never mints the tokens it is tested with). Forged
tokens — unsigned, with duplicate header members, odd segment counts, hand-made signatures —
are assembled from raw segments here, since no well-behaved library will write them.
"""

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

# MARK: - Keys


@dataclass
class SigningKey:
    """A private key, and the `kid` its public half has in the JWK Set (None: no kid)."""
    private_key: object
    kid: str = None

    @property
    def public_key(self):
        return self.private_key.public_key()

    @property
    def public_pem(self) -> bytes:
        return self.public_key.public_bytes(serialization.Encoding.PEM,
                                            serialization.PublicFormat.SubjectPublicKeyInfo)

    def jwk(self) -> dict:
        if isinstance(self.private_key, rsa.RSAPrivateKey):
            entry = RSAAlgorithm.to_jwk(self.public_key, as_dict=True)
        else:
            entry = ECAlgorithm.to_jwk(self.public_key, as_dict=True)
        entry = {key: value for key, value in entry.items() if key in ("kty", "n", "e", "crv", "x", "y")}
        entry["use"] = "sig"
        if self.kid is not None:
            entry["kid"] = self.kid
        return entry


def rsa_key(kid: str = None, bits: int = 2048) -> SigningKey:
    return SigningKey(rsa.generate_private_key(public_exponent=65537, key_size=bits), kid)


def ec_key(curve, kid: str = None) -> SigningKey:
    return SigningKey(ec.generate_private_key(curve), kid)


def jwk_set(*keys: SigningKey) -> dict:
    return {"keys": [key.jwk() for key in keys]}


def write_jwk_set(path, *keys: SigningKey) -> str:
    path.write_text(json.dumps(jwk_set(*keys), indent=2))
    return str(path)


# MARK: - Minting


def claims(sub: str = "user-42", ttl: int = 300, **extra) -> dict:
    """Registered claims valid from now for `ttl` seconds; `extra` adds or overrides (None drops)."""
    now = int(time.time())
    payload = {"sub": sub, "iat": now, "exp": now + ttl}
    payload.update(extra)
    return {key: value for key, value in payload.items() if value is not None}


def mint(payload: dict, algorithm: str, key, kid: str = None, headers: dict = None) -> str:
    """A token signed by pyjwt; `key` is a SigningKey or an HMAC secret."""
    signing_key = key.private_key if isinstance(key, SigningKey) else key
    header = dict(headers or {})
    if kid is not None:
        header["kid"] = kid
    return jwt.encode(payload, signing_key, algorithm=algorithm, headers=header or None)


# MARK: - Forging


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def compact_json(value) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def forge(header_bytes: bytes, payload_bytes: bytes, signature: bytes = b"") -> str:
    """`header.payload.signature` from raw bytes, unpadded base64url each."""
    return ".".join([b64url(header_bytes), b64url(payload_bytes), b64url(signature)])


def forge_hmac(header: dict, payload: dict, secret: bytes) -> str:
    """An HS256 token over arbitrary header JSON, signed with any byte string as the secret."""
    signing_input = (b64url(compact_json(header)) + "." + b64url(compact_json(payload))).encode()
    signature = hmac.new(secret, signing_input, hashlib.sha256).digest()
    return signing_input.decode() + "." + b64url(signature)


def resign_hmac(header_bytes: bytes, payload: dict, secret: bytes) -> str:
    """Like `forge_hmac`, but with the header given as exact bytes (duplicate members, …)."""
    signing_input = (b64url(header_bytes) + "." + b64url(compact_json(payload))).encode()
    signature = hmac.new(secret, signing_input, hashlib.sha256).digest()
    return signing_input.decode() + "." + b64url(signature)


def replace_signature(token: str, signature: bytes) -> str:
    head, payload, _ = token.split(".")
    return f"{head}.{payload}.{b64url(signature)}"


def with_header(token: str, header: dict) -> str:
    """The token with its header segment replaced and its signature kept (now mismatched)."""
    _, payload, signature = token.split(".")
    return f"{b64url(compact_json(header))}.{payload}.{signature}"


def with_padding(token: str) -> str:
    """Every segment padded with `=` to a multiple of four, as standard base64 would write it."""
    return ".".join(segment + "=" * (-len(segment) % 4) for segment in token.split("."))
