#!/usr/bin/env bash
# Issue #39: the papers' features along the search budget, as resumable
# scaling runs in one database. Each of vnm, fhr, multicut and vnb plays
# nmp2 at 4,000, 16,000, 64,000 and 256,000 nodes per move (64x; at 256,000
# nodes both sides reach a mean depth of 8.0-8.6, short of the verified
# null-move paper's depth 9: see docs/src/scaling.md), then at 1,024,000,
# 2,000 games per budget, the same noob_2moves
# openings at every budget, interleaved opening by opening so that every
# curve fills in evenly.
# The first call creates the runs; every call (again after Ctrl-C, a crash
# or a reboot) plays on where they stopped, the runs in turn, with a
# worker of two game slots. Progress is the worker's line per unit.
# The runs outlive a machine through their snapshot, a base
# (bench/scaling/scaling.db.gz) and a step per stretch of play
# (bench/scaling/steps/, bench/scaling/snapshot.py): a call without the
# database starts from the snapshot, and after the worker stops (Ctrl-C, or
# all done) the script writes the stretch's step, the four curves and the
# standings in the docs (bench/scaling/standings.py), to be committed, so
# that another machine plays on from there.
#
#
# Issue #98: the same question asked of the modern search (late-move
# reductions and pruning, futility, reverse futility, aspiration, SEE
# pruning of quiets): each feature on top of `modern` against `modern`, at
# 4,000 to 256,000 nodes and at two node-time clocks, 400 games a budget
# (PLAN98_GAMES), in its own database and snapshot (bench/scaling/issue98/).
# A game costs some 0.25, 1.0, 2.5 and 11.5 s of CPU at 4,000, 16,000,
# 64,000 and 256,000 nodes and 1.6 and 7.4 s at the two clocks on this
# machine's kind (2 cores): 400 games a budget of the ten runs take some
# 48,000 CPU seconds, 7 hours of both cores.
#
# Issue #77: each paper's own comparison, with the faithful variable bound
# and FHR's frontier rule, as plan 77 in its own database and snapshot
# (bench/scaling/issue77/): fhr against plain (Feldmann's claim), nmp2+fhr
# and nmp2+vnb against nmp2, at 4,000 to 256,000 nodes, and vnm against
# nmp2 at fixed depths 4, 6 and 8 (at equal depth verification's node cost
# is gone), 1,000 games a budget.
#
#   bench/scaling.sh [DB]          # default: scaling.db here
#   bench/scaling.sh --plan 77 [DB]  # issue #77's runs; default: baselines.db here
#   bench/scaling.sh --plan 98 [DB]  # issue #98's runs on the modern search; default: modern.db here
#   bench/scaling.sh --build       # only build (and profile) the binary the games use
#   bench/scaling.sh --curves [DB] # only draw the curves (docs/src/img/scaling-*.svg) and write the standings
#   setsid bench/scaling.sh DB > scaling.log 2>&1 &   # in the background
#   arena show N --db scaling.db   # any time, from another terminal
#   arena report N --db scaling.db -o scale-N.html
set -euo pipefail
set -m
# The body is functions, read whole before they run: bash reads a script
# as it goes, so editing this file (a git pull) while the runs play would
# otherwise make the rest run from a shifted offset.

# The binary the games use, in target/scaling-build. Built for this
# machine's processor (target-cpu=native: the evaluation's bit counts as one
# popcnt each) and with profile-guided optimisation: the compiler lays out
# the code from a profile of the engine searching, which took 9-14 % less
# CPU per move (BENCHMARKS.md). Both leave the search as it is, node for
# node (the bench signatures and best moves of every preset are those of
# the portable build), and the games are node-limited: the results do not
# depend on the speed, only the hours do. The profile is made again only
# when the engine's source changes; without llvm-profdata (`rustup
# component add llvm-tools`) the build is native only.
build() {
    local native="-C target-cpu=native" flags
    flags=$native
    local tool
    tool="$(rustc --print sysroot)/lib/rustlib/$(rustc -vV | sed -n 's/^host: //p')/bin/llvm-profdata"
    if [ -x "$tool" ]; then
        local profile=$PWD/target/scaling-pgo/engine.profdata engine
        engine="$(git rev-parse HEAD:engine 2>/dev/null || echo none)$(git status --porcelain engine 2>/dev/null)"
        if [ ! -e "$profile" ] || [ "$(cat "$profile.source" 2>/dev/null)" != "$engine" ]; then
            profile_engine "$tool" "$profile" "$native"
            printf '%s' "$engine" > "$profile.source"
        fi
        # The profile is of the engine's code; the rest of arena, changed
        # since, would get a warning per function whose shape changed.
        flags="$native -Cprofile-use=$profile -Cllvm-args=-no-pgo-warn-mismatch"
    else
        echo "no $tool (rustup component add llvm-tools): building without profile-guided optimisation"
    fi
    RUSTFLAGS="$flags" cargo build --release -p arena --quiet --target-dir target/scaling-build
}

