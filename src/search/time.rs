//! Time management: how long one move may think.
//!
//! [`budget`] turns the `go` limits and the time options into two numbers,
//! both counted from [`super::Control::clock_start`]:
//! - `optimum`: no new iteration starts after this (the search may stop
//!   earlier when more time is unlikely to help); with main time it is a
//!   target that [`Stability`] scales by how steady the best move is;
//! - `maximum`: a running iteration is abandoned here. It never lies past the
//!   point where the move would be late: remaining time + byoyomi (+ the
//!   increment, which USI GUIs add at the start of the move) minus
//!   `NetworkDelay2`, or half of that when the delay would eat most of it.
//!
//! Rules:
//! - `movetime`: both are the movetime minus `NetworkDelay`, at most
//!   [`MOVETIME_MARGIN`].
//! - byoyomi with no main time left: both are the byoyomi minus
//!   `NetworkDelay` (or half the byoyomi when the delay would eat more), not
//!   capped by `NetworkDelay2` (the byoyomi is lost if unused, so the search
//!   keeps iterating until then).
//! - otherwise (sudden death, Fischer, or main time before the byoyomi):
//!   `optimum` = remaining / moves-to-go + increment + the usable byoyomi,
//!   scaled by `SlowMover`, raised to `MinimumThinkingTime`; `maximum` =
//!   4 x that slice, capped by the deadline and by remaining / 8 + the
//!   increment and byoyomi; `optimum` never exceeds `maximum`.
//! - no clock at all and no other limit (a bare `go`): [`DEFAULT_MOVE_MS`].

use super::{Limits, SearchOptions};
use crate::rules::BoardKind;
use crate::types::Color;

/// Most milliseconds kept back from a `go movetime` (`NetworkDelay` when
/// smaller): a GUI asking for N ms expects close to N.
pub const MOVETIME_MARGIN: u64 = 20;

/// Thinking time of a bare `go` with no limit of any kind, in milliseconds.
pub const DEFAULT_MOVE_MS: u64 = 10_000;

/// The time one move may use, in milliseconds from the clock start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this (scaled by [`Stability`]
    /// unless `use_all`).
    pub optimum: u64,
    /// Abort the search at this point.
    pub maximum: u64,
    /// Whether unused time is lost (byoyomi, movetime): then the search
    /// keeps iterating until `optimum` instead of stopping early.
    pub use_all: bool,
    /// Least optimum that [`Stability`] may scale down to
    /// (`MinimumThinkingTime`, within `maximum`).
    pub floor: u64,
}

/// `total` minus `delay`, or half of `total` when the delay would leave less
/// than that.
pub(crate) fn keep_back(total: u64, delay: u64) -> u64 {
    if total > delay.saturating_mul(2) {
        total - delay
    } else {
        total / 2
    }
}

/// Moves still to play that the main time is spread over.
fn moves_to_go(kind: BoardKind) -> u64 {
    match kind {
        BoardKind::Standard => 40,
        BoardKind::Mini => 25,
        BoardKind::Ninemasu => 15,
    }
}

/// Whether `limits` say nothing about when to stop (a bare `go`, or a bare
/// `go ponder`, which after `ponderhit` thinks [`DEFAULT_MOVE_MS`]).
pub fn is_unlimited(limits: &Limits, options: &SearchOptions) -> bool {
    limits.btime.is_none()
        && limits.wtime.is_none()
        && limits.binc.is_none()
        && limits.winc.is_none()
        && limits.byoyomi.is_none()
        && limits.movetime.is_none()
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && !limits.infinite
        && options.depth_limit == 0
        && options.nodes_limit == 0
}

