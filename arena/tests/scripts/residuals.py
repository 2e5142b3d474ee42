"""Per-machine residuals of a run, computed from its SQLite database alone
(the arena test's independent oracle for reports::stats::machines).

For each finished pair, A's points (0 to 2): game 0 has A as White, game 1
has B as White. Per pairing (engine_a, engine_b): the mean and population
variance of those points over all its pairs. Per machine: z = sum(x - mean)
/ sqrt(sum(variance)) over its pairs; p = two-sided normal tail times the
number of machines, at most 1. Prints {machine: [z, p]} as JSON.
"""
import json
import math
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    "SELECT p.id, p.engine_a, p.engine_b, g.game_in_pair, g.result, g.machine "
    "FROM pairs p JOIN games g ON g.pair_id = p.id WHERE p.run_id = ? AND p.status = 'done'",
    (int(sys.argv[2]),),
).fetchall()
white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
pairs = {}
for pair_id, a, b, game, result, machine in rows:
    entry = pairs.setdefault(pair_id, {"pairing": (a, b), "machine": machine, "points": 0.0})
    points = white_points[result]
    entry["points"] += points if game == 0 else 1.0 - points

by_pairing = {}
for entry in pairs.values():
    by_pairing.setdefault(entry["pairing"], []).append(entry["points"])
moments = {}
for pairing, xs in by_pairing.items():
    mean = sum(xs) / len(xs)
    variance = sum((x - mean) ** 2 for x in xs) / len(xs)
    moments[pairing] = (mean, variance)

machines = {}
for entry in pairs.values():
    mean, variance = moments[entry["pairing"]]
    deviation, total = machines.get(entry["machine"], (0.0, 0.0))
    machines[entry["machine"]] = (deviation + entry["points"] - mean, total + variance)

tested = sum(1 for _, v in machines.values() if v > 0)
out = {}
for machine, (deviation, variance) in machines.items():
    z = deviation / math.sqrt(variance)
    p = min(1.0, math.erfc(abs(z) / math.sqrt(2.0)) * tested)
    out[machine] = [z, p]
print(json.dumps(out))
