#!/usr/bin/env bash
# Benchmark (issue #37): bytes per game of the database.
#
# Plays the README's main command (50 games of the bundled engines at
# 2+0.02) and GAMES games of Debian's Stockfish against itself at 10+0.1,
# then prints per game: the file, the packed moves, what the same moves took
# as the JSON array stored before (rebuilt from `arena moves`, field for
# field as that encoder wrote them), and the pages of each table (dbstat).
#
#   bench/storage.sh [GAMES]     (default 20)
#   STORAGE_WORK=/some/folder bench/storage.sh   (resumable: a finished run is not played again)
set -euo pipefail
cd "$(dirname "$0")/.."
sf_games=${1:-20}
cargo build --release -q -p arena --bins
arena=$PWD/target/release/arena
work=${STORAGE_WORK:-$(mktemp -d)}
mkdir -p "$work"
echo "work folder: $work" >&2

finished() {
    [ -f "$1" ] && [ "$(sqlite3 "$1" "SELECT status FROM runs WHERE id = 1" 2>/dev/null)" = finished ]
}

# The JSON array of one game's moves as the encoder before packing wrote it.
json_bytes() {
    python3 -c '
import csv, json, sys
games = {}
for r in csv.DictReader(sys.stdin):
    n = lambda k: int(r[k]) if r[k] != "" else None
    row = [r["uci"], r["san"], int(r["time_ms"]), int(r["clock_ms"]), n("score_cp"), n("score_mate"), n("depth"),
           n("seldepth"), n("nodes"), n("nps"), r["pv"]]
    if r["latency_ms"] != "" or r["engine_ms"] != "":
        row += [n("latency_ms"), n("engine_ms")]
    games.setdefault(r["game_id"], []).append(row)
total = sum(len(json.dumps(g, separators=(",", ":"), ensure_ascii=False).encode()) for g in games.values())
print(total)'
}

measure() {
    local db=$1 label=$2
    local games file packed json plies
    games=$(sqlite3 "$db" "SELECT COUNT(*) FROM games")
    plies=$(sqlite3 "$db" "SELECT SUM(white_moves + black_moves) FROM games")
    file=$(stat -c %s "$db")
    packed=$(sqlite3 "$db" "SELECT SUM(LENGTH(data)) FROM packed_moves")
    json=$("$arena" moves 1 --db "$db" | json_bytes)
    echo "| $label | $games | $((plies / games)) | $((file / games)) | $((json / games)) | $((packed / games)) | $(python3 -c "print(f'{$json / $packed:.1f}')")× |"
    sqlite3 "$db" "SELECT name, SUM(pgsize) / $games FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 5" |
        sed 's/^/    bytes per game of table or index: /' >&2
}

echo "| run | games | plies per game | file bytes per game | moves as JSON (before) | moves packed | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
finished "$work/main.db" || rm -f "$work/main.db"*
finished "$work/main.db" || (cd "$work" && "$arena" elo --a fhr --b plain --db main.db --quiet >/dev/null)
measure "$work/main.db" "README main command (fhr vs plain, 2+0.02, 50 games)"
if [ -x /usr/games/stockfish ]; then
    printf '[[engine]]\nname = "sf1"\ncommand = "/usr/games/stockfish"\n[[engine]]\nname = "sf2"\ncommand = "/usr/games/stockfish"\n' \
        >"$work/engines.toml"
    finished "$work/stockfish.db" || rm -f "$work/stockfish.db"*
    finished "$work/stockfish.db" || (cd "$work" && "$arena" match --a sf1 --b sf2 --engines-file engines.toml --tc 10+0.1 \
        --games "$sf_games" --openings noob_2moves --db stockfish.db --quiet >/dev/null)
    measure "$work/stockfish.db" "Stockfish 15.1 ×2, 10+0.1, $sf_games games"
else
    echo "Stockfish skipped: apt-get install stockfish" >&2
fi
