#!/usr/bin/env python3
"""The #39 standings of README.md, BENCHMARKS.md and docs/src/scaling.md,
drawn from the scaling database through `arena report N --format json` (and
the database's pairs table for what is left).

    python3 bench/scaling/standings.py DB [ARENA]          # print the blocks
    python3 bench/scaling/standings.py --write DB [ARENA]  # write them into the docs

Each block sits in the docs between `<!-- standings:NAME -->` and
`<!-- /standings:NAME -->`: `features` (BENCHMARKS: one row per
feature, with the papers' results), `wavering` (scaling.md: the runs whose p
crossed 0.05 both ways from look to look), `runs` and `run1` (scaling.md:
games and trend per run, run 1 by budget), `left` (scaling.md: the games
still to play and what they cost), `looks` (scaling.md: each run's trend
at every snapshot committed so far, the looks a reader has had) and
`stretches` (scaling.md: each stretch of play, its games and its pace).

The looks are computed here from the database's pairs, with the games
finished by each snapshot's commit: the pentanomial Elo per budget
(fishtest's, zero counts 10⁻³) and the weighted line through them, written
again in Python from the formulas in docs/src/statistics.md. For the last
look this independent computation must agree with arena's own report to
the digits printed, or the script stops.

--write replaces what is between the markers and nothing else; a missing
marker is an error. ARENA defaults to target/release/arena.
"""
import dataclasses
import datetime
import json
import math
import pathlib
import sqlite3
import subprocess
import sys
import textwrap

