//! The engine options: the table the engine declares on `usi` (name, type,
//! default, range), and [`EngineOptions`], which holds the current values and
//! maps `setoption` onto them (most go to the search's [`SearchOptions`]).
//!
//! Option names are matched case-insensitively, as YaneuraOu does; values of
//! `check` options are `true`/`false`, of `combo` options one of the listed
//! vars (case-insensitively), of `spin` options an integer within the range.
//! A rejected `setoption` changes nothing.

use crate::entering_king::EnteringKingRule;
use crate::eval::EvalKind;
use crate::rules::BoardKind;
use crate::search::SearchOptions;
use crate::sfen::printable;

/// The type of a declared option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionType {
    /// An integer in `min..=max`.
    Spin { default: i64, min: i64, max: i64 },
    /// `true` or `false`.
    Check { default: bool },
    /// One of `vars`.
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
    },
    /// Any text (USI `string`; the empty string is written [`EMPTY_STRING`]).
    Text { default: &'static str },
}

/// How USI writes an empty `string` option value.
pub const EMPTY_STRING: &str = "<empty>";

/// The values of `Evaluation`, in [`EvalKind`] order.
pub const EVALUATIONS: [&str; 2] = ["Learned", "Material"];

/// One declared option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The option's name as declared on `usi`.
    pub name: &'static str,
    /// Type, default and range.
    pub kind: OptionType,
    /// What it means (for the README and `info string` help).
    pub help: &'static str,
}

impl OptionDecl {
    /// The `option name ...` line sent in reply to `usi`.
    pub fn usi_line(&self) -> String {
        match &self.kind {
            OptionType::Spin { default, min, max } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            OptionType::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionType::Text { default } => {
                format!("option name {} type string default {default}", self.name)
            }
            OptionType::Combo { default, vars } => {
                let mut line = format!("option name {} type combo default {default}", self.name);
                for v in *vars {
                    line.push_str(" var ");
                    line.push_str(v);
                }
                line
            }
        }
    }
}

/// The values of `EnteringKingRule`, in [`EnteringKingRule::ALL`] order.
pub const ENTERING_KING_RULES: [&str; 6] = [
    "NoEnteringKing",
    "CSARule24",
    "CSARule24H",
    "CSARule27",
    "CSARule27H",
    "TryRule",
];

/// The values of `USI_Variant`, in [`BoardKind::ALL`] order.
pub const VARIANTS: [&str; 3] = ["shogi", "minishogi", "ninemasu"];

/// Largest `USI_Hash` in MiB.
pub const MAX_HASH_MB: i64 = 65536;
/// Largest `Threads`.
pub const MAX_THREADS: i64 = 256;

/// The name of a board kind as a `USI_Variant` value.
pub fn variant_name(kind: BoardKind) -> &'static str {
    match kind {
        BoardKind::Standard => VARIANTS[0],
        BoardKind::Mini => VARIANTS[1],
        BoardKind::Ninemasu => VARIANTS[2],
    }
}

fn variant_from_name(name: &str) -> Option<BoardKind> {
    BoardKind::ALL
        .into_iter()
        .find(|k| variant_name(*k).eq_ignore_ascii_case(name))
}

