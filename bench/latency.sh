#!/usr/bin/env bash
# Benchmark (issue #35): what a move costs beyond the engine's own time,
# and how often games are lost on time.
#
# 1. Latency per move (arena's wall time from `go` to `bestmove`) and
#    overhead (latency − the engine's last `info … time`), p50 and p99 over
#    every move, for the bundled engines (fhr vs plain) at 1+0.01 and for
#    Debian's Stockfish against itself at 10+0.1, each at concurrency 1 and 2.
# 2. Time losses over GAMES games of fhr vs plain at 1+0.01, concurrency 2,
#    arena beside c-chess-cli on the same openings (noob_2moves, colours
#    reversed, no adjudication), interleaved in BLOCKS blocks so that both
#    meet the same machine load.
#
#   bench/latency.sh [GAMES] [BLOCKS] [SF_GAMES]   (defaults: 2000, 4, 20)
#   C_CHESS_CLI=/path/c-chess-cli bench/latency.sh
#   LATENCY_WORK=/some/folder bench/latency.sh   (resumable: a run or block
#       already complete in that folder is read, not played again)
#   LOSSES_ONLY=1 bench/latency.sh 2000 8   (the time-loss part only)
#
# Each finished time-loss block is recorded in bench/latency-blocks.tsv
# (committed): a later run, on this machine or a fresh one, counts the
# recorded blocks and plays only the others, so the series can be finished
# over several days or machines.
#
# c-chess-cli is built from its public source outside this repository:
#   git clone https://github.com/lucasart/c-chess-cli && cd c-chess-cli && python3 make.py -c gcc
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000}
blocks=${2:-4}
sf_games=${3:-20}
cc=${C_CHESS_CLI:-}
cargo build --release -q -p arena --bins
arena=$PWD/target/release/arena
book=$PWD/data/openings/noob_2moves.epd
work=${LATENCY_WORK:-$(mktemp -d)}
mkdir -p "$work"
echo "work folder: $work" >&2

