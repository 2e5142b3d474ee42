#!/usr/bin/env python3
"""The verified null-move paper's rule for its test suites, applied to ours.

Tabibi and Netanyahu (Section 4): "In all test suites used, we discarded
positions in which at least one side had no more than King and Pawns."
This prints the positions of SUITE that the rule keeps, as EPD, with each
position's id as the arena names it (`ecm#12` for the 12th line of a file
without ids), so `arena suite --suite OUT.epd` runs the paper's set. It
turns ECM's 879 positions into the paper's 869 and WCSAC's 1,001 into
its 999. Plain FEN lines (the mateN files) get `dm N` from --dm.

    python3 bench/paper_positions.py data/suites/ecm.epd > /tmp/ecm-paper.epd
    python3 bench/paper_positions.py data/suites/mate/mate4.fen --dm 4 > /tmp/mate4-paper.epd

Needs python-chess (`pip install chess`), which the tests use too.
"""
import argparse
import pathlib
import sys

import chess


def king_and_pawns_only(board, colour):
    return all(p.piece_type in (chess.KING, chess.PAWN) for p in board.piece_map().values() if p.color == colour)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite")
    parser.add_argument("--dm", type=int, help="mate in N for plain FEN lines")
    args = parser.parse_args()
    path = pathlib.Path(args.suite)
    kept = dropped = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        try:
            board = chess.Board(" ".join(fields[:4]) + " 0 1")
        except ValueError as error:
            sys.exit(f"{path}:{number}: not a position ({error})")
        if king_and_pawns_only(board, chess.WHITE) or king_and_pawns_only(board, chess.BLACK):
            dropped += 1
            continue
        kept += 1
        opcodes = " ".join(fields[4:])
        # A FEN's move counters are not EPD opcodes.
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
            opcodes = " ".join(fields[6:])
        if args.dm and "dm " not in opcodes:
            opcodes = f"dm {args.dm}; {opcodes}".strip()
        if "id " not in opcodes:
            opcodes = f'{opcodes} id "{path.stem}#{kept + dropped}";'.strip()
        print(" ".join(fields[:4]), opcodes)
    print(f"{path}: kept {kept}, dropped {dropped} with a side of king and pawns only", file=sys.stderr)


if __name__ == "__main__":
    main()
