#!/usr/bin/env bash
# Hot reload of zones under load (SPEC Z4), release binaries: `mytaxi serve`
# on the 263 NYC taxi zones of ../shared/data/nyc with 10,000 devices of
# `mytaxi-loadgen` (line protocol over TCP, 4 fixes in flight each, all in
# Midtown). First the time from `mytaxi zones publish` to the set in force,
# alternating the NYC zones and a 2.5 km grid over them (so that every taxi
# changes zone at each swap), as the tool measures it and as the service
# logs its switch; then the acknowledged fixes/s of runs with a publish
# every 2 s against runs without, alternating, in the same run.
# Usage: Tools/bench-zone-swap.sh BIN_DIR [SECONDS] [ROUNDS]
set -euo pipefail
bin=${1:?usage: Tools/bench-zone-swap.sh BIN_DIR [SECONDS] [ROUNDS]}
seconds=${2:-15}
rounds=${3:-2}
nyc=../shared/data/nyc/taxi_zones.geojson
[ -f "$nyc" ] || { echo "skipped: $nyc is absent (../shared/data, see its README)"; exit 0; }
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# The published zone files carry their ids and names as the API reads them (feature id, properties.name).
python3 - "$nyc" "$work/nyc.geojson" <<'PY'
import json, sys
collection = json.load(open(sys.argv[1]))
for feature in collection["features"]:
    feature["id"] = str(feature["properties"]["LocationID"])
    feature["properties"]["name"] = feature["properties"]["zone"]
json.dump(collection, open(sys.argv[2], "w"))
PY
"$bin/mytaxi" zones grid --boundary "$work/nyc.geojson" --cell 2500 -o "$work/grid.geojson" 2>/dev/null
"$bin/mytaxi-loadgen" --devices 10000 --write-devices "$work/devices.csv" >/dev/null
"$bin/mytaxi" graph build Maps/manhattan-midtown.osm.pbf -o "$work/midtown.graph" --time-zone America/New_York >/dev/null 2>&1
password=bench-pass-1
echo "$password" | "$bin/mytaxi" accounts create --data-dir "$work/data" --role administrator --username admin --password-stdin >/dev/null
"$bin/mytaxi" serve --zones "$work/nyc.geojson" --devices "$work/devices.csv" --data-dir "$work/data" --graph "$work/midtown.graph" \
  --http-port 0 --line-port 0 --nmea-port off --osmand-port off --teltonika-port off --gt06-port off \
  >"$work/listening" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 300); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
api="http://127.0.0.1:$(port_of http)"
token=$(curl -sf "$api/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"username\": \"admin\", \"password\": \"$password\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
publish() { printf '%s\n' "$token" | "$bin/mytaxi" zones publish "$1" --to "$api" --token-stdin >/dev/null 2>&1; }
milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }

# Taxis in the index, so that a swap has every one of them to re-zone.
"$bin/mytaxi-loadgen" --port "$(port_of line/tcp)" --devices 10000 --window 1 --count 10000 --duration 10 \
  --bbox=-74.00,40.74,-73.97,40.77 >/dev/null
echo "== publish to active: 263 NYC zones and a 190-cell grid, alternating, 10,000 taxis in the index"
for i in 1 2 3 4 5 6; do
  file=$work/nyc.geojson; [ $(( i % 2 )) = 1 ] && file=$work/grid.geojson
  start=$(milliseconds)
  publish "$file"
  printf '%-12s publish to active %5d ms\n' "$(basename "$file")" $(( $(milliseconds) - start ))
done
grep -o 'zones: [0-9]* zones in force.*' "$work/serve.log" | sed 's/^/  service: /'

load() {
  "$bin/mytaxi-loadgen" --port "$(port_of line/tcp)" --devices 10000 --window 4 --count 100000000 --duration "$seconds" \
    --drain-seconds 10 --bbox=-74.00,40.74,-73.97,40.77 | grep -E 'throughput|lost|ACK latency'
}
for round in $(seq "$rounds"); do
  printf '\n== round %d: ingest without swaps, %d s\n' "$round" "$seconds"
  load
  printf '== round %d: ingest with a publish every 2 s, %d s\n' "$round" "$seconds"
  load &
  loader=$!
  swaps=0
  while kill -0 "$loader" 2>/dev/null && [ $swaps -lt $(( seconds / 2 )) ]; do
    sleep 2
    file=$work/nyc.geojson; [ $(( swaps % 2 )) = 0 ] && file=$work/grid.geojson
    publish "$file" && swaps=$(( swaps + 1 ))
  done
  wait "$loader"
  echo "($swaps publishes during the run)"
done
