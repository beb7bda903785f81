#!/usr/bin/env bash
# Ingest of the service on several nodes (Tools/cluster.sh up first):
# mytaxi-loadgen's terminals (line protocol over TCP, 4 fixes in flight
# each, as fast as the ACKs allow) through HAProxy's line port, first with
# the three nodes up, then with node a alone (b and c stopped, so that
# HAProxy sends every terminal to a); the fixes acknowledged per second of
# each, and each node's resident memory under the load. Every fix is
# committed on PostgreSQL's primary and its synchronous standby before
# its ACK. On one machine the nodes share its cores and its one database,
# so three nodes cannot ingest more than one here: the run says what the
# front door and the nodes cost, not how the service grows across machines.
# The load's devices (LG000001...) report for taxis LG-TX000001..., added to
# the cluster's devices file for the run (SIGHUP) and taken out after it.
# Last, the read each node makes every second to know the taxis of the
# other nodes (every taxi's newest fix), timed on PostgreSQL with 10,000
# taxis, the missing ones added in a transaction that is rolled back.
# Usage: Tools/bench-cluster-ingest.sh [DEVICES] [SECONDS]
# Environment: MYTAXI_BIN (a built mytaxi, mytaxi-loadgen beside it),
# CLUSTER_DIR as for Tools/cluster.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-/tmp/mytaxi-cluster}
export CLUSTER_DIR=$dir
devices=${1:-2000}
seconds=${2:-30}
bin=${MYTAXI_BIN:-$(cd "$root" && swift build -c release --show-bin-path)/mytaxi}
loadgen=$(dirname "$bin")/mytaxi-loadgen
[ -x "$loadgen" ] || { echo "no mytaxi-loadgen beside $bin: build it (swift build --product mytaxi-loadgen)" >&2; exit 2; }
export MYTAXI_BIN=$bin
nodes=(a b c)
pg_bin=/usr/lib/postgresql/15/bin
devices_file="$dir/city/devices.csv"

reload_devices() { for name in "${nodes[@]}"; do kill -HUP "$(cat "$dir/node-$name.pid")" 2>/dev/null || true; done; }
restore() {
  [ -f "$devices_file.before-bench" ] && mv "$devices_file.before-bench" "$devices_file"
  "$root/Tools/cluster.sh" up >/dev/null
  reload_devices
}
trap restore EXIT

"$root/Tools/cluster.sh" up >/dev/null
cp "$devices_file" "$devices_file.before-bench"
"$loadgen" --devices "$devices" --write-devices "$dir/bench-devices.csv" >/dev/null
tail -n +2 "$dir/bench-devices.csv" | sed 's/,TX/,LG-TX/' >>"$devices_file"
reload_devices
sleep 2

# Fixes archived so far by the running nodes, from their /metrics.
archived() {
  local total=0
  for i in 0 1 2; do
    local count
    count=$(curl -sf -m 5 "http://127.0.0.1:$((8081 + i))/metrics" | awk '/^mytaxi_fixes_archived_total/ { s += $2 } END { printf "%d", s }' || true)
    total=$((total + ${count:-0}))
  done
  echo "$total"
}

# Runs the load through HAProxy ($1 names the run), prints each running
# node's memory halfway, and the fixes the nodes archived meanwhile (the
# load generator reads one server's /metrics only, so it is pointed at none).
run() {
  printf '\n== %s: %s devices through HAProxy, %s s\n' "$1" "$devices" "$seconds"
  local before
  before=$(archived)
  "$loadgen" --port 5100 --devices "$devices" --window 4 --count 100000000 --duration "$seconds" --drain-seconds 3 \
    --bbox=-74.00,40.74,-73.97,40.77 --metrics-url http://127.0.0.1:9/metrics &
  local load=$!
  sleep $(( seconds / 2 ))
  for name in "${nodes[@]}"; do
    local pid
    pid=$(cat "$dir/node-$name.pid")
    if kill -0 "$pid" 2>/dev/null; then printf 'node %s RSS: %s MB\n' "$name" "$(( $(ps -o rss= -p "$pid") / 1024 ))"; fi
  done
  wait "$load"
  printf 'archived by the nodes meanwhile: %s fixes\n' "$(( $(archived) - before ))"
}

run "three nodes"
for name in b c; do kill -TERM "$(cat "$dir/node-$name.pid")"; done
for name in b c; do while kill -0 "$(cat "$dir/node-$name.pid")" 2>/dev/null; do sleep 0.2; done; done
sleep 5
run "one node (a)"

printf '\n== the read of every taxi'"'"'s newest fix that each node makes every second, 10,000 taxis\n'
# The query of PostgresFixArchive.latestFixPerTaxi, run ten times.
latest_fix_per_taxi="SELECT taxi_id, (extract(epoch FROM time) * 1000)::int8 AS time_ms, device_id, protocol, lon, lat, speed_kmh,
    heading, zone_id, (extract(epoch FROM received_at) * 1000)::int8 AS received_ms FROM (
  SELECT DISTINCT ON (taxi_id) * FROM (
    SELECT taxi_id, time, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_at, 0 AS source FROM latest_fixes
    UNION ALL SELECT taxi_id, time, device_id, protocol, lon, lat, speed_kmh, heading, zone_id, received_at, 1 AS source FROM fix_journal
  ) AS candidates ORDER BY taxi_id, time DESC, source) AS latest
ORDER BY taxi_id;"
"$pg_bin/psql" "postgres://mytaxi:$(cat "$dir/secret")@127.0.0.1:5440/mytaxi" -Atq <<SQL
BEGIN;
INSERT INTO latest_fixes
  SELECT 'BENCH-TX' || g, now(), 'BENCH' || g, 'line', -73.98, 40.75, 20, 90, NULL, now()
  FROM generate_series(1, greatest(0, 10000 - (SELECT count(*) FROM latest_fixes))) AS g;
-- The journal holds each taxi's fixes until the mover takes them into the
-- indexed table, every few seconds: one fix of each taxi here.
INSERT INTO fix_journal SELECT taxi_id, time + interval '1 second', device_id, protocol, lon, lat, speed_kmh, heading, zone_id,
  received_at FROM latest_fixes;
SELECT 'taxis: ' || count(*) FROM latest_fixes;
\o /dev/null
\timing on
$(for _ in $(seq 10); do echo "$latest_fix_per_taxi"; done)
\timing off
\o
ROLLBACK;
SQL
