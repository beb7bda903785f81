#!/bin/sh
# Router benchmarks, with RoutingKit's CCH (PyPI routingkit-cch) measured in
# the same run on the same graph and node pairs: synthetic cities of
# `mytaxi graph build --synthetic-nodes` (100k, 300k and 1M nodes; no data
# needed; BENCH_SYNTHETIC_NODES="N ..." picks others), then the real
# extracts of ../shared/data (skipped when it is absent).
# Usage: Tools/bench-routing.sh RELEASE_BIN_DIR
set -eu
BIN="$1"
TOOLS="$(dirname "$0")"
DATA="$TOOLS/../../shared/data/nyc"
python3 -c 'import routingkit_cch' 2>/dev/null || python3 -m pip install --quiet routingkit-cch \
  || python3 -m pip install --quiet --break-system-packages routingkit-cch
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# build NAME ARGS...: builds $WORK/NAME.graph, printing build time, peak memory, file size and load time.
build() {
  name="$1"; shift
  echo "== graph build $name: build time and peak memory"
  /usr/bin/time -f "peak memory: %M KB" "$BIN/mytaxi" graph build "$@" -o "$WORK/$name.graph" 2>&1 \
    | grep -E "^(nodes|edges|dropped|build time|file|peak memory)"
  "$BIN/mytaxi" graph info "$WORK/$name.graph" | grep "load time"
}

# compare NAME: RoutingKit, then mytaxi, on $WORK/NAME.graph with the same node pairs.
compare() {
  echo "== RoutingKit CCH (reference, same run) on $1: p2p and pinned one-to-many, microseconds"
  python3 "$TOOLS/routingkit-peer.py" "$WORK/$1.graph" --pairs "$WORK/$1.pairs"
  echo "== mytaxi CCH on $1, same pairs"
  MYTAXI_BENCH_GRAPH="$WORK/$1.graph" MYTAXI_BENCH_PAIRS="$WORK/$1.pairs" MYTAXI_BENCH_ONLY_GRAPH=1 \
    swift package --allow-writing-to-package-directory benchmark --target RoutingBenchmarks --no-progress \
    --format markdown 2>&1 | grep -E "^#|^\| (Time|Throughput)|p50" || true
}

for nodes in ${BENCH_SYNTHETIC_NODES:-100000 300000 1000000}; do
  build "synthetic-$nodes" --synthetic-nodes "$nodes" --time-zone Europe/Berlin
  compare "synthetic-$nodes"
  rm -f "$WORK/synthetic-$nodes.graph"
done

[ -d "$DATA" ] || { echo "bench-routing: $DATA is absent, real extracts skipped"; exit 0; }
for city in manhattan lower_manhattan_brooklyn; do
  build "$city" "$DATA/$city.osm.pbf" --time-zone America/New_York
  compare "$city"
done
