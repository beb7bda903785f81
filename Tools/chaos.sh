#!/usr/bin/env bash
# Failures of the production set on one machine (Tools/cluster.sh), under
# the simulator's load, each measured: what was lost or doubled, and how
# long until dispatch and the terminals were back.
#
#   1 owner-kill      kill -9 of the node that decides dispatch
#   2 upgrade         a rolling upgrade of the three nodes (cluster.sh upgrade)
#   3 primary-kill    kill -9 of PostgreSQL's primary and its Patroni: the
#                     standby is promoted
#   4 owner-cut       the deciding node cut off from PostgreSQL (its door in
#                     HAProxy shut) while its process runs on: it must stop
#                     deciding, another takes over; the door opens again after 20 s
#   5 follower-kill   kill -9 of a node that does not decide
#
# Each run: the cluster up (started when needed, its clock at --clock-rate
# times real time on every node, 10 by default), the simulator through the
# front doors at the same rate (--taxis taxis, each reporting every 30 s of
# the city's time; --rate requests an hour of the city's time; every API
# call that changes something carries an Idempotency-Key and is retried for
# up to 60 s); once 90 % of the taxis report, --warm-up real seconds; then
# the failure together with a burst of --burst ride requests at once (each
# by a passenger of its own); --settle real seconds after the terminals are
# back, the simulator stopped and these checked:
#   fixes lost        fixes the simulator's terminals saw acknowledged that
#                     the archive lacks, looked up one by one (device, time);
#                     any are written to $CLUSTER_DIR/chaos-NAME-RUN-missing.csv
#   requests lost     rides answered 201 that the dispatch log lacks; doubled:
#   / doubled         Idempotency-Keys that stand in two log entries (a
#                     retried ride request or driver's action carried out twice)
#   diverged          nodes whose state differs from the deciding node's
#                     once the load stopped (two deciders would show here)
#   double offers     taxis holding an offer or ride twice in that state
#   dispatch pause    the longest time, in real seconds, between two entries
#                     of the dispatch log during the run (under this load a
#                     command is logged every few hundred milliseconds when all is well)
#   terminals back    real seconds from the failure until 98 % of the taxis
#                     that reported before it were heard again (a terminal
#                     reconnects at its next fix: 30 s of the city's time, 3 s
#                     at 10x, is the floor)
#   calls failed      API calls that failed after the client's retries
# A row per run goes to stdout and to $CLUSTER_DIR/chaos.md.
#
# Usage: Tools/chaos.sh [--runs N] [--scenarios 1,2,3,4,5] [--taxis N]
#                       [--rate R] [--burst N] [--clock-rate X]
#                       [--warm-up S] [--settle S]
# Environment: MYTAXI_BIN, CLUSTER_DIR as for Tools/cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-/tmp/mytaxi-cluster}
export CLUSTER_DIR=$dir
runs=1 scenarios=1,2,3,4,5 taxis=300 rate=600 burst=1000 clock_rate=10 warm_up=45 settle=60
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --scenarios) scenarios=$2; shift 2 ;;
    --taxis) taxis=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --burst) burst=$2; shift 2 ;;
    --clock-rate) clock_rate=$2; shift 2 ;;
    --warm-up) warm_up=$2; shift 2 ;;
    --settle) settle=$2; shift 2 ;;
    *) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
names=(owner-kill upgrade primary-kill owner-cut follower-kill)
nodes=(a b c)
cluster="$root/Tools/cluster.sh"
pg_bin=/usr/lib/postgresql/15/bin
bin=${MYTAXI_BIN:-$(cd "$root" && swift build -c release --show-bin-path)/mytaxi}
[ -x "$bin" ] || (cd "$root" && swift build -c release --product mytaxi)
export MYTAXI_BIN=$bin

log() { printf 'chaos: %s\n' "$*" >&2; }

database() { echo "postgres://mytaxi:$(cat "$dir/secret")@127.0.0.1:5440/mytaxi"; }

# One value from the database (through the primary's door), empty when it cannot answer.
sql() {
  "$pg_bin/psql" "$(database)" -Atqc "$1" 2>/dev/null || true
}

# The city's time now, in epoch seconds, as the nodes tell it (GET /v1/clock):
# the archive's times are the city's, which runs at --clock-rate.
service_now() {
  curl -sf -m 5 http://127.0.0.1:8080/v1/clock |
    python3 -c 'import datetime, json, sys; print(datetime.datetime.fromisoformat(json.load(sys.stdin)["now"].replace("Z", "+00:00")).timestamp())'
}