# p50 and p99 of a column of integers on standard input.
quantiles() {
    python3 -c '
import sys
xs = sorted(int(float(l)) for l in sys.stdin if l.strip() not in ("", "None", "NULL"))
q = lambda p: xs[min(len(xs) - 1, max(0, -(-len(xs) * p // 100) - 1))] if xs else "-"
print(f"{q(50)} / {q(99)} ({len(xs)} moves)")'
}

# Whether arena run 1 in database $1 has finished.
finished() {
    [ -f "$1" ] && [ "$(sqlite3 "$1" "SELECT status FROM runs WHERE id = 1" 2>/dev/null)" = finished ]
}

# Latency and overhead of one arena run: "latency p50/p99 | overhead p50/p99 | time losses".
measure() {
    local db=$1
    local latency overhead losses
    # arena moves: a row per move as CSV; latency_ms and engine_ms are its last two columns.
    latency=$("$arena" moves 1 --db "$db" | awk -F, 'NR > 1 && $(NF-1) != "" { print $(NF-1) }' | quantiles)
    overhead=$("$arena" moves 1 --db "$db" |
        awk -F, 'NR > 1 && $(NF-1) != "" && $NF != "" { d = $(NF-1) - $NF; print (d > 0 ? d : 0) }' | quantiles)
    losses=$(sqlite3 "$db" "SELECT COUNT(*) || ' of ' || (SELECT COUNT(*) FROM games) FROM games WHERE termination = 'time-forfeit'")
    echo "$latency | $overhead | $losses"
}

if [ -z "${LOSSES_ONLY:-}" ]; then
echo "| engines | tc | concurrency | latency p50 / p99 ms | overhead p50 / p99 ms | time losses |"
echo "|---|---|---:|---|---|---|"
for conc in 1 2; do
    finished "$work/bundled-$conc.db" || rm -f "$work/bundled-$conc.db"*
    finished "$work/bundled-$conc.db" || "$arena" match --a fhr --b plain --tc 1+0.01 --games 200 --openings noob_2moves --draw off --resign off \
        --concurrency "$conc" --db "$work/bundled-$conc.db" --no-io-log --quiet >/dev/null
    echo "| fhr vs plain (bundled) | 1+0.01 | $conc | $(measure "$work/bundled-$conc.db") |"
done
if [ -x /usr/games/stockfish ]; then
    printf '[[engine]]\nname = "sf1"\ncommand = "/usr/games/stockfish"\n[[engine]]\nname = "sf2"\ncommand = "/usr/games/stockfish"\n' \
        >"$work/engines.toml"
    for conc in 1 2; do
        finished "$work/stockfish-$conc.db" || rm -f "$work/stockfish-$conc.db"*
        finished "$work/stockfish-$conc.db" || "$arena" match --a sf1 --b sf2 --engines-file "$work/engines.toml" --tc 10+0.1 --games "$sf_games" \
            --openings noob_2moves --concurrency "$conc" --db "$work/stockfish-$conc.db" --no-io-log --quiet >/dev/null
        echo "| Stockfish $(/usr/games/stockfish quit </dev/null | head -1 | cut -d' ' -f2) ×2 | 10+0.1 | $conc | $(measure "$work/stockfish-$conc.db") |"
    done
else
    echo "Stockfish skipped: apt-get install stockfish" >&2
fi
fi

# Time losses, interleaved blocks.
per_block=$((games / blocks))
arena_losses=0 arena_games=0 cc_losses=0 cc_games=0
record=$PWD/bench/latency-blocks.tsv
[ -f "$record" ] || printf 'games\tblocks\tblock\tarena_games\tarena_losses\tcc_games\tcc_losses\tdate\n' >"$record"
for block in $(seq 1 "$blocks"); do
    recorded=$(awk -F'\t' -v g="$games" -v b="$blocks" -v k="$block" '$1 == g && $2 == b && $3 == k' "$record" | head -1)
    if [ -n "$recorded" ]; then
        read -r _ _ _ ag al cg cl _ <<<"$recorded"
        arena_games=$((arena_games + ag)) arena_losses=$((arena_losses + al)) cc_games=$((cc_games + cg)) cc_losses=$((cc_losses + cl))
        echo "block $block of $blocks: recorded; arena $arena_losses of $arena_games lost on time; c-chess-cli $cc_losses of $cc_games" >&2
        continue
    fi
    block_arena_games=$arena_games block_arena_losses=$arena_losses block_cc_games=$cc_games block_cc_losses=$cc_losses
    start=$(((block - 1) * per_block / 2))
    finished "$work/losses-$block.db" || rm -f "$work/losses-$block.db"*
    finished "$work/losses-$block.db" || "$arena" match --a fhr --b plain --tc 1+0.01 --games "$per_block" --openings noob_2moves --start "$start" \
        --draw off --resign off --concurrency 2 --db "$work/losses-$block.db" --no-io-log --quiet >/dev/null
    arena_losses=$((arena_losses + $(sqlite3 "$work/losses-$block.db" "SELECT COUNT(*) FROM games WHERE termination = 'time-forfeit'")))
    arena_games=$((arena_games + $(sqlite3 "$work/losses-$block.db" "SELECT COUNT(*) FROM games")))
    if [ -n "$cc" ] && [ -x "$cc" ]; then
        sed -n "$((start + 1)),$((start + per_block / 2))p" "$book" >"$work/block-$block.epd"
        played=$(grep -c '^\[Result ' "$work/cc-$block.pgn" 2>/dev/null || true)
        [ "${played:-0}" -ge "$per_block" ] || (rm -f "$work/cc-$block.pgn" && cd "$work" && "$cc" -engine "cmd=$arena engine-uci --pruning fhr" name=fhr \
            -engine "cmd=$arena engine-uci --pruning plain" name=plain -each tc=1+0.01 \
            -openings "file=$work/block-$block.epd" order=sequential -repeat -games "$per_block" \
            -concurrency 2 -pgn "$work/cc-$block.pgn" >/dev/null)
        cc_losses=$((cc_losses + $(grep -c 'Termination "time forfeit"' "$work/cc-$block.pgn" || true)))
        cc_games=$((cc_games + $(grep -c '^\[Result ' "$work/cc-$block.pgn")))
    fi
    if [ -n "$cc" ] && [ -x "$cc" ]; then
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$games" "$blocks" "$block" \
            $((arena_games - block_arena_games)) $((arena_losses - block_arena_losses)) \
            $((cc_games - block_cc_games)) $((cc_losses - block_cc_losses)) "$(date -u +%F)" >>"$record"
    fi
    echo "block $block of $blocks: arena $arena_losses of $arena_games lost on time; c-chess-cli $cc_losses of $cc_games" >&2
done
echo
echo "| runner | games (fhr vs plain, 1+0.01, concurrency 2) | lost on time |"
echo "|---|---:|---:|"
echo "| arena | $arena_games | $arena_losses |"
if [ "$cc_games" -gt 0 ]; then echo "| c-chess-cli | $cc_games | $cc_losses |"; fi
