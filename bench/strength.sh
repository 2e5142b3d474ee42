#!/usr/bin/env bash
# Strength on a public scale (issue #98): the bundled presets in one round
# robin with a ladder of engines Debian ships: Stockfish 15.1 held to
# UCI_Elo 1600, 2000, 2400 and 2800 (UCI_LimitStrength), Glaurung 2.2 and
# Toga II. One tournament in one database, so that it resumes where it
# stopped (Ctrl-C, then the same command); then every engine's rating from
# arena's tournament fit, with its 95 % interval, put on Stockfish's scale
# by one anchor: the level ANCHOR names, at its UCI_Elo. The other
# Stockfish levels are the check of that scale: where they land beside
# their UCI_Elo says how far this time control bends it.
#
#   bench/strength.sh DB [GAMES] [PRESETS]
#       DB       the tournament's SQLite file (made if missing, else resumed)
#       GAMES    games per pairing (default 100: about ±40 Elo a pairing
#                at the draw rates seen here); a pairing plays GAMES/2
#                openings of noob_2moves, shuffled with seed 98, both colours
#       PRESETS  the bundled presets rated (default modern,nmp2)
#   TC=10+0.1 ANCHOR=sf2000 CONCURRENCY=2 bench/strength.sh …
#
# A first try of the mechanics, 2 games a pairing at 1+0.01 (56 games, 3
# minutes; 2026-12-08, beside a build): every step ran and the table came
# out, but Glaurung lost all 14 of its games on time at that clock, so the
# ladder's clock is 10+0.1. Run it niced, in the background (it plays for
# hours):
#   nice -n 10 bench/strength.sh /work/runs/strength.db > strength.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: bench/strength.sh DB [GAMES] [PRESETS]}
games=${2:-100}
presets=${3:-modern,nmp2}
tc=${TC:-10+0.1}
anchor=${ANCHOR:-sf2000}
concurrency=${CONCURRENCY:-2}
for program in /usr/games/stockfish /usr/games/glaurung /usr/games/toga2; do
    [ -x "$program" ] || { echo "strength: $program is missing (apt-get install stockfish glaurung toga2)" >&2; exit 1; }
done
case "$anchor" in
    sf1600 | sf2000 | sf2400 | sf2800) ;;
    *) echo "strength: ANCHOR=$anchor is not one of sf1600, sf2000, sf2400, sf2800" >&2; exit 2 ;;
esac
cargo build --release -q -p arena
arena=$PWD/target/release/arena
db=$(realpath -m "$db")
folder=$(dirname "$db")
mkdir -p "$folder"
# The ladder's engines.toml beside the database, where arena runs: a resumed
# run finds its engines there (a stored run names them, it does not start
# what the database says).
cd "$folder"
engines=$folder/engines.toml
{
    for elo in 1600 2000 2400 2800; do
        printf '[[engine]]\nname = "sf%s"\ncommand = "/usr/games/stockfish"\n' "$elo"
        printf 'options = { Threads = 1, Hash = 16, UCI_LimitStrength = true, UCI_Elo = %s }\n\n' "$elo"
    done
    printf '[[engine]]\nname = "glaurung"\ncommand = "/usr/games/glaurung"\n\n'
    printf '[[engine]]\nname = "toga2"\ncommand = "/usr/games/toga2"\n'
} > "$engines"
if [ -e "$db" ]; then
    # Played on where it stopped; a finished tournament is only reported.
    "$arena" resume 1 --db "$db" --concurrency "$concurrency" --quiet ||
        echo "strength: run 1 not resumed (finished?); reporting it"
else
    "$arena" tournament --engines "$presets,sf1600,sf2000,sf2400,sf2800,glaurung,toga2" \
        --db "$db" --tc "$tc" --games "$games" \
        --openings noob_2moves --seed 98 --concurrency "$concurrency" --quiet
fi
"$arena" report 1 --db "$db" --format json --anchor "$anchor" > "$folder/strength-report.json"
python3 - "$folder/strength-report.json" "$anchor" <<'EOF'
import json, sys
report, anchor = json.load(open(sys.argv[1])), sys.argv[2]
base = int(anchor[2:])
ratings = report["tournament"]["ratings"]
games = sum(r["games"] for r in ratings) // 2
print(f"{games} games; Elo on Stockfish 15.1's UCI_Elo scale, {anchor} = {base}; 95 % intervals")
print("| engine | Elo | 95 % | games | points |")
print("|---|---:|---|---:|---:|")
for r in sorted(ratings, key=lambda r: -r["elo"]):
    low, high = (base + x for x in r["elo_ci95"])
    print(f"| {r['name']} | {base + r['elo']:.0f} | [{low:.0f}, {high:.0f}] | {r['games']} | {r['points']:g} |")
EOF
