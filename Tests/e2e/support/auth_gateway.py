"""The keys, JWK Set and gateway config the auth suites share (README, "Configuration" `auth`, "How a request is handled").

Providers:
  user-jwt     RS256/384/512, PS256, ES256, ES384 from a JWK Set file; issuer, audience,
               30 s leeway, X-User-Id from sub
  shared-jwt   HS256/384/512 with a 40-byte secret, audience "gatehouse-tests", no leeway
  app-keys     two API keys in X-Api-Key
  custom-keys  one API key in X-App-Token
Routes, all to the raw upstream: /jwt, /hs, /either ([user-jwt, app-keys]), /keys, /custom-keys.
"""

from cryptography.hazmat.primitives.asymmetric import ec

from .gateway import base_config
from .jwt_keys import ec_key, rsa_key, write_jwk_set

ISSUER = "https://auth.example.test/"
AUDIENCES = ["ios-app", "web-app"]
LEEWAY_SECONDS = 30
HMAC_SECRET = b"hs-secret-for-tests-0123456789abcdefghij"  # 40 bytes
HMAC_AUDIENCE = "gatehouse-tests"
API_KEYS = ["ios-key-8c1f2e9d7a", "web-key-3b6a0d4f21"]
CUSTOM_KEY = "custom-key-5e7d9c1b0a"
ASYMMETRIC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384"]
HMAC_ALGORITHMS = ["HS256", "HS384", "HS512"]


class AuthKeys:
    """Keys made once per module: two RSA keys with kids, one RSA key without, two EC keys."""

    def __init__(self, directory):
        self.rsa = rsa_key("rsa-1")
        self.rsa_second = rsa_key("rsa-2")
        self.rsa_without_kid = rsa_key(None)
        self.ec256 = ec_key(ec.SECP256R1(), "ec-256")
        self.ec384 = ec_key(ec.SECP384R1(), "ec-384")
        self.jwks_path = write_jwk_set(directory / "jwks.json", self.rsa, self.rsa_second,
                                       self.rsa_without_kid, self.ec256, self.ec384)
        # A key the JWK Set does not hold, for tokens that claim a published kid.
        self.stranger = rsa_key("rsa-1")

    def for_algorithm(self, algorithm: str):
        if algorithm.startswith("ES256"):
            return self.ec256
        if algorithm.startswith("ES384"):
            return self.ec384
        return self.rsa


def user_claims_defaults() -> dict:
    return {"iss": ISSUER, "aud": AUDIENCES[0]}


def auth_config(keys: AuthKeys, upstream_url: str, **server_overrides):
    """`config_for_ports` for a gateway with every provider and route above."""

    def config(port, admin):
        document = base_config(
            port, admin,
            upstreams={"raw": {"url": f"{upstream_url}/graphql", "timeout": "3s"}},
            routes=[
                {"path": "/jwt", "upstream": "raw", "auth": "user-jwt"},
                {"path": "/hs", "upstream": "raw", "auth": "shared-jwt"},
                {"path": "/either", "upstream": "raw", "auth": ["user-jwt", "app-keys"]},
                {"path": "/keys", "upstream": "raw", "auth": "app-keys"},
                {"path": "/custom-keys", "upstream": "raw", "auth": "custom-keys"},
            ],
            **server_overrides)
        document["auth"] = {
            "user-jwt": {
                "type": "jwt",
                "algorithms": ASYMMETRIC_ALGORITHMS,
                "jwks_file": keys.jwks_path,
                "issuer": ISSUER,
                "audience": AUDIENCES,
                "leeway": f"{LEEWAY_SECONDS}s",
                "claims_to_headers": {"X-User-Id": "sub"},
            },
            "shared-jwt": {
                "type": "jwt",
                "algorithms": HMAC_ALGORITHMS,
                "secret": HMAC_SECRET.decode(),
                "audience": HMAC_AUDIENCE,
            },
            "app-keys": {"type": "api_key", "header": "X-Api-Key", "keys": API_KEYS},
            "custom-keys": {"type": "api_key", "header": "X-App-Token", "keys": [CUSTOM_KEY]},
        }
        return document

    return config
