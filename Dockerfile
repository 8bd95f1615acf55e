# syntax=docker/dockerfile:1
# Gatehouse: a release binary built with the Swift toolchain, run on a slim Debian image.
#   docker build -t gatehouse .
#   docker run --rm -p 8080:8080 -v "$PWD/my-gatehouse.yaml:/etc/gatehouse/gatehouse.yaml:ro" gatehouse

ARG SWIFT_IMAGE=swift:6.3-bookworm

# MARK: - Build

FROM ${SWIFT_IMAGE} AS build
# Unpinned apt packages (hadolint DL3008), here and in the runtime stage: the image tag fixes the
# Debian release (bookworm), and within it the archive keeps only the current version of each
# package, so a pinned version vanishes with the next security update and the build breaks.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl-dev zlib1g-dev libyaml-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The manifest names every target, tests included, so their directories must be present.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# The Swift runtime and Foundation are linked statically; only the C libraries stay shared.
RUN swift build -c release --product gatehouse --static-swift-stdlib \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/gatehouse" /out/gatehouse

# MARK: - Runtime

FROM debian:bookworm-slim
# The C libraries the binary links against (`make test-smoke` lists them with ldd);
# unpinned for the reason given in the build stage.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 zlib1g libyaml-0-2 ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 gatehouse \
 && useradd --system --uid 10001 --gid gatehouse --no-create-home --shell /usr/sbin/nologin gatehouse
COPY --from=build /out/gatehouse /usr/local/bin/gatehouse
# The example config and the seed operations; relative paths in a config are taken from the
# working directory, so `config/operations` resolves here.
COPY config /srv/gatehouse/config
COPY config/gatehouse.yaml /etc/gatehouse/gatehouse.yaml
WORKDIR /srv/gatehouse
ENV GATEHOUSE_CONFIG=/etc/gatehouse/gatehouse.yaml
USER 10001:10001
# 8080: the gateway; 9901: /healthz /readyz /metrics (set server.admin_listen to "0.0.0.0:9901"
# to reach it from outside the container).
EXPOSE 8080 9901
# SIGTERM drains gracefully; SIGHUP reloads the config file.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/gatehouse"]
CMD ["run"]
