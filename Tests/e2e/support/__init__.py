"""Helpers for the Gatehouse end-to-end suite: ports, config files, the gateway process,
raw HTTP clients, and the upstreams the gateway forwards to."""
