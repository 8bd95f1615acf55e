#!/usr/bin/env python3
"""Writes Tests/GatehouseCoreTests/AuthFixtures.swift: JWK Sets, a PEM and signed tokens for the
JWT verifier tests. Run once (python3 with pyjwt and cryptography); the tests never need Python.

    python3 Tests/GatehouseCoreTests/Fixtures/auth/make_auth_fixtures.py
"""
import base64
import hashlib
import hmac
import json
import pathlib

import jwt
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa, utils

OUT = pathlib.Path(__file__).resolve().parents[2] / "Auth" / "AuthFixtures.swift"

# Every generated token carries these claims; the tests verify them at NOW.
CLAIMS = {"sub": "alice", "iss": "https://auth.example.com/", "aud": "ios-app",
          "iat": 1700000000, "nbf": 1700000000, "exp": 1700003600}
NOW = 1700001000


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_uint(value: int, size: int | None = None) -> str:
    size = size or (value.bit_length() + 7) // 8
    return b64url(value.to_bytes(size, "big"))


def rsa_jwk(key, kid=None, **extra):
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "RSA", "n": b64url_uint(numbers.n), "e": b64url_uint(numbers.e)}
    if kid:
        jwk["kid"] = kid
    jwk.update(extra)
    return jwk


def ec_jwk(key, kid, crv, size):
    numbers = key.public_key().public_numbers()
    return {"kty": "EC", "crv": crv, "kid": kid, "use": "sig",
            "x": b64url_uint(numbers.x, size), "y": b64url_uint(numbers.y, size)}


def pem(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo)


def sign(key, alg, kid=None, headers=None, claims=CLAIMS):
    hdr = dict(headers or {})
    if kid is not None:
        hdr["kid"] = kid
    return jwt.encode(claims, key, algorithm=alg, headers=hdr)


def forged(header: dict, claims: dict, signature_for) -> str:
    signing_input = (b64url(json.dumps(header, separators=(",", ":")).encode()) + "." +
                     b64url(json.dumps(claims, separators=(",", ":")).encode()))
    return signing_input + "." + b64url(signature_for(signing_input.encode()))


def check_rfc7515_vectors():
    """The RFC 7515 appendix A vectors copied into the tests, checked here against cryptography."""
    a2_n = ("ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0"
            "Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5"
            "z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7a"
            "GhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ")
    jwks = {"keys": [{"kty": "RSA", "n": a2_n, "e": "AQAB"},
                     {"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                      "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}]}
    rsa_key = jwt.PyJWK(jwks["keys"][0], "RS256").key
    ec_key = jwt.PyJWK(jwks["keys"][1], "ES256").key
    opts = {"verify_exp": False}
    jwt.decode(RFC7515_A2, rsa_key, algorithms=["RS256"], options=opts)
    jwt.decode(RFC7515_A3, ec_key, algorithms=["ES256"], options=opts)
    secret = base64.urlsafe_b64decode(RFC7515_A1_KEY + "==")
    jwt.decode(RFC7515_A1, secret, algorithms=["HS256"], options=opts)
    return json.dumps(jwks, indent=2)