/// Every option the engine declares, in the order `usi` lists them, with the
/// defaults of [`EngineOptions::default`].
pub fn declared() -> Vec<OptionDecl> {
    let d = SearchOptions::default();
    let spin = |default: i64, min: i64, max: i64| OptionType::Spin { default, min, max };
    vec![
        OptionDecl {
            name: "USI_Hash",
            kind: spin(d.hash_mb as i64, 1, MAX_HASH_MB),
            help: "Transposition table size in MiB (allocated at isready).",
        },
        OptionDecl {
            name: "MateHash",
            kind: spin(
                d.mate_hash_mb as i64,
                1,
                crate::mate::MAX_MATE_HASH_MB as i64,
            ),
            help: "Table size in MiB of the go mate solver (allocated at the first go mate and kept; pages touched as used).",
        },
        OptionDecl {
            name: "USI_Ponder",
            kind: OptionType::Check { default: false },
            help: "Whether the GUI lets the engine think on the opponent's time (go ponder).",
        },
        OptionDecl {
            name: "Threads",
            kind: spin(d.threads as i64, 1, MAX_THREADS),
            help: "Search threads (lazy SMP sharing the hash table); at most one per core is used. On 3x3 also the exact solver's threads (at most 2). go mate: the df-pn searchers sharing the MateHash table, the helpers joining after a second.",
        },
        OptionDecl {
            name: "MultiPV",
            kind: spin(d.multi_pv as i64, 1, 800),
            help: "Number of best lines searched and reported (info ... multipv i); 1 for play.",
        },
        OptionDecl {
            name: "NetworkDelay",
            kind: spin(d.network_delay as i64, 0, 10000),
            help: "Milliseconds kept back from a byoyomi move for communication lag (from a movetime move: at most 20).",
        },
        OptionDecl {
            name: "NetworkDelay2",
            kind: spin(d.network_delay2 as i64, 0, 10000),
            help: "Milliseconds kept back from the hard deadline (remaining time + increment + byoyomi) while main time is left.",
        },
        OptionDecl {
            name: "MinimumThinkingTime",
            kind: spin(d.minimum_thinking_time as i64, 0, 100000),
            help: "Least milliseconds aimed for on a move with main time left (never past the deadline).",
        },
        OptionDecl {
            name: "SlowMover",
            kind: spin(d.slow_mover as i64, 1, 1000),
            help: "Percent scaling of the time spent per move (100 = normal).",
        },
        OptionDecl {
            name: "DepthLimit",
            kind: spin(d.depth_limit as i64, 0, i32::MAX as i64),
            help: "Maximum search depth in plies for every go; 0 = no limit.",
        },
        OptionDecl {
            name: "NodesLimit",
            kind: spin(d.nodes_limit as i64, 0, i64::MAX),
            help: "Maximum nodes searched for every go; 0 = no limit.",
        },
        OptionDecl {
            name: "EnteringKingRule",
            kind: OptionType::Combo {
                default: ENTERING_KING_RULES[EnteringKingRule::ALL
                    .iter()
                    .position(|r| *r == d.entering_king_rule)
                    .unwrap_or(3)],
                vars: &ENTERING_KING_RULES,
            },
            help: "Rule for winning by declaration (nyugyoku, 9x9 only): bestmove win when it applies; under TryRule the engine plays its king onto the enemy king's start square.",
        },
        OptionDecl {
            name: "DrawValueBlack",
            kind: spin(d.draw_value_black as i64, -30000, 30000),
            help: "Value of a draw (repetition, MaxMovesToDraw) in centipawns when the engine plays sente (YaneuraOu's meaning).",
        },
        OptionDecl {
            name: "DrawValueWhite",
            kind: spin(d.draw_value_white as i64, -30000, 30000),
            help: "Value of a draw in centipawns when the engine plays gote.",
        },
        OptionDecl {
            name: "MaxMovesToDraw",
            kind: spin(d.max_moves_to_draw as i64, 0, 100000),
            help: "Game length in plies after which the game is a draw; 0 = no limit.",
        },
        OptionDecl {
            name: "PvInterval",
            kind: spin(d.pv_interval as i64, 0, 100000),
            help: "Least milliseconds between two info lines within an iteration.",
        },
        OptionDecl {
            name: "ResignValue",
            kind: spin(d.resign_value as i64, 0, 100000),
            help: "Resign when the score is below minus this many centipawns; 0 = never.",
        },
        OptionDecl {
            name: "AspirationDelta",
            kind: spin(d.aspiration_delta as i64, 0, 10000),
            help: "Half-width in centipawns of the first aspiration window at the root; 0 = full window.",
        },
        OptionDecl {
            name: "CandidatePruning",
            kind: OptionType::Check {
                default: d.candidate_pruning,
            },
            help: "Forward candidate pruning: a shallow search ranks the moves of deep nodes and only the best CandidateMoves are searched at full depth.",
        },
        OptionDecl {
            name: "CandidateMoves",
            kind: spin(d.candidate_moves as i64, 1, 600),
            help: "Moves kept at full depth by candidate pruning.",
        },
        OptionDecl {
            name: "CandidateDepth",
            kind: spin(d.candidate_depth as i64, 1, 20),
            help: "Depth of candidate pruning's ranking search.",
        },
        OptionDecl {
            name: "CandidateMinDepth",
            kind: spin(d.candidate_min_depth as i64, 2, 100),
            help: "Least remaining depth of a node narrowed by candidate pruning.",
        },
        OptionDecl {
            name: "Evaluation",
            kind: OptionType::Combo {
                default: EVALUATIONS[0],
                vars: &EVALUATIONS,
            },
            help: "Static evaluation: Learned (king-relative and king-piece weights learned from self-play, per board, with a small network on 9x9) or Material (material only, to measure the search against material-only engines).",
        },
        OptionDecl {
            name: "EvalFile",
            kind: OptionType::Text {
                default: EMPTY_STRING,
            },
            help: "Weights of the learned evaluation, loaded at isready: a network file (examples/train_nn.rs, 9x9) or a linear weights file (examples/train_eval.rs, every board, no network); <empty> = the built-in weights and network. A bad file is reported and the built-in evaluation stays.",
        },
        OptionDecl {
            name: "USI_Variant",
            kind: OptionType::Combo {
                default: VARIANTS[0],
                vars: &VARIANTS,
            },
            help: "Board of position startpos: shogi (9x9), minishogi (5x5) or ninemasu (3x3). An SFEN always chooses its own board.",
        },
    ]
}

