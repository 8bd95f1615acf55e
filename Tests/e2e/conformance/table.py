"""The whole conformance table: every row of every category, with unique ids, each carrying
how nginx 1.22 and haproxy 2.6 differ on it (differences.py) in its note."""

from dataclasses import replace

from . import cases_forwarding, cases_framing, cases_headers, cases_paths, cases_pipelining
from . import cases_client_headers, cases_encoded_separators, cases_request_line
from .differences import DIFFERENCES


def _with_difference(case):
    if case.id not in DIFFERENCES:
        return case
    observed, why = DIFFERENCES[case.id]
    own = case.note + " " if case.note else ""
    return replace(case, note=f"{own}{observed} {why}")


_ROWS = (cases_framing.CASES + cases_request_line.CASES + cases_headers.CASES + cases_paths.CASES
         + cases_encoded_separators.CASES + cases_forwarding.CASES + cases_client_headers.CASES
         + cases_pipelining.CASES)
CASES = [_with_difference(case) for case in _ROWS]

_ids = [case.id for case in CASES]
assert len(_ids) == len(set(_ids)), sorted({i for i in _ids if _ids.count(i) > 1})
assert set(DIFFERENCES) <= set(_ids), sorted(set(DIFFERENCES) - set(_ids))
