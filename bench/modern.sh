#!/usr/bin/env bash
# The modern search's techniques, each accepted only by an SPRT (#98): for
# every switch of `modern` (engine/src/search/pruning.rs, `Modern`), modern
# plays modern with that one switch off (a switch `modern` leaves off,
# razoring since its SPRT, plays as modern with it on against modern),
# logistic SPRT [0, 20] Elo,
# α = β = 0.05, at 1+0.01 counted in nodes (NodesTime 2000: 2,000 nodes are
# one millisecond, about the bundled engine's speed here, so a busy machine
# neither loses games on time nor changes the result), noob_2moves
# shuffled with seed 1, two games at a time, niced.
#
#   bench/modern.sh [DIR]     # default: ./modern-sprt; a database per technique
#
# Resumable: a technique whose run finished is skipped, an unfinished one
# resumed. At the end it prints one line per technique (games, W-D-L, Elo,
# LLR, verdict), the rows of BENCHMARKS.md's table.
set -euo pipefail
dir=${1:-modern-sprt}
arena=${ARENA:-arena}
mkdir -p "$dir"
cd "$dir"
techniques=(LMP Futility RFP Razoring Aspiration SEEQuiets LMR)
: > engines.toml
for t in "${techniques[@]}"; do
    printf '[[engine]]\nname = "modern-no%s"\npreset = "modern"\noptions = { %s = false }\n\n' "${t,,}" "$t" >> engines.toml
done
off=(Razoring)
for t in "${off[@]}"; do
    printf '[[engine]]\nname = "modern-with%s"\npreset = "modern"\noptions = { %s = true }\n\n' "${t,,}" "$t" >> engines.toml
done
for t in "${techniques[@]}"; do
    db="${t,,}.db"
    a=modern b="modern-no${t,,}"
    if [[ " ${off[*]} " == *" $t "* ]]; then
        a="modern-with${t,,}" b=modern
    fi
    if [ -e "$db" ] && "$arena" runs --db "$db" | grep -q ' finished '; then
        continue
    elif [ -e "$db" ]; then
        nice -n 10 "$arena" resume 1 --db "$db"
    else
        nice -n 10 "$arena" sprt --a "$a" --b "$b" --elo0 0 --elo1 20 --model logistic \
            --tc 1+0.01,nodetime=2000 --openings noob_2moves --seed 1 --concurrency 2 --db "$db"
    fi
done
for t in "${techniques[@]}"; do
    printf '%-11s ' "$t"
    "$arena" runs --db "${t,,}.db" | sed -n 2p
done