/// The current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// What the search reads.
    pub search: SearchOptions,
    /// `USI_Ponder`.
    pub ponder: bool,
    /// `USI_Variant`: the board of `position startpos`.
    pub variant: BoardKind,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            search: SearchOptions::default(),
            ponder: false,
            variant: BoardKind::Standard,
        }
    }
}

/// A validated option value.
enum Value<'a> {
    Int(i64),
    Bool(bool),
    Var(&'a str),
}

impl EngineOptions {
    /// Applies `setoption name <name> [value <value>]`. On error nothing changes
    /// and the message says what and why.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let decls = declared();
        let decl = decls
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "unknown option '{}' (the options are listed in reply to usi)",
                    printable(name)
                )
            })?;
        let Some(text) = value else {
            return Err(format!("option {} needs a value", decl.name));
        };
        let value = match &decl.kind {
            OptionType::Spin { min, max, .. } => {
                let n: i64 = text.parse().map_err(|_| {
                    format!(
                        "option {}: '{}' is not an integer",
                        decl.name,
                        printable(text)
                    )
                })?;
                if n < *min || n > *max {
                    return Err(format!(
                        "option {}: {n} is out of range {min}..{max}",
                        decl.name
                    ));
                }
                Value::Int(n)
            }
            OptionType::Check { .. } => {
                if text.eq_ignore_ascii_case("true") {
                    Value::Bool(true)
                } else if text.eq_ignore_ascii_case("false") {
                    Value::Bool(false)
                } else {
                    return Err(format!(
                        "option {}: '{}' is not true or false",
                        decl.name,
                        printable(text)
                    ));
                }
            }
            OptionType::Combo { vars, .. } => {
                let var = vars
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(text))
                    .ok_or_else(|| {
                        format!(
                            "option {}: '{}' is not one of {}",
                            decl.name,
                            printable(text),
                            vars.join(", ")
                        )
                    })?;
                Value::Var(var)
            }
            OptionType::Text { .. } => Value::Var(text),
        };
        self.assign(decl.name, value);
        Ok(())
    }

    /// Stores an already validated value (ranges are those of [`declared`], so
    /// the conversions below cannot fail).
    fn assign(&mut self, name: &str, value: Value<'_>) {
        let s = &mut self.search;
        let int = |v: &Value<'_>| match v {
            Value::Int(n) => *n,
            _ => 0,
        };
        let n = int(&value);
        match (name, &value) {
            ("USI_Hash", _) => s.hash_mb = n as usize,
            ("MateHash", _) => s.mate_hash_mb = n as usize,
            ("USI_Ponder", Value::Bool(b)) => self.ponder = *b,
            ("Threads", _) => s.threads = n as usize,
            ("MultiPV", _) => s.multi_pv = n as usize,
            ("NetworkDelay", _) => s.network_delay = n as u64,
            ("NetworkDelay2", _) => s.network_delay2 = n as u64,
            ("MinimumThinkingTime", _) => s.minimum_thinking_time = n as u64,
            ("SlowMover", _) => s.slow_mover = n as u64,
            ("DepthLimit", _) => s.depth_limit = n as u32,
            ("NodesLimit", _) => s.nodes_limit = n as u64,
            ("EnteringKingRule", Value::Var(v)) => {
                if let Ok(rule) = v.parse::<EnteringKingRule>() {
                    s.entering_king_rule = rule;
                }
            }
            ("DrawValueBlack", _) => s.draw_value_black = n as i32,
            ("DrawValueWhite", _) => s.draw_value_white = n as i32,
            ("MaxMovesToDraw", _) => s.max_moves_to_draw = n as u32,
            ("PvInterval", _) => s.pv_interval = n as u64,
            ("ResignValue", _) => s.resign_value = n as i32,
            ("AspirationDelta", _) => s.aspiration_delta = n as i32,
            ("CandidatePruning", Value::Bool(b)) => s.candidate_pruning = *b,
            ("CandidateMoves", _) => s.candidate_moves = n as u32,
            ("CandidateDepth", _) => s.candidate_depth = n as u32,
            ("CandidateMinDepth", _) => s.candidate_min_depth = n as u32,
            ("Evaluation", Value::Var(v)) => {
                s.evaluation = if v.eq_ignore_ascii_case(EVALUATIONS[1]) {
                    EvalKind::Material
                } else {
                    EvalKind::Learned
                }
            }
            ("EvalFile", Value::Var(v)) => {
                s.eval_file = if *v == EMPTY_STRING {
                    String::new()
                } else {
                    v.to_string()
                }
            }
            ("USI_Variant", Value::Var(v)) => {
                if let Some(kind) = variant_from_name(v) {
                    self.variant = kind;
                }
            }
            _ => log::error!("option {name} is declared but not stored"),
        }
    }

    /// The current value of a declared option as `setoption` would write it.
    pub fn get(&self, name: &str) -> Option<String> {
        let s = &self.search;
        let name = declared()
            .into_iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))?
            .name;
        Some(match name {
            "USI_Hash" => s.hash_mb.to_string(),
            "MateHash" => s.mate_hash_mb.to_string(),
            "USI_Ponder" => self.ponder.to_string(),
            "Threads" => s.threads.to_string(),
            "MultiPV" => s.multi_pv.to_string(),
            "NetworkDelay" => s.network_delay.to_string(),
            "NetworkDelay2" => s.network_delay2.to_string(),
            "MinimumThinkingTime" => s.minimum_thinking_time.to_string(),
            "SlowMover" => s.slow_mover.to_string(),
            "DepthLimit" => s.depth_limit.to_string(),
            "NodesLimit" => s.nodes_limit.to_string(),
            "EnteringKingRule" => s.entering_king_rule.to_string(),
            "DrawValueBlack" => s.draw_value_black.to_string(),
            "DrawValueWhite" => s.draw_value_white.to_string(),
            "MaxMovesToDraw" => s.max_moves_to_draw.to_string(),
            "PvInterval" => s.pv_interval.to_string(),
            "ResignValue" => s.resign_value.to_string(),
            "AspirationDelta" => s.aspiration_delta.to_string(),
            "CandidatePruning" => s.candidate_pruning.to_string(),
            "CandidateMoves" => s.candidate_moves.to_string(),
            "CandidateDepth" => s.candidate_depth.to_string(),
            "CandidateMinDepth" => s.candidate_min_depth.to_string(),
            "Evaluation" => match s.evaluation {
                EvalKind::Learned => EVALUATIONS[0],
                EvalKind::Material => EVALUATIONS[1],
            }
            .to_string(),
            "EvalFile" if s.eval_file.is_empty() => EMPTY_STRING.to_string(),
            "EvalFile" => s.eval_file.clone(),
            "USI_Variant" => variant_name(self.variant).to_string(),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_declared_table() {
        let opts = EngineOptions::default();
        for d in declared() {
            let default = match &d.kind {
                OptionType::Spin { default, .. } => default.to_string(),
                OptionType::Check { default } => default.to_string(),
                OptionType::Combo { default, .. } => default.to_string(),
                OptionType::Text { default } => default.to_string(),
            };
            assert_eq!(opts.get(d.name), Some(default), "{}", d.name);
        }
    }

    #[test]
    fn every_option_round_trips() {
        for d in declared() {
            let mut opts = EngineOptions::default();
            let value = match &d.kind {
                OptionType::Spin { max, .. } => max.to_string(),
                OptionType::Check { default } => (!default).to_string(),
                OptionType::Combo { vars, .. } => vars[vars.len() - 1].to_string(),
                OptionType::Text { .. } => "some/file.bin".to_string(),
            };
            opts.set(d.name, Some(&value)).unwrap();
            assert_eq!(opts.get(d.name), Some(value), "{}", d.name);
            assert_ne!(opts, EngineOptions::default(), "{}", d.name);
        }
    }

    #[test]
    fn entering_king_names_match_the_rules() {
        for (rule, name) in EnteringKingRule::ALL.iter().zip(ENTERING_KING_RULES) {
            assert_eq!(rule.name(), name);
        }
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut opts = EngineOptions::default();
        for (name, value) in [
            ("NoSuchOption", Some("1")),
            ("USI_Hash", None),
            ("USI_Hash", Some("0")),
            ("USI_Hash", Some("65537")),
            ("USI_Hash", Some("12x")),
            ("USI_Ponder", Some("yes")),
            ("EnteringKingRule", Some("CSARule28")),
            ("USI_Variant", Some("chess")),
            ("DrawValueBlack", Some("99999999999999999999999")),
        ] {
            assert!(opts.set(name, value).is_err(), "{name} {value:?}");
            assert_eq!(opts, EngineOptions::default());
        }
        opts.set("usi_hash", Some("64")).unwrap();
        assert_eq!(opts.search.hash_mb, 64);
        opts.set("usi_variant", Some("MiniShogi")).unwrap();
        assert_eq!(opts.variant, BoardKind::Mini);
    }
}
