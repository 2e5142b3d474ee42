#!/usr/bin/env bash
# Soak: plays GAMES games at a fast control, first the bundled engine against
# Debian's Stockfish (UCI_LimitStrength, 1+0.01), then two instant scripted
# engines (fake-engine), sampling the arena process every second: resident
# memory (VmRSS), open file descriptors and child processes. Fails (exit 1)
# when a figure grows: the mean of the last quarter of the samples more than
# GROWTH % (RSS) above the mean of the second quarter (the first is start-up),
# or more descriptors or children at the end than at the second quarter's
# peak. Prints the samples' summary per part.
#
#   bench/soak.sh [GAMES] [GROWTH_PERCENT]      (defaults: 600 games, 20 %)
set -uo pipefail
cd "$(dirname "$0")/.."
games=${1:-600}
growth=${2:-20}
cargo build --release -q -p arena || exit 1
arena=$PWD/target/release/arena
fake=$PWD/target/release/fake-engine
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > engines.toml <<EOF
[[engine]]
name = "sf1500"
command = "$stockfish"
options = { Threads = 1, Hash = 16, UCI_LimitStrength = true, UCI_Elo = 1500 }
[[engine]]
name = "instant-a"
command = "$fake"
args = ["instant"]
[[engine]]
name = "instant-b"
command = "$fake"
args = ["instant"]
EOF

# Samples "rss_kb fds children" of process $1 every second into $2 until it ends.
sample() {
    local pid=$1 out=$2
    while kill -0 "$pid" 2>/dev/null; do
        local rss fds children
        rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "")
        fds=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l)
        children=$(grep -l "^PPid:[[:space:]]*$pid\$" /proc/[0-9]*/status 2>/dev/null | wc -l)
        [ -n "$rss" ] && echo "$rss $fds $children" >> "$out"
        sleep 1
    done
}

status=0
soak() { # name, then the arena arguments
    local name=$1; shift
    local samples=$work/$name.samples
    : > "$samples"
    local start=$(date +%s.%N)
    "$arena" "$@" --db "$work/$name.db" --quiet > "$work/$name.out" 2> "$work/$name.err" &
    local pid=$!
    sample "$pid" "$samples" &
    local sampler=$!
    wait "$pid" || { echo "$name: arena failed:"; cat "$work/$name.err"; status=1; }
    wait "$sampler" || true
    local seconds=$(echo "$(date +%s.%N) - $start" | bc)
    local stored faults
    stored=$(sqlite3 "$work/$name.db" "SELECT COUNT(*) FROM games")
    faults=$(sqlite3 "$work/$name.db" "SELECT COUNT(*) FROM games WHERE termination IN ('time-forfeit','illegal-move','disconnect','stalled')")
    awk -v name="$name" -v growth="$growth" -v games="$stored" -v faults="$faults" -v secs="$seconds" '
        { rss[NR] = $1; fds[NR] = $2; kids[NR] = $3 }
        END {
            n = NR; if (n < 8) { printf "%s: only %d samples\n", name, n; exit 0 }
            q = int(n / 4)
            for (i = q + 1; i <= 2 * q; i++) { early += rss[i]; if (fds[i] > fdpeak) fdpeak = fds[i]; if (kids[i] > kidpeak) kidpeak = kids[i] }
            for (i = n - q + 1; i <= n; i++) late += rss[i]
            early /= q; late /= q
            for (i = 1; i <= n; i++) { if (rss[i] > rssmax) rssmax = rss[i]; if (fds[i] > fdmax) fdmax = fds[i]; if (kids[i] > kidmax) kidmax = kids[i] }
            printf "%-10s %6d games %5d faults %7.1f s %4d samples | RSS MB early %.1f late %.1f max %.1f | fds max %d end %d | children max %d end %d\n", \
                name, games, faults, secs, n, early / 1024, late / 1024, rssmax / 1024, fdmax, fds[n], kidmax, kids[n]
            bad = 0
            if (late > early * (1 + growth / 100)) { printf "%s: RSS grew from %.1f to %.1f MB\n", name, early / 1024, late / 1024; bad = 1 }
            if (fds[n] > fdpeak) { printf "%s: %d descriptors at the end, %d at the peak of the second quarter\n", name, fds[n], fdpeak; bad = 1 }
            if (kids[n] > kidpeak) { printf "%s: %d children at the end, %d at the peak of the second quarter\n", name, kids[n], kidpeak; bad = 1 }
            exit bad
        }' "$samples" || status=1
    # Nothing may outlive the run: no engine process started in the work folder.
    local left=0 p
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/cwd" 2>/dev/null)" = "$work" ] || continue
        tr '\0' ' ' < "$p/cmdline" 2>/dev/null | grep -qE 'engine-uci|fake-engine|stockfish' && left=$((left + 1))
    done
    if [ "$left" -gt 0 ]; then echo "$name: $left processes left running"; status=1; fi
}

soak stockfish match --a fhr --b sf1500 --games "$games" --tc 1+0.01 --openings noob_2moves --concurrency 2 --engines-file engines.toml
soak instant match --a instant-a --b instant-b --games "$((games * 10))" --tc 60+1 --draw off --resign off --openings noob_2moves --concurrency 2 --engines-file engines.toml
exit $status
