#!/usr/bin/env bash
# The service on one machine as it runs in production, to try failures and
# upgrades on: etcd, two PostgreSQL 15 + PostGIS servers under Patroni (a
# primary and a synchronous standby, so that a commit the service
# acknowledged survives the primary's loss), three `mytaxi serve` nodes on
# loopback ports sharing the database, and HAProxy in front of the API, the
# terminals' TCP ports and PostgreSQL's primary. Debian's patroni,
# etcd-server and haproxy are installed when missing. Everything lives in
# CLUSTER_DIR and listens on 127.0.0.1 only.
#
#   up       start what is not running (the first time: initialise the
#            database, build the demo city's graph); `up --clock-rate X`
#            the first time runs the city's clock X times faster than real
#            time on every node, from one origin (serve --clock-origin), so
#            that the nodes tell one time and a restarted node goes on at it;
#            the rate stays the cluster's until `down --wipe`
#   down     stop everything (CLUSTER_DIR is kept; `down --wipe` removes it)
#   status   what runs, who is PostgreSQL's primary, which node decides dispatch
#   upgrade  restart the mytaxi nodes one at a time, each drained first and
#            waited for until healthy again, as a rolling upgrade would
#   demo     run the simulator (300 taxis, 600 requests an hour of the
#            city's time, at its clock's rate) against the front doors
#            until Ctrl-C (`make cluster-demo`)
#
# Front doors (HAProxy): API http://127.0.0.1:8080 (health-checked on
# /healthz), line protocol 5100, OsmAnd 5055, Teltonika 5027, GT06 5023,
# NMEA 5005 (TCP; UDP terminals go to a node's own port), PostgreSQL's
# primary 5440 (and 5451-5453, one per node, which the nodes use, so that
# Tools/chaos.sh can cut one node off the database through HAProxy's
# admin socket $CLUSTER_DIR/haproxy.sock), HAProxy's statistics http://127.0.0.1:8404/.
# Node n (1..3) is named a, b, c; its API is 808n, its terminal ports the
# front door's plus 100·n.
# Environment: MYTAXI_BIN (a built mytaxi; default: the release build, made
# when missing), CLUSTER_DIR (/tmp/mytaxi-cluster).
# Usage: Tools/cluster.sh up [--clock-rate X]|down [--wipe]|status|upgrade|demo
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-/tmp/mytaxi-cluster}
command=${1:-}
nodes=(a b c)
pg_bin=/usr/lib/postgresql/15/bin
front_api=8080 front_pg=5440 stats=8404
declare -A front_ports=([line]=5100 [osmand]=5055 [teltonika]=5027 [gt06]=5023 [nmea]=5005)

usage() { sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 2; }

log() { printf 'cluster: %s\n' "$*"; }

# Runs a command as the postgres user: PostgreSQL refuses to run as root.
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

running() { [ -f "$dir/$1.pid" ] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

# Waits up to $2 seconds for the command after it to succeed.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq $((seconds * 5))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  log "gave up after ${seconds}s waiting for $what (logs in $dir)"
  return 1
}

install_missing() {
  local missing=""
  for package in patroni etcd-server haproxy postgresql-15 postgresql-15-postgis-3 curl; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
  done
  if [ -n "$missing" ]; then
    log "installing Debian packages:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
  fi
}

mytaxi_bin() {
  if [ -n "${MYTAXI_BIN:-}" ]; then echo "$MYTAXI_BIN"; return; fi
  local bin
  bin="$(cd "$root" && swift build -c release --show-bin-path)/mytaxi"
  if [ ! -x "$bin" ]; then
    log "building mytaxi (release) first"
    (cd "$root" && swift build -c release --product mytaxi >&2)
  fi
  echo "$bin"
}

start_etcd() {
  running etcd && return
  mkdir -p "$dir/etcd"
  nohup etcd --name e1 --data-dir "$dir/etcd/data" --enable-v2=true \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster e1=http://127.0.0.1:2380 >>"$dir/etcd/etcd.log" 2>&1 &
  echo $! >"$dir/etcd.pid"
  wait_for etcd 30 curl -sf http://127.0.0.1:2379/health
  log "etcd on 127.0.0.1:2379"
}

# Patroni's configuration of PostgreSQL server $1 (1 or 2).
patroni_config() {
  local n=$1
  cat <<YAML
scope: mytaxi
name: pg$n
restapi:
  listen: 127.0.0.1:$((8008 + n))
  connect_address: 127.0.0.1:$((8008 + n))
etcd:
  host: 127.0.0.1:2379
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 300
        wal_log_hints: "on"
        # WAL kept for a standby that was down a while (a killed primary
        # rejoining): without it the new primary may recycle what the
        # standby needs, and it can never catch up again.
        wal_keep_size: 2GB
  initdb:
    - encoding: UTF8
    - locale: C.UTF-8
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
postgresql:
  listen: 127.0.0.1:$((5440 + n))
  connect_address: 127.0.0.1:$((5440 + n))
  data_dir: $dir/pg$n/data
  bin_dir: $pg_bin
  pgpass: $dir/pg$n/pgpass
  authentication:
    superuser:
      username: postgres
      password: $(cat "$dir/secret")
    replication:
      username: replicator
      password: $(cat "$dir/secret")
  parameters:
    unix_socket_directories: $dir/pg$n
YAML
}

