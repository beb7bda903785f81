#!/usr/bin/env bash
# The demo (`make demo`): the whole service live on the demo city, Manhattan's
# 69 taxi zones and Midtown's roads. Builds the road graph with the speed
# profile fitted to Manhattan's cab trips, starts `mytaxi serve`, makes the
# demo accounts and runs `mytaxi simulate` (taxis on the line, Teltonika and
# GT06 protocols, drivers and passengers on the API), whose taxis drive at
# that profile's speeds but for an accident the service is not told of: 7th
# Avenue at a quarter of its speed for three simulated hours from five
# simulated minutes in. The service learns it from the fixes, and the
# dispatcher's map ("Road speeds learned from the fleet") shows the avenue
# red a few minutes after the start. (`mytaxi simulate learning` measures
# learning from a city's built-in profile, with no fitted one.) Prints the map's URL, the logins and example calls, then a one-line
# live summary every few seconds until Ctrl-C, which stops everything.
# `--tour` first runs the zone engine's and the router's commands on the same
# city.
# Usage: Tools/demo.sh BIN_DIR [--tour] (BIN_DIR holds a built mytaxi, release or debug)
# Environment: DEMO_PORT (8080), DEMO_TAXIS (300), DEMO_PASSENGERS (300),
# DEMO_REQUESTS_PER_HOUR (600), DEMO_SPEED_UP (10), DEMO_HOURS (24, simulated),
# DEMO_START_HOUR (8: the simulated day starts at 08:00 New York time),
# DEMO_DURATION (real seconds after which everything stops as on Ctrl-C;
# unset: until Ctrl-C), DEMO_WAITS_CSV (a file with each served ride's told
# and had wait, as `simulate --waits-csv` writes it),
# DEMO_INCIDENT (the accident, "ROAD NAME,FROM,MINUTES,FACTOR" as `simulate
# --incident` takes it; default 7th Avenue's; empty: none), DEMO_WEB_ROOT (a
# folder whose files replace the web pages' built-in ones, `serve --web-root`:
# edit the apps and reload the browser, without a rebuild).
set -euo pipefail
bin=${1:?usage: Tools/demo.sh BIN_DIR [--tour]}
tour=${2:-}
mytaxi=$bin/mytaxi
root=$(cd "$(dirname "$0")/.." && pwd)
zones=$root/Zones/manhattan/zones.geojson
port=${DEMO_PORT:-8080}
taxis=${DEMO_TAXIS:-300}
passengers=${DEMO_PASSENGERS:-300}
rate=${DEMO_REQUESTS_PER_HOUR:-600}
speed_up=${DEMO_SPEED_UP:-10}
hours=${DEMO_HOURS:-24}
start_hour=${DEMO_START_HOUR:-8}
duration=${DEMO_DURATION:-}
waits_csv=${DEMO_WAITS_CSV:-}
password=demo-pass-1

work=$(mktemp -d)
serve_pid= simulate_pid=
stop() {
  trap - INT TERM EXIT
  printf '\nStopping: the simulator, then the service.\n'
  [ -n "$simulate_pid" ] && kill -TERM "$simulate_pid" 2>/dev/null && wait "$simulate_pid" 2>/dev/null
  [ -s "$work/summary" ] && { printf '\nThe simulation:\n'; cat "$work/summary"; }
  [ -n "$serve_pid" ] && kill -TERM "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  rm -rf "$work"
  exit 0
}
trap stop INT TERM EXIT

if [ "$tour" = --tour ]; then "$root/Tools/demo-tour.sh" "$bin" "$zones"; printf "\n"; fi

graph=$work/midtown.graph
true_speeds=$root/Profiles/nyc-manhattan.csv
incident=${DEMO_INCIDENT-7th Avenue,5,180,0.25}
printf '== Building the Midtown road graph with the speed profile fitted to Manhattan cab trips\n'
if ! "$mytaxi" graph build "$root/Maps/manhattan-midtown.osm.pbf" -o "$graph" --time-zone America/New_York \
  --speed-profile "$true_speeds" --zones "$zones" >"$work/graph.out" 2>"$work/graph.log"; then
  cat "$work/graph.log"
  exit 1
fi
grep -E '^(nodes|edges|zones|build time):' "$work/graph.out"
foot_graph=$work/midtown-foot.graph
printf '== Building its walking graph, for walking times and meeting points\n'
if ! "$mytaxi" graph build "$root/Maps/manhattan-midtown.osm.pbf" -o "$foot_graph" --profile foot \
  --time-zone America/New_York >"$work/foot-graph.out" 2>"$work/foot-graph.log"; then
  cat "$work/foot-graph.log"
  exit 1
