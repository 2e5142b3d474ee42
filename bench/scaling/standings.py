#!/usr/bin/env python3
"""The #39 standings tables of README.md, BENCHMARKS.md and docs/src/scaling.md,
drawn from the scaling database through `arena report N --format json`.

    python3 bench/scaling/standings.py DB [ARENA]

prints three Markdown tables: the features (README and BENCHMARKS), the runs
(scaling.md) and run 1 by budget (scaling.md), then a line of facts the prose
quotes (games, games at the largest budget, depths). ARENA defaults to
target/release/arena.
"""
import json
import subprocess
import sys

# Run number, preset, the README's name for it, and the paper's own match
# (docs/src/suites-and-papers.md gives the sources).
FEATURES = [
    (1, "vnm", "vnm (verified null move R = 3)", "68.5/100, +135"),
    (2, "fhr", "fhr (Fail-High Reductions)", "98.5/150, +113"),
    (3, "multicut", "multicut (multi-cut)", "44–36, +35"),
    (4, "vnb", "vnb (variable null-move bound)", "24–16, +70"),
]
RUN_NAMES = {"vnm": "vnm (verified, R = 3)"}


def minus(text):
    """Typeset a report's ASCII minus signs as the docs do."""
    return text.replace("-", "−")


def count(n):
    return f"{n:,}"


def report(arena, db, run):
    out = subprocess.run(
        [arena, "report", str(run), "--db", db, "--format", "json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def trend(scale, short=False):
    """'−10.0 [−13.0, −7.0], p < 0.001: shrinks with the budget'."""
    t = scale["trend"]
    if t is None:
        return "not measured"
    verdict = scale["verdict"]
    p = verdict.split("], ", 1)[1].split(":", 1)[0]
    meaning = verdict.rsplit(": ", 1)[1].replace("the difference ", "")
    if short:
        meaning = meaning.replace(" with the budget", "") if "no significant" in meaning else meaning
    lo, hi = t["slope_ci95"]
    return minus(f"{t['slope']:+.1f} [{lo:+.1f}, {hi:+.1f}], {p}: {meaning}")


def games_range(points):
    lo = min(p["games"] for p in points)
    hi = max(p["games"] for p in points)
    return count(lo) if lo == hi else f"{count(lo)}-{count(hi)}"


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: standings.py DB [ARENA]")
    db = sys.argv[1]
    arena = sys.argv[2] if len(sys.argv) > 2 else "target/release/arena"
    reports = {run: report(arena, db, run) for run, *_ in FEATURES}
    scales = {run: r["scale"] for run, r in reports.items()}
    # Games played, as `arena show` counts them (a stalled or aborted
    # game is played but in no budget's score).
    totals = {run: r["header"]["games_played"] for run, r in reports.items()}

    print("| feature | the paper's match | games | Elo at 4k nodes | Elo at 256k | Elo at 1024k "
          "| depth at the largest (feature / nmp2) | trend, Elo per doubling of the budget |")
    print("|---|---|---:|---|---|---|---|---|")
    for run, _, name, paper in FEATURES:
        pts = scales[run]["points"]
        games = totals[run]
        last = pts[-1]
        print(f"| {name} | {paper} | {count(games)} | {minus(pts[0]['elo_text'])} "
              f"| {minus(pts[3]['elo_text'])} | {minus(last['elo_text'])} ({count(last['games'])} games) "
              f"| {last['a_depth']:.1f} / {last['b_depth']:.1f} | {trend(scales[run])} |")
    print()

    print("| run | feature | games per budget | trend (Elo per doubling of the budget) |")
    print("|---|---|---:|---|")
    for run, preset, _, _ in FEATURES:
        pts = scales[run]["points"]
        largest = f"{count(pts[-1]['games'])}"
        if run == 1:
            largest += f" at {count(int(pts[-1]['budget'].split('=')[1]))}"
        print(f"| {run} | {RUN_NAMES.get(preset, preset)} | {games_range(pts[:-1])}; {largest} "
              f"| {trend(scales[run], short=True)} |")
    print()

    a = scales[1]["a"]
    b = scales[1]["b"]
    print(f"| budget | games | W-D-L | Elo (pairs) | draws | depth {a} / {b} | seldepth {a} / {b} |")
    print("|---|---:|---|---|---:|---|---|")
    for p in scales[1]["points"]:
        print(f"| {p['budget']} | {count(p['games'])} | +{p['wins']} ={p['draws']} −{p['losses']} "
              f"| {minus(p['elo_text'])} | {100 * p['draw_ratio']:.1f} % "
              f"| {p['a_depth']:.1f} / {p['b_depth']:.1f} | {p['a_seldepth']:.1f} / {p['b_seldepth']:.1f} |")
    print()

    largest = [s["points"][-1]["games"] for s in scales.values()]
    depths = [d for s in scales.values() for d in (s["points"][-1]["a_depth"], s["points"][-1]["b_depth"])]
    print(f"games: {', '.join(count(g) for g in totals.values())} ({count(sum(totals.values()))} in all, "
          f"{count(40000 - sum(totals.values()))} left); at the largest budget {min(largest)}-{max(largest)} "
          f"a feature, mean depth {min(depths):.1f}-{max(depths):.1f}")


if __name__ == "__main__":
    main()
