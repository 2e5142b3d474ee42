#!/usr/bin/env bash
# Benchmark: games per minute with 1, 2 and 4 `arena worker`s sharing one
# PostgreSQL run on this machine, at the same total concurrency (4 games at
# once: 1 worker x 4 slots, 2 x 2, 4 x 1), and the same with SQLite as the
# shared file. Each configuration plays the same fixed-node match (identical
# games whatever the schedule: the work is the same), created with
# `--no-local`; the time is from the first worker's start until the last
# exits (the run is finished).
#
#   bench/workers.sh [GAMES] [TC] [POSTGRES_URL]
#   (defaults: 400 games, nodes=3000, the server of .ci/start-postgres)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
tc=${2:-nodes=3000}
server=${3:-postgres://arena_test:arena_test@127.0.0.1:55432/arena_test}
cargo build --release -q -p arena
arena=$PWD/target/release/arena
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

scratch() { # a fresh database named $1 on the server
    local base=${server%/*}
    psql "$server" -qc "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" >/dev/null 2>&1
    echo "$base/$1"
}

printf '%-10s %7s %5s %7s %9s %10s\n' backend workers slots games seconds games/min
for backend in postgres sqlite; do
    for workers in 1 2 4; do
        slots=$((4 / workers))
        if [ "$backend" = postgres ]; then db=$(scratch "arena_workers_bench_$workers"); else db=$work/w$workers.db; fi
        "$arena" match --a fhr --b plain --games "$games" --tc "$tc" --openings noob_2moves --seed 1 \
            --db "$db" --no-local --quiet >/dev/null 2>&1
        start=$(date +%s.%N)
        pids=()
        for _ in $(seq "$workers"); do
            "$arena" worker --db "$db" --run 1 --concurrency "$slots" --quiet &
            pids+=($!)
        done
        wait "${pids[@]}"
        end=$(date +%s.%N)
        stored=$("$arena" runs --db "$db" | awk '$1 == 1 {print $4}' | cut -d/ -f1)
        seconds=$(echo "$end - $start" | bc -l)
        printf '%-10s %7d %5d %7s %9.1f %10.1f\n' "$backend" "$workers" "$slots" "$stored" "$seconds" \
            "$(echo "$stored * 60 / $seconds" | bc -l)"
    done
done
