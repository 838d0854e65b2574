#!/usr/bin/env python3
"""Prints a summary of a Fukayomi weights file (piece values, hand values,
king-relative tables) for one board: tools/show_weights.py FILE [9x9|5x5|3x3]."""
import struct
import sys

TYPES, SQ, SPAN = 15, 81, 17
NAMES = ['-', 'P', 'L', 'N', 'S', 'B', 'R', 'G', 'K', '+P', '+L', '+N', '+S', '+B', '+R']
data = open(sys.argv[1], 'rb').read()
F = struct.unpack('<I', data[8:12])[0]
board = {'9x9': 0, '5x5': 1, '3x3': 2}[sys.argv[2] if len(sys.argv) > 2 else '9x9']
n = [9, 5, 3][board]
w = struct.unpack('<%dh' % F, data[12 + 2 * F * board:12 + 2 * F * (board + 1)])
OWN, ENEMY = TYPES * SQ, TYPES * SQ + TYPES * SPAN * SPAN
HAND = ENEMY + TYPES * SPAN * SPAN
for pt in range(1, 15):
    sq = [w[pt * SQ + f * 9 + r] for f in range((n + 1) // 2) for r in range(n)]
    print(f"{NAMES[pt]:>3} psq mean {sum(sq) // len(sq):5} min {min(sq):5} max {max(sq):5}")
for pt in range(1, 8):
    print(f"hand {NAMES[pt]}:", w[HAND + pt * 19 + 1:HAND + pt * 19 + 6])
for base, what in ((OWN, 'own'), (ENEMY, 'enemy')):
    for pt in (7, 4, 14):
        print(f"{NAMES[pt]} relative to the {what} king (rows dy -2..2, cols |dx| 0..2)")
        for dy in range(-2, 3):
            print('   ', [w[base + pt * SPAN * SPAN + (dy + 8) * SPAN + dx] for dx in range(3)])
