"""Perft oracles wrapping cshogi (9x9 only) and pyffish (Fairy-Stockfish),
plus the SFEN -> FSF FEN conversion.

Every oracle exposes perft_all(sfen, depth) -> [nodes(1), ..., nodes(depth)].

FSF conventions (verified with pyffish 0.0.90):
  * FEN board rows are the SFEN rows unchanged (top row = gote's camp,
    uppercase = sente, '+X' = promoted), but FSF calls sente "white" and
    gote "black": SFEN side 'b' becomes FEN 'w' and vice versa.
  * Hands go in brackets after the board, one letter per piece
    ("[RGppp]"); "[]" is an empty hand.
  * FSF squares are <file letter><rank number>: file letter 'a' is the
    leftmost SFEN column (shogi file N), rank 1 is the bottom row (shogi
    rank letter N).  Non-promotions are plain moves, promotions end in
    '+', drops are 'P@e5' (uppercase letter for both sides).
  * pyffish lists pawn-drop mates (uchifuzume) as legal moves; they are
    filtered out here (see _ffish_moves).
"""

from refshogi import Position

NINEMASU_INI = """
[ninemasu:shogi]
maxRank = 3
maxFile = 3
startFen = 2k/3/K2[] w - - 0 1
promotionRegionWhite = *3
promotionRegionBlack = *1
"""

# 5x5 board with the full shogi piece set (lances, knights may appear in
# hand-made fixtures); the builtin "minishogi" lacks them in its piece set.
GOSHOGI_ALL_INI = """
[minishogiall:shogi]
maxRank = 5
maxFile = 5
startFen = rbsgk/4p/5/P4/KGSBR[] w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
"""

_loaded = False


def _sf():
    global _loaded
    import pyffish
    if not _loaded:
        pyffish.load_variant_config(NINEMASU_INI + GOSHOGI_ALL_INI)
        _loaded = True
    return pyffish


def board_size(sfen):
    return len(sfen.split()[0].split('/'))


def ffish_variant(sfen):
    n = board_size(sfen)
    if n == 9:
        return 'shogi'
    if n == 5:
        # builtin minishogi when the pieces fit its set, else the custom one
        letters = set(c.upper() for c in sfen.split()[0] + sfen.split()[2]
                      if c.isalpha())
        if letters <= set('KGSBRP'):
            return 'minishogi'
        return 'minishogiall'
    if n == 3:
        return 'ninemasu'
    raise ValueError('unsupported board size %d' % n)


def sfen_to_fen(sfen):
    parts = sfen.split()
    board, side = parts[0], parts[1]
    hand = parts[2] if len(parts) > 2 else '-'
    h = ''
    if hand != '-':
        cnt = ''
        for ch in hand:
            if ch.isdigit():
                cnt += ch
            else:
                h += ch * (int(cnt) if cnt else 1)
                cnt = ''
    return '%s[%s] %s - - 0 1' % (board, h, 'w' if side == 'b' else 'b')


def _reset_clocks(fen):
    # keep FSF's move counters from ever mattering (no n-move rule effects)
    return fen.rsplit(' ', 2)[0] + ' 0 1'


def _find(fen, n, piece):
    """(row, col) of the first `piece` letter in the FEN board, or None."""
    rows = fen.split('[', 1)[0].split('/')
    for r, row in enumerate(rows):
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            elif ch == '+':
                continue
            else:
                if ch == piece:
                    return r, c
                c += 1
    return None


def _ffish_moves(sf, variant, fen, n):
    """Legal moves per FSF, minus pawn-drop mates."""
    moves = sf.legal_moves(variant, fen, [])
    white = fen.split(']', 1)[1].split()[0] == 'w'  # sente to move
    k = _find(fen, n, 'k' if white else 'K')
    if k is None:
        return moves
    r, c = k
    r += 1 if white else -1  # square in front of the enemy king
    if not 0 <= r < n:
        return moves
    drop = 'P@%s%d' % (chr(ord('a') + c), n - r)
    if drop in moves:
        child = sf.get_fen(variant, fen, [drop])
        if not sf.legal_moves(variant, child, []):
            moves = [m for m in moves if m != drop]
    return moves


def ffish_legal_moves(sfen):
    sf = _sf()
    return _ffish_moves(sf, ffish_variant(sfen), sfen_to_fen(sfen),
                        board_size(sfen))


def ffish_perft_all(sfen, depth):
    sf = _sf()
    variant = ffish_variant(sfen)
    n = board_size(sfen)
    fen = sfen_to_fen(sfen)
    if sf.validate_fen(fen, variant) != 1:
        raise OracleRejects('pyffish rejects FEN %r (from %r)' % (fen, sfen))
    counts = [0] * (depth + 1)

    def rec(fen, d):
        moves = _ffish_moves(sf, variant, fen, n)
        counts[d] += len(moves)
        if d == depth:
            return
        for m in moves:
            rec(_reset_clocks(sf.get_fen(variant, fen, [m])), d + 1)

    rec(fen, 1)
    return counts[1:]


def cshogi_perft_all(sfen, depth):
    import cshogi
    if board_size(sfen) != 9:
        raise ValueError('cshogi only plays 9x9')
    board = cshogi.Board(sfen)
    counts = [0] * (depth + 1)

    def rec(d):
        moves = list(board.legal_moves)
        counts[d] += len(moves)
        if d == depth:
            return
        for m in moves:
            board.push(m)
            rec(d + 1)
            board.pop()

    rec(1)
    return counts[1:]


def ref_perft_all(sfen, depth):
    return Position.from_sfen(sfen).perft_all(depth)


ORACLES = {
    'cshogi': cshogi_perft_all,
    'pyffish': ffish_perft_all,
    'ref': ref_perft_all,
}


# ---------------------------------------------------------------- FSF driver
import os
import subprocess

FSF_BIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..',
                       'target', 'fsf_perft')
_fsf_proc = None


def _fsf():
    global _fsf_proc
    if _fsf_proc is None:
        # variant definitions for the driver, written next to the binary
        ini = os.path.join(os.path.dirname(FSF_BIN), 'fsf_variants.ini')
        tmp = '%s.%d' % (ini, os.getpid())
        with open(tmp, 'w') as f:
            f.write(NINEMASU_INI + GOSHOGI_ALL_INI)
        os.replace(tmp, ini)
        if not os.path.exists(FSF_BIN):
            raise RuntimeError('%s missing: run tools/setup_venv.sh' % FSF_BIN)
        _fsf_proc = subprocess.Popen([FSF_BIN, ini], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
    return _fsf_proc


class OracleRejects(Exception):
    """The oracle cannot handle this position (e.g. FSF without a king)."""


def fsf_perft_all(sfen, depth):
    """Fairy-Stockfish perft through target/fsf_perft (same engine code as
    pyffish, uchifuzume filtered).  Labelled 'pyffish' in the fixtures."""
    fen = sfen_to_fen(sfen)
    variant = ffish_variant(sfen)
    p = _fsf()
    p.stdin.write('%s\t%s\t%d\n' % (variant, fen, depth))
    p.stdin.flush()
    line = p.stdout.readline().strip()
    if line.startswith('error') or not line:
        raise OracleRejects('fsf_perft: %s for %r' % (line or 'died', fen))
    return [int(x) for x in line.split()]
