#!/bin/bash
# Runs a command beside a throwaway PostgreSQL 15 + PostGIS 3 cluster:
# initdb in a temporary directory (as the postgres user when run as root,
# since PostgreSQL refuses to run as root), a free loopback port, password
# login for the user mytaxi, PostGIS in template1 so that every database a
# test creates has it. The command sees the cluster's URL in
# MYTAXI_TEST_DATABASE_URL, its data directory in MYTAXI_TEST_PG_DATA and its
# binaries' directory in MYTAXI_TEST_PG_BIN (to stop and start it, as the
# owner of DATA: the postgres user when run as root);
# the cluster is stopped and removed when the command ends, however it ends.
# Usage: Tools/with-postgres.sh COMMAND [ARGUMENT...]
set -euo pipefail

bindir="$(pg_config --bindir)"
if [ ! -x "$bindir/initdb" ]; then
  echo "with-postgres: no initdb in $bindir; install postgresql-15 and postgresql-15-postgis-3 (make deps-postgres)" >&2
  exit 2
fi

cluster="$(mktemp -d "${TMPDIR:-/tmp}/mytaxi-postgres.XXXXXX")"
password="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

stop_cluster() {
  as_owner "$bindir/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$cluster"
}
trap stop_cluster EXIT INT TERM

if [ "$(id -u)" = 0 ]; then chown postgres "$cluster"; fi
printf '%s\n' "$password" > "$cluster/password"
chmod 600 "$cluster/password"
if [ "$(id -u)" = 0 ]; then chown postgres "$cluster/password"; fi
as_owner "$bindir/initdb" -D "$cluster/data" -U mytaxi --pwfile="$cluster/password" \
  --auth-local=scram-sha-256 --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$cluster/initdb.log" 2>&1 \
  || { cat "$cluster/initdb.log" >&2; exit 2; }
# In the cluster's own configuration, so that a test that stops the server
# (pg_ctl stop -m immediate) starts it again with `pg_ctl -D DIR start` alone.
cat >> "$cluster/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$cluster'
max_connections = 200
CONF
as_owner "$bindir/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w start >/dev/null \
  || { cat "$cluster/server.log" >&2; exit 2; }

export PGPASSWORD="$password"
psql -q -h 127.0.0.1 -p "$port" -U mytaxi -d template1 -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION IF NOT EXISTS postgis'
psql -q -h 127.0.0.1 -p "$port" -U mytaxi -d template1 -v ON_ERROR_STOP=1 -c 'CREATE DATABASE mytaxi'
unset PGPASSWORD

export MYTAXI_TEST_DATABASE_URL="postgres://mytaxi:$password@127.0.0.1:$port/mytaxi"
export MYTAXI_TEST_PG_BIN="$bindir"
export MYTAXI_TEST_PG_DATA="$cluster/data"
echo "with-postgres: PostgreSQL on 127.0.0.1:$port (cluster in $cluster, stopped when done)" >&2
"$@"
