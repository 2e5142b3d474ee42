"""Re-reads a PGN file with python-chess as Chess960 and checks every move.

Prints one line: games, castlings, and which colours castled on which side
(W-O-O W-O-O-O B-O-O B-O-O-O). Exits non-zero on the first problem.
Used by arena/tests/chess960.rs.
"""
import sys

import chess
import chess.pgn

games = castlings = 0
sides = set()
with open(sys.argv[1], encoding="utf-8") as pgn:
    while (game := chess.pgn.read_game(pgn)) is not None:
        games += 1
        where = f"game {games} ({game.headers.get('Opening')})"
        if game.headers.get("Variant") != "Chess960":
            sys.exit(f"{where}: no [Variant \"Chess960\"] tag")
        board = game.board()
        if not board.chess960:
            sys.exit(f"{where}: python-chess does not read it as Chess960")
        if game.errors:
            sys.exit(f"{where}: {game.errors}")
        plies = 0
        for move in game.mainline_moves():
            if not board.is_legal(move):
                sys.exit(f"{where}: {move} is illegal in {board.fen()}")
            if board.is_castling(move):
                castlings += 1
                colour = "W" if board.turn == chess.WHITE else "B"
                sides.add(colour + ("-O-O" if board.is_kingside_castling(move) else "-O-O-O"))
            board.push(move)
            plies += 1
        if plies != int(game.headers["PlyCount"]):
            sys.exit(f"{where}: {plies} moves but PlyCount {game.headers['PlyCount']}")
print(games, castlings, " ".join(sorted(sides)))
