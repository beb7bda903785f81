#!/usr/bin/env bash
# The demo: runs what mytaxi can do today on the shipped demo city
# (Manhattan's 69 taxi zones): the zone engine, the road router on the
# Midtown map, then the service with a simulated fleet.
# Usage: Tools/demo.sh BIN_DIR ZONE_FILE
set -euo pipefail
bin=${1:?usage: Tools/demo.sh BIN_DIR ZONE_FILE}
zones=${2:?usage: Tools/demo.sh BIN_DIR ZONE_FILE}
mytaxi=$bin/mytaxi
loadgen=$bin/mytaxi-loadgen

step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Check the zone file (SPEC Z1, Z3)" "$mytaxi" zones validate "$zones"
step "Neighbours sharing a border, first 8 zones (Z5)" bash -c "'$mytaxi' zones neighbours --zones '$zones' | sed -n 1,8p"
step "Zones within 300 m of Central Park (Z5)" bash -c "'$mytaxi' zones neighbours --zones '$zones' --within 300 | grep '^43:'"

printf '\n== Which zone is this point in? (Z2: on a shared border, the smallest id wins)\n'
places=(
  "-73.9855,40.7580 Times Square"
  "-73.9654,40.7829 Central Park"
  "-74.0134,40.7127 World Trade Center"
  "-73.9772,40.7527 Grand Central"
  "-74.0445,40.6892 Statue of Liberty"
  "-74.0200,40.7500 the Hudson River"
)
for place in "${places[@]}"; do
  point=${place%% *}
  zone=$(echo "$point" | "$mytaxi" zones lookup --zones "$zones")
  printf '%-22s %-20s -> %s\n' "${place#* }" "$point" "${zone:-outside the service area}"
done

printf '\n== 1,000,000 random lookups over the city, streamed through `mytaxi zones lookup`\n'
start=$(date +%s%N)
awk 'BEGIN { srand(2026); for (i = 0; i < 1000000; i++) printf "%.7f,%.7f\n", -74.05 + rand() * 0.15, 40.68 + rand() * 0.2 }' \
  | "$mytaxi" zones lookup --zones "$zones" | awk '$0 == "" { out++ } END { printf "%d points, %d inside a zone, %d outside\n", NR, NR - out, out }'
echo "took $(( ($(date +%s%N) - start) / 1000000 )) ms (including the awk generator)"

