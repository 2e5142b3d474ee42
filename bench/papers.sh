#!/usr/bin/env bash
# Issue #20 at a scale that decides, as resumable runs in one database:
#  - the papers' four self-play matches as SPRT runs (bench/papers/*.toml);
#  - tree sizes on the full ECM (879 positions) at depths 9 and 10 for std
#    R = 3 (the 100 % reference, as in the verified null-move paper's Table
#    3), std R = 2 and verified R = 3, through `arena suite`; the same on
#    WCSAC (1,001) at depths 8 and 9 (its Table 4).
# The first call creates what is missing; every call (again after Ctrl-C, a
# crash or a reboot) plays on where the runs stopped: each match up to
# 2,000 games (the issue's floor; round robin, so that all four have a
# result early), then the suites (ECM at depths 9 and 10; WCSAC at 8 and 9,
# the paper's Table 4), then every SPRT on to its verdict or its 6,000
# games. Progress is the worker's line per unit.
#
#   bench/papers.sh [DB]          # default: papers.db here
#   arena show N --db papers.db   # any time, from another terminal
#   arena report N --db papers.db
set -euo pipefail
# Job control, so that a worker in the background hears Ctrl-C (SIGINT).
set -m
cd "$(dirname "$0")/.."
db=${1:-papers.db}
arena=target/release/arena
cargo build --release -p arena --quiet
if [ ! -e "$db" ]; then
    for match in vnm fhr fhr-nmp2 multicut vnb; do
        "$arena" run "bench/papers/$match.toml" --db "$db" --no-local --quiet >/dev/null
    done
fi
suites=$("$arena" runs --db "$db" | awk 'NR > 1 && $2 == "suite"' | wc -l)
if [ "$suites" -lt 1 ]; then
    "$arena" suite --engines nmp3,nmp2,vnm --suite ecm --depth 9,10 --stall 600 --db "$db" --no-local --quiet >/dev/null
fi
if [ "$suites" -lt 2 ]; then
    # The paper's Table 4 (WCS, depths 8-10; we play 8 and 9).
    "$arena" suite --engines nmp3,nmp2,vnm --suite wcsac --depth 8,9 --stall 600 --db "$db" --no-local --quiet >/dev/null
fi
"$arena" runs --db "$db"
column() { "$arena" runs --db "$db" | awk -v r="$1" -v c="$2" '$1 == r {print $c}'; }
open_runs() { "$arena" runs --db "$db" | awk -v k="$1" 'NR > 1 && $2 == k && $3 == "running" {print $1}' | sort -n; }
floor=2000
for run in $(open_runs sprt); do
    [ "$(column "$run" 4 | cut -d/ -f1)" -ge "$floor" ] && continue
    "$arena" worker --db "$db" --run "$run" --concurrency 2 --no-io-log &
    worker=$!
    while kill -0 "$worker" 2>/dev/null; do
        sleep 30
        if [ "$(column "$run" 3)" != running ] || [ "$(column "$run" 4 | cut -d/ -f1)" -ge "$floor" ]; then
            kill -INT "$worker" 2>/dev/null || true
            wait "$worker" || true
        fi
    done
done
for run in $(open_runs suite); do
    "$arena" worker --db "$db" --run "$run" --concurrency 2 --no-io-log
done
for run in $(open_runs sprt); do
    "$arena" worker --db "$db" --run "$run" --concurrency 2 --no-io-log
done
"$arena" runs --db "$db"
