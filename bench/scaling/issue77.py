#!/usr/bin/env python3
"""Issue #77's headline: each paper's feature measured on the paper's own
baseline, from the #77 runs' database (bench/scaling.sh --plan 77) through
`arena report N --format json` (DB a SQLite file), beside the #39 runs that stand (verified
null move and multi-cut against nmp2, all 40,000 games played; their
figures are quoted from the #39 standings, which bench/scaling/standings.py
computes from that database).

    python3 bench/scaling/issue77.py DB [ARENA]          # print the block
    python3 bench/scaling/issue77.py --write DB [ARENA]  # write it into the docs

The block sits between `<!-- issue77:table -->` and `<!-- /issue77:table -->`
in README.md, BENCHMARKS.md and docs/src/scaling.md; --write replaces what
is between the markers and nothing else. ARENA defaults to
target/release/arena.
"""
import datetime
import json
import re
import sqlite3
import subprocess
import sys

DOCS = ["README.md", "BENCHMARKS.md", "docs/src/scaling.md"]

# The papers' results, with where in the paper (bench/papers/*.toml).
PAPERS = {
    "fhr": "98.5–51.5 in 150 games, +113 (Feldmann 1997, Table 2), against ZUGZWANG without FHR, which used no null move",
    "nmp2+fhr": "not measured: ZUGZWANG had no null move (Feldmann 1997, Section 3); the paper's open question",
    "vnm": "68.5/100, +135 (Tabibi and Netanyahu 2002, end of Section 4), against standard R = 2",
    "nmp2+multicut": "125–115 in three 80-game matches, 41–39, 40–40, 44–36: +15 (Björnsson and Marsland 2001, Table 1), against null move R = 2",
    "nmp2+vnb": "24–16 in 40 games, +70 (Björnsson and Marsland 2001, Table 2), against null move R = 2",
}

# The #39 runs (bench/scaling/scaling.db, every game played by 2026-12-02
# 14:42 UTC): games, Elo at 4,000 and 256,000 nodes, the trend over
# 4,000 to 1,024,000 nodes (README's #39 standings).
RUNS_39 = {
    "vnm": ("10,000", "+27.5 ± 12.6", "−26.3 ± 12.4", "−10.2 [−12.1, −8.2] (to 1,024k: −53.6 ± 12.2)"),
    "nmp2+multicut": ("10,000", "+6.6 ± 12.6", "−7.8 ± 12.6", "−1.7 [−3.7, +0.3] (to 1,024k: −4.2 ± 12.3)"),
}


def report(arena, db, run):
    out = subprocess.run([arena, "report", str(run), "--db", db, "--format", "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def minus(text):
    """Typographic minus signs, as the #39 tables print them."""
    return re.sub(r"(?<![\w.])-(?=\d)", "−", text)


def point(scale, budget):
    found = [p for p in scale["points"] if p["budget"] == budget]
    return minus(found[0]["elo_text"]) if found and found[0]["games"] else "–"


def slope(scale):
    trend = scale.get("trend")
    if not trend:
        return "–"
    low, high = trend["slope_ci95"]
    return minus(f"{trend['slope']:+.1f} [{low:+.1f}, {high:+.1f}], p = {trend['p_value']:.3f}")


def block(db, arena):
    runs = {}
    for run in (1, 2, 3, 4):
        r = report(arena, db, run)
        runs[run] = r
    played = sum(r["header"]["games_played"] for r in runs.values())
    planned = sum(r["header"]["games_planned"] for r in runs.values())
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        (last_ms,) = connection.execute("SELECT MAX(finished_ms) FROM games").fetchone()
    last = datetime.datetime.fromtimestamp(last_ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"As they stand with their last game on {last}: {played:,} of the {planned:,} games",
        "planned by #77's runs, each feature against the paper's own baseline; Elo from the",
        "pairs, intervals 95 %. The #77 runs were stopped there, after about 5.5 of the 8 hours",
        "of this machine the issue allowed them; the #39 runs are finished.",
        "",
        "| feature, against | the paper | games here | Elo at 4k nodes | Elo at 256k nodes | Elo per doubling of the budget | at fixed depth 4 / 6 / 8 |",
        "|---|---|---:|---|---|---|---|",
    ]

    def row(name, against, paper, games, at4k, at256k, trend, depth="–"):
        lines.append(f"| {name} vs {against} | {paper} | {games} | {at4k} | {at256k} | {trend} | {depth} |")

    for run, name, against in ((1, "fhr", "plain"), (2, "nmp2+fhr", "nmp2")):
        scale = runs[run]["scale"]
        games = f"{runs[run]['header']['games_played']:,}"
        row(name, against, PAPERS[name], games, point(scale, "nodes=4000"), point(scale, "nodes=256000"), slope(scale))
    depth = runs[4]["scale"]
    at_depth = " / ".join(point(depth, f"depth={d}") for d in (4, 6, 8))
    games_39, at4k, at256k, trend = RUNS_39["vnm"]
    depth_games = f"{runs[4]['header']['games_played']:,}"
    row("vnm", "nmp2", PAPERS["vnm"], f"{games_39} + {depth_games}", at4k, at256k, trend, at_depth)
    games_39, at4k, at256k, trend = RUNS_39["nmp2+multicut"]
    row("nmp2+multicut", "nmp2", PAPERS["nmp2+multicut"], games_39, at4k, at256k, trend)
    scale = runs[3]["scale"]
    games = f"{runs[3]['header']['games_played']:,}"
    row("nmp2+vnb", "nmp2", PAPERS["nmp2+vnb"], games, point(scale, "nodes=4000"), point(scale, "nodes=256000"), slope(scale))
    return "\n".join(lines) + "\n"


def write(text):
    for path in DOCS:
        with open(path) as f:
            doc = f.read()
        start, end = "<!-- issue77:table -->\n", "<!-- /issue77:table -->"
        if start not in doc or end not in doc:
            sys.exit(f"{path}: no {start.strip()} … {end} markers")
        head, rest = doc.split(start, 1)
        _, tail = rest.split(end, 1)
        with open(path, "w") as f:
            f.write(head + start + text + end + tail)


def main():
    args = sys.argv[1:]
    writing = bool(args) and args[0] == "--write"
    if writing:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    db = args[0]
    arena = args[1] if len(args) > 1 else "target/release/arena"
    text = block(db, arena)
    if writing:
        write(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