# Run number, preset, the README's name for it, and the paper's own match
# (docs/src/suites-and-papers.md gives the sources).
FEATURES = [
    (1, "vnm", "vnm (verified null move R = 3)", "68.5/100, +135"),
    (2, "fhr", "fhr (Fail-High Reductions)", "98.5/150, +113 (against the plain search)"),
    (3, "multicut", "multicut (multi-cut)", "125–115, +15"),
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
# A pause longer than this between one game's end and the next game's start
# ends a stretch of play (the worker stopped, or for a rebuild); the
# longest game, 1,024,000 nodes beside a build, took about two minutes.
STRETCH_GAP_MS = 10 * 60 * 1000
# The docs' prose is wrapped at this width.
WIDTH = 76

# Which blocks each file holds.
FILES = {
    "BENCHMARKS.md": ["features"],
    "docs/src/scaling.md": ["runs", "run1", "left", "looks", "wavering", "stretches"],
}
# The README stays a front door: the docs test fails past this many lines
# (arena/tests/it/docs.rs), and the blocks written here change its length.
README_LINES = 200


def minus(text):
    """Typeset a report's ASCII minus signs as the docs do."""
    return text.replace("-", "−")


def count(n):
    return f"{n:,}"


def budget_nodes(text):
    """The node count of a budget, 'nodes=N', or of an engine at one, 'preset@nodes=N'."""
    return int(text.rsplit("=", 1)[1])


def span(values):
    lo, hi = min(values), max(values)
    return count(lo) if lo == hi else f"{count(lo)}-{count(hi)}"


SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
Z95 = 1.959963984540054


def phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def elo_of_score(score):
    return -400.0 * math.log10(1.0 / score - 1.0)


def pair_elo(penta):
    """Elo of A and the standard error its 95 % interval implies, from the
    pair counts [LL, LD, DD+WL, WD, WW]."""
    counts = [c if c else 1e-3 for c in penta]
    n = sum(counts)
    mu = sum(i / 4 * c for i, c in enumerate(counts)) / n
    variance = sum(c * (i / 4 - mu) ** 2 for i, c in enumerate(counts)) / n
    se = math.sqrt(variance / n)
    half = (elo_of_score(mu + Z95 * se) - elo_of_score(mu - Z95 * se)) / 2
    return elo_of_score(mu), half / Z95


def line(points):
    """(slope, low, high, p) of the weighted line through (log₂ budget, Elo,
    se), or None with fewer than two budgets."""
    if len(points) < 2:
        return None
    weights = [1 / se ** 2 for _, _, se in points]
    total = sum(weights)
    mean_x = sum(w * x for w, (x, _, _) in zip(weights, points)) / total
    mean_y = sum(w * y for w, (_, y, _) in zip(weights, points)) / total
    sxx = sum(w * (x - mean_x) ** 2 for w, (x, _, _) in zip(weights, points))
    sxy = sum(w * (x - mean_x) * (y - mean_y) for w, (x, y, _) in zip(weights, points))
    slope, se = sxy / sxx, math.sqrt(1 / sxx)
    return slope, slope - Z95 * se, slope + Z95 * se, 2 * phi(-abs(slope / se))


class Looks:
    """Each run's trend as it stood at given moments, from the pairs done by then."""

    def __init__(self, con):
        # (run, budget, when the pair's last game finished, A's pentanomial bucket)
        self.pairs = []
        for run, engine, r0, r1, finished in con.execute(
            "SELECT p.run_id, p.engine_a, p.result0, p.result1, MAX(g.finished_ms) FROM pairs p "
            "JOIN games g ON g.pair_id = p.id WHERE p.status = 'done' GROUP BY p.id"
        ):
            if r0 in SCORES and r1 in SCORES:
                # A has White in the pair's first game and Black in its second.
                bucket = round(2 * (SCORES[r0] + 1 - SCORES[r1]))
                self.pairs.append((run, budget_nodes(engine), finished, bucket))

    def at(self, run, until_ms):
        """(games, trend) of `run` over the pairs finished by `until_ms`."""
        penta = {}
        for r, budget, finished, bucket in self.pairs:
            if r == run and finished <= until_ms:
                penta.setdefault(budget, [0] * 5)[bucket] += 1
        points = [(math.log2(b), *pair_elo(c)) for b, c in sorted(penta.items())]
        return 2 * sum(sum(c) for c in penta.values()), line(points)


@dataclasses.dataclass
class Stretch:
    """A stretch of play: its first start and last end (ms), its games, the
    seconds each game took by budget, and the engines' thinking ms and the
    plies by budget."""
    start: int
    end: int
    games: int = 0
    seconds: dict = dataclasses.field(default_factory=dict)
    think: dict = dataclasses.field(default_factory=dict)

    def add(self, started, finished, budget, plies, think_ms):
        self.end = max(self.end, finished)
        self.games += 1
        self.seconds.setdefault(budget, []).append((finished - started) / 1000)
        ms, total = self.think.get(budget, (0, 0))
        self.think[budget] = (ms + think_ms, total + plies)


def stretches(con):
    """The stretches of play of the worker, oldest first: games in order of start, a
    new stretch after a pause of more than STRETCH_GAP_MS."""
    found = []
    for started, finished, white, plies, think in con.execute(
        "SELECT started_ms, finished_ms, white, plies, white_time_ms + black_time_ms FROM games ORDER BY started_ms"
    ):
        if not found or started - found[-1].end > STRETCH_GAP_MS:
            found.append(Stretch(started, finished))
        found[-1].add(started, finished, budget_nodes(white), plies, think)
    return found


def signed(x):
    """As arena prints a number: one decimal, '+0.0' for what rounds to zero."""
    text = f"{x:+.1f}"
    return "+0.0" if text == "-0.0" else text


def interval_end(x):
    """As arena prints an interval's end: an end near zero but not zero
    keeps its sign and first significant digit."""
    text = signed(x)
    if text != "+0.0" or abs(x) < 1e-6:
        return text
    shown = (f"{x:+.{decimals}f}" for decimals in range(2, 7))
    return next((t for t in shown if any(c in "123456789" for c in t)), text)


def duration(hours):
    """Some hours, in minutes when under two."""
    return f"{hours * 60:.0f} minutes" if hours < 2 else f"{hours:.0f} hours"


def p_text(p):
    """As arena prints a p-value: three decimals, four where three give 0.050."""
    if p < 0.0005:
        return "< 0.001"
    return f"{p:.4f}" if 0.0495 <= p < 0.0505 else f"{p:.3f}"


def snapshot_times(root):
    """The commit times (ms) of the committed snapshots (a base or a step), oldest first."""
    done = subprocess.run(["git", "log", "--format=%ct", "--", "bench/scaling/scaling.db.gz",
                           "bench/scaling/steps"],
                          cwd=root, capture_output=True, text=True)
    return sorted(int(t) * 1000 for t in done.stdout.split())


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
        # The runs with every game played: their rows are final.
        self.finished = {run: r["header"]["finished"] for run, r in reports.items()
                         if r["header"]["status"] == "finished" and r["header"].get("finished")}
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            last_ms = con.execute("SELECT MAX(finished_ms) FROM games").fetchone()[0]
            # Pairs not done, by run and budget (engine_a is 'preset@nodes=N').
            self.left = {}
            for run, engine, pairs in con.execute(
                "SELECT run_id, engine_a, COUNT(*) FROM pairs WHERE status IN ('pending', 'running') "
                "GROUP BY run_id, engine_a"
            ):
                self.left[(run, budget_nodes(engine))] = 2 * pairs
            self.looks = Looks(con)
            self.stretches = stretches(con)
        self.last_ms = last_ms
        self.stamp = datetime.datetime.fromtimestamp(last_ms / 1000, datetime.timezone.utc)
        # The looks: each committed snapshot, and now; each run's (games,
        # trend) at each, computed once for the table and the paragraph.
        root = pathlib.Path(__file__).resolve().parents[2]
        self.look_times = [t for t in snapshot_times(root) if t < last_ms] + [last_ms]
        self.at_looks = {run: [self.looks.at(run, ms) for ms in self.look_times] for run, *_ in FEATURES}
        self.check_against_arena()

    def check_against_arena(self):
        """The last look, computed here, as arena's report prints it."""
        for run, *_ in FEATURES:
            _, mine = self.at_looks[run][-1]
            theirs = self.scales[run]["trend"]
            if mine is None and theirs is None:
                continue
            if mine is None or theirs is None:
                sys.exit(f"run {run}: this script's trend {mine} is not arena's {theirs}; "
                         "the two computations have drifted apart")
            expected = (theirs["slope"], *theirs["slope_ci95"], theirs["p_value"])
            if any(abs(a - b) > 0.05 for a, b in zip(mine[:3], expected[:3])) or abs(mine[3] - expected[3]) > 5e-4:
                sys.exit(f"run {run}: this script's trend {mine} is not arena's {expected}; "
                         "the two computations have drifted apart")

    def when(self):
        return f"{self.stamp:%Y-%m-%d} at {self.stamp:%H:%M} UTC"

    def headline(self):
        played = sum(self.totals.values())
        planned = GAMES_PER_BUDGET * sum(len(s["points"]) for s in self.scales.values())
        done = [f"{preset} (run {run}) on {self.finished[run][:16]} UTC" for run, preset, _, _ in FEATURES
                if run in self.finished]
        if len(done) == len(FEATURES) and played == planned:
            return textwrap.wrap(f"Final: all {count(planned)} games played, the last on {self.when()}; "
                                 f"each feature plays standard R = 2 (nmp2), Elo from the pairs. The runs "
                                 f"finished: {', '.join(done)}.", WIDTH)
        done_text = f" Finished, with every game played and its row final: {', '.join(done)}." if done else ""
        return textwrap.wrap(f"Standing on {self.when()} (the last game stored), {count(played)} of the "
                             f"{count(planned)} games; each feature plays standard R = 2 (nmp2), Elo from "
                             f"the pairs.{done_text}", WIDTH)

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
                largest += f" at {count(budget_nodes(pts[-1]['budget']))}"
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
        by_budget = {}
        for (_, nodes), games in self.left.items():
            by_budget[nodes] = by_budget.get(nodes, 0) + games
        budgets = sorted({budget_nodes(p["budget"]) for s in self.scales.values() for p in s["points"]})
        largest = budgets[-1]
        per_run = {run: [self.left.get((run, n), 0) for n in budgets[:-1]] for run, *_ in FEATURES}
        # The runs done with their first four budgets are named; the others
        # share one span.
        done = [str(run) for run, games in per_run.items() if not any(games)]
        others = [run for run, games in per_run.items() if any(games)]
        playing = [g for run in others for g in per_run[run]]
        where = []
        if done:
            names = f" {done[0]}" if len(done) == 1 else f"s {', '.join(done[:-1])} and {done[-1]}"
            where.append(f"none in run{names}")
        if playing:
            runs = f"run {others[0]}" if len(others) == 1 else "each other run" if done else "each run"
            where.append(f"{span(playing)} a budget in {runs}")
        hours = sum(games * PACE[nodes] for nodes, games in by_budget.items()) / SLOTS / 3600
        last = self.stretches[-1].seconds
        lately = ""
        if all(nodes in last for nodes in by_budget):
            pace = {nodes: sum(last[nodes]) / len(last[nodes]) for nodes in by_budget}
            lately = (f"; at the last stretch's pace ({', '.join(f'{pace[n]:.2f}' for n in sorted(pace))} s, "
                      f"table below) some {duration(sum(g * pace[n] for n, g in by_budget.items()) / SLOTS / 3600)}")
        depths = [d for s in self.scales.values() for d in (s["points"][-1]["a_depth"], s["points"][-1]["b_depth"])]
        # A sum's terms do not break inside, and a '+' never starts a line
        # (Markdown would read a list): NBSP holds them together while wrapping.
        nbsp = "\u00a0"
        terms = f"{nbsp}+ ".join(f"{count(by_budget[n])}{nbsp}×{nbsp}{PACE[n]}{nbsp}s" for n in sorted(by_budget))
        text = (
            f"What is left on {self.when()}: {count(sum(by_budget.values()))} games, "
            f"{count(sum(by_budget.values()) - by_budget.get(largest, 0))} of them at the four first budgets "
            f"({'; '.join(where)}) and "
            f"{count(by_budget.get(largest, 0))} at the fifth, played together; at the fifth budget the mean "
            f"depth is {min(depths):.1f}-{max(depths):.1f} so far. At the pace measured with the machine to "
            f"itself (below) that is some {duration(hours)} of both cores ({terms}, two games at a time){lately}."
        )
        return [line.replace(nbsp, " ") for line in textwrap.wrap(text, WIDTH, break_on_hyphens=False)]

    def looks_table(self):
        """Each run's slope and p at every committed snapshot, and now."""
        names = [preset for _, preset, _, _ in FEATURES]
        rows = ["<details><summary>Each run's trend at every snapshot so far (Elo per doubling "
                "[95 % interval], p)</summary>", "",
                "| look (UTC) | games scored | " + " | ".join(names) + " |",
                "|---|---:|" + "---|" * len(names)]
        for i, ms in enumerate(self.look_times):
            cells, games = [], 0
            for run, *_ in FEATURES:
                played, t = self.at_looks[run][i]
                games += played
                if t is None:
                    cells.append("-")
                    continue
                slope, lo, hi, p = t
                cells.append(minus(f"{signed(slope)} [{interval_end(lo)}, {interval_end(hi)}], {p_text(p)}"))
            if games == 0:
                continue
            when = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
            rows.append(f"| {when:%Y-%m-%d %H:%M} | {count(games)} | " + " | ".join(cells) + " |")
        return rows + ["", "</details>"]

    def stretches_table(self):
        """Each stretch's games and the mean seconds a game took at each budget."""
        budgets = sorted({b for s in self.stretches for b in s.seconds})
        largest = budgets[-1]
        rows = ["<details><summary>Each stretch of play of the worker (games with no pause of more than "
                f"{STRETCH_GAP_MS // 60000} minutes): its games, the mean seconds a game took at each "
                f"budget and the milliseconds a ply at {count(largest)} nodes</summary>", "",
                "| stretch (UTC) | games | " + " | ".join(f"s a game at {b // 1000}k" for b in budgets)
                + f" | ms a ply at {largest // 1000}k |",
                "|---|---:|" + "---:|" * (len(budgets) + 1)]
        for s in self.stretches:
            first = datetime.datetime.fromtimestamp(s.start / 1000, datetime.timezone.utc)
            last = datetime.datetime.fromtimestamp(s.end / 1000, datetime.timezone.utc)
            until = f"{last:%H:%M}" if last.date() == first.date() else f"{last:%m-%d %H:%M}"
            means = [f"{sum(s.seconds[b]) / len(s.seconds[b]):.2f}" if b in s.seconds else "-" for b in budgets]
            ms, plies = s.think.get(largest, (0, 0))
            per_ply = f"{ms / plies:.0f}" if plies else "-"
            rows.append(f"| {first:%Y-%m-%d %H:%M}-{until} | {count(s.games)} | " + " | ".join(means)
                        + f" | {per_ply} |")
        return rows + ["", "</details>"]

    def look_history(self, run):
        """The p of `run`'s trend at every look so far, oldest first."""
        return [t[3] for _, t in self.at_looks[run] if t is not None]

    def wavering(self):
        """A paragraph on each run whose p has crossed 0.05 both ways, look by look."""
        words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        word = lambda n: words[n] if n < len(words) else count(n)
        lines = []
        for run, _, name, _ in FEATURES:
            ps = self.look_history(run)
            crossings = sum((a < 0.05) != (b < 0.05) for a, b in zip(ps, ps[1:]))
            if crossings < 2:
                continue
            under = sum(p < 0.05 for p in ps)
            slope = minus(self.scales[run]["verdict"].split(" Elo per doubling", 1)[0])
            now = p_text(ps[-1])
            now = now if now.startswith("<") else f"= {now}"
            before = " and ".join(p_text(p) for p in ps[-3:-1])
            if run not in self.finished:
                at, looks = "at this look", "looks at it so far"
                end = ("with a look after every stretch of play and no correction for looking again, "
                       "not a finding until its games are all in.")
            else:
                at, looks = "with every game in", "looks at it"
                end = "the last look, with every game in, is the one that counts."
            text = (f"{name}: the slope ({slope} Elo per doubling) is at p {now} {at}, "
                    f"after {before} at the two before; of the {len(ps)} {looks}, "
                    f"{word(under)} were under 0.05 and {word(len(ps) - under)} over, crossing the line "
                    f"{word(crossings)} times "
                    "([every look](docs/src/scaling.md#the-papers-features-along-the-budget-where-the-runs-stand)): "
                    + end)
            lines += [""] + textwrap.wrap(text, WIDTH, break_on_hyphens=False, break_long_words=False)
        if not lines:
            return ["No run's p has crossed 0.05 both ways from look to look."]
        return ["A p-value near 0.05 moves from look to look, across the line and back:"] + lines

    def block(self, name):
        return {"features": self.features, "runs": self.runs, "run1": self.run1,
                "left": self.left_paragraph, "looks": self.looks_table, "stretches": self.stretches_table,
                "wavering": self.wavering}[name]()


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
        sys.exit(f"no database {db}; bench/scaling.sh makes it (from its snapshot, bench/scaling/snapshot.py)")
    arena = args[1] if len(args) > 1 else "target/release/arena"
    standings = Standings(db, arena)
    if not write:
        for name in ["features", "wavering", "runs", "run1", "left", "looks", "stretches"]:
            print("\n".join(standings.block(name)))
            print()
        return
    root = pathlib.Path(__file__).resolve().parents[2]
    written = {}
    for path, names in FILES.items():
        file = root / path
        text = file.read_text()
        for name in names:
            text = replace_block(text, name, standings.block(name), path)
        file.write_text(text)
        print(f"{path}: {', '.join(names)}")
        written[path] = text
    # As the docs test counts them (Rust's str::lines).
    if "README.md" not in written:
        return
    lines = len(written["README.md"].splitlines())
    if lines > README_LINES:
        sys.exit(f"README.md: {lines} lines with the standings, over the {README_LINES} "
                 "the docs test allows; shorten its hand-written text")


if __name__ == "__main__":
    main()
