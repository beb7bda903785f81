# mytaxi: two commands on a fresh Debian machine, as root: `make demo`, `make test`.
SWIFT ?= swift
DEBIAN_PACKAGES = libgeos-dev libproj-dev proj-data pkg-config python3-pip librsvg2-bin \
	libosmium2-dev libprotozero-dev zlib1g-dev libbz2-dev libexpat1-dev libpq-dev curl \
	libjs-leaflet
## The browser the map's test drives (not needed to run the demo).
BROWSER_PACKAGES = chromium chromium-driver
## The throwaway PostgreSQL + PostGIS server of `make test` (Tools/with-postgres.sh).
POSTGRES_PACKAGES = postgresql-15 postgresql-15-postgis-3 libpq-dev
PYTHON_PACKAGES = shapely pytest schemathesis selenium aiosmtpd

.PHONY: demo demo-tour cluster-demo test test-suites bench fuzz build release deps deps-system deps-browser deps-python deps-postgres install-debian clean

## Install what is missing (Debian packages, the test browser, Python test tools).
deps: deps-system deps-browser deps-python

deps-system:
	@$(MAKE) --no-print-directory install-debian PACKAGES="$(DEBIAN_PACKAGES)"

deps-browser:
	@$(MAKE) --no-print-directory install-debian PACKAGES="$(BROWSER_PACKAGES)"

install-debian:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

deps-postgres:
	@$(MAKE) --no-print-directory install-debian PACKAGES="$(POSTGRES_PACKAGES)"

deps-python:
	@python3 -c 'import shapely, pytest, schemathesis, selenium' 2>/dev/null || \
	  python3 -m pip install --quiet --disable-pip-version-check $(PYTHON_PACKAGES) || \
	  python3 -m pip install --quiet --disable-pip-version-check --break-system-packages $(PYTHON_PACKAGES)

build: deps-system
	$(SWIFT) build --product mytaxi

release: deps-system
	$(SWIFT) build -c release --product mytaxi
	$(SWIFT) build -c release --product mytaxi-loadgen
	$(SWIFT) build -c release --product mytaxi-apiload
	$(SWIFT) build -c release --product mytaxi-archivebench

## Run the demo city live: the service on Manhattan's zones and Midtown's roads,
## a simulated fleet and its passengers over the real protocols and API, until Ctrl-C.
demo: deps-system
	$(SWIFT) build -c release --product mytaxi
	./Tools/demo.sh "$$($(SWIFT) build -c release --show-bin-path)"

## The service as it runs in production, on this machine: etcd, PostgreSQL under
## Patroni (primary and synchronous standby), three mytaxi nodes and HAProxy
## (Tools/cluster.sh; `Tools/cluster.sh down` stops it), with the simulator
## against its front doors until Ctrl-C.
cluster-demo: deps-system release
	./Tools/cluster.sh up
	./Tools/cluster.sh demo

## The same, after a short tour of the zone engine, the router and the dispatch engine by command.
demo-tour: deps-system
	$(SWIFT) build -c release --product mytaxi
	./Tools/demo.sh "$$($(SWIFT) build -c release --show-bin-path)" --tour

## Which pass a suite runs in is said by the Swift Testing tags on it
## (Tests/TestSupport/Tags.swift), read from the sources by
## Tools/tagged-suites.py: first every untagged suite in parallel; then the
## suites that wait in real time for asynchronous work (`realTimeWaits`:
## push sockets, a login's timing, the compaction service), apart, because
## the parallel run keeps a 2-core machine's cores busy; last the suites
## that block a thread for a minute on child processes or stop the shared
## PostgreSQL cluster (`longRunningProcesses`), alone. Every suite has a
## time limit, so that a hang names its test.

## Every test: Swift Testing suites (unit, CLI, real data when ../shared/data
## is present), then the Python checks against shapely on the same binary. The
## suites run beside a throwaway PostgreSQL cluster (Tools/with-postgres.sh: a
## temporary directory, a free loopback port, not as root), so every store's
## contract runs on SQLite and on PostgreSQL; it is stopped however they end.
test: deps deps-postgres
	$(SWIFT) build --build-tests
	./Tools/with-postgres.sh $(MAKE) --no-print-directory test-suites

## A crash in a test process prints only the crashed thread's first frames,
## so that the tail of the log (all a CI summary may keep) names where it was.
test-suites: export SWIFT_BACKTRACE = enable=yes,interactive=no,threads=crashed,registers=none,images=none,limit=14,top=0
test-suites:
	real_time="$$(./Tools/tagged-suites.py realTimeWaits)" && processes="$$(./Tools/tagged-suites.py longRunningProcesses)" && \
	  $(SWIFT) test --skip-build --parallel --skip "$$real_time|$$processes" && \
	  $(SWIFT) test --skip-build --filter "$$real_time" && \
	  $(SWIFT) test --skip-build --filter "$$processes"
	MYTAXI_BIN="$$($(SWIFT) build --show-bin-path)/mytaxi" python3 -m pytest -q -rs --durations=8 Tests/python

## Benchmarks (ordo-one/benchmark), release build, figures printed as tables;
## then the end-to-end ingest benchmark over loopback (10,000 devices), memory
## under a flood against a stalled archive, the router on the real NYC
## extracts against RoutingKit's CCH (same run), and the dispatch API under
## push sockets and a burst of ride requests, with wrk beside /healthz; the
## archive's fixes/s through PostgreSQL COPY, INSERT and SQLite in one run;
## compaction of a 50-million-fix SQLite archive (about 30 GB of disk while it
## runs) with a one-day query before and after and ingest meanwhile; and
## zone sets published to the running service under load (hot reload).
bench: deps deps-postgres release
	$(SWIFT) package --allow-writing-to-package-directory benchmark --no-progress
	./Tools/bench-archive.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-compaction.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-ingest.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-backpressure.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-routing.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-api.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-fleet-reads.sh "$$($(SWIFT) build -c release --show-bin-path)"
	./Tools/bench-zone-swap.sh "$$($(SWIFT) build -c release --show-bin-path)"

## Coverage-guided fuzzing of every decoder, the pipeline, zone-set uploads, graph
## files, speed profiles and serve's config file (libFuzzer with AddressSanitizer),
## FUZZ_SECONDS per target; exits 1 on a finding.
FUZZ_SECONDS ?= 60
fuzz: deps-system
	./Tools/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf .build .build-fuzz .fuzz
