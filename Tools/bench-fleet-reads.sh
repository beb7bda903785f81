#!/usr/bin/env bash
# The dispatcher's fleet reads under load (issue 19), release binaries:
# `mytaxi serve` with 10,000 taxis streaming fixes from `mytaxi-loadgen`
# (line protocol, one fix per taxi every 2 s) into a few Midtown zones, then
# wrk, in one run, on one taxi (`GET /v1/taxis/{id}`), the busiest zone's
# taxi list (`GET /v1/zones/{zoneId}/taxis`, over 1,000 taxis) and the
# whole fleet (`GET /v1/fleet`), in two rounds.
# Usage: Tools/bench-fleet-reads.sh BIN_DIR [WRK_SECONDS]
set -euo pipefail
bin=${1:?usage: Tools/bench-fleet-reads.sh BIN_DIR [WRK_SECONDS]}
seconds=${2:-10}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
source "$(dirname "$0")/streaming-city.sh"
start_streaming_city "$bin" -74.000,40.740,-73.965,40.770
sleep 8

token=$(curl -s -X POST "http://127.0.0.1:$http/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"username\": \"admin\", \"password\": \"$password\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
read -r zone taxis taxi < <(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$http/v1/fleet" | python3 -c '
import collections, json, sys
fleet = json.load(sys.stdin)
zones = collections.Counter(t["position"].get("zoneId") for t in fleet if t["position"].get("zoneId"))
zone, count = zones.most_common(1)[0]
print(zone, count, fleet[0]["position"]["taxiId"])')
bytes=$(curl -s -H "Authorization: Bearer $token" "http://127.0.0.1:$http/v1/zones/$zone/taxis" | wc -c)
echo "== $taxis taxis in zone $zone (its list: $bytes bytes), 10,000 streaming; wrk 2 threads, 64 connections, ${seconds} s each"
bench() { # NAME PATH: requests/s and latency percentiles
  wrk -t2 -c64 -d"${seconds}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$http$2" \
    | awk -v name="$1" '/Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
        /Non-2xx/ { bad = $4 } END { printf "%-36s %10s req/s  p50 %8s  p99 %8s%s\n", name, rps, p50, p99, bad ? "  non-2xx " bad : "" }'
}
for _ in 1 2; do
  bench "one taxi" "/v1/taxis/$taxi"
  bench "a zone's taxis ($taxis)" "/v1/zones/$zone/taxis"
  bench "the whole fleet (10,000)" "/v1/fleet"
done
