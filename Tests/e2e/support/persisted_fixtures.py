"""The fixtures the persisted-operation suites share: a recording strawberry upstream, a gateway
holding the operations written by persisted_setup, and an httpx client that starts each test
with an empty request record. Test modules import them by name, so each module gets its own."""

import httpx
import pytest

from .movies_client import MoviesUpstream
from .persisted_setup import persisted_config, write_operations


@pytest.fixture(scope="module")
def movies(tmp_path_factory):
    upstream = MoviesUpstream(tmp_path_factory.mktemp("movies-upstream") / "uvicorn.log")
    yield upstream
    upstream.stop()


@pytest.fixture(scope="module")
def gateway(module_gateways, movies, tmp_path_factory):
    operations = write_operations(tmp_path_factory.mktemp("persisted-ops") / "operations")
    return module_gateways.start(persisted_config(movies.url, operations))


@pytest.fixture
def client(gateway, movies):
    movies.clear()
    with httpx.Client(base_url=gateway.url, timeout=5) as http:
        yield http