start_patroni() {
  local n=$1
  running "pg$n" && return
  mkdir -p "$dir/pg$n"
  patroni_config "$n" >"$dir/pg$n/patroni.yml"
  chmod 700 "$dir/pg$n"
  if [ "$(id -u)" = 0 ]; then chown -R postgres "$dir/pg$n"; fi
  # The pid file names Patroni itself, not the runuser that started it.
  rm -f "$dir/pg$n/patroni.pid"
  as_postgres sh -c 'echo $$ >"$1"; exec patroni "$2"' sh "$dir/pg$n/patroni.pid" "$dir/pg$n/patroni.yml" \
    >>"$dir/pg$n/patroni.log" 2>&1 &
  wait_for "Patroni pg$n to start" 10 test -s "$dir/pg$n/patroni.pid"
  cp "$dir/pg$n/patroni.pid" "$dir/pg$n.pid"
}

# The Patroni member that is primary now (pg1 or pg2), empty when none is.
primary() {
  for n in 1 2; do
    if curl -sf "http://127.0.0.1:$((8008 + n))/primary" >/dev/null 2>&1; then echo "pg$n"; return; fi
  done
}

has_primary() { [ -n "$(primary)" ]; }

# True when a member is the primary's synchronous standby (Patroni's /sync).
has_sync_standby() {
  for n in 1 2; do
    if curl -sf "http://127.0.0.1:$((8008 + n))/sync" >/dev/null 2>&1; then return 0; fi
  done
  return 1
}

