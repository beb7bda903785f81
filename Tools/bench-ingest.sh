#!/usr/bin/env bash
# End-to-end ingest benchmark over loopback: `mytaxi serve` on the demo city
# and `mytaxi-loadgen` with 10,000 devices speaking the line protocol (or
# PROTOCOL: nmea, gt06, teltonika), over TCP then UDP where the protocol has
# it. Per transport: one run as fast as ACKs allow (throughput), then fixed
# offered rates of 10, 4 and 2 fixes/s per device (100,000, 40,000 and
# 20,000 fixes/s with 10,000 devices: ACK latency, open loop; for line and
# Teltonika also 10 fixes per write or datagram, as terminals sending what
# they buffered). Prints the load generator's reports and the server's
# resident memory with 10,000 devices connected.
# Usage: Tools/bench-ingest.sh BIN_DIR [DEVICES] [SECONDS] [PROTOCOL]
set -euo pipefail
bin=${1:?usage: Tools/bench-ingest.sh BIN_DIR [DEVICES] [SECONDS] [PROTOCOL]}
devices=${2:-10000}
seconds=${3:-20}
protocol=${4:-line}
case $protocol in
  line) tcp=line/tcp udp=line/udp ;;
  teltonika) tcp=teltonika/tcp udp=teltonika-udp/udp ;;
  nmea|gt06) tcp=$protocol/tcp udp= ;;
  *) echo "unknown protocol $protocol (line, nmea, gt06, teltonika)" >&2; exit 2 ;;
esac
port_flag() { if [ "$1" = "$protocol" ]; then echo 0; else echo off; fi; }
work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

"$bin/mytaxi-loadgen" --protocol "$protocol" --devices "$devices" --write-devices "$work/devices.csv" >/dev/null
"$bin/mytaxi" graph build Maps/manhattan-midtown.osm.pbf -o "$work/midtown.graph" --time-zone America/New_York >/dev/null 2>&1
"$bin/mytaxi" serve --zones Zones/manhattan/zones.geojson --devices "$work/devices.csv" --data-dir "$work/data" \
  --graph "$work/midtown.graph" \
  --http-port 0 --line-port "$(port_flag line)" --nmea-port "$(port_flag nmea)" --osmand-port off \
  --teltonika-port "$(port_flag teltonika)" --gt06-port "$(port_flag gt06)" \
  >"$work/listening" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 100); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
metrics="http://127.0.0.1:$(port_of http)/metrics"
run() {
  printf '\n== %s\n' "$1"
  shift
  "$bin/mytaxi-loadgen" --protocol "$protocol" --devices "$devices" --count 100000000 --duration "$seconds" --drain-seconds 10 \
    --bbox=-74.00,40.74,-73.97,40.77 --metrics-url "$metrics" "$@" &
  local load=$!
  sleep $(( seconds / 2 ))
  printf 'server RSS with %s devices connected: %s MB\n' "$devices" "$(( $(ps -o rss= -p "$serve_pid") / 1024 ))"
  wait "$load"
}
run "$protocol TCP, $devices devices, 4 fixes in flight each (throughput)" --port "$(port_of "$tcp")" --window 4
for rate in 10 4 2; do
  run "$protocol TCP, $devices devices, $rate fixes/s each = $(( devices * rate )) fixes/s offered (latency)" --port "$(port_of "$tcp")" --rate "$rate"
done
if [ "$protocol" = line ] || [ "$protocol" = teltonika ]; then
  run "$protocol TCP, $devices devices, 10 fixes/s each in one write per second = $(( devices * 10 )) fixes/s offered (latency, buffered terminals)" \
    --port "$(port_of "$tcp")" --rate 10 --records-per-packet 10
fi
if [ -n "$udp" ]; then
  run "$protocol UDP, $devices devices, 4 fixes in flight each (throughput)" --transport udp --port "$(port_of "$udp")" --window 4
  for rate in 10 4 2; do
    run "$protocol UDP, $devices devices, $rate fixes/s each = $(( devices * rate )) fixes/s offered (latency)" --transport udp --port "$(port_of "$udp")" --rate "$rate"
  done
  run "$protocol UDP, $devices devices, 10 fixes/s each in one datagram per second = $(( devices * 10 )) fixes/s offered (latency, buffered terminals)" \
    --transport udp --port "$(port_of "$udp")" --rate 10 --records-per-packet 10
fi
printf '\n== archive\n'
curl -s "$metrics" | grep -E '^mytaxi_(fixes_archived_total|archive_failures_total)'
# Acknowledged but not archived on purpose: each run restarts the simulated
# devices at their first position, so a few first fixes are implausible jumps.
curl -s "$metrics" | grep -E '^mytaxi_fixes_rejected_total' | grep -v ' 0$' || true
