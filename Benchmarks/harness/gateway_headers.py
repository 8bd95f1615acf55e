"""The standard run's second nginx: one that does Gatehouse's per-request header work.

Gatehouse, on every route (README, "How a request is handled", steps 5 and 7), sends the
client's address and scheme upstream (X-Forwarded-For, X-Forwarded-Proto) and a fresh request
id both upstream and back to the client (X-Request-Id). The plain nginx peer does none of that,
so the goals, judged against it, compare unequal work. The `nginx+headers` target is the same
nginx told to do that work in the directives its users write for it; its ratios are shown next
to the plain ones and judge no goal. Gatehouse's W3C traceparent has no built-in counterpart in
nginx, so even this peer does a little less than Gatehouse.
"""

# The target's name in the tables and ratios.
TARGET = "nginx+headers"

# Fills conf/proxy-nginx.conf's {{NGINX_GATEWAY_HEADERS}} for the nginx+headers target.
NGINX_LOCATION = """\
            # Gatehouse's per-request headers (Benchmarks/harness/gateway_headers.py).
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Request-Id $request_id;
            add_header X-Request-Id $request_id always;"""

# The plain nginx peer.
PLAIN = "            # Plain peer: the injected header only."


def nginx_location(with_headers: bool) -> dict[str, str]:
    """The placeholder conf/proxy-nginx.conf leaves for these headers."""
    return {"NGINX_GATEWAY_HEADERS": NGINX_LOCATION if with_headers else PLAIN}