# The database's URL through the primary's front door; with a node index,
# through that node's own door.
database_url() {
  local port=$front_pg
  if [ $# -gt 0 ]; then port=$((5451 + $1)); fi
  echo "postgres://mytaxi:$(cat "$dir/secret")@127.0.0.1:$port/mytaxi"
}

# The mytaxi role and database with PostGIS, made once on the primary.
create_database() {
  [ -f "$dir/database-created" ] && return
  local member port
  member=$(primary)
  port=$((5440 + ${member#pg}))
  local psql=("$pg_bin/psql" -h "$dir/$member" -p "$port" -U postgres -v ON_ERROR_STOP=1 -q)
  as_postgres "${psql[@]}" -d postgres -c "CREATE ROLE mytaxi LOGIN PASSWORD '$(cat "$dir/secret")'"
  as_postgres "${psql[@]}" -d postgres -c "CREATE DATABASE mytaxi OWNER mytaxi"
  as_postgres "${psql[@]}" -d mytaxi -c "CREATE EXTENSION postgis"
  touch "$dir/database-created"
  log "database mytaxi with PostGIS made on $member"
}

# HAProxy's section $1 on port $2: PostgreSQL's primary, found on Patroni's /primary.
postgres_door() {
  cat <<CFG
listen $1
  bind 127.0.0.1:$2
  mode tcp
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
  server pg1 127.0.0.1:5441 check port 8009
  server pg2 127.0.0.1:5442 check port 8010
CFG
}

haproxy_config() {
  cat <<CFG
global
  # Two descriptors a connection (client and node side), within the open-file
  # limit HAProxy can raise itself to; raise the machine's for more terminals.
  maxconn $(( ($(ulimit -Hn) - 1000) / 2 ))
  stats socket $dir/haproxy.sock mode 600 level admin
defaults
  timeout connect 2s
  timeout check 2s
  # Terminals report every 30 s and may stay silent up to 15 minutes.
  timeout client 20m
  timeout server 20m
  timeout tunnel 1h
  retries 3
  option redispatch
  default-server inter 1s fall 2 rise 2
listen stats
  bind 127.0.0.1:$stats
  mode http
  stats enable
  stats uri /
CFG
  postgres_door postgres "$front_pg"
  for i in "${!nodes[@]}"; do postgres_door "postgres-${nodes[$i]}" $((5451 + i)); done
  cat <<CFG
listen api
  bind 127.0.0.1:$front_api
  mode http
  balance roundrobin
  option forwardfor
  option httpchk GET /healthz
  http-check expect status 200
  retry-on conn-failure empty-response response-timeout
CFG
  for i in "${!nodes[@]}"; do echo "  server ${nodes[$i]} 127.0.0.1:$((8081 + i)) check"; done
  for protocol in "${!front_ports[@]}"; do
    cat <<CFG
listen $protocol
  bind 127.0.0.1:${front_ports[$protocol]}
  mode tcp
  balance leastconn
  option httpchk GET /healthz
  http-check expect status 200
CFG
    for i in "${!nodes[@]}"; do
      echo "  server ${nodes[$i]} 127.0.0.1:$((front_ports[$protocol] + 100 * (i + 1))) check port $((8081 + i))"
    done
  done
}

# Starts HAProxy, or reloads it when its configuration changed. A running
# one with the same configuration is left alone: a reload hands new
# connections to a new process while the old one keeps serving those it
# holds (the nodes' PostgreSQL connections among them), out of reach of the
# new one's admin socket, through which Tools/chaos.sh cuts a node off.
start_haproxy() {
  haproxy_config >"$dir/haproxy.cfg.new"
  if running haproxy && cmp -s "$dir/haproxy.cfg.new" "$dir/haproxy.cfg"; then
    rm "$dir/haproxy.cfg.new"
    return
  fi
  mv "$dir/haproxy.cfg.new" "$dir/haproxy.cfg"
  if running haproxy; then
    haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid" -sf "$(cat "$dir/haproxy.pid")"
  else
    haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid"
  fi
  log "HAProxy: API 127.0.0.1:$front_api, PostgreSQL 127.0.0.1:$front_pg, statistics http://127.0.0.1:$stats/"
}

# The demo city's files, made once: zones, a devices file, the Midtown graph.
prepare_city() {
  local bin=$1
  mkdir -p "$dir/city"
  [ -f "$dir/city/midtown.graph" ] || "$bin" graph build "$root/Maps/manhattan-midtown.osm.pbf" -o "$dir/city/midtown.graph" \
    --time-zone America/New_York --speed-profile "$root/Profiles/nyc-manhattan.csv" --zones "$root/Zones/manhattan/zones.geojson" \
    >"$dir/city/graph.log" 2>&1
  [ -f "$dir/city/devices.csv" ] || "$bin" simulate devices --taxis 300 -o "$dir/city/devices.csv"
  local made
  if ! made=$(echo cluster-admin-1 | "$bin" accounts create --database "$(database_url)" --role administrator \
    --username admin --password-stdin 2>&1); then
    case "$made" in *"already taken"*) ;; *) echo "$made" >&2; return 1 ;; esac
  fi
}

# Starts mytaxi node $1 (index 0..2) unless it runs. The simulator's drivers
# and passengers all log in from this machine's one address, hence the
# login and registration limits; bcrypt cost 8 keeps their logins quick.
start_node() {
  local i=$1 bin=$2 name=${nodes[$1]}
  running "node-$name" && return
  local port=$((8081 + i)) offset=$((100 * (i + 1)))
  nohup "$bin" serve --zones "$root/Zones/manhattan/zones.geojson" --devices "$dir/city/devices.csv" \
    --graph "$dir/city/midtown.graph" --database "$(database_url "$i")" \
    --node-id "$name" --advertise "http://127.0.0.1:$port" --http-port "$port" \
    --line-port $((front_ports[line] + offset)) --osmand-port $((front_ports[osmand] + offset)) \
    --teltonika-port $((front_ports[teltonika] + offset)) --gt06-port $((front_ports[gt06] + offset)) \
    --nmea-port $((front_ports[nmea] + offset)) --trusted-proxy 127.0.0.1/32 --drain-seconds 3 \
    --login-limit 100000 --registration-limit 100000 --bcrypt-cost 8 --session-lifetime 604800 $(clock_options) \
    >>"$dir/node-$name.log" 2>&1 &
  echo $! >"$dir/node-$name.pid"
}

healthy() { curl -sf "http://127.0.0.1:$((8081 + $1))/healthz" >/dev/null; }

# The city's clock: its rate, chosen at the cluster's first start ($1, 1
# when empty) and kept with the real time it started at in $dir/clock; a
# later `up` asking for another rate is refused, for the dispatch log's
# and the archive's times would go back.
choose_clock() {
  local asked=$1 rate origin
  if [ ! -f "$dir/clock" ]; then
    echo "${asked:-1} $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$dir/clock"
  fi
  read -r rate origin <"$dir/clock"
  if [ -n "$asked" ] && [ "$asked" != "$rate" ]; then
    log "the cluster in $dir runs its clock at ${rate}x since $origin; it cannot change: \`$0 down --wipe\` first"
    return 1
  fi
}

# The city's clock rate.
clock_rate() {
  local rate origin
  read -r rate origin <"$dir/clock"
  echo "$rate"
}

# serve's clock options for the nodes: none at 1x.
clock_options() {
  local rate origin
  read -r rate origin <"$dir/clock"
  [ "$rate" = 1 ] || echo "--clock-rate $rate --clock-origin $origin"
}

up() {
  local asked_rate=
  if [ "${1:-}" = --clock-rate ]; then asked_rate=${2:?"--clock-rate needs a number, e.g. 10"}; fi
  install_missing
  mkdir -p "$dir"
  choose_clock "$asked_rate"
  [ -f "$dir/secret" ] || od -An -N12 -tx1 /dev/urandom | tr -d ' \n' >"$dir/secret"
  chmod 644 "$dir/secret"
  local bin
  bin=$(mytaxi_bin)
  start_etcd
  start_patroni 1
  start_patroni 2
  wait_for "a PostgreSQL primary under Patroni" 90 has_primary
  log "PostgreSQL primary: $(primary)"
  # A commit is acknowledged once the standby has it too: without one in
  # sync, losing the primary would stop the city (or lose what it took).
  if ! wait_for "a synchronous standby" 180 has_sync_standby; then
    log "no standby caught up with the primary; if its log says a WAL segment 'has already been removed', rebuild it: patronictl -c $dir/pg1/patroni.yml reinit mytaxi <member>"
    return 1
  fi
  start_haproxy
  create_database
  prepare_city "$bin"
  for i in "${!nodes[@]}"; do start_node "$i" "$bin"; done
  for i in "${!nodes[@]}"; do wait_for "node ${nodes[$i]} healthy" 120 healthy "$i"; done
  status
}

down() {
  for i in "${!nodes[@]}"; do
    local name=${nodes[$i]}
    running "node-$name" && kill -TERM "$(cat "$dir/node-$name.pid")" 2>/dev/null || true
  done
  for i in "${!nodes[@]}"; do
    local name=${nodes[$i]}
    while running "node-$name"; do sleep 0.2; done
  done
  for member in haproxy pg1 pg2 etcd; do
    if running "$member"; then
      kill -TERM "$(cat "$dir/$member.pid")" 2>/dev/null || true
      for _ in $(seq 150); do running "$member" || break; sleep 0.2; done
    fi
  done
  log "stopped"
  if [ "${1:-}" = --wipe ]; then rm -rf "$dir"; log "removed $dir"; fi
}

status() {
  for member in etcd pg1 pg2 haproxy "${nodes[@]/#/node-}"; do
    if running "$member"; then printf '  %-8s running (pid %s)\n' "$member" "$(cat "$dir/$member.pid")"; else printf '  %-8s stopped\n' "$member"; fi
  done
  printf '  PostgreSQL primary: %s\n' "$(primary || true)"
  for i in "${!nodes[@]}"; do
    local name=${nodes[$i]} health
    health=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$((8081 + i))/healthz" || true)
    printf '  node %s: http://127.0.0.1:%s, /healthz %s\n' "$name" $((8081 + i)) "$health"
  done
  grep -h "this node decides dispatch now" "$dir"/node-*.log 2>/dev/null | sort | tail -1 | sed 's/^/  last takeover: /' || true
}

# A rolling restart: each node drained (SIGTERM; /healthz 503 for 3 s while
# it still serves, so HAProxy moves off), stopped, started again (the new
# binary when MYTAXI_BIN changed) and waited for until healthy, before the next.
upgrade() {
  local bin
  bin=$(mytaxi_bin)
  for i in "${!nodes[@]}"; do
    local name=${nodes[$i]}
    log "upgrading node $name"
    if running "node-$name"; then
      kill -TERM "$(cat "$dir/node-$name.pid")"
      while running "node-$name"; do sleep 0.2; done
    fi
    start_node "$i" "$bin"
    wait_for "node $name healthy again" 120 healthy "$i"
  done
  status
}

# The simulated fleet and passengers against the front doors, until Ctrl-C.
demo() {
  local bin
  bin=$(mytaxi_bin)
  local rate
  rate=$(clock_rate)
  log "simulating 300 taxis and 600 requests an hour through HAProxy at ${rate}x; the map: http://127.0.0.1:$front_api/map (admin / cluster-admin-1)"
  echo cluster-admin-1 | "$bin" simulate --zones "$root/Zones/manhattan/zones.geojson" --graph "$dir/city/midtown.graph" \
    --http-port "$front_api" --line-port "${front_ports[line]}" --teltonika-port "${front_ports[teltonika]}" \
    --gt06-port "${front_ports[gt06]}" --admin admin --password-stdin --taxis 300 --passengers 300 \
    --requests-per-hour 600 --speed-up "$rate" --hours 24 --seed 2026 --progress-every 30
}

case "$command" in
  up) shift; up "$@" ;;
  down) down "${2:-}" ;;
  status) status ;;
  upgrade) upgrade ;;
  demo) demo ;;
  *) usage ;;
esac
