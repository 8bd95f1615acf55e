"""Scenarios a run can be made of (`bench.py --scenario NAME`): the standard side-by-side run and
focused comparisons, each starting its own processes in its own directory."""
