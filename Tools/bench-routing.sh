#!/bin/sh
# Router benchmarks on the real extracts, with RoutingKit's CCH (PyPI
# routingkit-cch) measured in the same run on the same graph and node pairs.
# Usage: Tools/bench-routing.sh RELEASE_BIN_DIR   (needs ../shared/data)
set -eu
BIN="$1"
DATA="$(dirname "$0")/../../shared/data/nyc"
[ -d "$DATA" ] || { echo "bench-routing: $DATA is absent, skipped"; exit 0; }
python3 -c 'import routingkit_cch' 2>/dev/null || python3 -m pip install --quiet routingkit-cch \
  || python3 -m pip install --quiet --break-system-packages routingkit-cch
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

for city in manhattan lower_manhattan_brooklyn; do
  echo "== graph build $city (car): build time and peak memory"
  /usr/bin/time -f "peak memory: %M KB" "$BIN/mytaxi" graph build "$DATA/$city.osm.pbf" -o "$WORK/$city.graph" \
    --time-zone America/New_York 2>&1 | grep -E "^(nodes|edges|dropped|build time|file|peak memory)"
  "$BIN/mytaxi" graph info "$WORK/$city.graph" | grep "load time"
done

for city in manhattan lower_manhattan_brooklyn; do
  echo "== RoutingKit CCH (reference, same run) on $city: p2p and pinned one-to-many, microseconds"
  python3 "$(dirname "$0")/routingkit-peer.py" "$WORK/$city.graph" --pairs "$WORK/$city.pairs"
  echo "== mytaxi CCH on $city, same pairs"
  MYTAXI_BENCH_GRAPH="$WORK/$city.graph" MYTAXI_BENCH_PAIRS="$WORK/$city.pairs" MYTAXI_BENCH_ONLY_GRAPH=1 \
    swift package --allow-writing-to-package-directory benchmark --target RoutingBenchmarks --no-progress \
    --format markdown 2>&1 | grep -E "^#|^\| (Time|Throughput)|p50" || true
done
