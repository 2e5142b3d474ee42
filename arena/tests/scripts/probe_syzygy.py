"""The tablebase result of positions, by python-chess's own Syzygy prober.

Reads lines `TABLES_DIR` (first) then `FEN [UCI moves…]`; plays the moves and
prints for each line the result the tables give the final position, assuming
it was reached right after a capture or pawn move (the halfmove clock is
ignored): `1-0`, `0-1`, `1/2-1/2` (cursed wins and blessed losses included),
or `none` when a table is missing. Used by arena/tests/tablebase.rs.
"""
import sys

import chess
import chess.syzygy

lines = sys.stdin.read().splitlines()
with chess.syzygy.open_tablebase(lines[0]) as tables:
    for line in lines[1:]:
        fields = line.split()
        board = chess.Board(" ".join(fields[:6]))
        for uci in fields[6:]:
            board.push_uci(uci)
        try:
            wdl = tables.probe_wdl(board)
        except chess.syzygy.MissingTableError:
            print("none")
            continue
        if wdl in (-1, 0, 1):
            print("1/2-1/2")
        elif (wdl > 0) == (board.turn == chess.WHITE):
            print("1-0")
        else:
            print("0-1")
