"""Deliberately simple pure-Python shogi reference implementation.

Written from the rules (not from any engine) to serve as an independent
perft oracle for tools/gen_perft_fixtures.py.  Supports square boards of
size N = 9 (standard shogi, 3-rank promotion zone), N = 5 (minishogi,
1-rank zone) and N = 3 (9-masu shogi, 1-rank zone); any shogi piece may
appear on any of them.

Rules implemented (every legal move is generated):
  * all board moves, promotion optional when the move starts or ends in
    the mover's promotion zone, except that promotion is forced when the
    unpromoted piece could never move again from its destination
    ("dead" piece, decided geometrically from the piece's step/slide
    directions and the board size; e.g. a sente knight on ranks a/b).
    A move that would leave a dead piece and cannot promote is illegal
    (e.g. a 5x5 knight jumping to rank b).
  * drops on empty squares, not where the piece would be dead; no pawn
    drop on a file holding an own unpromoted pawn (nifu); no pawn drop
    that checkmates (uchifuzume).  Pawn *moves* that mate are legal.
  * no move may leave the mover's own king attacked.  A side may have no
    king at all (tsume-style positions); then there is nothing to check.

Board layout: squares are indexed r * N + c with r = 0 the top rank
('a', gote's camp) and c = 0 the leftmost file (file N in shogi numbering).
Pieces are signed ints: positive = sente (black, 'b', moves up), negative =
gote.  |piece| is one of the constants below.
"""

import sys

P, L, N_, S, G, B, R, K = 1, 2, 3, 4, 5, 6, 7, 8
PP, PL, PN, PS, PB, PR = 9, 10, 11, 12, 13, 14
PROMOTE = {P: PP, L: PL, N_: PN, S: PS, B: PB, R: PR}
UNPROMOTE = {v: k for k, v in PROMOTE.items()}

LETTER = {P: 'P', L: 'L', N_: 'N', S: 'S', G: 'G', B: 'B', R: 'R', K: 'K'}
FROM_LETTER = {v: k for k, v in LETTER.items()}
HAND_ORDER = [R, B, G, S, N_, L, P]  # standard SFEN hand order

# Movement of each piece type for sente, as (dr, dc) with dr = -1 forward.
# STEPS: one-square moves/jumps; SLIDES: ranged lines.
_GOLD = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)]
_DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
_ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
STEPS = {
    P: [(-1, 0)],
    L: [],
    N_: [(-2, -1), (-2, 1)],
    S: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)],
    G: _GOLD, PP: _GOLD, PL: _GOLD, PN: _GOLD, PS: _GOLD,
    B: [], R: [],
    PB: _ORTH, PR: _DIAG,
    K: _DIAG + _ORTH,
}
SLIDES = {
    P: [], L: [(-1, 0)], N_: [], S: [], G: [], PP: [], PL: [], PN: [], PS: [],
    B: _DIAG, R: _ORTH, PB: _DIAG, PR: _ORTH, K: [],
}


def zone_depth(n):
    """Number of far ranks forming the promotion zone for a board size."""
    return 3 if n == 9 else 1


