#!/usr/bin/env python3
"""Training positions for the shogi evaluation, from Fairy-Stockfish self-play.

Each game starts with a few random plies (legal moves chosen uniformly by
cshogi), then Fairy-Stockfish plays both sides at a fixed node count over USI.
Every position it searched is written as one line:

    SFEN <tab> score (cp, side to move) <tab> result (1 / 0.5 / 0, side to move)
         <tab> best move <tab> flags (c = side to move in check, x = best move captures)

With --play-nodes and --label-prob, only that share of the positions is
searched at --nodes and written out; the other moves are played at the
smaller node count, so the same labelling time covers more games.

With --player PATH another USI engine (tengen) plays both sides at
--player-nodes, and Fairy-Stockfish only labels the positions it reaches
(the --label-prob share of them):
data from the positions our own search steers into, where a network
trained on Fairy-Stockfish's games alone has seen least. The best move and
the capture flag are then Fairy-Stockfish's; the result is the player's
self-play game.

Games end by mate, repetition (cshogi's ruling), a score of 3000 cp or more
for one side five plies running (adjudicated to that side), or the ply cap
(a draw).

    python3 scripts/shogi_datagen.py --games 500 --seed 1 --out data1.tsv
"""
import argparse
import random
import subprocess
import sys

import cshogi

MATE = 30000


class Fsf:
    def __init__(self, path, nodes, variant=True):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.nodes = nodes
        self.send("usi")
        self.wait("usiok")
        if variant:
            self.send("setoption name UCI_Variant value shogi")
        self.send("setoption name USI_Hash value 16")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed")
            if line.split() and line.split()[0] == token:
                return line

    def think(self, sfen, nodes=None):
        self.send("position sfen " + sfen)
        self.send(f"go nodes {nodes or self.nodes}")
        score = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed")
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "info" and "score" in parts:
                i = parts.index("score")
                if parts[i + 1] == "cp":
                    score = int(parts[i + 2])
                elif parts[i + 1] == "mate":
                    m = parts[i + 2]
                    neg = m.startswith("-")
                    n = int(m.lstrip("+-") or 0)
                    score = -(MATE - n) if neg else MATE - n
            elif parts[0] == "bestmove":
                return parts[1], score

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def play(engine, rng, max_plies, play_nodes, label_prob, player=None):
    board = cshogi.Board()
    for _ in range(rng.randint(2, 8)):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            return []
        board.push(rng.choice(moves))
    records = []
    winner = None  # 0 black, 1 white, None draw
    streak = [0, 0]
    while True:
        if board.is_game_over():
            winner = 1 - board.turn
            break
        rep = board.is_draw()
        if rep == cshogi.REPETITION_DRAW:
            break
        if rep in (cshogi.REPETITION_WIN, cshogi.REPETITION_SUPERIOR):
            winner = board.turn
            break
        if rep in (cshogi.REPETITION_LOSE, cshogi.REPETITION_INFERIOR):
            winner = 1 - board.turn
            break
        if board.move_number > max_plies:
            break
        sfen = board.sfen()
        label = rng.random() < label_prob
        if player is not None:
            # The player moves; Fairy-Stockfish searches only the positions
            # written out, and its move is the one recorded.
            best, score = player.think(sfen)
            if label:
                label_best, score = engine.think(sfen)
        else:
            best, score = engine.think(sfen, None if label else play_nodes)
            label_best = best
        if best in ("resign", "win") or score is None:
            winner = (1 - board.turn) if best == "resign" else board.turn
            break
        move = board.move_from_usi(best)
        if not board.is_legal(move):
            print("illegal move from engine:", sfen, best, file=sys.stderr)
            break
        if label:
            recorded = board.move_from_usi(label_best) if label_best not in ("resign", "win") else 0
            takes = recorded and board.piece(cshogi.move_to(recorded))
            flags = ("c" if board.is_check() else "") + ("x" if takes else "")
            records.append((sfen, score, board.turn, label_best, flags or "-"))
        # Adjudicate a decided game (on the player's own score when
        # Fairy-Stockfish did not search the position).
        side = board.turn if score > 0 else 1 - board.turn
        if abs(score) >= 3000:
            streak[side] += 1
            streak[1 - side] = 0
        else:
            streak = [0, 0]
        if streak[side] >= 5:
            winner = side
            break
        board.push(move)
    out = []
    for sfen, score, turn, best, flags in records:
        if winner is None:
            res = 0.5
        else:
            res = 1.0 if winner == turn else 0.0
        out.append(f"{sfen}\t{score}\t{res}\t{best}\t{flags}")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--nodes", type=int, default=8000)
    ap.add_argument("--play-nodes", type=int, default=None,
                    help="nodes for the moves not written out (default: --nodes)")
    ap.add_argument("--label-prob", type=float, default=1.0,
                    help="share of positions searched at --nodes and written out")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=320)
    ap.add_argument("--out", required=True)
    ap.add_argument("--player", default=None,
                    help="USI engine that plays both sides (Fairy-Stockfish only labels)")
    ap.add_argument("--player-nodes", type=int, default=5000)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = Fsf(args.engine, args.nodes)
    player = Fsf(args.player, args.player_nodes, variant=False) if args.player else None
    with open(args.out, "a") as f:
        for g in range(args.games):
            engine.send("usinewgame")
            if player is not None:
                player.send("usinewgame")
            lines = play(engine, rng, args.max_plies, args.play_nodes, args.label_prob, player)
            f.write("".join(line + "\n" for line in lines))
            f.flush()
            print(f"game {g + 1}: {len(lines)} positions", file=sys.stderr, flush=True)
    engine.close()
    if player is not None:
        player.close()


if __name__ == "__main__":
    main()
