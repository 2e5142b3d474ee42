#!/usr/bin/env bash
# Benchmark: the runs list, `arena runs` and a warm `GET /` (50 runs a
# page), on a database of many runs: as created (running, no games) and a
# copy with every run finished. Compares two arena binaries, two rounds,
# each timed with /usr/bin/time (arena runs) and curl (the mean of 20
# requests to a fresh `arena serve`).
#
#   bench/runs_list.sh BEFORE_BINARY AFTER_BINARY [RUNS.db]
#   (default database: the storage example's runs-10000.db in
#   target/storage-bench, made by
#   `cargo run --release -p arena --example storage 20000`)
set -euo pipefail
cd "$(dirname "$0")/.."
before=$1
after=$2
created=${3:-target/storage-bench/runs-10000.db}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$created" "$work/created.db"
cp "$created" "$work/finished.db"
python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE runs SET status = 'finished'\"); c.commit()" "$work/finished.db"
port=18500
for round in 1 2; do
    for side in before after; do
        binary=$before
        [ "$side" = after ] && binary=$after
        for db in created finished; do
            took=$({ /usr/bin/time -f "%e" "$binary" runs --db "$work/$db.db" >/dev/null; } 2>&1)
            "$binary" serve --db "$work/$db.db" --listen 127.0.0.1:$port >/dev/null 2>&1 &
            server=$!
            for _ in $(seq 100); do curl -s -o /dev/null http://127.0.0.1:$port/api/runs && break; sleep 0.1; done
            sum=0
            for _ in $(seq 20); do
                sum=$(echo "$sum + $(curl -s -o /dev/null -w '%{time_total}' http://127.0.0.1:$port/)" | bc -l)
            done
            kill $server
            wait $server 2>/dev/null || true
            printf 'round %s %-6s %-8s arena runs %5s s   GET / %6.1f ms (mean of 20)\n' \
                "$round" "$side" "$db" "$took" "$(echo "$sum * 50" | bc -l)"
        done
    done
done
