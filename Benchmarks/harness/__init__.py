"""The benchmark harness behind Benchmarks/bench.py: peers, load, measurements and the report."""