# The profile: an instrumented build searches the bench positions with each
# preset the runs play and plays 12 games of a small scaling run; its counts
# are merged into PROFILE.
profile_engine() {
    local tool=$1 profile=$2 native=$3
    local raw=$PWD/target/scaling-pgo/raw gen=$PWD/target/scaling-pgo-gen/release/arena
    echo "profiling the engine for an optimised build (a few minutes, once per engine change)"
    rm -rf "$raw"
    mkdir -p "$(dirname "$profile")"
    RUSTFLAGS="$native -Cprofile-generate=$raw" cargo build --release -p arena --quiet \
        --target-dir target/scaling-pgo-gen
    rm -rf "$raw"
    for preset in nmp2 vnm fhr multicut vnb modern modern+fhr; do
        "$gen" engine-uci --pruning "$preset" bench >/dev/null
    done
    local games
    games=$(mktemp -d)
    (cd "$games" && "$gen" scale --a vnm --b nmp2 --budgets nodes=16000,nodes=64000 --games 6 \
        --openings noob_2moves --seed 7 --no-io-log --quiet >/dev/null)
    rm -rf "$games"
    "$tool" merge -o "$profile" "$raw"/*.profraw
}

# The curves, Elo against budget, for the README and docs/src/scaling.md:
# the first plot of each run's markdown report, as docs/src/img/scaling-A.svg
# (A the run's feature).
curves() {
    local db=$1 arena=$2 tmp run feature
    tmp=$(mktemp -d)
    mkdir -p docs/src/img
    for run in 1 2 3 4; do
        feature=$("$arena" show "$run" --db "$db" --config | sed -n 's/^engines = \["\([^"]*\)".*/\1/p')
        if [ -n "$feature" ] && "$arena" report "$run" --db "$db" -o "$tmp/run.md" 2>/dev/null &&
            [ -e "$tmp/run-plot-1.svg" ]; then
            cp "$tmp/run-plot-1.svg" "docs/src/img/scaling-$feature.svg"
        fi
    done
    rm -rf "$tmp"
    echo "curves: docs/src/img/scaling-*.svg; commit them with the snapshot"
}

# Issue #77's runs, made in DB when it has none.
plan_77() {
    local db=$1 arena=$2 budgets=nodes=4000,nodes=16000,nodes=64000,nodes=256000 pair
    if [ -e "$db" ]; then
        return
    fi
    for pair in "fhr plain" "nmp2+fhr nmp2" "nmp2+vnb nmp2"; do
        set -- $pair
        "$arena" scale --a "$1" --b "$2" --budgets "$budgets" --games 1000 \
            --openings noob_2moves --seed 77 --db "$db" --no-local --quiet >/dev/null
    done
    "$arena" scale --a vnm --b nmp2 --budgets depth=4,depth=6,depth=8 --games 1000 \
        --openings noob_2moves --seed 77 --db "$db" --no-local --quiet >/dev/null
}

# Issue #98's runs, made in DB when it has none: the papers' features on
# the modern search. Each of modern+fhr, modern+vnm, modern+multicut and
# modern+vnb plays modern, and modern plays modern+nonull (what null move
# itself is worth there), at 4,000 to 256,000 nodes a move and, in a second
# run each, at two node-time clocks (2+0.02 and 8+0.08 charged 500 nodes a
# millisecond: a clock's time management, with results that do not depend
# on how busy the machine is), GAMES games a budget, the same noob_2moves
# openings at every budget.
plan_98() {
    local db=$1 arena=$2 games=${PLAN98_GAMES:-400} pair
    if [ -e "$db" ]; then
        return
    fi
    for pair in "modern+fhr modern" "modern+vnm modern" "modern+multicut modern" "modern+vnb modern" \
        "modern modern+nonull"; do
        set -- $pair
        "$arena" scale --a "$1" --b "$2" --budgets nodes=4000,nodes=16000,nodes=64000,nodes=256000 \
            --games "$games" --openings noob_2moves --seed 98 --db "$db" --no-local --quiet >/dev/null
        "$arena" scale --a "$1" --b "$2" --budgets 2+0.02,nodetime=500,8+0.08,nodetime=500 \
            --games "$games" --openings noob_2moves --seed 98 --db "$db" --no-local --quiet >/dev/null
    done
}

