#!/usr/bin/env bash
# Benchmark: `arena serve` under load while a match plays. A fixed-node
# match (2 seats, the machine's 2 cores) plays; the dashboard serves its
# database. In alternating windows of WINDOW seconds the dashboard is left
# alone ("quiet") or gets one burst of 200 requests, 20 at a time, at the
# run page ("load"). Prints each burst's latency (median, p99) and the
# match's games per minute in every window (from the stored games' finishing
# times), then the quiet and load medians.
#
#   bench/serve_load.sh [WINDOWS] [WINDOW_SECONDS] [TC]
#   (defaults: 6 windows of 30 s, nodes=2000)
set -euo pipefail
cd "$(dirname "$0")/.."
windows=${1:-6}
window=${2:-30}
tc=${3:-nodes=2000}
cargo build --release -q -p arena --bins --example serve_load
arena=$PWD/target/release/arena
load=$PWD/target/release/examples/serve_load
work=$(mktemp -d)
cleanup() { kill "${match_pid:-}" "${serve_pid:-}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
cd "$work"

"$arena" match --a fhr --b plain --games 100000 --tc "$tc" --openings noob_2moves --seed 1 --concurrency 2 \
    --quiet >/dev/null 2>&1 &
match_pid=$!
sleep 10 # the run exists and both seats play
"$arena" serve --listen 127.0.0.1:0 2>serve.log &
serve_pid=$!
until grep -q 'http://' serve.log; do sleep 0.1; done
address=$(grep -o 'http://[0-9.:]*' serve.log | head -1 | sed 's|http://||')
"$load" "$address" /runs/1 20 5 1 >/dev/null # warm up

ms() { date +%s%3N; }
games_between() { sqlite3 arena.db "SELECT COUNT(*) FROM games WHERE finished_ms >= $1 AND finished_ms < $2"; }
quiet=() ; loaded=()
printf '%-7s %-6s %6s %10s  %s\n' window kind games games/min burst
for i in $(seq 1 "$windows"); do
    start=$(ms)
    if (( i % 2 == 0 )); then
        kind=load
        burst=$("$load" "$address" /runs/1 200 20 1)
    else
        kind=quiet
        burst=-
    fi
    sleep $(( window - ($(ms) - start) / 1000 ))
    end=$(ms)
    n=$(games_between "$start" "$end")
    rate=$(awk -v n="$n" -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", n * 60000 / (b - a) }')
    if [[ $kind == load ]]; then loaded+=("$rate"); else quiet+=("$rate"); fi
    printf '%-7s %-6s %6s %10s  %s\n' "$i" "$kind" "$n" "$rate" "${burst#round 1: }"
done
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
q=$(median "${quiet[@]}"); l=$(median "${loaded[@]}")
awk -v q="$q" -v l="$l" 'BEGIN { printf "games/min: quiet median %.1f, load median %.1f (%+.1f %%)\n", q, l, 100 * (l - q) / q }'
