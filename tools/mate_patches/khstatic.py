# A check's new child starts at KomoringHeights-like df-pn+ numbers (pn 1-3
# from the defenders and supporters of the square; dn 1-2) without playing
# it: no count of the replies (session 40). Applies khor.py (which keeps the
# count as a cap), then returns its estimate before the count.
import os
import runpy
import sys

runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "khor.py"))
p = sys.argv[1]
s = open(p).read()
old = """        let child = pos.play(mv);
        let replies = count_legal_moves(&child) as u32;"""
new = """        let (kpn, kdn) = or_estimate(pos, mv);
        if kpn > 0 {
            return floors.raise(NodeValue::unknown(kpn, kdn));
        }
        let child = pos.play(mv);
        let replies = count_legal_moves(&child) as u32;"""
assert old in s
s = s.replace(old, new, 1)
open(p, "w").write(s)
