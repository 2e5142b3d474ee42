#!/usr/bin/env bash
# Issue #37: how many workers one PostgreSQL server carries, directly and
# through PgBouncer in transaction pooling.
#
#   bench/fleet.sh [SIZES] [PAIRS] [RUNS]
#   (defaults: 1,10,100,1000 workers; 10,000 pairs; 1 run)
#
# Needs the test server of .ci/start-postgres (started here with room for
# 1,100 connections, so that the direct rows run too) and a PgBouncer of
# version 1.21 or later (prepared statements in transaction pooling; sqlx
# prepares every statement): `pgbouncer` on PATH or PGBOUNCER=/path/to/it.
# The pooler is started here on port 56432 with 16 server connections for
# every client, its files in a scratch folder, and stopped at the end.
#
# For each size the fleet example prints one row of the table in
# BENCHMARKS.md (pairs per second, claim and store p50 / p99, final counts
# checked), first with every simulated worker connected to the server, then
# through the pooler (ARENA_FLEET_VIA). WAYS=pooler (or WAYS=direct) runs
# one way only (direct at 1,000 workers takes a quarter of an hour here).
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=${1:-1,10,100,1000}
pairs=${2:-10000}
runs=${3:-1}
pgbouncer=${PGBOUNCER:-$(command -v pgbouncer || true)}
if [ -z "$pgbouncer" ]; then
    echo "fleet.sh: no pgbouncer: install PgBouncer 1.21 or later, or set PGBOUNCER=/path/to/pgbouncer" >&2
    exit 2
fi
version=$("$pgbouncer" --version | sed -n 's/^PgBouncer \([0-9]*\)\.\([0-9]*\).*/\1 \2/p')
read -r major minor <<<"$version"
if [ -z "$major" ] || [ "$major" -lt 1 ] || { [ "$major" -eq 1 ] && [ "$minor" -lt 21 ]; }; then
    echo "fleet.sh: $pgbouncer is not PgBouncer 1.21 or later (it keeps no prepared statements in transaction pooling); set PGBOUNCER" >&2
    exit 2
fi
direct=$(ARENA_PG_MAX_CONNECTIONS=${ARENA_PG_MAX_CONNECTIONS:-1100} .ci/start-postgres)
limit=$(psql "$direct" -Atc "SHOW max_connections")
echo "the server takes $limit connections (one started before with fewer: pg_ctl -D /tmp/arena-pg-55432 stop, then again)"
cargo build --release -p arena --example fleet --quiet

dir=$(mktemp -d /tmp/arena-pgbouncer.XXXXXX)
cat >"$dir/pgbouncer.ini" <<EOF
[databases]
* = host=127.0.0.1 port=55432
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = 56432
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $dir/users.txt
pool_mode = transaction
default_pool_size = 16
max_client_conn = 5000
max_prepared_statements = 200
ignore_startup_parameters = extra_float_digits
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
EOF
echo '"arena_test" "arena_test"' >"$dir/users.txt"
# PgBouncer refuses to run as root; the test server's user runs it then.
run_as() { if [ "$(id -u)" = 0 ]; then chown -R postgres: "$dir"; runuser -u postgres -- "$@"; else "$@"; fi; }
run_as sh -c "ulimit -n 20000; exec '$pgbouncer' -d '$dir/pgbouncer.ini'"
trap 'kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null; rm -rf "$dir"' EXIT
ulimit -n 20000
ways=${WAYS:-direct pooler}
if [[ " $ways " == *" direct "* ]]; then
    echo "## direct"
    ARENA_FLEET_VIA= target/release/examples/fleet "$direct" "$sizes" "$pairs" "$runs"
fi
if [[ " $ways " == *" pooler "* ]]; then
    echo "## through PgBouncer (transaction pooling, 16 server connections)"
    ARENA_FLEET_VIA=postgres://arena_test:arena_test@127.0.0.1:56432 \
        target/release/examples/fleet "$direct" "$sizes" "$pairs" "$runs"
fi
