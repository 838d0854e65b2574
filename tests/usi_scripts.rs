//! The example scripts in `usi-scripts/` run as the README says, and the
//! README's USI section lists every option exactly as the engine declares it.

mod usi_support;

use fukayomi::usi::options::{OptionType, declared};
use std::io::Write;
use std::time::{Duration, Instant};

/// Pipes a script into the engine (stdin closed at its end) and returns the
/// output lines.
fn run_script(name: &str) -> Vec<String> {
    let path = format!("{}/usi-scripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut child = usi_support::spawn_engine();
    child.stdin.take().unwrap().write_all(&script).unwrap();
    let start = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{name}: {:?}", out.status);
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{name} took too long"
    );
    assert!(out.stdout.is_ascii());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{name}: {lines:?}"
    );
    lines
}

fn last(lines: &[String], prefix: &str) -> String {
    lines
        .iter()
        .rev()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' line in {lines:?}"))
        .clone()
}

#[test]
fn analyse_script() {
    let lines = run_script("analyse.usi");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    assert!(last(&lines, "bestmove ").len() > 9);
}

#[test]
fn minishogi_script() {
    let lines = run_script("minishogi.usi");
    assert!(last(&lines, "Sfen: ").starts_with("Sfen: r1sgk/2b1p/5/P1B2/KGS1R b - 3"));
    assert!(last(&lines, "bestmove ").len() > 9);
}

#[test]
fn ninemasu_script() {
    let lines = run_script("ninemasu.usi");
    assert_eq!(last(&lines, "Sfen: "), "Sfen: bk1/3/1KB b Pp 1");
    assert!(last(&lines, "bestmove ").len() > 9);
}

#[test]
fn perft_script() {
    let lines = run_script("perft.usi");
    let totals: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Nodes searched: "))
        .collect();
    assert_eq!(
        totals,
        ["Nodes searched: 19861490", "Nodes searched: 533203"]
    );
}

#[test]
fn mate_script() {
    let lines = run_script("mate.usi");
    assert_eq!(last(&lines, "checkmate "), "checkmate G*5b 4a5b G*4b");
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
}

fn readme_usi_section() -> String {
    let readme =
        std::fs::read_to_string(format!("{}/README.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = readme.find("<!-- usi:begin -->").expect("usi:begin marker");
    let end = readme.find("<!-- usi:end -->").expect("usi:end marker");
    readme[start..end].to_string()
}

#[test]
fn readme_lists_every_option_as_declared() {
    let section = readme_usi_section();
    let mut missing = Vec::new();
    for d in declared() {
        let (kind, default, range) = match &d.kind {
            OptionType::Spin { default, min, max } => {
                ("spin", default.to_string(), format!("{min} to {max}"))
            }
            OptionType::Check { default } => ("check", default.to_string(), "true, false".into()),
            OptionType::Combo { default, vars } => ("combo", default.to_string(), vars.join(", ")),
            OptionType::Text { default } => ("string", default.to_string(), "a file path".into()),
        };
        let row = format!(
            "| `{}` | {kind} | `{default}` | {range} | {} |",
            d.name, d.help
        );
        if !section.contains(&row) {
            missing.push(row);
        }
    }
    assert!(
        missing.is_empty(),
        "README rows missing or stale:\n{}",
        missing.join("\n")
    );
}

#[test]
fn readme_shows_every_script() {
    let section = readme_usi_section();
    for entry in std::fs::read_dir(format!("{}/usi-scripts", env!("CARGO_MANIFEST_DIR"))).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            section.contains(&format!("usi-scripts/{name}")),
            "{name} not in README"
        );
    }
}
