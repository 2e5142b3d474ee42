"""Re-reads arena's PGN (and EPD) with python-chess.

Usage: check_pgn_epd.py GAMES.pgn [FINAL.epd]
Plays every game's moves (each must be legal), and with an EPD file checks
that line i holds game i's final position. Prints: games, then the SAN of
every game's moves joined by spaces, one game per line.
Used by arena/tests/records.rs.
"""
import sys

import chess
import chess.pgn

finals = []
lines = []
with open(sys.argv[1], encoding="utf-8") as pgn:
    while (game := chess.pgn.read_game(pgn)) is not None:
        if game.errors:
            sys.exit(f"game {len(finals) + 1}: {game.errors}")
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            if not board.is_legal(move):
                sys.exit(f"game {len(finals) + 1}: {move} is illegal in {board.fen()}")
            sans.append(board.san(move))
            board.push(move)
        finals.append(" ".join(board.fen().split()[:4]))
        lines.append(" ".join(sans))
if len(sys.argv) > 2:
    with open(sys.argv[2], encoding="utf-8") as epd:
        positions = [line.split(" hmvc ")[0] for line in epd if line.strip()]
    if positions != finals:
        sys.exit(f"EPD final positions differ from the PGN's:\n{positions}\n{finals}")
print(len(finals))
for line in lines:
    print(line)
