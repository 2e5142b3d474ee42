#!/usr/bin/env bash
# Issue #37: the views of one run of a million recorded games on PostgreSQL.
#
#   bench/pg_million.sh [postgres://USER:PASSWORD@HOST:PORT/DB]
#   (default: the test server of .ci/start-postgres)
#
# 1. The fleet example stores 1,000 pairs of recorded games (the scaling
#    snapshot's) through the real claim / store / finish path, in the scratch
#    database arena_fleet on that server.
# 2. SQL copies those pairs with their games and packed moves 499 times more
#    (pair k × 1,000 + i is pair i again, finished in that order): 500,000
#    pairs, 1,000,000 games, every byte of a game as stored, in minutes
#    instead of the hours that storing them one by one takes here; the run
#    is marked to be counted again, which arena does at its next open.
# 3. Times that first open, `arena show`, `arena report` in three formats,
#    `arena pgn`, and the dashboard's run page and /api/runs/1 with a cold
#    report cache (the first request of a fresh `arena serve`), three times.
# 4. Adds 9,999 finished runs (copies of run 1's row, without pairs) and
#    times the runs list, its filters and a later page on a fresh server.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:-postgres://arena_test:arena_test@127.0.0.1:55432/arena_test}
db="${url%/*}/arena_fleet"
cargo build --release -p arena --example fleet --quiet
arena=target/release/arena
target/release/examples/fleet "$url" 10 1000
echo "copying the run to a million games…"
time psql -q "$db" -v ON_ERROR_STOP=1 <<'SQL'
BEGIN;
INSERT INTO pairs (run_id, idx, engine_a, engine_b, opening_index, opening_name, fen, opening_moves, opening_san,
                   status, finished_seq, llr, claims, worker, result0, result1, machine)
SELECT p.run_id, p.idx + 1000 * k, p.engine_a, p.engine_b, p.opening_index, p.opening_name, p.fen, p.opening_moves,
       p.opening_san, p.status, p.finished_seq + 1000 * k, p.llr, p.claims, p.worker, p.result0, p.result1, p.machine
FROM pairs p CROSS JOIN generate_series(1, 499) k WHERE p.run_id = 1;
CREATE TEMP TABLE copied AS
SELECT np.id AS pair_id, g.id AS source_game, g.game_in_pair
FROM pairs np JOIN pairs sp ON sp.run_id = np.run_id AND sp.idx = np.idx % 1000
JOIN games g ON g.pair_id = sp.id WHERE np.run_id = 1 AND np.idx >= 1000;
ALTER TABLE copied ADD COLUMN game_id BIGINT;
UPDATE copied SET game_id = nextval(pg_get_serial_sequence('games', 'id'));
INSERT INTO games (id, run_id, pair_id, game_in_pair, white, black, result, termination, detail, plies, start_fen,
                   opening, opening_moves, opening_san, started_ms, finished_ms, io_log, white_moves, white_time_ms,
                   white_depth_sum, white_depth_moves, white_nodes_sum, white_nodes_moves, white_nps_sum,
                   white_nps_moves, black_moves, black_time_ms, black_depth_sum, black_depth_moves, black_nodes_sum,
                   black_nodes_moves, black_nps_sum, black_nps_moves, machine, lost_ms, white_overheads,
                   black_overheads, tc_scale, white_seldepth_sum, white_seldepth_moves, black_seldepth_sum,
                   black_seldepth_moves) OVERRIDING SYSTEM VALUE
SELECT c.game_id, g.run_id, c.pair_id, g.game_in_pair, g.white, g.black, g.result, g.termination, g.detail, g.plies,
       g.start_fen, g.opening, g.opening_moves, g.opening_san, g.started_ms, g.finished_ms, g.io_log, g.white_moves,
       g.white_time_ms, g.white_depth_sum, g.white_depth_moves, g.white_nodes_sum, g.white_nodes_moves,
       g.white_nps_sum, g.white_nps_moves, g.black_moves, g.black_time_ms, g.black_depth_sum, g.black_depth_moves,
       g.black_nodes_sum, g.black_nodes_moves, g.black_nps_sum, g.black_nps_moves, g.machine, g.lost_ms,
       g.white_overheads, g.black_overheads, g.tc_scale, g.white_seldepth_sum, g.white_seldepth_moves,
       g.black_seldepth_sum, g.black_seldepth_moves
FROM copied c JOIN games g ON g.id = c.source_game ORDER BY c.game_id;
INSERT INTO packed_moves (game_id, data)
SELECT c.game_id, pm.data FROM copied c JOIN packed_moves pm ON pm.game_id = c.source_game ORDER BY c.game_id;
UPDATE runs SET counts_kept = 0, pairs_total = (SELECT COUNT(*) FROM pairs WHERE run_id = 1) WHERE id = 1;
COMMIT;
ANALYZE runs, pairs, games, packed_moves;
SQL
psql -At "$db" -c "SELECT pg_size_pretty(pg_database_size(current_database()))"
timed() {
    local start
    start=$(date +%s.%N)
    "$@" > /dev/null
    printf '%.2f s: %s\n' "$(echo "$(date +%s.%N) - $start" | bc)" "${*:1:2}"
}
timed "$arena" runs --db "$db"
for _ in 1 2 3; do timed "$arena" show 1 --db "$db"; done
for format in text json html; do timed "$arena" report 1 --db "$db" --format "$format"; done
timed "$arena" pgn 1 --db "$db" -o target/pg-million.pgn
rm -f target/pg-million.pgn
port=18932
for _ in 1 2 3; do
    for page in runs/1 api/runs/1; do
        "$arena" serve --db "$db" --listen "127.0.0.1:$port" > /dev/null 2>&1 &
        serve=$!
        sleep 2
        curl -s -o /dev/null -w "cold /$page %{time_total} s %{size_download} B\n" "http://127.0.0.1:$port/$page"
        curl -s -o /dev/null -w "warm /$page %{time_total} s\n" "http://127.0.0.1:$port/$page"
        kill "$serve"
        wait "$serve" 2>/dev/null || true
    done
done
echo "adding 9,999 runs…"
psql -q "$db" -v ON_ERROR_STOP=1 <<'SQL'
BEGIN;
INSERT INTO runs (kind, spec, status, verdict, created_ms, finished_ms, machine, priority, counts_kept, pairs_total)
SELECT kind, spec, 'finished', verdict, created_ms + k, finished_ms, machine, 0, 1, 0
FROM runs CROSS JOIN generate_series(1, 9999) k WHERE id = 1;
INSERT INTO run_engines (run_id, engine_id) SELECT r.id, e.engine_id FROM runs r JOIN run_engines e ON e.run_id = 1 WHERE r.id > 1;
COMMIT;
ANALYZE runs, run_engines;
SQL
"$arena" serve --db "$db" --listen "127.0.0.1:$port" > /dev/null 2>&1 &
serve=$!
sleep 2
for page in "" api/runs "api/runs?status=running&engine=a" "?before=5000"; do
    curl -s -o /dev/null -w "runs list /$page with $(psql -At "$db" -c 'SELECT COUNT(*) FROM runs') runs: %{time_total} s %{size_download} B\n" \
        "http://127.0.0.1:$port/$page"
done
kill "$serve"
wait "$serve" 2>/dev/null || true
