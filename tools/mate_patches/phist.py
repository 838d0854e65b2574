# Proof history: an OR node proven credits its proving move; checks are ordered by
# that count (ties in pn go to it); with env PHIST_PN=true the top move's fresh pn
# is also halved. Session 38: false K=80 3.59 M, K=54 7.19 M; true 3.74 M, 8.35 M.
import sys, os
p=sys.argv[1]; s=open(p).read()
s=s.replace("    extend: u32,\n}\n","    extend: u32,\n    /// proof history\n    proof_history: Vec<u32>,\n}\n",1)
s=s.replace("            extend: 0,\n            trail: Vec::new(),","            extend: 0,\n            proof_history: vec![0; 1 << 16],\n            trail: Vec::new(),",1)
old="""        self.extend = self.extend.min(outer_extend);
        self.pop_frame();"""
new="""        self.extend = self.extend.min(outer_extend);
        if or_node && value.pn == 0 && let Some(c) = children.iter().find(|c| c.value.pn == 0) {
            let h = &mut self.proof_history[c.mv.raw() as usize];
            *h = h.saturating_add(1);
        }
        self.pop_frame();"""
assert old in s; s=s.replace(old,new,1)
old="""            let proven = child.value.pn == 0;
            children.push(child);
            if proven {
                break;
            }
        }
        children"""
new="""            let proven = child.value.pn == 0;
            children.push(child);
            if proven {
                break;
            }
        }
        let h = &self.proof_history;
        children.sort_by_key(|c| std::cmp::Reverse(h[c.mv.raw() as usize]));
        if PHIST_PN && let Some(c) = children.first_mut() && h[c.mv.raw() as usize] > 0 && c.fresh {
            c.value.pn = c.value.pn.div_ceil(2);
        }
        children"""
assert old in s; s=s.replace(old,new,1)
s=s.replace("const POLL_INTERVAL: u64 = 4096;","const POLL_INTERVAL: u64 = 4096;\nconst PHIST_PN: bool = %s;" % os.environ.get("PHIST_PN","false"),1)
open(p,'w').write(s)
