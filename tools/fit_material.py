#!/usr/bin/env python3
"""Fit material values to game results (Texel's method, material only).

Reads match logs (tools/match.py --log: `winner reason sfen moves tag`,
winner 0 = sente, 1 = gote, or `draw`), replays every game with cshogi and
takes the positions from ply MIN_PLY on that are not in check and where
neither the move before nor the move after captures (roughly quiet). Each
position's features are the piece counts (board, by type, kings left out;
hand, by type), sente's minus gote's; the result is sente's score. A
logistic regression (Newton's method, no intercept but a side-to-move
term) gives a value per feature; the values are printed scaled so that the
current values (src/eval/material.rs) are matched in the least-squares
sense, next to the current ones.

    target/venv/bin/python tools/fit_material.py target/matches/*.log
"""
import argparse
import sys

import cshogi
import numpy as np

BOARD = ["pawn", "lance", "knight", "silver", "bishop", "rook", "gold", "king",
         "tokin", "pro-lance", "pro-knight", "pro-silver", "horse", "dragon"]
HAND = ["pawn", "lance", "knight", "silver", "gold", "bishop", "rook"]
CURRENT_BOARD = [90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395]
HAND_BONUS = 1.10
CURRENT_HAND = [round(v * HAND_BONUS) for v in [90, 315, 405, 495, 540, 855, 990]]
KEEP = [i for i in range(14) if BOARD[i] != "king"]


def features(board):
    x = np.zeros(13 + 7 + 1)
    for p in board.pieces:
        if p == 0:
            continue
        t, sign = (p, 1) if p < 16 else (p - 16, -1)
        if t == 8:
            continue
        x[KEEP.index(t - 1)] += sign
    hb, hw = board.pieces_in_hand
    for i in range(7):
        x[13 + i] = hb[i] - hw[i]
    x[20] = 1 if board.turn == cshogi.BLACK else -1
    return x


def read(logs, min_ply):
    xs, ys = [], []
    for path in logs:
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) < 4:
                continue
            y = {"0": 1.0, "1": 0.0, "draw": 0.5}.get(f[0])
            if y is None:
                continue
            b = cshogi.Board(f[2])
            moves = f[3].split()
            prev_capture = False
            for i, usi in enumerate(moves):
                m = b.move_from_usi(usi)
                cap = b.piece(cshogi.move_to(m)) != 0 and not cshogi.move_is_drop(m)
                if i >= min_ply and not prev_capture and not cap and not b.is_check():
                    xs.append(features(b))
                    ys.append(y)
                b.push(m)
                prev_capture = cap
    return np.array(xs), np.array(ys)


def fit(x, y, l2=1e-3):
    w = np.zeros(x.shape[1])
    for _ in range(30):
        p = 1 / (1 + np.exp(-x @ w))
        g = x.T @ (p - y) + l2 * w
        h = (x * (p * (1 - p))[:, None]).T @ x + l2 * np.eye(len(w))
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    p = 1 / (1 + np.exp(-x @ w))
    loss = -np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))
    return w, loss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--min-ply", type=int, default=20)
    a = ap.parse_args()
    x, y = read(a.logs, a.min_ply)
    print(f"{len(y)} positions", file=sys.stderr)
    w, loss = fit(x, y)
    cur = np.array([CURRENT_BOARD[i] for i in KEEP] + CURRENT_HAND, dtype=float)
    scale = (cur @ w[:20]) / (w[:20] @ w[:20])
    print(f"log loss {loss:.4f}; side to move term {w[20] * scale:+.0f}; "
          f"1 / scale = {1 / scale:.5f} (win odds per centipawn, natural log)")
    names = [f"board {BOARD[i]}" for i in KEEP] + [f"hand {n}" for n in HAND]
    for n, c, v in zip(names, cur, w[:20] * scale):
        print(f"{n:18} current {c:5.0f}  fitted {v:6.0f}")


if __name__ == "__main__":
    main()
