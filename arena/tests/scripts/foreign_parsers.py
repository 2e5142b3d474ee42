#!/usr/bin/env python3
"""Reads a match runner's standard output as fishtest's worker and
OpenBench's client read fastchess and cutechess-cli, and prints what they
would report, as JSON.

The patterns are theirs, as published:
- fishtest, worker/games.py (parse_fastchess_output): the WLD regex
  `Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \\(`,
  the pentanomial regex `Ptnml\\(0-2\\): \\[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\\]`
  (the last match of each wins), crashes counted on lines with
  `disconnect` or `stall`, time losses on `on time` or `timeout`, the
  PGN's CRC from a line with `has CRC32:`, and `Finished match`.
- OpenBench, Client/worker.py (MatchRunner.update_results): each
  `Finished game` line split on spaces, tokens[2] the game number and
  tokens[6] the result; games 2k-1 and 2k a pair, pentanomial index
  lookup[r1] + 2 - lookup[r2] with lookup 0-1: 0, 1/2-1/2: 1, 1-0: 2.
- cutechess-cli's `Score of A vs B: W - L - D  [score] N` (projects/cli/src/enginematch.cpp).
- OpenBench's version check, Client/worker.py (get_version,
  compare_versions): the first `\\d+\\.\\d+(\\.\\d+)?` of the runner's
  standard output, compared number by number with the server's
  `fastchess_min_version` (Config/config.json: 1.8.1).

    foreign_parsers.py < OUTPUT
    foreign_parsers.py --version MINIMUM < OUTPUT_OF_VERSION
"""
import json
import re
import sys

if len(sys.argv) == 3 and sys.argv[1] == "--version":
    found = re.search(r"\d+\.\d+(\.\d+)?", sys.stdin.read())
    version = found.group() if found else None
    acceptable = version is not None and tuple(map(int, version.split("."))) >= tuple(
        map(int, sys.argv[2].split("."))
    )
    print(json.dumps({"version": version, "acceptable": acceptable}))
    sys.exit(0)

pattern_WLD = re.compile(
    r"Games: ([0-9]+), Wins: ([0-9]+), Losses: ([0-9]+), Draws: ([0-9]+), Points: ([0-9.]+) \("
)
pattern_ptnml = re.compile(r"Ptnml\(0-2\): \[([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+)\]")
pattern_score = re.compile(r"Score of (\S+) vs (\S+): (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)")

fishtest = {"wld": None, "ptnml": None, "crashes": 0, "time_losses": 0, "crc": None, "finished_match": False}
openbench = {"trinomial": [0, 0, 0], "pentanomial": [0, 0, 0, 0, 0], "games": {}, "crashes": 0, "timelosses": 0}
score = None
started = 0


def game_to_pair(g):
    return (g, g + 1) if g % 2 else (g - 1, g)


def pair_to_penta(r1, r2):
    lookup = {"0-1": 0, "1/2-1/2": 1, "1-0": 2}
    return lookup[r1] + 2 - lookup[r2]


def pair_to_trinomial(r1, r2):
    lookup = {"0-1": 0, "1/2-1/2": 1, "1-0": 2}
    return lookup[r1], 2 - lookup[r2]


for line in sys.stdin:
    line = line.strip()
    if "has CRC32:" in line:
        fishtest["crc"] = line.split()[-1]
    if "Finished match" in line:
        fishtest["finished_match"] = True
    if "disconnect" in line or "stall" in line:
        fishtest["crashes"] += 1
    if "on time" in line or "timeout" in line:
        fishtest["time_losses"] += 1
    m = pattern_WLD.search(line)
    if m:
        fishtest["wld"] = {
            "games": int(m.group(1)),
            "wins": int(m.group(2)),
            "losses": int(m.group(3)),
            "draws": int(m.group(4)),
            "points": float(m.group(5)),
        }
    m = pattern_ptnml.search(line)
    if m:
        fishtest["ptnml"] = [int(m.group(i)) for i in range(1, 6)]
    m = pattern_score.search(line)
    if m:
        score = [int(m.group(i)) for i in (3, 4, 5, 7)] + [m.group(6), m.group(1), m.group(2)]
    if "Started game" in line:
        started += 1
    if "Finished game" in line:
        reason = line.split(":")[1]
        openbench["crashes"] += "disconnect" in reason or "stalls" in reason
        openbench["timelosses"] += "on time" in reason
        tokens = line.split()
        game, result = int(tokens[2]), tokens[6]
        openbench["games"][game] = result
        first, second = game_to_pair(game)
        if first in openbench["games"] and second in openbench["games"]:
            r1, r2 = openbench["games"].pop(first), openbench["games"].pop(second)
            openbench["pentanomial"][pair_to_penta(r1, r2)] += 1
            t1, t2 = pair_to_trinomial(r1, r2)
            openbench["trinomial"][t1] += 1
            openbench["trinomial"][t2] += 1

openbench["unpaired"] = len(openbench.pop("games"))
print(json.dumps({"fishtest": fishtest, "openbench": openbench, "score": score, "started": started}))
