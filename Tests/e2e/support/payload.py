"""Deterministic payloads, shared by the upstream that serves them and the tests that check them."""

import hashlib

# 251 is prime, so the pattern never lines up with power-of-two buffer sizes.
_PATTERN = bytes((i * 37 + 11) % 256 for i in range(251))


def deterministic_bytes(size: int) -> bytes:
    repeats = size // len(_PATTERN) + 1
    return (_PATTERN * repeats)[:size]


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
