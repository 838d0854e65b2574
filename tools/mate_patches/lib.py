# A defender's new reply without a quick result starts at pn = 1 + flights / LIBDIV
# (the king's free squares; env LIBDIV, default 1). Session 38 (before the
# no-quick-mate cache, which now skips the estimate on later expansions):
# LIBDIV=1 K=80 3.43 M, K=54 8.21 M; LIBDIV=2 3.32 M, 6.96 M (HEAD 3.55 M, 8.17 M).
import sys, os
p=sys.argv[1]; s=open(p).read()
div = os.environ.get("LIBDIV", "1")
old="""            match self.obvious(&pos.play(children[i].mv), ply + 1) {
                Look::Solved(v) => {
                    children[i].value = v;
                    reveal_next(children, i);
                }
                Look::NoQuickResult => self.no_quick_mate.put(children[i].id),
                Look::NotLooked => {}
            }"""
new="""            let reply = pos.play(children[i].mv);
            match self.obvious(&reply, ply + 1) {
                Look::Solved(v) => {
                    children[i].value = v;
                    reveal_next(children, i);
                }
                Look::NoQuickResult => {
                    self.no_quick_mate.put(children[i].id);
                    let f = Flights::of(&reply).count();
                    let v = &mut children[i].value;
                    v.pn = v.pn.max(1 + f / LIB_DIV);
                }
                Look::NotLooked => {}
            }"""
assert old in s; s=s.replace(old,new,1)
s=s.replace("const POLL_INTERVAL: u64 = 4096;","const POLL_INTERVAL: u64 = 4096;\nconst LIB_DIV: u32 = %s;" % div,1)
open(p,'w').write(s)
q=p.replace("mate/dfpn.rs","flights.rs"); t=open(q).read()
t=t.replace("""    /// Whether one of the king's present flights stays free""","""    /// Number of flights.
    pub fn count(&self) -> u32 {
        self.safe.count()
    }

    /// Whether one of the king's present flights stays free""",1)
open(q,'w').write(t)
