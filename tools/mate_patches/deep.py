# Deep df-pn-like bias: new nodes at ply p start at numbers scaled by
# 1 + (DEEP_D - p) / DEEP_K (env, default 200 and 50). Session 38: default
# K=80 3.42 M, K=54 7.27 M; DEEP_D=400 DEEP_K=40 3.34 M, 7.93 M.
import sys, os
p=sys.argv[1]; s=open(p).read()
D=os.environ.get("DEEP_D","200"); K=os.environ.get("DEEP_K","50")
s=s.replace("const POLL_INTERVAL: u64 = 4096;","const POLL_INTERVAL: u64 = 4096;\nconst DEEP_D: usize = %s;\nconst DEEP_K: usize = %s;\n#[inline]\nfn deep_scale(ply: usize) -> u32 {\n    (1 + DEEP_D.saturating_sub(ply) / DEEP_K) as u32\n}" % (D,K),1)
old="""            let child = self.child(mv, &keys, ply, |dfpn, floors| {
                dfpn.new_check(pos, mv, floors)
            });"""
new="""            let child = self.child(mv, &keys, ply, |dfpn, floors| {
                dfpn.new_check(pos, mv, floors, deep_scale(ply + 1))
            });"""
assert old in s; s=s.replace(old,new,1)
old="""    fn new_check(&mut self, pos: &Position, mv: Move, floors: Hints) -> NodeValue {"""
new="""    fn new_check(&mut self, pos: &Position, mv: Move, floors: Hints, scale: u32) -> NodeValue {"""
assert old in s; s=s.replace(old,new,1)
old="""        let pn = NEW_CHECK_PN_CAP.map_or(replies, |cap| replies.min(cap));
        floors.raise(NodeValue::unknown(pn, 1))"""
new="""        let pn = NEW_CHECK_PN_CAP.map_or(replies, |cap| replies.min(cap));
        floors.raise(NodeValue::unknown(pn * scale, scale))"""
assert old in s; s=s.replace(old,new,1)
old="""            let child = self.child(mv, &keys, ply, |_, floors| {
                floors.raise(NodeValue::unknown(1, 1))
            });"""
new="""            let child = self.child(mv, &keys, ply, |_, floors| {
                let sc = deep_scale(ply + 1);
                floors.raise(NodeValue::unknown(sc, sc))
            });"""
assert old in s; s=s.replace(old,new,1)
open(p,'w').write(s)