RFC7515_PAYLOAD = "eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
RFC7515_A1_KEY = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"
RFC7515_A1 = ("eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9." + RFC7515_PAYLOAD +
              ".dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
RFC7515_A2 = ("eyJhbGciOiJSUzI1NiJ9." + RFC7515_PAYLOAD +
              ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2"
              "Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBM"
              "Hlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w"
              "9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw")
RFC7515_A3 = ("eyJhbGciOiJFUzI1NiJ9." + RFC7515_PAYLOAD +
              ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q")


def main():
    rsa1 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa2 = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    rsa_no_kid = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    attacker = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    small = rsa.generate_private_key(public_exponent=65537, key_size=1024)
    ec256 = ec.generate_private_key(ec.SECP256R1())
    ec384 = ec.generate_private_key(ec.SECP384R1())

    keys = [rsa_jwk(rsa1, "rsa-1", use="sig", alg="RS256"), rsa_jwk(rsa_no_kid),
            ec_jwk(ec256, "ec-256", "P-256", 32), ec_jwk(ec384, "ec-384", "P-384", 48)]
    # rsa-1 declares alg RS256, so RS384/RS512/PS256 tokens use an alg-free copy of the key.
    keys.append(rsa_jwk(rsa1, "rsa-1-any"))
    jwks = {"keys": keys}
    rotated = {"keys": keys + [rsa_jwk(rsa2, "rsa-2")]}
    with_skipped = {"keys": [
        rsa_jwk(rsa1, "rsa-1"),
        {"kty": "oct", "kid": "shared", "k": b64url(b"a" * 32)},
        {"kty": "OKP", "kid": "ed", "crv": "Ed25519", "x": b64url(b"\x01" * 32)},
        rsa_jwk(rsa2, "rsa-enc", use="enc"),
        rsa_jwk(rsa2, "rsa-oaep", alg="RSA-OAEP-256"),
        {"kty": "EC", "kid": "ec-521", "crv": "P-521", "x": "AA", "y": "AA"},
    ]}
    small_jwks = {"keys": [rsa_jwk(small, "small")]}

    attacker_jwk = rsa_jwk(attacker, "rsa-1")
    embedded_key_headers = {"jwk": attacker_jwk, "jku": "https://evil.example/jwks.json",
                            "x5u": "https://evil.example/cert.pem"}
    rsa_pem = pem(rsa1)

    tokens = {
        "rs256": sign(rsa1, "RS256", "rsa-1"),
        "rs384": sign(rsa1, "RS384", "rsa-1-any"),
        "rs512": sign(rsa1, "RS512", "rsa-1-any"),
        "ps256": sign(rsa1, "PS256", "rsa-1-any"),
        "es256": sign(ec256, "ES256", "ec-256"),
        "es384": sign(ec384, "ES384", "ec-384"),
        "rs256NoKid": sign(rsa_no_kid, "RS256"),
        "rs256NoKidSignedByKidKey": sign(rsa1, "RS256"),
        "rs384WithRS256OnlyKey": sign(rsa1, "RS384", "rsa-1"),
        "rs256RotatedKey": sign(rsa2, "RS256", "rsa-2"),
        "rs256TraversalKid": sign(rsa1, "RS256", "../../dev/null"),
        "rs256UnknownKid": sign(rsa1, "RS256", "rsa-9"),
        "rs256EmbeddedAttackerKey": sign(attacker, "RS256", "rsa-1", embedded_key_headers),
        "rs256EmbeddedKeyHeadersIgnored": sign(rsa1, "RS256", "rsa-1", embedded_key_headers),
        "rs256CRLFClaim": sign(rsa1, "RS256", "rsa-1", claims={**CLAIMS, "role": "admin\r\nX-Admin: 1"}),
        "hs256SignedWithRSAPublicPEM": forged(
            {"alg": "HS256", "typ": "JWT", "kid": "rsa-1"}, CLAIMS,
            lambda data: hmac.new(rsa_pem, data, hashlib.sha256).digest()),
        "es256HeaderWithRSAKid": forged(
            {"alg": "ES256", "kid": "rsa-1"}, CLAIMS,
            lambda data: (lambda der: b"".join(v.to_bytes(32, "big") for v in utils.decode_dss_signature(der)))(
                ec256.sign(data, ec.ECDSA(hashes.SHA256())))),
        "es256DERSignature": forged(
            {"alg": "ES256", "kid": "ec-256"}, CLAIMS,
            lambda data: ec256.sign(data, ec.ECDSA(hashes.SHA256()))),
    }
    rfc_jwks = check_rfc7515_vectors()

    def swift_string(name, value):
        return f'    static let {name} = #"""\n{value}\n"""#\n'

    out = ["// Generated by Fixtures/auth/make_auth_fixtures.py; regenerate rather than edit.",
           "// Keys are throwaway test keys. Tokens carry CLAIMS and are valid at `now`.", "",
           "enum AuthFixtures {",
           f"    static let now: Int64 = {NOW}",
           f"    static let issuer = \"{CLAIMS['iss']}\"",
           f"    static let audience = \"{CLAIMS['aud']}\"",
           f"    static let exp: Int64 = {CLAIMS['exp']}", ""]
    out.append(swift_string("jwks", json.dumps(jwks, indent=2)))
    out.append(swift_string("jwksRotated", json.dumps(rotated, indent=2)))
    out.append(swift_string("jwksWithSkippedKeys", json.dumps(with_skipped, indent=2)))
    out.append(swift_string("jwksSmallRSAKey", json.dumps(small_jwks, indent=2)))
    out.append(swift_string("rsaPublicKeyPEM", rsa_pem.decode().strip()))
    out.append(swift_string("rfc7515JWKS", rfc_jwks))
    out.append(f'    static let rfc7515A1Key = "{RFC7515_A1_KEY}"')
    out.append(f'    static let rfc7515A1 = "{RFC7515_A1}"')
    out.append(f'    static let rfc7515A2 = "{RFC7515_A2}"')
    out.append(f'    static let rfc7515A3 = "{RFC7515_A3}"')
    out.append("    /// exp of the RFC 7515 payload.")
    out.append("    static let rfc7515Exp: Int64 = 1300819380")
    out.append("")
    for name, token in tokens.items():
        out.append(f'    static let {name} = "{token}"')
    out.append("}")
    OUT.write_text("\n".join(out) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
