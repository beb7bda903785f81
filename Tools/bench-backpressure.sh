#!/usr/bin/env bash
# Memory under a flood against a stalled archive: `mytaxi serve` on the demo
# city and `mytaxi-loadgen` with 10,000 line-protocol devices offering
# 100,000 fixes/s (10 per write, as buffered terminals send). Halfway, a
# second process holds the archive journal's write lock for STALL seconds
# (as a disk that stops answering would), so no commit completes. Samples
# the server's resident memory and its archive queue every half second:
# with backpressure both level off (the listeners stop reading) instead of
# growing with the flood; when the lock goes, the queue drains and the ACKs
# resume. Needs python3 (its sqlite3 module takes the lock).
# Usage: Tools/bench-backpressure.sh BIN_DIR [DEVICES] [SECONDS] [STALL]
set -euo pipefail
bin=${1:?usage: Tools/bench-backpressure.sh BIN_DIR [DEVICES] [SECONDS] [STALL]}
devices=${2:-10000}
seconds=${3:-30}
stall=${4:-8}
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$bin/mytaxi-loadgen" --devices "$devices" --write-devices "$work/devices.csv" >/dev/null
"$bin/mytaxi" graph build Maps/manhattan-midtown.osm.pbf -o "$work/midtown.graph" --time-zone America/New_York >/dev/null 2>&1
"$bin/mytaxi" serve --zones Zones/manhattan/zones.geojson --devices "$work/devices.csv" --data-dir "$work/data" \
  --graph "$work/midtown.graph" \
  --http-port 0 --line-port 0 --nmea-port off --osmand-port off --teltonika-port off --gt06-port off \
  >"$work/listening" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 100); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
metrics="http://127.0.0.1:$(port_of http)/metrics"
metric() { curl -s "$metrics" | awk -v m="$1" '$1 == m { printf "%d", $2 }'; }

"$bin/mytaxi-loadgen" --devices "$devices" --count 100000000 --duration "$seconds" --drain-seconds 15 \
  --bbox=-74.00,40.74,-73.97,40.77 --metrics-url "$metrics" --port "$(port_of line/tcp)" \
  --rate 10 --records-per-packet 10 >"$work/load.txt" &
load=$!
(
  sleep $(( seconds / 2 - stall / 2 ))
  python3 - "$work/data/fixes-journal.sqlite" "$stall" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print(f"journal write lock held for {sys.argv[2]} s", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
print("journal write lock released", flush=True)
PY
) &
stall_pid=$!
printf '%6s %8s %12s %14s %12s\n' "t (s)" "RSS MB" "queue fixes" "reads paused" "acked fixes"
peak=0
for i in $(seq 0 $(( seconds * 2 + 20 ))); do
  kill -0 "$load" 2>/dev/null || break
  rss=$(( $(ps -o rss= -p "$serve_pid") / 1024 ))
  (( rss > peak )) && peak=$rss
  printf '%6s %8d %12s %14s %12s\n' "$(awk -v i="$i" 'BEGIN { printf "%.1f", i / 2 }')" "$rss" "$(metric mytaxi_archive_queue_fixes)" \
    "$(curl -s "$metrics" | awk '$1 ~ /^mytaxi_ingest_reads_paused_total/ { s += $2 } END { printf "%d", s }')" \
    "$(metric mytaxi_fixes_archived_total)"
  sleep 0.5
done
wait "$load" "$stall_pid" || true
printf '\npeak server RSS: %d MB\n' "$peak"
cat "$work/load.txt"
curl -s "$metrics" | grep -E '^mytaxi_(fixes_archived_total|archive_failures_total)'