fi
"$mytaxi" simulate devices --taxis "$taxis" -o "$work/devices.csv"
# A taxi of your own, which the simulator leaves alone: its device and its driver.
printf 'my-taxi,TX900001\n' >>"$work/devices.csv"
echo "$password" | "$mytaxi" accounts create --data-dir "$work/data" --role administrator --username admin --password-stdin

printf '\n== Starting the service\n'
# The service runs on the simulated city's time: --speed-up times faster
# than real time, from the last $start_hour:00 in New York, so that it times
# the drivers' answers, the offers' 15 s and the waits it tells in the
# simulation's seconds (the simulator follows its clock, /v1/clock), and a
# login lasts the week of service time a run may take.
# Every simulated driver and passenger logs in, and every passenger registers
# and confirms its address, from this one address (hence --login-limit and
# --registration-limit); bcrypt cost 8 makes those hundreds of logins take
# seconds rather than a minute.
clock_start=$(TZ=America/New_York date -d "today $start_hour:00" +%Y-%m-%dT%H:%M:%S%:z)
if [ "$(date -d "$clock_start" +%s)" -gt "$(date +%s)" ]; then
  clock_start=$(TZ=America/New_York date -d "yesterday $start_hour:00" +%Y-%m-%dT%H:%M:%S%:z)
fi
"$mytaxi" serve --zones "$zones" --devices "$work/devices.csv" --data-dir "$work/data" --graph "$graph" \
  --foot-graph "$foot_graph" --http-port "$port" --line-port 0 --teltonika-port 0 --gt06-port 0 --nmea-port 0 --osmand-port 0 \
  --clock-rate "$speed_up" --clock-start "$clock_start" --session-lifetime 604800 \
  --login-limit 100000 --registration-limit 100000 --bcrypt-cost 8 --public-url "http://127.0.0.1:$port" \
  ${DEMO_WEB_ROOT:+--web-root "$DEMO_WEB_ROOT"} >"$work/listening" 2>"$work/serve.log" &
serve_pid=$!
for _ in $(seq 300); do grep -q '^listening http ' "$work/listening" 2>/dev/null && break; sleep 0.1; done
grep -q '^listening http ' "$work/listening" || { echo "mytaxi serve did not start:"; cat "$work/serve.log"; exit 1; }
port_of() { awk -v l="$1" '$2 == l { n = split($3, a, ":"); print a[n] }' "$work/listening"; }
base=http://127.0.0.1:$port

api() { # METHOD PATH TOKEN [JSON]: one call to the API, its body
  curl -s -X "$1" "$base$2" ${3:+-H "Authorization: Bearer $3"} ${4:+-H 'Content-Type: application/json' -d "$4"}
}
token() { api POST /v1/sessions "" "{\"username\": \"$1\", \"password\": \"$password\"}" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])'; }
admin=$(token admin)
api POST /v1/accounts "$admin" "{\"role\": \"dispatcher\", \"username\": \"dispatcher\", \"password\": \"$password\"}" >/dev/null
api POST /v1/accounts "$admin" "{\"role\": \"passenger\", \"username\": \"ada\", \"email\": \"ada@example.com\", \"password\": \"$password\"}" >/dev/null
api POST /v1/accounts "$admin" "{\"role\": \"driver\", \"username\": \"TX900001\", \"password\": \"$password\"}" >/dev/null

printf '\n== Starting the simulator: %s taxis, %s passengers, %s requests per simulated hour, %sx real time\n' \
  "$taxis" "$passengers" "$rate" "$speed_up"
if [ -n "$incident" ]; then
  printf '   the taxis drive at %s, with an accident the service is not told of: %s\n' "${true_speeds#"$root/"}" "$incident"
else
  printf '   the taxis drive at %s, with no accident\n' "${true_speeds#"$root/"}"
fi
demand=()
[ -f "$root/../shared/data/nyc/trips_calibration.csv" ] && demand=(--demand "$root/../shared/data/nyc/trips_calibration.csv")
echo "$password" | "$mytaxi" simulate --zones "$zones" --graph "$graph" --http-port "$port" \
  --line-port "$(port_of line/tcp)" --teltonika-port "$(port_of teltonika/tcp)" --gt06-port "$(port_of gt06/tcp)" \
  --admin admin --password-stdin --taxis "$taxis" --passengers "$passengers" --requests-per-hour "$rate" \
  --hours "$hours" --speed-up "$speed_up" --seed 2026 "${demand[@]}" \
  --true-speed-profile "$true_speeds" ${incident:+--incident "$incident"} ${waits_csv:+--waits-csv "$waits_csv"} \
  >"$work/summary" 2>"$work/simulate.log" &
simulate_pid=$!

cat <<TEXT

