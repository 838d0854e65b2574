//! Trains the learned evaluation's weights on self-play data from
//! `examples/gensfen.rs`.
//!
//! Logistic regression: the evaluation `v` (centipawns, side to move)
//! predicts `sigmoid(v / scale)`, fitted by cross-entropy with Adam to the
//! target `lambda * sigmoid(score / scale) + (1 - lambda) * result`, with
//! an L2 penalty (`--l2`) on the distance from the starting weights, which
//! keeps rarely seen features near their prior. Only
//! quiet positions are used. The features are the engine's own
//! ([`fukayomi::eval::features`]), so trainer and engine cannot disagree.
//! Boards not in the data keep the starting weights.
//!
//! ```text
//! cargo run --release --example train_eval -- --init material|builtin|FILE \
//!     --out src/eval/weights.bin [--epochs 8] [--lambda 1.0] [--lr 2.0] [--l2 1e-7] \
//!     [--valid HELD_OUT.tsv]... DATA.tsv...
//! ```
//!
//! The loss is measured on held-out positions: those of the `--valid`
//! files (games never trained on, the honest measure) or, without them,
//! a random twentieth of the positions (whose games are also trained on,
//! so that figure flatters a bigger model).

use fukayomi::eval::Weights;
use fukayomi::eval::data::{Sample, for_each_quiet_position};
use fukayomi::eval::features::{FEATURES, board_index, for_each_feature, sign};
use fukayomi::rules::BoardKind;

/// Default centipawns per unit of the logistic's argument (`--scale`; a score of that
/// predicts a 73% winning chance).
const DEFAULT_SCALE: f64 = 600.0;
/// Positions per gradient step.
const BATCH: usize = 256;
/// Share of the data held out to measure the loss.
const VALIDATION_SHARE: usize = 20;
/// Adam's moment decays and epsilon.
const BETA1: f64 = 0.9;
const BETA2: f64 = 0.999;
const EPSILON: f64 = 1e-8;

/// One training position: its features (index, sign from the side to
/// move's view) and its target.
struct TrainingSample {
    start: usize,
    end: usize,
    target: f64,
    /// From a `--valid` file: measured, never trained on.
    held_out: bool,
}

/// The training set of one board: samples over one flat feature array.
#[derive(Default)]
struct Data {
    features: Vec<(u32, f32)>,
    samples: Vec<TrainingSample>,
    /// Centipawns per unit of the logistic's argument.
    scale: f64,
}

struct Args {
    init: String,
    out: String,
    epochs: usize,
    lambda: f64,
    lr: f64,
    l2: f64,
    scale: f64,
    files: Vec<String>,
    /// Files whose positions are only measured (`--valid`).
    valid_files: Vec<String>,
}