# Issue #39's runs, made in DB when it has none, each then extended by the
# fifth budget.
plan_39() {
    local db=$1 arena=$2 budgets=nodes=4000,nodes=16000,nodes=64000,nodes=256000 run feature
    # The fifth budget, for the verified null-move paper's depth 9 (at
    # 256,000 nodes the mean depth is 8.0-8.6): added to runs made with four
    # budgets by `arena extend`, which plans its pairs after theirs.
    local deeper=nodes=1024000
    if [ ! -e "$db" ]; then
        for feature in vnm fhr multicut vnb; do
            "$arena" scale --a "$feature" --b nmp2 --budgets "$budgets" --games 2000 \
                --openings noob_2moves --seed 39 --db "$db" --no-local --quiet >/dev/null
        done
    fi
    for run in 1 2 3 4; do
        if ! "$arena" show "$run" --db "$db" --config | grep -q "$deeper"; then
            "$arena" extend "$run" --budgets "$deeper" --db "$db"
        fi
    done
}

main() {
    cd "$(dirname "$0")/.."
    local plan=39
    if [ "${1:-}" = "--plan" ]; then
        plan=${2:-}
        shift 2 || true
    fi
    case $plan in
        39) ;;
        77) export SCALING_SNAPSHOT_DIR=$PWD/bench/scaling/issue77 ;;
        98) export SCALING_SNAPSHOT_DIR=$PWD/bench/scaling/issue98 ;;
        *) echo "bench/scaling.sh: unknown plan '$plan' (39, 77 or 98)" >&2; return 2 ;;
    esac
    # In the background, the games take only what the machine leaves: nice 19,
    # and, when started by setsid (its own session, so its own scheduler
    # autogroup on Linux), the autogroup at 19 too. Nice alone acts only inside
    # an autogroup: the two game slots would otherwise take a core from every
    # other terminal's work, a build or a benchmark.
    renice -n 19 $$ >/dev/null 2>&1 || true
    if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
        echo 19 > /proc/self/autogroup 2>/dev/null || true
    fi
    if [ "${1:-}" = "--build" ]; then
        build
        return
    fi
    if [ "${1:-}" = "--curves" ]; then
        build
        curves "${2:-scaling.db}" target/scaling-build/release/arena
        python3 bench/scaling/standings.py --write "${2:-scaling.db}" target/scaling-build/release/arena
        return
    fi
    local default=scaling.db
    [ "$plan" = 77 ] && default=baselines.db
    [ "$plan" = 98 ] && default=modern.db
    db=${1:-$default}
    build
    # The worker runs a copy, so that arena can be rebuilt while it plays (its
    # engines are this same binary, `arena engine-uci`).
    arena=target/scaling/arena
    mkdir -p target/scaling
    cp target/scaling-build/release/arena "$arena.new" && mv "$arena.new" "$arena"
    local folder=${SCALING_SNAPSHOT_DIR:-bench/scaling}
    if [ ! -e "$db" ] && [ -e "$folder/scaling.db.gz" ]; then
        python3 bench/scaling/snapshot.py restore "$db"
    fi
    "plan_$plan" "$db" "$arena"
    "$arena" runs --db "$db"
    # Ctrl-C stops the worker (it finishes the pairs in flight), not the script.
    # The runs outlive arena versions: a newer arena whose bench signatures
    # are the runs' plays on by itself (the same search), and every report
    # lists each version that played; one that changed the search is refused
    # ("not serving run N: … another search"), which only --accept-change,
    # given by hand, would override.
    trap ':' INT
    "$arena" worker --db "$db" --concurrency 2 --no-io-log || true
    trap - INT
    # The snapshot is written even if this copy cannot read the database any
    # more (a newer arena, run meanwhile, migrated it).
    "$arena" runs --db "$db" || true
    # Moves stored by older versions (JSON, an older packing) are packed anew
    # first: the snapshot is committed after every stretch of play, so every megabyte stays
    # in the repository's history.
    "$arena" compact --db "$db" || true
    python3 bench/scaling/snapshot.py write "$db"
    if [ "$plan" = 39 ]; then
        curves "$db" "$arena" || true
        python3 bench/scaling/standings.py --write "$db" "$arena" || true
    fi
}
# One line: bash has read the exit before main runs, so a file edited
# meanwhile is not read on from the old offset when main returns.
main "$@"; exit