/// The budget of `us` for this move, or `None` when time does not limit
/// the search (`infinite`, or only depth/node limits). Pondering is handled
/// by the caller: the budget applies once the clock starts.
pub fn budget(
    limits: &Limits,
    options: &SearchOptions,
    us: Color,
    kind: BoardKind,
) -> Option<Budget> {
    if limits.infinite {
        return None;
    }
    if let Some(mt) = limits.movetime {
        let t = keep_back(mt, options.network_delay.min(MOVETIME_MARGIN)).max(1);
        return Some(Budget {
            optimum: t,
            maximum: t,
            use_all: true,
            floor: t,
        });
    }
    let (time, inc) = match us {
        Color::Sente => (limits.btime, limits.binc),
        Color::Gote => (limits.wtime, limits.winc),
    };
    let byoyomi = limits.byoyomi.unwrap_or(0);
    let inc = inc.unwrap_or(0);
    if time.is_none() && byoyomi == 0 && inc == 0 {
        if is_unlimited(limits, options) {
            return Some(Budget {
                optimum: DEFAULT_MOVE_MS,
                maximum: DEFAULT_MOVE_MS,
                use_all: true,
                floor: DEFAULT_MOVE_MS,
            });
        }
        return None;
    }
    let remaining = time.unwrap_or(0);
    let deadline = keep_back(remaining + inc + byoyomi, options.network_delay2).max(1);
    if remaining == 0 && byoyomi > 0 {
        // Only the byoyomi is left: use it all but NetworkDelay. The
        // NetworkDelay2 deadline is meant for main time; with YaneuraOu's
        // default of 1120 ms it would halve a 1 s byoyomi.
        let t = keep_back(byoyomi + inc, options.network_delay).max(1);
        return Some(Budget {
            optimum: t,
            maximum: t,
            use_all: true,
            floor: t,
        });
    }
    let usable_byoyomi = if byoyomi > 0 {
        keep_back(byoyomi, options.network_delay)
    } else {
        0
    };
    let slice = remaining / moves_to_go(kind) + inc + usable_byoyomi;
    let maximum = (slice * 4)
        .min(remaining / 8 + inc + usable_byoyomi)
        .min(deadline)
        .max(1);
    let optimum = (slice * options.slow_mover.max(1) / 100)
        .max(options.minimum_thinking_time)
        .min(maximum)
        .max(1);
    Some(Budget {
        optimum,
        maximum,
        use_all: false,
        floor: options.minimum_thinking_time.min(maximum),
    })
}

/// Weight of one recent change of the best move in [`Stability::scale`].
const CHANGE_WEIGHT: f64 = 1.0;
/// How much of the change count one iteration keeps.
const CHANGE_DECAY: f64 = 0.5;
/// Iterations with the same best move after which it counts as settled.
const SETTLED_ITERATIONS: u32 = 4;
/// Factor of the optimum time once the best move has settled.
const SETTLED_FACTOR: f64 = 0.7;
/// Least factor [`Stability::scale`] gives (a guard: the settled factor
/// alone stays above it).
const SCALE_MIN: f64 = 0.5;
/// Largest factor [`Stability::scale`] gives.
const SCALE_MAX: f64 = 2.5;

/// How steady the best move of the iterations has been: the optimum time
/// of a move with main time shrinks when the same move keeps winning and
/// grows when the best move keeps changing (never past the maximum).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stability {
    /// Changes of the best move, halved every iteration.
    changes: f64,
    /// Iterations in a row that kept the best move.
    same: u32,
    /// The best move of the last iteration (raw), if any.
    last: Option<u16>,
}

impl Stability {
    /// Records the best move (raw value) of an iteration just completed.
    pub fn update(&mut self, best: u16) {
        self.changes *= CHANGE_DECAY;
        match self.last {
            Some(m) if m == best => self.same += 1,
            Some(_) => {
                self.changes += 1.0;
                self.same = 0;
            }
            None => self.same = 0,
        }
        self.last = Some(best);
    }

    /// The factor to apply to the optimum time.
    pub fn scale(&self) -> f64 {
        let settled = if self.same >= SETTLED_ITERATIONS {
            SETTLED_FACTOR
        } else {
            1.0
        };
        ((1.0 + CHANGE_WEIGHT * self.changes) * settled).clamp(SCALE_MIN, SCALE_MAX)
    }

