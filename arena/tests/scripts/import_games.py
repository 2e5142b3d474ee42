#!/usr/bin/env python3
"""Writes a PGN file as another program would (python-chess writes it):
pairs of games on shared openings with colours reversed, moves with
cutechess-style comments ({+0.31/12 0.105s}), malformed games between them
and one game without a partner; then prints, as JSON, what an independent
count of the pairs gives for EngineA: wins, draws, losses, the pentanomial,
and the lines where the malformed games start.

    import_games.py OUT.pgn SEED PAIRS

or, as a rating list writes them, single games on random openings with
either engine White (as many each way, in random order), and one game of a
third engine that has no game with colours reversed:

    import_games.py OUT.pgn SEED 0 SINGLE
"""
import io
import json
import random
import sys

import chess
import chess.pgn

OPENINGS = [
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
]
REASON = {"1-0": "White wins by adjudication", "0-1": "Black wins by adjudication", "1/2-1/2": "Draw by adjudication"}


def game(rng, fen, white, black, result):
    board = chess.Board(fen)
    pgn = chess.pgn.Game()
    pgn.setup(board)
    pgn.headers["Event"] = "elsewhere"
    pgn.headers["White"] = white
    pgn.headers["Black"] = black
    pgn.headers["Result"] = result
    node = pgn
    for _ in range(rng.randint(6, 24)):
        quiet = []
        for move in board.legal_moves:
            board.push(move)
            if not board.is_game_over(claim_draw=True):
                quiet.append(move)
            board.pop()
        if not quiet:
            break
        move = rng.choice(sorted(quiet, key=lambda m: m.uci()))
        board.push(move)
        node = node.add_variation(move)
        node.comment = f"{rng.uniform(-2, 2):+.2f}/{rng.randint(1, 20)} {rng.uniform(0, 1):.3f}s"
    node.comment = (node.comment + " " if node.comment else "") + REASON[result]
    return str(pgn)


def points(result, white_is_a):
    score = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}[result]
    return score if white_is_a else 2 - score


def singles(out, seed, count):
    rng = random.Random(seed)
    expected = {"wins": 0, "draws": 0, "losses": 0}
    colours = [True] * (count // 2) + [False] * (count // 2)
    rng.shuffle(colours)
    texts = []
    for a_white in colours:
        result = rng.choice(["1-0", "1/2-1/2", "0-1", "1-0"])
        names = ("EngineA", "EngineB") if a_white else ("EngineB", "EngineA")
        texts.append(game(rng, rng.choice(OPENINGS), names[0], names[1], result))
        expected[{2: "wins", 1: "draws", 0: "losses"}[points(result, a_white)]] += 1
    texts.insert(count // 2, game(rng, OPENINGS[0], "EngineC", "EngineA", "0-1"))
    with open(out, "w") as f:
        f.write("".join(text + "\n\n" for text in texts))
    print(json.dumps(expected))


def main():
    if len(sys.argv) > 4:
        singles(sys.argv[1], int(sys.argv[2]), int(sys.argv[4]))
        return
    out, seed, pairs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    texts, malformed = [], []
    expected = {"wins": 0, "draws": 0, "losses": 0, "pentanomial": [0] * 5}
    for i in range(pairs):
        fen = OPENINGS[i % len(OPENINGS)]
        first, second = (rng.choice(["1-0", "1/2-1/2", "0-1", "1-0"]) for _ in range(2))
        # The pair's first game has either engine as White.
        a_white_first = rng.random() < 0.5
        names = ("EngineA", "EngineB") if a_white_first else ("EngineB", "EngineA")
        texts.append(game(rng, fen, names[0], names[1], first))
        texts.append(game(rng, fen, names[1], names[0], second))
        pair_points = 0
        for result, white_is_a in ((first, a_white_first), (second, not a_white_first)):
            p = points(result, white_is_a)
            pair_points += p
            expected[{2: "wins", 1: "draws", 0: "losses"}[p]] += 1
        expected["pentanomial"][pair_points] += 1
        if i == 1:
            texts.append("MALFORMED_ILLEGAL")
        if i == 2:
            texts.append("MALFORMED_UNFINISHED")
    # A last game without a partner.
    texts.append(game(rng, OPENINGS[0], "EngineA", "EngineB", "1-0"))
    pieces = []
    line = 1
    for text in texts:
        if text == "MALFORMED_ILLEGAL":
            text = '[Event "x"]\n[White "EngineA"]\n[Black "EngineB"]\n[Result "1-0"]\n\n1. e4 e4 1-0'
            malformed.append(line)
        elif text == "MALFORMED_UNFINISHED":
            text = '[Event "x"]\n[White "EngineB"]\n[Black "EngineA"]\n[Result "*"]\n\n1. d4 d5 *'
            malformed.append(line)
        pieces.append(text + "\n\n")
        line += text.count("\n") + 2
    with open(out, "w") as f:
        f.write("".join(pieces))
    # python-chess reads its own file back: the games it accepts.
    with open(out) as f:
        read = 0
        while chess.pgn.read_game(f) is not None:
            read += 1
    expected["malformed_lines"] = malformed
    expected["games_in_file"] = read
    print(json.dumps(expected))


main()