# The fixes of CSV $1 (device_id,time: what the simulator saw acknowledged)
# that the archive lacks: their count, and the fixes themselves into $2.
missing_fixes() {
  "$pg_bin/psql" "$(database)" -Atq -v ON_ERROR_STOP=1 <<SQL
CREATE TEMP TABLE acknowledged (device_id text, time timestamptz);
\copy acknowledged FROM '$1' WITH (FORMAT csv, HEADER true)
CREATE TEMP TABLE missing AS
  SELECT device_id, time FROM acknowledged
  EXCEPT SELECT device_id::text, time FROM archived_fixes WHERE time >= (SELECT min(time) FROM acknowledged);
\copy missing TO '$2' WITH (FORMAT csv, HEADER true)
SELECT count(*) FROM missing;
SQL
}

# Ends every open ride, so that each run starts with every passenger free
# to ask (a passenger with an open ride is refused a new one, and rides
# outlive a run): the dispatcher chaos-desk (made the first time) cancels
# those not yet at their pickup; the drivers of the others, whose
# passengers are at the taxi or aboard, report them aboard and completed.
end_open_rides() {
  curl -sf -m 5 -o /dev/null -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d '{"role":"dispatcher","username":"chaos-desk","password":"chaos-desk-1"}' http://127.0.0.1:8080/v1/accounts || true
  python3 - <<'PY'
import concurrent.futures, json, urllib.error, urllib.request
api = "http://127.0.0.1:8080"
def call(method, path, token=None, body=None):
    request = urllib.request.Request(api + path, method=method, data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read()
            return json.loads(text) if text else None
    except urllib.error.HTTPError:
        return None
def login(username, password):
    return (call("POST", "/v1/sessions", body={"username": username, "password": password}) or {}).get("token")
desk = login("chaos-desk", "chaos-desk-1")
def end(ride):
    if ride["status"] in ("arrived", "aboard"):
        driver = login(ride["taxiId"], "cluster-admin-1")
        if ride["status"] == "arrived":
            call("POST", "/v1/driver/ride/aboard", driver)
        call("POST", "/v1/driver/ride/completed", driver)
    else:
        call("DELETE", "/v1/rides/" + ride["rideId"], desk)
for _ in range(3):
    rides = call("GET", "/v1/rides", desk) or []
    if not rides:
        break
    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        list(pool.map(end, rides))
PY
}

# A session token of the cluster's administrator (the cluster's sessions
# last a week, and every node reads the same accounts): set once a run, in
# this shell, by new_token.
admin_token=
new_token() {
  admin_token=$(curl -sf -m 5 -H 'Content-Type: application/json' -d '{"username":"admin","password":"cluster-admin-1"}' \
    http://127.0.0.1:8080/v1/sessions | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
}

# The dispatch state node $1 (0..2) serves, as JSON (empty when it does not answer).
state() {
  curl -sf -m 5 -H "Authorization: Bearer $admin_token" "http://127.0.0.1:$((8081 + $1))/v1/dispatch/state" || true
}

# The index (0..2) of the node that decides dispatch, empty when none does.
owner() {
  for i in 0 1 2; do
    if state "$i" | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin).get("decidesHere") else 1)' 2>/dev/null; then
      echo "$i"; return
    fi
  done
}

# Sends a command to HAProxy's admin socket.
haproxy_admin() {
  python3 - "$dir/haproxy.sock" "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall((sys.argv[2] + "\n").encode())
print(s.recv(65536).decode(), end="")
PY
}

# Shuts (maint) or opens (ready) node $1's door to PostgreSQL, and cuts its open connections.
pg_door() {
  local name=${nodes[$1]} state=$2
  for server in pg1 pg2; do
    haproxy_admin "set server postgres-$name/$server state $state" >/dev/null
    [ "$state" = maint ] && haproxy_admin "shutdown sessions server postgres-$name/$server" >/dev/null
  done
  return 0
}

# Taxis heard within the last 31 s of the city's time (they report every 30 s).
taxis_reporting() { sql "SELECT count(*) FROM latest_fixes WHERE received_at > to_timestamp($(service_now) - 31)"; }
log_top() { sql "SELECT coalesce(max(sequence), 0) FROM dispatch_log"; }

