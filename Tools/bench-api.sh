#!/usr/bin/env bash
# The dispatch API under load (issue 15), release binaries on the demo city:
# `mytaxi serve` with 10,000 taxis streaming fixes from `mytaxi-loadgen`
# (line protocol, one fix per taxi every 2 s), then `mytaxi-apiload`: 500
# drivers and 2,000 passengers with their /v1/push sockets open, the
# drivers available, and 1,000 ride requests at once; it reports each
# requester's first answer over HTTP and over its socket. Then wrk on the
# dispatcher's read endpoints and the address search with a token, each
# against /healthz of the same server in the same run.
# Usage: Tools/bench-api.sh BIN_DIR [WRK_SECONDS]
set -euo pipefail
bin=${1:?usage: Tools/bench-api.sh BIN_DIR [WRK_SECONDS]}
seconds=${2:-10}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk; }
source "$(dirname "$0")/streaming-city.sh"
# bcrypt cost 4 and a high login limit: the load makes and logs in 2,500 accounts from one address in seconds.
start_streaming_city "$bin" -74.00,40.74,-73.97,40.77 --bcrypt-cost 4 --login-limit 100000 --http-max-connections 10000
sleep 5

echo "== mytaxi-apiload: 500 drivers and 2,000 passengers with push sockets, 10,000 taxis streaming, 1,000 ride requests at once"
"$bin/mytaxi-apiload" --port "$http" --admin admin --password "$password" --drivers 500 --passengers 2000 --requests 1000

token=$(curl -s -X POST "http://127.0.0.1:$http/v1/sessions" -H 'Content-Type: application/json' \
  -d "{\"username\": \"admin\", \"password\": \"$password\"}" | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
bench() { # NAME PATH [CONNECTIONS]: wrk, 2 threads; requests/s and latency percentiles
  wrk -t2 -c"${3:-64}" -d"${seconds}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$http$2" \
    | awk -v name="$1" '/Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = $2 } /^ +99%/ { p99 = $2 }
        /Non-2xx/ { bad = $4 } END { printf "%-44s %10s req/s  p50 %8s  p99 %8s%s\n", name, rps, p50, p99, bad ? "  non-2xx " bad : "" }'
}
rate_of() { awk '{ for (i = 2; i <= NF; i++) if ($i == "req/s") print $(i - 1) }'; }
echo
echo "== wrk (2 threads, ${seconds} s each, the taxis still streaming): each read in 3 rounds beside /healthz"
echo "   (the host's speed drifts; the share is of the rounds' sums), then its latency with 4 connections"
echo "   (with 64 waiting on 2 cores, a request's wait is mostly the 63 ahead of it)"
for endpoint in "zone of a point|/v1/zones/at?lon=-73.9855&lat=40.7580" "a zone's queues|/v1/zones/161/queue" \
    "nearest zones with free taxis|/v1/zones/nearest-free?lon=-73.9855&lat=40.7580&limit=5" \
    "ETA|/v1/eta?from=-73.9855,40.7580&to=-73.9772,40.7527" \
    "place search, as typed|/v1/places?q=350%205th%20Av&near=-73.9855,40.7580" \
    "place search, a typo|/v1/places?q=grand%20centrl%20terminal" \
    "address of a point|/v1/places/reverse?lon=-73.9855&lat=40.7580"; do
  healthz_sum=0 read_sum=0
  for _ in 1 2 3; do
    line=$(bench "/healthz" "/healthz"); echo "$line"
    healthz_sum=$(awk -v a="$healthz_sum" -v b="$(rate_of <<<"$line")" 'BEGIN { print a + b }')
    line=$(bench "${endpoint%%|*}" "${endpoint#*|}"); echo "$line"
    read_sum=$(awk -v a="$read_sum" -v b="$(rate_of <<<"$line")" 'BEGIN { print a + b }')
  done
  awk -v name="${endpoint%%|*}" -v r="$read_sum" -v h="$healthz_sum" \
    'BEGIN { printf "%-44s %10.0f %% of /healthz over the 3 rounds\n", name ": share", 100 * r / h }'
  bench "${endpoint%%|*}, 4 connections" "${endpoint#*|}" 4
done
awk '/^(fixes|ACK)/ && ++shown <= 3' "$work/loadgen.log"
