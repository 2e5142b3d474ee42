#!/usr/bin/env bash
# The papers' four self-play matches (issue #20) as resumable SPRT runs in
# one database: the first call creates them from bench/papers/*.toml, every
# call (again after Ctrl-C, a crash or a reboot) plays on where they stopped,
# one after the other. Progress is the worker's line per pair.
#
#   bench/papers.sh [DB]          # default: papers.db here
#   arena show N --db papers.db   # any time, from another terminal
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:-papers.db}
arena=target/release/arena
cargo build --release -p arena --quiet
if [ ! -e "$db" ]; then
    for match in vnm fhr multicut vnb; do
        "$arena" run "bench/papers/$match.toml" --db "$db" --no-local --quiet >/dev/null
    done
fi
"$arena" runs --db "$db"
for run in 1 2 3 4; do
    "$arena" worker --db "$db" --run "$run" --concurrency 2 --no-io-log
done
"$arena" runs --db "$db"