# Waits until 90 % of the taxis report (the simulator signs its passengers
# up and logs everyone in first), for at most 10 minutes, while simulator $1 runs.
wait_for_fleet() {
  for _ in $(seq 600); do
    kill -0 "$1" 2>/dev/null || { log "the simulator stopped before its fleet reported"; return 1; }
    local reporting
    reporting=$(taxis_reporting)
    [ -n "$reporting" ] && [ $((reporting * 10)) -ge $((taxis * 9)) ] && return 0
    sleep 1
  done
  log "the fleet did not report within 10 minutes"
  return 1
}

# The longest time, in real seconds, between two dispatch log entries after
# entry $1 (entries carry the city's time, which runs at --clock-rate).
dispatch_pause() {
  sql "SELECT coalesce(round(max(gap)::numeric / $clock_rate, 1), 0) FROM (
    SELECT (convert_from(payload, 'UTF8')::jsonb ->> 'wallTime')::float8 / 1000
         - lag((convert_from(payload, 'UTF8')::jsonb ->> 'wallTime')::float8 / 1000) OVER (ORDER BY sequence) AS gap
    FROM dispatch_log WHERE sequence > $1) AS gaps"
}

# Real seconds from $1 (real epoch seconds, when the city's time was $2) until
# at least 98 % of $3 taxis were heard after it; gives up after 180 s.
terminals_back() {
  local since=$1 city_since=$2 before=$3
  for _ in $(seq 900); do
    local now
    now=$(sql "SELECT count(*) FROM latest_fixes WHERE received_at > to_timestamp($city_since)")
    if [ -n "$now" ] && [ $((now * 100)) -ge $((before * 98)) ]; then
      python3 -c "import time; print(f'{time.time() - $since:.1f}')"; return
    fi
    python3 -c "import sys, time; sys.exit(0 if time.time() - $since > 180 else 1)" && break
    sleep 0.2
  done
  echo ">180"
}

