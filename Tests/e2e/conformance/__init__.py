"""The request conformance table (README, "How a request is handled" and "The error envelope"): raw request bytes against what the client gets
back, whether the connection closes, and what the upstream must have received."""
