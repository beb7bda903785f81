# Sourced by the API benchmarks (Tools/bench-api.sh, Tools/bench-fleet-reads.sh):
# a release `mytaxi serve` on the demo city (Midtown graph, Manhattan zones,
# an administrator `admin`), with 10,000 taxis streaming fixes from
# `mytaxi-loadgen` (line protocol, one fix per taxi every 2 s) inside BBOX.
# Sets `work` (a temporary directory, removed on exit with every process
# started), `password` (the administrator's) and `http` (the API's port);
# `port_of LISTENER` gives any listener's port.
# Usage: source Tools/streaming-city.sh; start_streaming_city BIN_DIR BBOX [SERVE_OPTION...]
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
password=bench-pass-1
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }

start_streaming_city() {
  local bin=$1 bbox=$2
  shift 2
  "$bin/mytaxi-loadgen" --devices 10000 --write-devices "$work/devices.csv" >/dev/null
  "$bin/mytaxi" graph build Maps/manhattan-midtown.osm.pbf -o "$work/midtown.graph" --time-zone America/New_York \
    --zones Zones/manhattan/zones.geojson >/dev/null 2>&1
  echo "$password" | "$bin/mytaxi" accounts create --data-dir "$work/data" --role administrator --username admin \
    --password-stdin >/dev/null
  "$bin/mytaxi" serve --zones Zones/manhattan/zones.geojson --devices "$work/devices.csv" --data-dir "$work/data" \
    --graph "$work/midtown.graph" --http-port 0 --line-port 0 --nmea-port off --osmand-port off --teltonika-port off \
    --gt06-port off "$@" >"$work/listening" 2>"$work/serve.log" &
  pids+=($!)
  for _ in $(seq 300); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
  http=$(port_of http)
  "$bin/mytaxi-loadgen" --port "$(port_of line/tcp)" --devices 10000 --rate 0.5 --count 100000000 --duration 600 \
    --bbox="$bbox" >"$work/loadgen.log" 2>&1 &
  pids+=($!)
}
