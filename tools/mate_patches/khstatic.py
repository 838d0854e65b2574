# A check's new child starts at KomoringHeights-like df-pn+ numbers (pn 1-3
# from the defenders and supporters of the square; dn 1-2) without playing
# it: no count of the replies (session 40; khor.py keeps the count as a cap).
import sys
p=sys.argv[1]; s=open(p).read()
old="""        let child = pos.play(mv);
        let replies = count_legal_moves(&child) as u32;"""
new="""        let (kpn, kdn) = or_estimate(pos, mv);
        if kpn > 0 {
            return floors.raise(NodeValue::unknown(kpn, kdn));
        }
        let child = pos.play(mv);
        let replies = count_legal_moves(&child) as u32;"""
assert old in s
s=s.replace(old,new,1)
s=s.replace("""/// The proof or disproof pieces of the node `pos` whose""","""/// KH-like df-pn+ estimate of a check.
fn or_estimate(pos: &Position, mv: Move) -> (u32, u32) {
    let us = pos.side_to_move();
    let them = us.flip();
    let to = mv.to();
    let occ = pos.occupied();
    let support = pos.attackers_to(to, us, occ).count() + u32::from(mv.is_drop());
    let defence = pos.attackers_to(to, them, occ).count();
    let (mut pn, mut dn) = (OR_BASE, OR_BASE);
    if defence >= 2 {
        pn += 1;
    }
    let captured = pos.piece_on(to);
    if support > defence {
        dn += 1;
    } else if !captured.is_none() {
        let raw = captured.piece_type().unpromoted();
        if raw == PieceType::GOLD || raw == PieceType::SILVER {
            dn += 1;
        } else {
            pn += 1;
        }
    } else {
        pn += 1;
    }
    (pn, dn)
}

const OR_BASE: u32 = 1;

/// The proof or disproof pieces of the node `pos` whose""",1)
open(p,'w').write(s)
