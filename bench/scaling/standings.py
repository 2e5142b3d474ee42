#!/usr/bin/env python3
"""The #39 standings of README.md, BENCHMARKS.md and docs/src/scaling.md,
drawn from the scaling database through `arena report N --format json` (and
the database's pairs table for what is left).

    python3 bench/scaling/standings.py DB [ARENA]          # print the blocks
    python3 bench/scaling/standings.py --write DB [ARENA]  # write them into the docs

Each block sits in the docs between `<!-- standings:NAME -->` and
`<!-- /standings:NAME -->`: `features` (README and BENCHMARKS: one row per
feature, with the papers' results), `runs` and `run1` (scaling.md: games
and trend per run, run 1 by budget) and `left` (scaling.md: the games still
to play and what they cost). --write replaces what is between the markers
and nothing else; a missing marker is an error. ARENA defaults to
target/release/arena.
"""
import datetime
import json
import pathlib
import sqlite3
import subprocess
import sys
import textwrap

# Run number, preset, the README's name for it, and the paper's own match
# (docs/src/suites-and-papers.md gives the sources).
FEATURES = [
    (1, "vnm", "vnm (verified null move R = 3)", "68.5/100, +135"),
    (2, "fhr", "fhr (Fail-High Reductions)", "98.5/150, +113"),
    (3, "multicut", "multicut (multi-cut)", "44–36, +35"),
    (4, "vnb", "vnb (variable null-move bound)", "24–16, +70"),
]
RUN_NAMES = {"vnm": "vnm (verified, R = 3)"}
GAMES_PER_BUDGET = 2000
# Mean seconds a game at each budget with the machine to itself, measured
# 2026-11-28 17:00-18:45 UTC over 1,653 games on the PGO build
# (docs/src/scaling.md; a slower machine of the same class took 0.12, 0.36,
# 1.67, 6.9 and 24.5 s).
PACE = {4000: 0.08, 16000: 0.29, 64000: 1.15, 256000: 4.44, 1024000: 17.6}
SLOTS = 2
# The docs' prose is wrapped at this width.
WIDTH = 76

# Which blocks each file holds.
FILES = {
    "README.md": ["features"],
    "BENCHMARKS.md": ["features"],
    "docs/src/scaling.md": ["runs", "run1", "left"],
}


def minus(text):
    """Typeset a report's ASCII minus signs as the docs do."""
    return text.replace("-", "−")


def count(n):
    return f"{n:,}"


def span(values):
    lo, hi = min(values), max(values)
    return count(lo) if lo == hi else f"{count(lo)}-{count(hi)}"