fn parse_args() -> Args {
    let mut a = Args {
        init: "builtin".into(),
        out: "target/evaldata/weights.bin".into(),
        epochs: 8,
        lambda: 1.0,
        lr: 2.0,
        l2: 3e-10,
        scale: DEFAULT_SCALE,
        files: Vec::new(),
        valid_files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--init" => a.init = val(),
            "--out" => a.out = val(),
            "--epochs" => a.epochs = val().parse().expect("--epochs N"),
            "--lambda" => a.lambda = val().parse().expect("--lambda X"),
            "--lr" => a.lr = val().parse().expect("--lr X"),
            "--l2" => a.l2 = val().parse().expect("--l2 X"),
            "--scale" => a.scale = val().parse().expect("--scale X"),
            "--valid" => a.valid_files.push(val()),
            f if f.starts_with("--") => panic!("unknown flag {f}"),
            _ => a.files.push(flag),
        }
    }
    a
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads the data files into one training set per board.
fn load(a: &Args) -> [Data; 3] {
    let mut data: [Data; 3] = Default::default();
    let files = a.files.iter().map(|f| (f, false));
    for (file, held_out) in files.chain(a.valid_files.iter().map(|f| (f, true))) {
        for_each_quiet_position(file, |Sample { pos, score, result }| {
            let d = &mut data[board_index(pos.kind())];
            d.scale = a.scale;
            let stm = sign(pos.side_to_move());
            let start = d.features.len();
            for_each_feature(&pos, |i, s| d.features.push((i as u32, (stm * s) as f32)));
            let target = a.lambda * sigmoid(score / a.scale) + (1.0 - a.lambda) * result;
            let end = d.features.len();
            d.samples.push(TrainingSample {
                start,
                end,
                target,
                held_out,
            });
        })
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    data
}

fn predict(w: &[f64], d: &Data, s: &TrainingSample) -> f64 {
    let v: f64 = d.features[s.start..s.end]
        .iter()
        .map(|&(i, x)| w[i as usize] * f64::from(x))
        .sum();
    sigmoid(v / d.scale)
}

/// Mean cross-entropy of `w` over `samples` (minus the target's entropy, so
/// a perfect fit is 0).
fn loss(w: &[f64], d: &Data, samples: &[TrainingSample]) -> f64 {
    let ent = |t: f64, p: f64| {
        let p = p.clamp(1e-9, 1.0 - 1e-9);
        -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
    };
    let total: f64 = samples
        .iter()
        .map(|s| ent(s.target, predict(w, d, s)) - ent(s.target, s.target))
        .sum();
    total / samples.len().max(1) as f64
}

/// A deterministic shuffle (xorshift).
fn shuffle<T>(v: &mut [T], mut seed: u64) {
    for i in (1..v.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        v.swap(i, (seed % (i as u64 + 1)) as usize);
    }
}

/// Adam over the training samples; returns the trained weights.
fn train(a: &Args, d: &mut Data, init: &[i16]) -> Vec<f64> {
    let prior: Vec<f64> = init.iter().map(|&v| f64::from(v)).collect();
    let mut w = prior.clone();
    let mut samples = std::mem::take(&mut d.samples);
    shuffle(&mut samples, 0x1234_5678_9ABC_DEF1);
    // The held-out files' positions first (stable: the shuffle's order
    // within each part is kept); without them a random share.
    samples.sort_by_key(|s| !s.held_out);
    let held_out = samples.iter().filter(|s| s.held_out).count();
    let split = if held_out > 0 {
        held_out
    } else {
        samples.len() / VALIDATION_SHARE
    };
    let (valid, train) = samples.split_at_mut(split);
    eprintln!(
        "  {} training, {} validation positions; validation loss at start {:.5}",
        train.len(),
        valid.len(),
        loss(&w, d, valid)
    );
    let (mut m, mut v) = (vec![0.0; FEATURES], vec![0.0; FEATURES]);
    let mut grad = vec![0.0; FEATURES];
    let mut step = 0i32;
    for epoch in 0..a.epochs {
        shuffle(train, epoch as u64 * 7919 + 17);
        let lr = a.lr * 0.5 * (1.0 + (std::f64::consts::PI * epoch as f64 / a.epochs as f64).cos());
        for batch in train.chunks(BATCH) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in batch {
                let err = (predict(&w, d, s) - s.target) / d.scale;
                for &(i, x) in &d.features[s.start..s.end] {
                    grad[i as usize] += err * f64::from(x);
                }
            }
            step += 1;
            let (c1, c2) = (1.0 - BETA1.powi(step), 1.0 - BETA2.powi(step));
            for i in 0..FEATURES {
                let g = grad[i] / batch.len() as f64 + a.l2 * (w[i] - prior[i]);
                m[i] = BETA1 * m[i] + (1.0 - BETA1) * g;
                v[i] = BETA2 * v[i] + (1.0 - BETA2) * g * g;
                w[i] -= lr * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
            }
        }
        eprintln!(
            "  epoch {} lr {lr:.3}: training loss {:.5}, validation loss {:.5}",
            epoch + 1,
            loss(&w, d, &train[..train.len().min(50_000)]),
            loss(&w, d, valid)
        );
    }
    w
}

fn main() {
    let a = parse_args();
    let mut weights = match a.init.as_str() {
        "material" => Weights::material(),
        "builtin" => Weights::built_in(),
        file => Weights::parse(&std::fs::read(file).expect("init file")).expect("init weights"),
    };
    let started = std::time::Instant::now();
    let mut data = load(&a);
    eprintln!("loaded in {:.1} s", started.elapsed().as_secs_f64());
    for kind in BoardKind::ALL {
        let d = &mut data[board_index(kind)];
        if d.samples.len() < 1000 {
            continue;
        }
        eprintln!("{kind:?}: {} positions", d.samples.len());
        let w = train(&a, d, weights.board(kind));
        for (dst, src) in weights.board_mut(kind).iter_mut().zip(w) {
            *dst = src.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        }
    }
    std::fs::write(&a.out, weights.to_bytes()).expect("write weights");
    eprintln!(
        "wrote {} in {:.1} s",
        a.out,
        started.elapsed().as_secs_f64()
    );
}
