"""The client-address rows from a trusted proxy: the conformance gateway with
`trusted_proxies: ["127.0.0.1/32"]`, so the test client is the proxy whose claims are kept
(except `Proxy`, which nobody may send). Every row runs whole and byte by byte."""

import pytest

from .cases_client_headers import TRUSTED_CASES
from .runner import play
from .test_conformance import conformance_config

_ids = [case.id for case in TRUSTED_CASES]
assert len(_ids) == len(set(_ids)), sorted({i for i in _ids if _ids.count(i) > 1})


@pytest.fixture(scope="module")
def trusted_gateway(module_gateways, raw_upstream):
    def config(port, admin):
        built = conformance_config(port, admin, raw_upstream.url)
        built["server"]["trusted_proxies"] = ["127.0.0.1/32"]
        return built
    return module_gateways.start(config)


@pytest.mark.parametrize("case, byte_by_byte", [
    pytest.param(case, bytewise, id=f"{case.id}-{'bytewise' if bytewise else 'whole'}")
    for case in TRUSTED_CASES for bytewise in (False, True)])
def test_conformance_from_trusted_proxy(trusted_gateway, raw_upstream, case, byte_by_byte):
    play(trusted_gateway.port, raw_upstream, case, byte_by_byte)