# The nodes' states once quiet, compared with the deciding node's at the
# same log entry (read until all three stand at one): prints "diverged double-offers".
consistency() {
  local owner_index states=("$dir/state-0.json" "$dir/state-1.json" "$dir/state-2.json")
  owner_index=$(owner)
  [ -n "$owner_index" ] || { echo "no-owner no-owner"; return; }
  for _ in $(seq 40); do
    for i in 0 1 2; do state "$i" >"${states[$i]}"; done
    python3 - "${states[@]}" <<'PY' && break
import json, os, sys
sequences = {json.load(open(f))["logSequence"] for f in sys.argv[1:] if os.path.getsize(f)}
sys.exit(0 if len(sequences) == 1 else 1)
PY
    sleep 0.5
  done
  python3 - "$owner_index" "${states[@]}" <<'PY'
import json, os, sys
owner = int(sys.argv[1])
docs = [json.load(open(f)) if os.path.getsize(f) else None for f in sys.argv[2:]]
def core(doc):
    # Dictionaries with keys other than strings come as [key, value, ...]
    # pairs, in each process's own hash order.
    state = {name: ({str(value[i]): value[i + 1] for i in range(0, len(value), 2)} if isinstance(value, list) else value)
             for name, value in doc["state"].items()}
    return json.dumps(state, sort_keys=True)
diverged = sum(1 for i, doc in enumerate(docs) if doc is not None and i != owner and core(doc) != core(docs[owner]))
requests = docs[owner]["state"].get("requests") or []
requests = requests.values() if isinstance(requests, dict) else [r for r in requests if isinstance(r, dict)]
def taxis(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "taxi" and isinstance(inner, str):
                yield inner
            else:
                yield from taxis(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from taxis(inner)
held = {}
for request in requests:
    for taxi in set(taxis(request.get("phase"))):
        held[taxi] = held.get(taxi, 0) + 1
print(diverged, sum(1 for count in held.values() if count > 1))
PY
}

run_scenario() {
  local scenario=$1 run=$2 name=${names[$(($1 - 1))]}
  "$cluster" up --clock-rate "$clock_rate" >/dev/null
  new_token
  end_open_rides
  local sim_out acknowledged_csv="$dir/chaos-$name-$run-acknowledged.csv" missing_csv="$dir/chaos-$name-$run-missing.csv"
  sim_out="$dir/chaos-$name-$run.json"
  local first_entry
  first_entry=$(log_top)
  echo cluster-admin-1 | "$bin" simulate --zones "$root/Zones/manhattan/zones.geojson" --graph "$dir/city/midtown.graph" \
    --http-port 8080 --line-port 5100 --teltonika-port 5027 --gt06-port 5023 --admin admin --password-stdin \
    --taxis "$taxis" --passengers "$taxis" --requests-per-hour "$rate" --speed-up "$clock_rate" --hours 24 \
    --seed "$((2026 + run))" --burst "$burst" --acknowledged-fixes "$acknowledged_csv" \
    --progress-every 30 --json >"$sim_out" 2>"$dir/chaos-$name-$run.log" &
  local simulator=$!
  wait_for_fleet "$simulator"
  sleep "$warm_up"
  local before at city_at owner_index
  before=$(taxis_reporting)
  owner_index=$(owner)
  log "run $run of $name: owner ${nodes[${owner_index:-0}]}, $before taxis reporting; the failure and a burst of $burst requests"
  city_at=$(service_now)
  at=$(python3 -c 'import time; print(time.time())')
  local upgrading=
  case "$name" in
    owner-kill) kill -9 "$(cat "$dir/node-${nodes[$owner_index]}.pid")" ;;
    upgrade) "$cluster" upgrade >/dev/null & upgrading=$! ;;
    primary-kill)
      local member
      member=$("$cluster" status | sed -n 's/.*PostgreSQL primary: //p')
      pkill -9 -f "$dir/$member/patroni.yml" || true
      pkill -9 -f "$pg_bin/postgres -D $dir/$member/data" || true ;;
    owner-cut) pg_door "$owner_index" maint ;;
    follower-kill) kill -9 "$(cat "$dir/node-${nodes[$(( (owner_index + 1) % 3 ))]}.pid")" ;;
  esac
  kill -USR1 "$simulator"
  local terminals
  if [ "$name" = owner-cut ]; then
    sleep 20
    pg_door "$owner_index" ready
  fi
  terminals=$(terminals_back "$at" "$city_at" "$before")
  [ -z "$upgrading" ] || wait "$upgrading"
  sleep "$settle"
  kill -INT "$simulator"
  wait "$simulator" || true
  "$cluster" up >/dev/null
  local summary acknowledged lost requests_logged requests_ok failed retries diverged doubled doubled_keys
  summary=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["fixesAcknowledged"], d["requests"], d["apiFailures"], d.get("apiRetries", 0))' "$sim_out")
  read -r acknowledged requests_ok failed retries <<<"$summary"
  lost=$(missing_fixes "$acknowledged_csv" "$missing_csv")
  [ "$lost" != 0 ] || rm -f "$missing_csv"
  local keyed="SELECT convert_from(payload, 'UTF8')::jsonb AS entry FROM dispatch_log WHERE sequence > $first_entry"
  requests_logged=$(sql "SELECT count(DISTINCT entry ->> 'idempotencyKey') FROM ($keyed) AS log WHERE entry -> 'command' ? 'request'")
  doubled_keys=$(sql "SELECT count(*) FROM (SELECT entry ->> 'idempotencyKey' FROM ($keyed) AS log
    WHERE entry ? 'idempotencyKey' GROUP BY 1 HAVING count(*) > 1) AS twice")
  read -r diverged doubled <<<"$(consistency)"
  local dispatch
  dispatch=$(dispatch_pause "$first_entry")
  local missing=$(( requests_ok > requests_logged ? requests_ok - requests_logged : 0 ))
  local row="| $name | $run | $acknowledged / $lost | $requests_ok / $missing / $doubled_keys | $diverged | $doubled | $dispatch | $terminals | $failed ($retries retries) |"
  echo "$row"
  echo "$row" >>"$dir/chaos.md"
}

"$cluster" up --clock-rate "$clock_rate" >/dev/null
if [ ! -s "$dir/chaos.md" ]; then
  cat >"$dir/chaos.md" <<'MD'
| scenario | run | fixes acknowledged / lost | requests 201 / lost / doubled | diverged nodes | double offers | longest dispatch pause (s) | terminals heard again (s) | calls failed after retries |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
MD
fi
head -2 "$dir/chaos.md"
for run in $(seq "$runs"); do
  for scenario in ${scenarios//,/ }; do
    run_scenario "$scenario" "$run"
  done
done
