"""Fixtures for the end-to-end suite: the gateway binary against real peers.

  graphql_upstream   strawberry on uvicorn (session-wide; tests clear its request log)
  raw_upstream       a scriptable raw-socket upstream (per module; tests `reset()` it)
  gateway_factory    gateways that live for one test
  module_gateways    gateways shared by the tests of one module
  refused_port       a port nothing listens on
  redis_server       a redis-server of one test on a free port (README "Shared state")

Every gateway is stopped with SIGTERM at the end of its scope and must exit 0 in time.
The binary is $GATEHOUSE_BIN, or .build/release/gatehouse.
"""

import pytest

from support.gateway import GatewayFactory
from support.graphql_client import GraphQLUpstream
from support.ports import free_port
from support.raw_upstream import RawUpstream
from support.redis_server import RedisServer


@pytest.fixture(scope="session")
def graphql_upstream(tmp_path_factory):
    upstream = GraphQLUpstream(tmp_path_factory.mktemp("graphql-upstream") / "uvicorn.log")
    yield upstream
    upstream.stop()


@pytest.fixture(scope="module")
def raw_upstream():
    upstream = RawUpstream()
    yield upstream
    upstream.stop()


def _stop_and_check(factory: GatewayFactory) -> None:
    problems = factory.stop_all()
    if problems:
        pytest.fail("gateway did not shut down cleanly:\n" + "\n".join(problems), pytrace=False)


@pytest.fixture
def gateway_factory(tmp_path):
    factory = GatewayFactory(tmp_path)
    yield factory
    _stop_and_check(factory)


@pytest.fixture(scope="module")
def module_gateways(tmp_path_factory, request):
    factory = GatewayFactory(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]))
    yield factory
    _stop_and_check(factory)


@pytest.fixture
def refused_port():
    return free_port()



@pytest.fixture
def redis_server(tmp_path):
    """A redis-server of this test alone, on a free loopback port; killed at the end."""
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()
