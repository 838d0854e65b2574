//! The self-play training data of `examples/gensfen.rs`, read by the
//! trainers (`examples/train_eval.rs`, `examples/train_nn.rs`).
//!
//! One position a line: `sfen <TAB> score <TAB> result <TAB> quiet`, the
//! search's score in centipawns and the game's result (1 win, 0.5 draw,
//! 0 loss), both for the side to move, and `quiet` 1 when the position is
//! fit for training (not in check, the best move no capture).

use crate::position::Position;
use crate::sfen::parse_sfen;

/// One quiet training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub pos: Position,
    /// The search's score for the side to move, in centipawns.
    pub score: f64,
    /// The game's result for the side to move (1, 0.5 or 0).
    pub result: f64,
}

/// Calls `f` with every quiet position of the data file `file` (lines that
/// do not parse are skipped).
pub fn for_each_quiet_position(file: &str, mut f: impl FnMut(Sample)) -> std::io::Result<()> {
    let text = std::fs::read_to_string(file)?;
    for line in text.lines() {
        if let Some(sample) = parse_line(line) {
            f(sample);
        }
    }
    Ok(())
}

/// The quiet position of one data line, if it is one.
fn parse_line(line: &str) -> Option<Sample> {
    let cols: Vec<&str> = line.split('\t').collect();
    if cols.len() < 4 || cols[3] != "1" {
        return None;
    }
    Some(Sample {
        pos: parse_sfen(cols[0]).ok()?,
        score: cols[1].parse().ok()?,
        result: cols[2].parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_quiet_well_formed_lines_are_samples() {
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let s = parse_line(&format!("{sfen}\t35\t1\t1")).expect("a sample");
        assert_eq!((s.score, s.result), (35.0, 1.0));
        assert!(
            parse_line(&format!("{sfen}\t35\t1\t0")).is_none(),
            "not quiet"
        );
        assert!(
            parse_line(&format!("{sfen}\tx\t1\t1")).is_none(),
            "bad score"
        );
        assert!(parse_line("not a position\t0\t0\t1").is_none());
        assert!(parse_line(sfen).is_none());
    }
}