class Position:
    def __init__(self, n):
        self.n = n
        self.board = [0] * (n * n)
        # hands[0] = sente, hands[1] = gote; dict piece type -> count
        self.hands = [dict.fromkeys(HAND_ORDER, 0), dict.fromkeys(HAND_ORDER, 0)]
        self.side = 1  # +1 sente to move, -1 gote to move
        self.ply = 1   # SFEN move number
        self._dead_cache = {}

    # ------------------------------------------------------------ SFEN
    @classmethod
    def from_sfen(cls, sfen):
        parts = sfen.split()
        rows = parts[0].split('/')
        n = len(rows)
        pos = cls(n)
        for r, row in enumerate(rows):
            c = 0
            i = 0
            while i < len(row):
                ch = row[i]
                if ch.isdigit():
                    c += int(ch)
                    i += 1
                    continue
                promoted = False
                if ch == '+':
                    promoted = True
                    i += 1
                    ch = row[i]
                t = FROM_LETTER[ch.upper()]
                if promoted:
                    t = PROMOTE[t]
                pos.board[r * n + c] = t if ch.isupper() else -t
                c += 1
                i += 1
            if c != n:
                raise ValueError('bad row %r in %r' % (row, sfen))
        pos.side = 1 if parts[1] == 'b' else -1
        hand = parts[2] if len(parts) > 2 else '-'
        if hand != '-':
            cnt = ''
            for ch in hand:
                if ch.isdigit():
                    cnt += ch
                else:
                    owner = 0 if ch.isupper() else 1
                    pos.hands[owner][FROM_LETTER[ch.upper()]] += int(cnt) if cnt else 1
                    cnt = ''
        pos.ply = int(parts[3]) if len(parts) > 3 else 1
        return pos

    def sfen(self):
        n = self.n
        rows = []
        for r in range(n):
            s = ''
            empty = 0
            for c in range(n):
                p = self.board[r * n + c]
                if p == 0:
                    empty += 1
                    continue
                if empty:
                    s += str(empty)
                    empty = 0
                t = abs(p)
                if t in UNPROMOTE:
                    s += '+'
                    t = UNPROMOTE[t]
                s += LETTER[t] if p > 0 else LETTER[t].lower()
            if empty:
                s += str(empty)
            rows.append(s)
        hand = ''
        for owner in (0, 1):
            for t in HAND_ORDER:
                k = self.hands[owner][t]
                if k:
                    letter = LETTER[t] if owner == 0 else LETTER[t].lower()
                    hand += (str(k) if k > 1 else '') + letter
        return '%s %s %s %d' % ('/'.join(rows), 'b' if self.side == 1 else 'w',
                                 hand or '-', self.ply)

    # ------------------------------------------------------------ helpers
    def sq_name(self, sq):
        r, c = divmod(sq, self.n)
        return '%d%s' % (self.n - c, chr(ord('a') + r))

    def in_zone(self, r, side):
        z = zone_depth(self.n)
        return r < z if side == 1 else r >= self.n - z

    def is_dead(self, t, r, side):
        """True if an unpromoted piece of type t belonging to `side` on rank r
        could never move again: every one of its step/slide directions leaves
        the board at once.  (All direction sets have a dc in {-1, 0, 1}, and
        boards are at least 3 wide, so only the rank can run off the board.)"""
        key = (t, r, side)
        v = self._dead_cache.get(key)
        if v is None:
            v = all(not (0 <= r + dr * side < self.n)
                    for dr, dc in STEPS[t] + SLIDES[t])
            self._dead_cache[key] = v
        return v

    def king_sq(self, side):
        k = K * side
        for i, p in enumerate(self.board):
            if p == k:
                return i
        return -1

    def attacked(self, sq, by):
        """Is square sq attacked by a piece of side `by`?"""
        n = self.n
        board = self.board
        r0, c0 = divmod(sq, n)
        # Steps: a piece of `by` at offset (dr, dc) from sq (adjacent or a
        # knight jump away) attacks sq if it has the step back to sq.
        for dr in (-2, -1, 0, 1, 2):
            for dc in (-1, 0, 1):
                if dr == 0 and dc == 0:
                    continue
                if abs(dr) == 2 and dc == 0:
                    continue
                r, c = r0 + dr, c0 + dc
                if not (0 <= r < n and 0 <= c < n):
                    continue
                p = board[r * n + c]
                if p == 0 or (p > 0) != (by > 0):
                    continue
                t = abs(p)
                # direction from attacker to sq, in attacker's own frame
                mdr, mdc = -dr * by, -dc
                if (mdr, mdc) in STEPS[t]:
                    return True
        # Slides: walk each line outward to the first piece; it attacks sq if
        # it slides back along that line.
        for dr, dc in _DIAG + _ORTH:
            r, c = r0 + dr, c0 + dc
            while 0 <= r < n and 0 <= c < n:
                p = board[r * n + c]
                if p != 0:
                    if (p > 0) == (by > 0):
                        t = abs(p)
                        if (-dr * by, -dc) in SLIDES[t]:
                            return True
                    break
                r += dr
                c += dc
        return False

    def in_check(self, side):
        k = self.king_sq(side)
        return k >= 0 and self.attacked(k, -side)

    # ------------------------------------------------------------ moves
    # A move is a tuple (from_sq, to_sq, promote, drop_type); from_sq = -1
    # for drops.
    def pseudo_moves(self):
        n = self.n
        side = self.side
        board = self.board
        out = []
        for sq in range(n * n):
            p = board[sq]
            if p == 0 or (p > 0) != (side > 0):
                continue
            t = abs(p)
            r0, c0 = divmod(sq, n)
            targets = []
            for dr, dc in STEPS[t]:
                r, c = r0 + dr * side, c0 + dc
                if 0 <= r < n and 0 <= c < n:
                    q = board[r * n + c]
                    if q == 0 or (q > 0) != (side > 0):
                        targets.append((r, c))
            for dr, dc in SLIDES[t]:
                r, c = r0 + dr * side, c0 + dc
                while 0 <= r < n and 0 <= c < n:
                    q = board[r * n + c]
                    if q == 0:
                        targets.append((r, c))
                    else:
                        if (q > 0) != (side > 0):
                            targets.append((r, c))
                        break
                    r += dr * side
                    c += dc
            for r, c in targets:
                to = r * n + c
                if t in PROMOTE and (self.in_zone(r0, side) or self.in_zone(r, side)):
                    out.append((sq, to, True, 0))
                    if not self.is_dead(t, r, side):
                        out.append((sq, to, False, 0))
                elif not (t in PROMOTE and self.is_dead(t, r, side)):
                    out.append((sq, to, False, 0))
                # else: dead piece that cannot promote -> no move
        hand = self.hands[0 if side == 1 else 1]
        for t in HAND_ORDER:
            if not hand[t]:
                continue
            pawn_files = None
            if t == P:
                pawn_files = set(i % n for i, q in enumerate(board) if q == P * side)
            for to in range(n * n):
                if board[to] != 0:
                    continue
                r, c = divmod(to, n)
                if self.is_dead(t, r, side):
                    continue
                if t == P and c in pawn_files:
                    continue
                out.append((-1, to, False, t))
        return out

    def make(self, m):
        """Play move m; return undo info."""
        frm, to, promote, drop = m
        side = self.side
        board = self.board
        captured = board[to]
        if drop:
            self.hands[0 if side == 1 else 1][drop] -= 1
            board[to] = drop * side
        else:
            p = board[frm]
            board[frm] = 0
            if promote:
                p = PROMOTE[abs(p)] * side
            board[to] = p
            if captured:
                # Capturing a king only happens from an illegal start position
                # (side not to move in check); the king does not go to hand.
                t = abs(captured)
                t = UNPROMOTE.get(t, t)
                if t != K:
                    self.hands[0 if side == 1 else 1][t] += 1
        self.side = -side
        self.ply += 1
        return captured

    def unmake(self, m, captured):
        frm, to, promote, drop = m
        self.side = side = -self.side
        self.ply -= 1
        board = self.board
        if drop:
            self.hands[0 if side == 1 else 1][drop] += 1
            board[to] = 0
        else:
            p = board[to]
            if promote:
                p = UNPROMOTE[abs(p)] * side
            board[frm] = p
            board[to] = captured
            if captured:
                t = abs(captured)
                t = UNPROMOTE.get(t, t)
                if t != K:
                    self.hands[0 if side == 1 else 1][t] -= 1

    def legal_moves(self, check_drop_mate=True):
        side = self.side
        out = []
        for m in self.pseudo_moves():
            cap = self.make(m)
            ok = not self.in_check(side)
            if (ok and check_drop_mate and m[3] == P
                    and self.king_sq(-side) == m[1] - self.n * side):
                # The dropped pawn gives check (enemy king right in front of
                # it): illegal if the opponent then has no legal reply.  (The
                # drop-mate test is not needed for the replies: a drop can
                # never answer a pawn's adjacent check.)
                if not self.legal_moves(check_drop_mate=False):
                    ok = False
            self.unmake(m, cap)
            if ok:
                out.append(m)
        return out

    def move_usi(self, m):
        frm, to, promote, drop = m
        if drop:
            return '%s*%s' % (LETTER[drop], self.sq_name(to))
        return self.sq_name(frm) + self.sq_name(to) + ('+' if promote else '')

    # ------------------------------------------------------------ perft
    def perft_all(self, depth):
        """Return [nodes(1), ..., nodes(depth)]."""
        counts = [0] * (depth + 1)

        def rec(d):
            moves = self.legal_moves()
            counts[d] += len(moves)
            if d == depth:
                return
            for m in moves:
                cap = self.make(m)
                rec(d + 1)
                self.unmake(m, cap)

        if depth > 0:
            rec(1)
        return counts[1:]

    def perft(self, depth):
        return self.perft_all(depth)[-1] if depth > 0 else 1


def main(argv):
    if len(argv) < 3:
        print('usage: refshogi.py "<sfen>" DEPTH [divide]')
        return 2
    pos = Position.from_sfen(argv[1])
    depth = int(argv[2])
    if len(argv) > 3:
        total = 0
        for m in sorted(pos.legal_moves(), key=pos.move_usi):
            cap = pos.make(m)
            k = pos.perft(depth - 1)
            pos.unmake(m, cap)
            print(pos.move_usi(m), k)
            total += k
        print('total', total)
    else:
        print(pos.perft_all(depth))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