def report(arena, db, run):
    try:
        done = subprocess.run([arena, "report", str(run), "--db", db, "--format", "json"],
                              capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"cannot run {arena}: {e.strerror}; build it (bench/scaling.sh --build) or name it")
    if done.returncode != 0:
        sys.exit(f"arena report {run} --db {db} failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def trend(scale, short=False):
    """'−10.0 [−13.0, −7.0], p < 0.001: shrinks with the budget'."""
    t = scale["trend"]
    if t is None:
        return "not measured"
    # The numbers as every view of arena prints them, from its one line:
    # "-2.0 Elo per doubling of the budget [-3.9, -0.04], p = 0.046: the difference shrinks …".
    verdict = scale["verdict"]
    slope, rest = verdict.split(" Elo per doubling of the budget ", 1)
    interval, rest = rest.split(", ", 1)
    p, meaning = rest.split(": ", 1)
    meaning = meaning.replace("the difference ", "")
    if short:
        meaning = meaning.replace(" with the budget", "") if "no significant" in meaning else meaning
    return minus(f"{slope} {interval}, {p}: {meaning}")


class Standings:
    def __init__(self, db, arena):
        reports = {run: report(arena, db, run) for run, *_ in FEATURES}
        self.scales = {run: r["scale"] for run, r in reports.items()}
        # Games played, as `arena show` counts them (a stalled or aborted
        # game is played but in no budget's score).
        self.totals = {run: r["header"]["games_played"] for run, r in reports.items()}
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            last_ms = con.execute("SELECT MAX(finished_ms) FROM games").fetchone()[0]
            # Pairs not done, by run and budget (engine_a is 'preset@nodes=N').
            self.left = {}
            for run, engine, pairs in con.execute(
                "SELECT run_id, engine_a, COUNT(*) FROM pairs WHERE status IN ('pending', 'running') "
                "GROUP BY run_id, engine_a"
            ):
                nodes = int(engine.split("@nodes=")[1])
                self.left[(run, nodes)] = 2 * pairs
        self.stamp = datetime.datetime.fromtimestamp(last_ms / 1000, datetime.timezone.utc)

    def when(self):
        return f"{self.stamp:%Y-%m-%d} at {self.stamp:%H:%M} UTC"

    def headline(self):
        played = sum(self.totals.values())
        planned = GAMES_PER_BUDGET * sum(len(s["points"]) for s in self.scales.values())
        return textwrap.wrap(f"Standing on {self.when()} (the last game stored), {count(played)} of the "
                             f"{count(planned)} games; each feature plays standard R = 2 (nmp2), Elo from "
                             "the pairs:", WIDTH)

    def features(self):
        rows = [*self.headline(), "",
                "| feature | the paper's match | games | Elo at 4k nodes | Elo at 256k | Elo at 1024k "
                "| depth at the largest (feature / nmp2) | trend, Elo per doubling of the budget |",
                "|---|---|---:|---|---|---|---|---|"]
        for run, _, name, paper in FEATURES:
            pts = self.scales[run]["points"]
            last = pts[-1]
            rows.append(f"| {name} | {paper} | {count(self.totals[run])} | {minus(pts[0]['elo_text'])} "
                        f"| {minus(pts[3]['elo_text'])} | {minus(last['elo_text'])} ({count(last['games'])} games) "
                        f"| {last['a_depth']:.1f} / {last['b_depth']:.1f} | {trend(self.scales[run])} |")
        return rows

    def runs(self):
        rows = [*self.headline(), "",
                "| run | feature | games per budget | trend (Elo per doubling of the budget) |",
                "|---|---|---:|---|"]
        for run, preset, _, _ in FEATURES:
            pts = self.scales[run]["points"]
            largest = count(pts[-1]["games"])
            if run == 1:
                largest += f" at {count(int(pts[-1]['budget'].split('=')[1]))}"
            rows.append(f"| {run} | {RUN_NAMES.get(preset, preset)} | {span([p['games'] for p in pts[:-1]])}; "
                        f"{largest} | {trend(self.scales[run], short=True)} |")
        return rows

    def run1(self):
        scale = self.scales[1]
        a, b = scale["a"], scale["b"]
        rows = [f"| budget | games | W-D-L | Elo (pairs) | draws | depth {a} / {b} | seldepth {a} / {b} |",
                "|---|---:|---|---|---:|---|---|"]
        for p in scale["points"]:
            rows.append(f"| {p['budget']} | {count(p['games'])} | +{p['wins']} ={p['draws']} −{p['losses']} "
                        f"| {minus(p['elo_text'])} | {100 * p['draw_ratio']:.1f} % "
                        f"| {p['a_depth']:.1f} / {p['b_depth']:.1f} | {p['a_seldepth']:.1f} / {p['b_seldepth']:.1f} |")
        return rows

    def left_paragraph(self):
        if not self.left:
            return [f"Nothing is left: every game is played, the last on {self.when()}."]
        largest = max(nodes for _, nodes in self.left)
        by_budget = {}
        for (_, nodes), games in self.left.items():
            by_budget[nodes] = by_budget.get(nodes, 0) + games
        per_run = {run: [g for (r, n), g in self.left.items() if r == run and n != largest] or [0]
                   for run, *_ in FEATURES}
        others = [g for run, games in per_run.items() if run != 1 for g in games]
        hours = sum(games * PACE[nodes] for nodes, games in by_budget.items()) / SLOTS / 3600
        depths = [d for s in self.scales.values() for d in (s["points"][-1]["a_depth"], s["points"][-1]["b_depth"])]
        # A sum's terms do not break inside, and a '+' never starts a line
        # (Markdown would read a list): NBSP holds them together while wrapping.
        nbsp = "\u00a0"
        terms = f"{nbsp}+ ".join(f"{count(by_budget[n])}{nbsp}×{nbsp}{PACE[n]}{nbsp}s" for n in sorted(by_budget))
        text = (
            f"What is left on {self.when()}: {count(sum(by_budget.values()))} games, "
            f"{count(sum(by_budget.values()) - by_budget.get(largest, 0))} of them at the four first budgets "
            f"({span(per_run[1])} a budget in run 1, {span(others)} in each other run) and "
            f"{count(by_budget.get(largest, 0))} at the fifth, played together; at the fifth budget the mean "
            f"depth is {min(depths):.1f}-{max(depths):.1f} so far. At the pace measured with the machine to "
            f"itself (below) that is some {hours:.0f} hours of both cores ({terms}, two games at a time)."
        )
        return [line.replace(nbsp, " ") for line in textwrap.wrap(text, WIDTH, break_on_hyphens=False)]

    def block(self, name):
        return {"features": self.features, "runs": self.runs, "run1": self.run1,
                "left": self.left_paragraph}[name]()


def replace_block(text, name, lines, path):
    start, end = f"<!-- standings:{name} -->", f"<!-- /standings:{name} -->"
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        sys.exit(f"{path}: no single '{start}' … '{end}' pair; put the markers where the block goes")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n" + "\n".join(lines) + f"\n{end}{tail}"


def main():
    args = sys.argv[1:]
    write = args[:1] == ["--write"]
    args = args[1:] if write else args
    if not args or len(args) > 2:
        sys.exit("usage: standings.py [--write] DB [ARENA]")
    db = args[0]
    if not pathlib.Path(db).is_file():
        sys.exit(f"no database {db}; bench/scaling.sh makes it (from bench/scaling/scaling.db.gz)")
    arena = args[1] if len(args) > 1 else "target/release/arena"
    standings = Standings(db, arena)
    if not write:
        for name in ["features", "runs", "run1", "left"]:
            print("\n".join(standings.block(name)))
            print()
        return
    root = pathlib.Path(__file__).resolve().parents[2]
    for path, names in FILES.items():
        file = root / path
        text = file.read_text()
        for name in names:
            text = replace_block(text, name, standings.block(name), path)
        file.write_text(text)
        print(f"{path}: {', '.join(names)}")


if __name__ == "__main__":
    main()
