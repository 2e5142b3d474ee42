#!/usr/bin/env python3
"""Many games at once: arena against c-chess-cli and fastchess (issue #99).

The same games under each runner: two scripted engines that answer at once
(`fake-engine instant`, deterministic), the first 25 positions of
noob_2moves played with colours reversed, --tc 60+1, no adjudication, a PGN
file (and arena's database). Each runner plays them at concurrency 1, 4,
16, 64 and 256, the runners and concurrencies interleaved, ROUNDS times;
the table shows medians of:

- wall: the runner's start to its exit;
- runner CPU per ply: the runner process's own user + system time (its
  threads, not its engines), read from /proc/PID/stat once it has exited
  and before it is reaped;
- total CPU per ply: the runner and the engines it waited for (the same
  line's children's times);
- peak RSS: the runner process's own high-water mark (VmHWM in
  /proc/PID/status, read as it runs; it only grows).

  bench/concurrency.py [GAMES] [ROUNDS] [CONCURRENCIES]   (400, 3, 1,4,16,64,256)
  C_CHESS_CLI=/path/c-chess-cli FASTCHESS=/path/fastchess bench/concurrency.py
  ARENA_BIN=/tmp/old/arena bench/concurrency.py            (another build of arena in place of this one)
  ARENA_BEFORE=/tmp/old/arena bench/concurrency.py         (also an older build, as "arena-before")

The peers are built from their public sources outside this repository, as
bench/peers.sh says; one whose binary is not given is skipped with a message.
fastchess is given -force-concurrency (it refuses more games than CPUs
without it); arena and c-chess-cli play any concurrency. The games are the
same move for move in every runner: the plies each PGN holds must agree.
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")


def build():
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "arena", "--bins"], cwd=ROOT, check=True)


def command(program, binary, fake, work, games, conc):
    book = os.path.join(work, "open.epd")
    if program.startswith("arena"):
        toml = os.path.join(work, "engines.toml")
        return [binary, "match", "--a", "a", "--b", "b", "--engines-file", toml, "--games", str(games),
                "--tc", "60+1", "--openings", book, "--draw", "off", "--resign", "off",
                "--concurrency", str(conc), "--db", "run.db", "--pgn", "games.pgn", "--quiet"]
    if program == "c-chess-cli":
        return [binary, "-engine", f"cmd={fake} instant", "name=a", "-engine", f"cmd={fake} instant", "name=b",
                "-each", "tc=60+1", "-openings", f"file={book}", "order=sequential", "-repeat",
                "-games", str(games), "-concurrency", str(conc), "-pgn", "games.pgn"]
    return [binary, "-engine", f"cmd={fake}", "args=instant", "name=a", "-engine", f"cmd={fake}", "args=instant",
            "name=b", "-each", "tc=60+1", "-openings", f"file={book}", "format=epd", "order=sequential",
            "-repeat", "-rounds", str(games // 2), "-games", "2", "-concurrency", str(conc),
            "-force-concurrency", "-pgnout", "file=games.pgn"]


def stat_times(pid):
    """(own, waited children's) CPU seconds and the state, from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    fields = text[text.rindex(")") + 2:].split()
    # After the name: state is field 3 of stat(5); utime 14, stime 15, cutime 16, cstime 17.
    state = fields[0]
    utime, stime, cutime, cstime = (int(fields[i]) for i in (11, 12, 13, 14))
    return state, (utime + stime) / TICK, (cutime + cstime) / TICK


def high_water(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def play(cmd, folder):
    """Runs cmd in folder: wall s, runner CPU s, total CPU s, peak RSS kB."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    out = open(os.path.join(folder, "out"), "w")
    start = time.monotonic()
    child = subprocess.Popen(cmd, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    peak, own, children = 0, 0.0, 0.0
    while True:
        # An exited child stays a zombie until reaped: its times are final.
        state, own, children = stat_times(child.pid)
        if state == "Z":
            break
        peak = max(peak, high_water(child.pid))
        time.sleep(0.01)
    wall = time.monotonic() - start
    code = child.wait()
    out.close()
    if code != 0:
        sys.exit(f"{cmd[0]} failed ({code}), see {folder}/out")
    return wall, own, own + children, peak


def plies(pgn):
    """Move tokens outside comments, tags and results."""
    with open(pgn) as f:
        text = re.sub(r"\{[^}]*\}", " ", f.read())
    count = 0
    for line in text.splitlines():
        if line.startswith("["):
            continue
        for token in line.split():
            token = re.sub(r"^\d+\.+", "", token)
            if token and token not in ("1-0", "0-1", "1/2-1/2", "*"):
                count += 1
    return count


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    concs = [int(c) for c in (sys.argv[3] if len(sys.argv) > 3 else "1,4,16,64,256").split(",")]
    build()
    arena = os.environ.get("ARENA_BIN", os.path.join(ROOT, "target/release/arena"))
    fake = os.path.join(ROOT, "target/release/fake-engine")
    programs = {}
    if os.environ.get("ARENA_BEFORE"):
        programs["arena-before"] = os.environ["ARENA_BEFORE"]
    programs["arena"] = arena
    for name, var in (("c-chess-cli", "C_CHESS_CLI"), ("fastchess", "FASTCHESS")):
        binary = os.environ.get(var, "")
        if binary and os.access(binary, os.X_OK):
            programs[name] = binary
        else:
            print(f"{name} skipped: set {var} to its binary", file=sys.stderr)
    work = tempfile.mkdtemp()
    try:
        with open(os.path.join(ROOT, "data/openings/noob_2moves.epd")) as f, \
                open(os.path.join(work, "open.epd"), "w") as book:
            book.writelines(f.readlines()[:25])
        with open(os.path.join(work, "engines.toml"), "w") as toml:
            for name in ("a", "b"):
                toml.write(f'[[engine]]\nname = "{name}"\ncommand = "{fake}"\nargs = ["instant"]\n')
        seen = {}
        ply = {}
        for r in range(rounds):
            for conc in concs:
                for program, binary in programs.items():
                    folder = os.path.join(work, f"{program}-{conc}")
                    figures = play(command(program, binary, fake, work, games, conc), folder)
                    ply[(program, conc)] = plies(os.path.join(folder, "games.pgn"))
                    seen.setdefault((program, conc), []).append(figures)
                    wall, own, total, peak = figures
                    print(f"round {r + 1}, concurrency {conc}, {program}: {ply[(program, conc)]} plies, "
                          f"{wall:.2f} s wall, {own:.2f} s runner CPU, {total:.2f} s CPU, {peak / 1024:.1f} MB",
                          file=sys.stderr, flush=True)
        reference = ply[("arena", concs[0])]
        for key, n in ply.items():
            if n != reference:
                print(f"warning: {key} played {n} plies, arena {reference}: not the same games", file=sys.stderr)
        print(f"\n{games} games, {reference} plies, medians of {rounds} interleaved rounds\n")
        print("| concurrency | runner | wall s | runner CPU µs/ply | total CPU µs/ply | runner peak RSS MB |")
        print("|---:|---|---:|---:|---:|---:|")
        for conc in concs:
            for program in programs:
                runs = seen[(program, conc)]
                med = [statistics.median(x[i] for x in runs) for i in range(4)]
                print(f"| {conc} | {program} | {med[0]:.2f} | {med[1] * 1e6 / reference:.1f} | "
                      f"{med[2] * 1e6 / reference:.1f} | {med[3] / 1024:.1f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
