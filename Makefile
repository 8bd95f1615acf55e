# Gatehouse — build, test and try it.
#   make deps        system packages and the e2e suite's Python packages (scripts/install-deps.sh)
#   make build       release binary at .build/release/gatehouse
#   make build-static  the same with the Swift runtime linked in (as the Dockerfile builds it),
#                    at .build/static/release/gatehouse
#   make test        deps, unit tests, release build, the SDK end to end, fuzzing, deploy checks,
#                    static build and its smoke run, end-to-end suite (what CI runs)
#   make test-unit   Swift Testing unit tests only
#   make test-e2e    release build, then the pytest suite against it
#   make test-sdk    release build, then `gatehouse sdk swift` end to end (scripts/test-sdk.sh)
#   make test-deploy yamllint, hadolint, every Kubernetes layout rendered and validated,
#                    `gatehouse check` on the shipped configs, the Grafana dashboard
#   make test-smoke  static build: no Swift runtime library needed (ldd), `pytest -m smoke`
#   make demo        the gateway in front of the built-in demo backend
#   make clean       remove build products and test caches

SWIFT  ?= swift
PYTHON ?= python3
E2E    ?= Tests/e2e
PYTEST_FLAGS ?= -q

.PHONY: deps build build-static test test-unit test-e2e test-sdk test-sdk-run test-deploy test-smoke demo clean

# A scratch path of its own, so the static build never replaces the normal release build.
STATIC_SCRATCH = .build/static

deps:
	bash scripts/install-deps.sh

build:
	$(SWIFT) build -c release

build-static:
	$(SWIFT) build -c release --product gatehouse --static-swift-stdlib --scratch-path $(STATIC_SCRATCH)

# Sequential on purpose: the machine has two cores, and each step needs the one before it.
test: deps
	$(SWIFT) test
	$(SWIFT) build -c release
	$(MAKE) test-sdk-run
	$(MAKE) fuzz-quick
	$(MAKE) test-deploy
	$(MAKE) test-smoke
	$(PYTHON) -m pytest $(PYTEST_FLAGS) $(E2E)

test-deploy: build
	PYTHON=$(PYTHON) GATEHOUSE_BIN=$(CURDIR)/.build/release/gatehouse bash scripts/validate-deploy.sh

test-smoke: build-static
	PYTHON=$(PYTHON) bash scripts/smoke-static.sh $(STATIC_SCRATCH)/release/gatehouse

test-unit:
	$(SWIFT) test

test-e2e: build
	$(PYTHON) -m pytest $(PYTEST_FLAGS) $(E2E)

# Generates the demo's Swift client and the Star Wars fixture's, builds them (warnings as errors)
# and runs the demo's against a live gateway; test-sdk-run skips the release build.
test-sdk: build test-sdk-run

test-sdk-run:
	SWIFT=$(SWIFT) PYTHON=$(PYTHON) bash scripts/test-sdk.sh

demo: deps build
	.build/release/gatehouse demo

clean:
	rm -rf .build .swiftpm
	find $(E2E) -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -rf $(E2E)/.pytest_cache .pytest_cache

# ---------------------------------------------------------------------------------------------
# Benchmarks (Benchmarks/README.md): Gatehouse side by side with nginx and haproxy.
#   make bench        the full run, about 24 minutes; writes Benchmarks/RESULTS.md
#   make bench-quick  under 2 minutes, for checking a change; prints only
#   make bench-instructions  user-space instructions per request under callgrind, Gatehouse's
#                     and its peers', about 5 minutes: the count that does not move with the
#                     machine's noise
#   make bench-profile  where each proxy's CPU goes (user space, reads, writes, the kernel's
#                     loopback work for the peers) and the req/s ceiling that leaves, from
#                     perf record; about 7 minutes, as root
# They build the release binary first, unless GATEHOUSE_BIN names a binary to use instead
# (make bench-quick GATEHOUSE_BIN=/path/to/gatehouse). BENCH_FLAGS passes more options to
# Benchmarks/bench.py (python3 Benchmarks/bench.py --help).