    /// `budget`'s optimum scaled by [`scale`](Self::scale), within its
    /// floor and maximum (a budget that uses all its time keeps its
    /// optimum).
    pub fn optimum(&self, budget: &Budget) -> u64 {
        if budget.use_all {
            return budget.optimum;
        }
        let floor = budget.floor.clamp(1, budget.maximum);
        ((budget.optimum as f64 * self.scale()) as u64).clamp(floor, budget.maximum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> SearchOptions {
        SearchOptions::default()
    }

    fn b(limits: Limits) -> Budget {
        budget(&limits, &opts(), Color::Sente, BoardKind::Standard).unwrap()
    }

    #[test]
    fn tiny_byoyomi_stays_well_inside() {
        let t = b(Limits {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(100),
            ..Limits::default()
        });
        assert!(t.maximum <= 60, "{t:?}");
        assert!(t.optimum <= t.maximum && t.optimum >= 1);
    }

    #[test]
    fn byoyomi_uses_most_of_it() {
        let t = b(Limits {
            btime: Some(0),
            wtime: Some(0),
            byoyomi: Some(10_000),
            ..Limits::default()
        });
        // Only the byoyomi is left: all of it but NetworkDelay.
        assert_eq!(t.maximum, 10_000 - opts().network_delay);
        assert_eq!(t.optimum, t.maximum);
        let small_delay2 = SearchOptions {
            network_delay2: 100,
            ..opts()
        };
        let l = Limits {
            byoyomi: Some(10_000),
            ..Limits::default()
        };
        let t = budget(&l, &small_delay2, Color::Sente, BoardKind::Mini).unwrap();
        assert_eq!(t.maximum, 10_000 - opts().network_delay);
        // With main time left the deadline includes it, minus NetworkDelay2.
        let t = b(Limits {
            btime: Some(60_000),
            byoyomi: Some(10_000),
            ..Limits::default()
        });
        assert!(t.maximum <= 70_000 - opts().network_delay2);
        assert!(t.optimum >= 10_000 - opts().network_delay, "{t:?}");
    }

    #[test]
    fn tiny_sudden_death_uses_a_few_tens_of_ms() {
        let t = b(Limits {
            btime: Some(300),
            wtime: Some(300),
            ..Limits::default()
        });
        assert!(t.maximum <= 75, "{t:?}");
        assert!(t.optimum <= t.maximum);
    }

    #[test]
    fn sudden_death_is_a_fraction_and_respects_minimum_thinking_time() {
        let t = b(Limits {
            btime: Some(600_000),
            ..Limits::default()
        });
        assert_eq!(t.optimum, 600_000 / 40);
        assert!(t.maximum > t.optimum && t.maximum <= 600_000 / 4);
        let t = b(Limits {
            btime: Some(40_000),
            ..Limits::default()
        });
        assert_eq!(t.optimum, opts().minimum_thinking_time);
    }

    #[test]
    fn fischer_adds_the_increment_and_slow_mover_scales() {
        let l = Limits {
            btime: Some(100_000),
            binc: Some(5_000),
            ..Limits::default()
        };
        let t = b(l.clone());
        assert_eq!(t.optimum, 100_000 / 40 + 5_000);
        let slow = SearchOptions {
            slow_mover: 50,
            ..opts()
        };
        let t2 = budget(&l, &slow, Color::Sente, BoardKind::Standard).unwrap();
        assert_eq!(t2.optimum, t.optimum / 2);
        // Gote reads its own clock.
        let g = budget(&l, &opts(), Color::Gote, BoardKind::Standard);
        assert_eq!(g, None, "gote has no clock in these limits");
    }

    #[test]
    fn stability_shortens_settled_and_lengthens_changing_moves() {
        let b = Budget {
            optimum: 1000,
            maximum: 3000,
            use_all: false,
            floor: 0,
        };
        let mut s = Stability::default();
        s.update(1);
        assert_eq!(s.optimum(&b), 1000);
        for _ in 0..SETTLED_ITERATIONS {
            s.update(1);
        }
        assert_eq!(s.optimum(&b), 700);
        let mut c = Stability::default();
        c.update(1);
        c.update(2);
        assert_eq!(c.optimum(&b), 2000);
        c.update(2);
        assert_eq!(c.optimum(&b), 1500);
        c.update(3);
        assert_eq!(c.optimum(&b), 2250);
        c.update(4);
        // 1 + 1.625 changes, capped at SCALE_MAX.
        assert_eq!(c.optimum(&b), 2500);
        // Never past the maximum, never below the floor.
        let tight = Budget { maximum: 2000, ..b };
        assert_eq!(c.optimum(&tight), 2000);
        let floored = Budget { floor: 900, ..b };
        assert_eq!(s.optimum(&floored), 900);
        let all = Budget { use_all: true, ..b };
        assert_eq!(c.optimum(&all), 1000);
    }

    #[test]
    fn movetime_infinite_and_bare_go() {
        let t = b(Limits {
            movetime: Some(1000),
            ..Limits::default()
        });
        assert_eq!(t.maximum, 1000 - MOVETIME_MARGIN);
        let no_delay = SearchOptions {
            network_delay: 0,
            ..opts()
        };
        let l = Limits {
            movetime: Some(500),
            ..Limits::default()
        };
        let t = budget(&l, &no_delay, Color::Sente, BoardKind::Standard).unwrap();
        assert_eq!((t.optimum, t.maximum), (500, 500));
        let inf = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(budget(&inf, &opts(), Color::Sente, BoardKind::Mini), None);
        let depth = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&depth, &opts(), Color::Sente, BoardKind::Mini), None);
        assert_eq!(b(Limits::default()).maximum, DEFAULT_MOVE_MS);
    }
}
