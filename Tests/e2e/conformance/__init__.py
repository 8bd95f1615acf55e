"""The request conformance table (SPEC §3–§4): raw request bytes against what the client gets
back, whether the connection closes, and what the upstream must have received."""