BENCH_FLAGS ?=
BENCH_BINARY = $(if $(GATEHOUSE_BIN),,build)

.PHONY: bench bench-quick bench-instructions bench-profile

bench: $(BENCH_BINARY)
	$(PYTHON) Benchmarks/bench.py $(BENCH_FLAGS)

bench-quick: $(BENCH_BINARY)
	$(PYTHON) Benchmarks/bench.py --quick $(BENCH_FLAGS)

bench-instructions: $(BENCH_BINARY)
	$(PYTHON) Benchmarks/bench.py --scenario instructions $(BENCH_FLAGS)

bench-profile: $(BENCH_BINARY)
	$(PYTHON) Benchmarks/bench.py --scenario profile $(BENCH_FLAGS)

# --- Hardening: fuzzing, sanitizers, soak --------------------------------------------------------
#   make fuzz-quick     every libFuzzer target ~18 s from its seed corpus (part of a full test run)
#   make fuzz           every target FUZZ_SECONDS (default 300 s)
#   make test-sanitize  debug builds with AddressSanitizer and ThreadSanitizer, the e2e suite on each
#   make soak           10 minutes of mixed traffic; RSS, descriptors and every answer checked
# Fuzz builds go to FUZZ_OUT; crashes land in $(FUZZ_OUT)/crashes (see fuzz/run.sh).

FUZZ_OUT      ?= .build/fuzz
FUZZ_SECONDS  ?= 300
SOAK_SECONDS  ?= 600
SANITIZE_PYTEST_FLAGS ?= -q -p no:cacheprovider

.PHONY: fuzz fuzz-quick fuzz-build test-sanitize test-asan test-tsan soak

fuzz-build:
	FUZZ_OUT=$(FUZZ_OUT) bash fuzz/build.sh

fuzz-quick: fuzz-build
	FUZZ_OUT=$(FUZZ_OUT) bash fuzz/run.sh 18

fuzz: fuzz-build
	FUZZ_OUT=$(FUZZ_OUT) bash fuzz/run.sh $(FUZZ_SECONDS)

# A report makes the gateway exit non-zero, which the suite sees at its SIGTERM check. ASan's
# quarantine is kept small so that the suite's memory bounds (gzip bombs) still hold; the bounds
# on resident memory itself skip (Tests/e2e/support/process_memory.py). The leak suppressions
# (scripts/lsan-suppressions.txt) each say why.
test-asan:
	$(SWIFT) build -c debug -Xswiftc -sanitize=address --scratch-path .build/asan
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=8:thread_local_quarantine_size_kb=64 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan-suppressions.txt \
		GATEHOUSE_BIN=$(CURDIR)/.build/asan/debug/gatehouse \
		$(PYTHON) -m pytest $(SANITIZE_PYTEST_FLAGS) $(E2E)

# GATEHOUSE_TSAN: the standard library's Mutex takes a contended lock in the kernel, where TSan
# cannot see it; GatehouseIO's Locked then tells TSan about each critical section itself.
test-tsan:
	$(SWIFT) build -c debug -Xswiftc -sanitize=thread -Xswiftc -DGATEHOUSE_TSAN --scratch-path .build/tsan
	TSAN_OPTIONS=halt_on_error=1:exitcode=66 GATEHOUSE_BIN=$(CURDIR)/.build/tsan/debug/gatehouse \
		$(PYTHON) -m pytest $(SANITIZE_PYTEST_FLAGS) $(E2E)

test-sanitize: test-asan test-tsan

soak: build
	GATEHOUSE_BIN=$${GATEHOUSE_BIN:-$(CURDIR)/.build/release/gatehouse} $(PYTHON) scripts/soak.py --duration $(SOAK_SECONDS)
