#!/usr/bin/env bash
# Benchmark: positions per second through `arena suite`, and its overhead
# against the engine searching the same positions in-process.
#
#   bench/suite_overhead.sh [COUNT] [DEPTH] [ROUNDS]   (defaults: 300 WAC positions, depth 5, 3 rounds)
#
# 1. The engine alone: engine/examples/suite.rs searches the first COUNT WAC
#    positions at DEPTH in one process (table cleared between positions).
# 2. The same through the arena, concurrency 1: one engine process speaking
#    UCI, `ucinewgame` + `Clear Hash` + `isready` per position, answers stored.
# 3. The arena at concurrency 2 (positions per second on 2 cores).
# Overhead = time(2) / time(1) − 1 (target: under 5 %), from the medians of
# ROUNDS interleaved repetitions (single runs on this machine vary by ±10 %).
# Node totals of 1 and 2 must be equal: the same search, only the transport differs.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-300}
depth=${2:-5}
cargo build --release -q -p arena -p engine --examples --bins
arena=${ARENA_BIN:-target/release/arena} # ARENA_BIN=/tmp/old/arena: another build, for a before/after
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

seconds() { local start end; start=$(date +%s.%N); "$@" >"$work/out" 2>&1; end=$(date +%s.%N); echo "$end - $start" | bc -l; }

rounds=${3:-3}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
engine_runs=(); arena_runs=(); two_runs=()
for round in $(seq "$rounds"); do
    engine_runs+=("$(seconds target/release/examples/suite data/suites/wac.epd "$count" "depth=$depth" plain)")
    engine_nodes=$(grep -o '| depth [0-9]* | [0-9]* |' "$work/out" | awk '{print $5}')
    rm -f "$work"/one.db*
    arena_runs+=("$(seconds "$arena" suite --engines plain --suite wac --count "$count" --depth "$depth" \
        --concurrency 1 --quiet --db "$work/one.db")")
    arena_nodes=$("$arena" report 1 --db "$work/one.db" --format json | python3 -c \
        'import json,sys; print(json.load(sys.stdin)["rows"][0]["nodes"])')
    rm -f "$work"/two.db*
    two_runs+=("$(seconds "$arena" suite --engines plain --suite wac --count "$count" --depth "$depth" \
        --concurrency 2 --quiet --db "$work/two.db")")
    echo "round $round: in-process ${engine_runs[-1]} s, arena ${arena_runs[-1]} s, arena conc. 2 ${two_runs[-1]} s" >&2
done
engine_s=$(median "${engine_runs[@]}")
arena_s=$(median "${arena_runs[@]}")
two_s=$(median "${two_runs[@]}")
[ "$engine_nodes" = "$arena_nodes" ] || echo "node totals differ: $engine_nodes in-process, $arena_nodes through the arena" >&2

printf 'engine in-process:        %6.2f s  %s nodes  %6.1f positions/s\n' "$engine_s" "$engine_nodes" "$(echo "$count / $engine_s" | bc -l)"
printf 'arena suite, conc. 1:     %6.2f s  %s nodes  %6.1f positions/s\n' "$arena_s" "$arena_nodes" "$(echo "$count / $arena_s" | bc -l)"
printf 'arena suite, conc. 2:     %6.2f s            %6.1f positions/s\n' "$two_s" "$(echo "$count / $two_s" | bc -l)"
printf 'overhead (conc. 1 vs in-process, medians of %s): %.1f %%\n' "$rounds" "$(echo "100 * ($arena_s / $engine_s - 1)" | bc -l)"