The service runs at $base (its contract: $base/openapi.json). The three apps, password $password for every login:
  the dispatcher's live map and phone desk: $base/map      log in as dispatcher
  the passenger's app (a phone's screen):   $base/app      log in as ada, or register (the confirmation
                                            e-mail's link is in the outbox: admin's GET /v1/outbox)
  the driver's tablet app:                  $base/driver   log in as TX900001, device id my-taxi: the spare taxi
                                            the simulator leaves alone; "Move the taxi here" on the map puts it
                                            in a zone, "Available" joins its queue, "Drive" drives it to a pickup
  admin is the administrator; drivers TX000001 to TX$(printf '%06d' "$taxis") are the simulator's
  the map's "Road speeds learned from the fleet": what the service learned from the fixes against its profile
  (slower orange or red); 7th Avenue, slowed from 5 simulated minutes in, turns red a few minutes after the start
The terminals' ports (127.0.0.1): line $(port_of line/tcp) (MT1), Teltonika $(port_of teltonika/tcp), GT06 $(port_of gt06/tcp),
  NMEA $(port_of nmea/tcp), OsmAnd $(port_of osmand/http); devices file $work/devices.csv, data directory $work/data
Your own taxi, which the simulator leaves alone: device my-taxi drives TX900001, whose driver logs in as TX900001
  (docs/guide-driver.md). Its first fix, at Times Square, answered ACK,1, dated on the service's clock
  (which runs at the simulation's ${speed_up}x: $base/v1/clock):
  exec 3<>/dev/tcp/127.0.0.1/$(port_of line/tcp); printf 'MT1,my-taxi,1,%s,40.7580,-73.9855,0,0,A\n' "\$(curl -s $base/v1/clock | python3 -c 'import datetime, json, sys; print(int(datetime.datetime.fromisoformat(json.load(sys.stdin)["now"]).timestamp()))')" >&3; head -1 <&3; exec 3<&-
Try, in another terminal:
  TOKEN=\$(curl -s -X POST $base/v1/sessions -H 'Content-Type: application/json' \\
          -d '{"username": "dispatcher", "password": "$password"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/zones/at?lon=-73.9855&lat=40.7580'            # the zone of Times Square
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/zones/230/queue'                              # Times Square's queues
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/zones/nearest-free?lon=-73.9855&lat=40.7580&limit=3'
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/eta?from=-73.9855,40.7580&to=-73.9772,40.7527'  # Times Square to Grand Central
  curl -s -X POST -H "Authorization: Bearer \$TOKEN" -H 'Content-Type: application/json' $base/v1/rides \\
       -d '{"pickup": {"lon": -73.9772, "lat": 40.7527}, "callerPhone": "+12125550123"}'         # a phone caller's ride
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/waits?lon=-73.98365&lat=40.75360'             # in Bryant Park: the meeting point and the walk
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/eta?from=-73.9855,40.7580&to=-73.9772,40.7527&mode=foot'  # the same on foot
  curl -s -H "Authorization: Bearer \$TOKEN" '$base/v1/roads/speeds'                                 # the road speeds learned (GeoJSON)
Ctrl-C stops the simulator and the service.

TEXT

live_line() { # taxis, free, rides open, rides served (the service's figures), p50 wait (the simulator's)
  local metrics fleet
  metrics=$(curl -s "$base/metrics")
  fleet=$(api GET /v1/fleet "$admin")
  python3 - "$metrics" "$fleet" "$(tail -n 1 "$work/simulate.log" 2>/dev/null)" <<'PY'
import json, re, sys, time
metrics, fleet, progress = sys.argv[1], sys.argv[2], sys.argv[3]
def total(name):
    return sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines() if line.startswith(name) and not line.startswith("#"))
try:
    taxis = json.loads(fleet)
except ValueError:
    taxis = []
free = sum(1 for taxi in taxis if taxi.get("state") == "available")
wait = re.search(r"wait p50 (\S+ s|-)", progress)
clock = progress.split(": ", 1)[0] if ": " in progress else "-"
print(f"{time.strftime('%H:%M:%S')} (simulated {clock}): {len(taxis)} taxis, {free} free, "
      f"{int(total('mytaxi_dispatch_open_requests'))} rides open (waiting, on the way or aboard), {int(total('mytaxi_dispatch_wait_seconds_count'))} rides served, "
      f"p50 wait {wait.group(1) if wait else '-'}")
PY
}
over() { [ -n "$duration" ] && [ "$SECONDS" -ge "$duration" ]; }
SECONDS=0
while kill -0 "$simulate_pid" 2>/dev/null && ! over; do
  sleep 5
  live_line
done
over && stop
printf '\nThe simulated time is over; the service keeps running until Ctrl-C.\n'
cat "$work/summary"
simulate_pid=
while ! over; do sleep 5; live_line; done
stop