work=$(mktemp -d)
serve_pid=
cleanup() { [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

root=$(cd "$(dirname "$0")/.." && pwd)
graph=$work/midtown.graph
step "Build the Midtown road graph with the fitted NYC speed profile and its zones (SPEC R1, R4)" \
  "$mytaxi" graph build "$root/Maps/manhattan-midtown.osm.pbf" -o "$graph" --time-zone America/New_York \
  --speed-profile "$root/Profiles/nyc-manhattan.csv" --zones "$zones"
step "Times Square to Penn Station, Monday 08:30 (R3)" \
  "$mytaxi" route --graph "$graph" --from=-73.9855,40.7580 --to=-73.99377,40.75141 --depart 2026-11-23T08:30:00-05:00
step "The same at 03:00" \
  "$mytaxi" route --graph "$graph" --from=-73.9855,40.7580 --to=-73.99377,40.75141 --depart 2026-11-23T03:00:00-05:00
printf '\n== Five taxis to a pickup at Grand Central, Monday 18:00: duration_s,distance_m each (R3)\n'
printf '%s\n' -73.9980,40.7420 -73.9700,40.7550 -74.0050,40.7500 -73.9850,40.7480 -73.9900,40.7560 \
  | sed 's/$/,-73.9772,40.7527,2026-11-23T18:00:00-05:00/' | tee "$work/trips" | "$mytaxi" eta --graph "$graph"
step "Leaving Union Square at 17:40 by taxi, am I at Grand Central by 18:00? (R6)" \
  "$mytaxi" route --graph "$graph" --from=-73.9900,40.7370 --to=-73.9772,40.7527 --depart 2026-11-23T17:40:00-05:00 \
  --arrive-by 2026-11-23T18:00:00-05:00 --expected-wait 420

step "The dispatch engine against 300 simulated taxis and 600 requests an hour, 2 hours of the Monday rush (SPEC D2-D4, D9)" \
  "$mytaxi" dispatch simulate --zones "$zones" --graph "$graph" --taxis 300 --requests-per-hour 600 --hours 2 \
  --refusal-rate 0.1 --seed 2026

printf '\n== The service with a simulated fleet (SPEC I1-I7, D2)\n'
"$loadgen" --devices 2000 --write-devices "$work/devices.csv"
password=demo-pass-1
printf '$ mytaxi accounts create --role administrator --username admin --password-stdin (the first administrator)\n'
echo "$password" | "$mytaxi" accounts create --data-dir "$work/data" --role administrator --username admin --password-stdin
"$mytaxi" serve --zones "$zones" --devices "$work/devices.csv" --data-dir "$work/data" --graph "$graph" \
  --http-port 0 --line-port 0 --nmea-port 0 --osmand-port 0 --teltonika-port 0 --gt06-port 0 \
  >"$work/listening" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 100); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
cat "$work/listening"
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
http=$(port_of http)
line=$(port_of line/tcp)
printf '\n$ mytaxi-loadgen --devices 2000 --duration 5 (2,000 taxis driving in Midtown over TCP, line protocol)\n'
"$loadgen" --port "$line" --devices 2000 --window 4 --count 2000000 --duration 5 \
  --bbox=-74.00,40.74,-73.97,40.77 --metrics-url "http://127.0.0.1:$http/metrics"
api() { # METHOD PATH [TOKEN] [JSON]: one call to the API, its answer on one line
  curl -s -X "$1" "http://127.0.0.1:$http$2" ${3:+-H "Authorization: Bearer $3"} ${4:+-H 'Content-Type: application/json' -d "$4"}
  echo
}
field() { python3 -c 'import json, sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
login() { api POST /v1/sessions "" "{\"username\": \"$1\", \"password\": \"$password\"}" | field token; }
printf '\n== The dispatch API: every /v1 route needs a bearer token and names its roles (SPEC A1, A2, D1-D6)\n'
printf '$ curl /v1/taxis/TX000001 (no token)\n'; api GET /v1/taxis/TX000001
admin=$(login admin)
printf '$ POST /v1/accounts: a dispatcher, the driver of TX000001, a passenger\n'
api POST /v1/accounts "$admin" "{\"role\": \"dispatcher\", \"username\": \"desk\", \"password\": \"$password\"}"
api POST /v1/accounts "$admin" "{\"role\": \"driver\", \"username\": \"TX000001\", \"password\": \"$password\"}"
api POST /v1/accounts "$admin" "{\"role\": \"passenger\", \"username\": \"ada\", \"email\": \"ada@example.com\", \"password\": \"$password\"}"
desk=$(login desk); driver=$(login TX000001); ada=$(login ada)
printf '\n$ GET /v1/taxis/TX000001 (dispatcher)\n'
api GET /v1/taxis/TX000001 "$desk" | tee "$work/taxi.json"
lon=$(field lon <"$work/taxi.json"); lat=$(field lat <"$work/taxi.json")
printf '\n$ GET /v1/zones/at?lon=%s&lat=%s\n' "$lon" "$lat"; api GET "/v1/zones/at?lon=$lon&lat=$lat" "$desk"
printf '\n$ PUT /v1/driver/availability (the driver logged in: on duty, now available)\n'
api PUT /v1/driver/availability "$driver" '{"available": true}'
printf '\n$ POST /v1/rides (the passenger, at the taxi'"'"'s corner)\n'
api POST /v1/rides "$ada" "{\"pickup\": {\"lon\": $lon, \"lat\": $lat}}"
printf '\n$ GET /v1/driver (the offer)\n'; api GET /v1/driver "$driver"
printf '\n$ POST /v1/driver/offer/accept\n'; api POST /v1/driver/offer/accept "$driver" >/dev/null
printf '$ GET /v1/rides/current (the passenger is told the taxi code and its ETA)\n'; api GET /v1/rides/current "$ada"
for taxi in TX000002 TX000003 TX000004 TX000005 TX000006 TX000007 TX000008; do
  api POST /v1/accounts "$admin" "{\"role\": \"driver\", \"username\": \"$taxi\", \"password\": \"$password\"}" >/dev/null
  api PUT /v1/driver/availability "$(login $taxi)" '{"available": true}' >/dev/null
done
printf '\n$ GET /v1/zones/nearest-free?lon=-73.9855&lat=40.7580&limit=3 (the dispatcher, for a caller at Times Square; 7 more drivers available)\n'
api GET "/v1/zones/nearest-free?lon=-73.9855&lat=40.7580&limit=3" "$desk"
printf '\n$ GET /v1/eta?from=-73.9855,40.7580&to=-73.9772,40.7527&depart=2026-11-23T08:30:00-05:00\n'
api GET "/v1/eta?from=-73.9855,40.7580&to=-73.9772,40.7527&depart=2026-11-23T08:30:00-05:00" "$ada"
printf '\n$ curl /metrics (accepted and rejected fixes)\n'
curl -s "http://127.0.0.1:$http/metrics" | awk '$1 ~ /^mytaxi_fixes_(accepted|rejected|archived)_total/ && $2 != 0'
printf '\n$ curl /healthz\n'
curl -s "http://127.0.0.1:$http/healthz"
