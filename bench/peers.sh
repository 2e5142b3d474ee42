#!/usr/bin/env bash
# Benchmark (issue #16): the arena against c-chess-cli and fastchess on the
# same games. Two scripted engines that answer at once (`fake-engine
# instant`, deterministic), the first 25 positions of noob_2moves played with
# colours reversed, --tc 60+1, no draw or resign adjudication, a database
# and a PGN file. The games are the same move for move in every program
# (the plies each PGN holds are counted and must agree); whole-process wall
# time and CPU time (the runner plus its engines, from wait4) per ply.
#
#   bench/peers.sh [GAMES] [ROUNDS]          (defaults: 400 games, 3 rounds)
#   C_CHESS_CLI=/path/c-chess-cli FASTCHESS=/path/fastchess bench/peers.sh
#   ARENA_FLAGS="--no-io-log" bench/peers.sh  (extra flags for arena match)
#   ARENA_BIN=/tmp/old/arena bench/peers.sh   (another build of arena in place of this one)
#   ARENA_BEFORE=/tmp/old/arena bench/peers.sh   (also an older build, as "arena-before")
#
# The peers are built from their public sources outside this repository
# (never committed here), e.g.
#   git clone https://github.com/lucasart/c-chess-cli && cd c-chess-cli && python3 make.py -c gcc
#   git clone https://github.com/Disservin/fastchess && cd fastchess && make -j1
# A peer whose binary is not given or not found is skipped with a message.
# Rounds are interleaved (arena, c-chess-cli, fastchess, at concurrency 1
# then 2, ROUNDS times) and the table shows medians.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
rounds=${2:-3}
cc=${C_CHESS_CLI:-}
fc=${FASTCHESS:-}
cargo build --release -q -p arena --bins
arena=${ARENA_BIN:-$PWD/target/release/arena}
fake=$PWD/target/release/fake-engine
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -n 25 data/openings/noob_2moves.epd >"$work/open.epd"
printf '[[engine]]\nname = "a"\ncommand = "%s"\nargs = ["instant"]\n[[engine]]\nname = "b"\ncommand = "%s"\nargs = ["instant"]\n' \
    "$fake" "$fake" >"$work/engines.toml"

programs=(arena)
if [ -n "${ARENA_BEFORE:-}" ]; then programs=(arena-before arena); fi
if [ -n "$cc" ] && [ -x "$cc" ]; then programs+=(c-chess-cli); else echo "c-chess-cli skipped: set C_CHESS_CLI to its binary" >&2; fi
if [ -n "$fc" ] && [ -x "$fc" ]; then programs+=(fastchess); else echo "fastchess skipped: set FASTCHESS to its binary" >&2; fi

# Runs one program at one concurrency in a fresh folder; prints "wall cpu".
play() {
    local program=$1 conc=$2 dir="$work/$1-$2"
    rm -rf "$dir" && mkdir -p "$dir" && cd "$dir"
    local cmd
    case $program in
    arena | arena-before)
        local binary=$arena
        [ "$program" = arena-before ] && binary=$ARENA_BEFORE
        cmd=("$binary" match --a a --b b --engines-file "$work/engines.toml" --games "$games" --tc 60+1
        --openings "$work/open.epd" --draw off --resign off --concurrency "$conc" --db run.db --pgn games.pgn
        --quiet ${ARENA_FLAGS:-}) ;;
    c-chess-cli) cmd=("$cc" -engine "cmd=$fake instant" name=a -engine "cmd=$fake instant" name=b -each tc=60+1
        -openings "file=$work/open.epd" order=sequential -repeat -games "$games" -concurrency "$conc"
        -pgn games.pgn) ;;
    fastchess) cmd=("$fc" -engine "cmd=$fake" args=instant name=a -engine "cmd=$fake" args=instant name=b
        -each tc=60+1 -openings "file=$work/open.epd" format=epd order=sequential -repeat -rounds $((games / 2))
        -games 2 -concurrency "$conc" -pgnout file=games.pgn) ;;
    esac
    /usr/bin/time -f "%e %U %S" -o times "${cmd[@]}" >out 2>&1 || { echo "$program failed, see $dir/out" >&2; tail -3 out >&2; exit 1; }
    awk '{printf "%s %s\n", $1, $2 + $3}' times
    cd - >/dev/null
}

# Plies in a PGN: move tokens outside comments, tags and results.
plies() {
    sed -e 's/{[^}]*}//g' -e '/^\[/d' "$1" | tr -s ' \n' '\n\n' |
        grep -Ev '^$|^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$' | sed 's/^[0-9]*\.//' | grep -c .
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

declare -A wall cpu ply
for round in $(seq "$rounds"); do
    for conc in 1 2; do
        for program in "${programs[@]}"; do
            read -r w c < <(play "$program" "$conc")
            n=$(plies "$work/$program-$conc/games.pgn")
            wall[$program-$conc]+="$w "
            cpu[$program-$conc]+="$c "
            ply[$program-$conc]=$n
            echo "round $round, concurrency $conc, $program: $n plies, $w s wall, $c s CPU" >&2
        done
    done
done

reference=${ply[arena-1]}
for key in "${!ply[@]}"; do
    if [ "${ply[$key]}" != "$reference" ]; then
        echo "warning: $key played ${ply[$key]} plies, arena at concurrency 1 played $reference: not the same games" >&2
    fi
done

echo
echo "$games games, $reference plies, medians of $rounds interleaved rounds"
echo
echo "| program | wall µs/ply, concurrency 1 | concurrency 2 | speed-up 1 → 2 | CPU (runner + engines) µs/ply, c1 / c2 |"
echo "|---|---:|---:|---:|---:|"
for program in "${programs[@]}"; do
    # shellcheck disable=SC2086
    w1=$(median ${wall[$program-1]}); w2=$(median ${wall[$program-2]})
    # shellcheck disable=SC2086
    c1=$(median ${cpu[$program-1]}); c2=$(median ${cpu[$program-2]})
    awk -v p="$program" -v w1="$w1" -v w2="$w2" -v c1="$c1" -v c2="$c2" -v n="$reference" 'BEGIN {
        printf "| %s | %.1f | %.1f | %.2f× | %.1f / %.1f |\n", p, w1 * 1e6 / n, w2 * 1e6 / n, w1 / w2, c1 * 1e6 / n, c2 * 1e6 / n }'
done
