//! The checks of attacker's nodes generated lately, by position key.
//!
//! The reply look ([`super::dfpn`]'s `obvious`) generates every check of a
//! defender's new reply (unless [`super::no_quick_mate`] says it looked
//! before); the search usually expands one of those replies
//! right after, and generating its checks again costs as much. A small
//! direct-mapped cache keeps the lists (in generation order, so the search
//! is the same with or without it); a short list is stored whole or not at
//! all, and an entry is used only for the full key it was stored under.

use crate::moves::{Move, MoveList};

/// Entries (a power of two).
const ENTRIES: usize = 1024;
/// Longest list kept.
const MAX_LEN: usize = 27;

/// One position's checks.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    len: u8,
    moves: [Move; MAX_LEN],
}

/// The cache (about 64 KiB).
pub struct RecentChecks {
    entries: Vec<Entry>,
}

impl Default for RecentChecks {
    fn default() -> Self {
        RecentChecks {
            entries: vec![
                Entry {
                    key: 0,
                    len: u8::MAX,
                    moves: [Move::NONE; MAX_LEN],
                };
                ENTRIES
            ],
        }
    }
}

impl RecentChecks {
    #[inline]
    fn slot(key: u64) -> usize {
        (key >> 32) as usize & (ENTRIES - 1)
    }

    /// Keeps `checks`, the checks of the position with key `key` (unless
    /// the list is too long).
    pub fn put(&mut self, key: u64, checks: &MoveList) {
        let n = checks.len();
        if n > MAX_LEN {
            return;
        }
        let e = &mut self.entries[Self::slot(key)];
        e.key = key;
        e.len = n as u8;
        e.moves[..n].copy_from_slice(checks.as_slice());
    }

    /// Fills `checks` with the checks kept for `key`; false (and `checks`
    /// untouched) when they are not kept.
    pub fn get(&self, key: u64, checks: &mut MoveList) -> bool {
        let e = &self.entries[Self::slot(key)];
        if e.key != key || e.len == u8::MAX {
            return false;
        }
        checks.clear();
        for &m in &e.moves[..e.len as usize] {
            checks.push(m);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_checks;
    use crate::sfen::parse_sfen;

    #[test]
    fn a_kept_list_comes_back_in_order_and_only_for_its_key() {
        let pos = parse_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b GS 1").unwrap();
        let mut checks = MoveList::new();
        legal_checks(&pos, &mut checks);
        assert!(!checks.is_empty());
        let mut cache = RecentChecks::default();
        let mut got = MoveList::new();
        assert!(!cache.get(pos.key(), &mut got));
        cache.put(pos.key(), &checks);
        assert!(cache.get(pos.key(), &mut got));
        assert_eq!(got.as_slice(), checks.as_slice());
        assert!(!cache.get(pos.key() ^ 1, &mut got));
    }
}
