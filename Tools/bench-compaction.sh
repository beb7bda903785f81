#!/usr/bin/env bash
# Compaction of a large SQLite archive, on a release build:
# 1. fills WORK/archive with FIXES fixes of 10,000 taxis (one each every
#    30 s of fix time, ending two hours ago) and copies it to WORK/served;
# 2. `mytaxi-archivebench compaction --compact` on WORK/archive: one taxi's
#    one-day query before and after, the compaction's steps and time, and
#    the journal mover's moves before and during compaction while 20,000
#    fixes/s are appended;
# 3. `mytaxi serve` on WORK/served, first with compaction off, then on (it
#    starts at once, everything filled being older than an hour), each time
#    the loopback ingest runs of Tools/bench-ingest.sh's kind (line protocol
#    over TCP, 10,000 devices): as fast as ACKs allow, and 40,000 fixes/s
#    offered; then the compaction's metrics.
# WORK (default: a temporary directory, removed at the end; a given one is
# kept) needs about 280 bytes of disk per fix, twice.
# Usage: Tools/bench-compaction.sh BIN_DIR [WORK] [FIXES] [SECONDS]
set -euo pipefail
bin=${1:?usage: Tools/bench-compaction.sh BIN_DIR [WORK] [FIXES] [SECONDS]}
work=${2:-}
fixes=${3:-50000000}
seconds=${4:-20}
devices=10000
remove_work=
if [ -z "$work" ]; then work=$(mktemp -d); remove_work=yes; fi
mkdir -p "$work"
serve_pid=
cleanup() {
  [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null
  wait 2>/dev/null || true
  [ -n "$remove_work" ] && rm -rf "$work"
}
trap cleanup EXIT

printf '== fill\n'
"$bin/mytaxi-archivebench" compaction --data-dir "$work/archive" --fill "$fixes" --queries 1 | tee "$work/fill.txt"
day=$(awk '/^one-day window/ { print $3 }' "$work/fill.txt")
cp -r "$work/archive" "$work/served"

printf '\n== compaction in mytaxi-archivebench\n'
"$bin/mytaxi-archivebench" compaction --data-dir "$work/archive" --day-start "$day" --compact

"$bin/mytaxi-loadgen" --devices "$devices" --write-devices "$work/devices.csv" >/dev/null
"$bin/mytaxi" graph build Maps/manhattan-midtown.osm.pbf -o "$work/midtown.graph" --time-zone America/New_York >/dev/null 2>&1
serve() {
  "$bin/mytaxi" serve --zones Zones/manhattan/zones.geojson --devices "$work/devices.csv" --data-dir "$work/served" \
    --graph "$work/midtown.graph" --http-port 0 --line-port 0 --nmea-port off --osmand-port off \
    --teltonika-port off --gt06-port off --compact-after-hours "$1" >"$work/listening" 2>"$work/serve-$1.log" &
  serve_pid=$!
  for _ in $(seq 600); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
}
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
runs() {
  local metrics="http://127.0.0.1:$(port_of http)/metrics"
  printf '\n== %s: line TCP, %s devices, 4 fixes in flight each (throughput)\n' "$1" "$devices"
  "$bin/mytaxi-loadgen" --devices "$devices" --count 100000000 --duration "$seconds" --drain-seconds 10 \
    --bbox=-74.00,40.74,-73.97,40.77 --metrics-url "$metrics" --port "$(port_of line/tcp)" --window 4
  printf '\n== %s: line TCP, %s devices, 4 fixes/s each = %s fixes/s offered (latency)\n' "$1" "$devices" $(( devices * 4 ))
  "$bin/mytaxi-loadgen" --devices "$devices" --count 100000000 --duration "$seconds" --drain-seconds 10 \
    --bbox=-74.00,40.74,-73.97,40.77 --metrics-url "$metrics" --port "$(port_of line/tcp)" --rate 4
  printf '\n== %s: metrics\n' "$1"
  curl -s "$metrics" | grep -E '^mytaxi_archive_(segments|compactions_total|compacted_fixes_total|compaction_seconds|move_seconds)' \
    | grep -E 'segments|total|quantile="0.(5|99)"|_sum|_count' || true
}
serve 0
runs "compaction off"
kill "$serve_pid"; wait "$serve_pid" || true
serve 1
runs "compaction running"
kill "$serve_pid"; wait "$serve_pid" || true
serve_pid=
grep 'archive compaction' "$work/serve-1.log" || true
