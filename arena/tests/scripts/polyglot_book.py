#!/usr/bin/env python3
"""Writes and checks Polyglot books for arena's tests, with python-chess's
own Zobrist keys (chess.polyglot.zobrist_hash), independent of arena's.

    polyglot_book.py write BOOK     # a small book: two first moves, replies, weights
    polyglot_book.py check BOOK PGN # every game's opening moves are book moves
"""
import struct
import sys

import chess
import chess.pgn
import chess.polyglot


def raw_move(board, move):
    """Polyglot's move: to file, to rank, from file, from rank, promotion; castling as king takes rook."""
    to = move.to_square
    if board.is_castling(move):
        rank = chess.square_rank(move.from_square)
        to = chess.square(7 if chess.square_file(move.to_square) > 4 else 0, rank)
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion]
    return (chess.square_file(to) | chess.square_rank(to) << 3 | chess.square_file(move.from_square) << 6
            | chess.square_rank(move.from_square) << 9 | promotion << 12)


# Position (moves from the start) -> [(SAN, weight)].
LINES = {
    (): [("e4", 3), ("d4", 2), ("Nf3", 0)],
    ("e4",): [("e5", 1), ("c5", 1)],
    ("e4", "e5"): [("Nf3", 1)],
    ("e4", "c5"): [("Nf3", 2), ("Nc3", 1)],
    ("d4",): [("d5", 1), ("Nf6", 1)],
    ("d4", "d5"): [("c4", 1)],
}


def write(path):
    entries = []
    for line, moves in LINES.items():
        board = chess.Board()
        for san in line:
            board.push_san(san)
        key = chess.polyglot.zobrist_hash(board)
        for san, weight in moves:
            entries.append((key, raw_move(board, board.parse_san(san)), weight))
    entries.sort()
    with open(path, "wb") as out:
        for key, move, weight in entries:
            out.write(struct.pack(">QHHI", key, move, weight, 0))


def check(book, pgn):
    """Prints, per game, its round, how many opening plies are book moves, and them in SAN; or fails."""
    with chess.polyglot.open_reader(book) as reader, open(pgn) as games:
        while (game := chess.pgn.read_game(games)) is not None:
            board = game.board()
            plies = 0
            line = []
            for move in game.mainline_moves():
                entries = [e for e in reader.find_all(board) if e.weight > 0]
                if not entries:
                    break
                if move not in [e.move for e in entries]:
                    sys.exit(f"{game.headers['Round']}: {board.san(move)} at ply {plies + 1} is not a book move")
                line.append(board.san(move))
                board.push(move)
                plies += 1
            print(game.headers["Round"], plies, " ".join(line))


if __name__ == "__main__":
    {"write": lambda: write(sys.argv[2]), "check": lambda: check(sys.argv[2], sys.argv[3])}[sys.argv[1]]()
