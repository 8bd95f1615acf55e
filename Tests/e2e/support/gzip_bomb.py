"""A gzip "bomb": about 1 MiB of gzip that inflates to 1 GiB of zeros, made streaming with zlib
(never holding the inflated gigabyte) and cached under the pytest base temp directory, so the
session pays the few seconds of compression once.
"""

import zlib
from pathlib import Path

INFLATED_SIZE = 1 << 30
_BLOCK = bytes(1 << 20)


def write_bomb(path: Path, inflated_size: int = INFLATED_SIZE) -> None:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)  # wbits 31: gzip header and trailer
    staging = path.with_suffix(".partial")
    with open(staging, "wb") as out:
        for _ in range(inflated_size // len(_BLOCK)):
            out.write(compressor.compress(_BLOCK))
        out.write(compressor.compress(bytes(inflated_size % len(_BLOCK))))
        out.write(compressor.flush())
    staging.replace(path)


def session_bomb(tmp_path_factory) -> bytes:
    """The bomb's bytes, made on first use in this test session."""
    path = tmp_path_factory.getbasetemp() / "gzip-bomb" / "zeros-1GiB.gz"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_bomb(path)
    return path.read_bytes()
