//! Trains a small perspective network on top of the learned linear
//! evaluation (the prototype of `docs/eval-network.md`), 9x9 only.
//!
//! The model, in centipawns for the side to move:
//!
//! ```text
//! v = linear(x) + scale * (w2 . [crelu(acc_stm), crelu(acc_opp)] + b2)
//! acc_P = b1 + sum over P's pieces' features f of W1[f]
//!            + sum over the opponent's pieces' features f of W1[inputs + f]
//! ```
//!
//! over the features below `inputs` (`--inputs all`, or `small`: without
//! the absolute king-piece blocks), where `linear` is the engine's linear
//! evaluation (kept as a skip
//! connection, started from `--init`) and the features are the engine's own
//! ([`fukayomi::eval::features`]), each seen from its piece's owner. `W1` is
//! small and `w2` zero at the start, so training starts at the linear
//! model's loss. Loss and targets as in `examples/train_eval.rs`:
//! cross-entropy of `sigmoid(v / scale)` against
//! `lambda * sigmoid(score / scale) + (1 - lambda) * result`, minus the
//! target's entropy; `--valid` files are measured, never trained on.
//!
//! f32, Adam with a cosine learning rate; the linear weights are updated
//! densely (as `train_eval` does, with its L2 pull towards the start), the
//! rows of `W1` lazily (only the rows a batch touched). Single-threaded.
//!
//! ```text
//! cargo run --release --example train_nn -- --init FILE [--hidden 16] \
//!     [--epochs 2] [--lr 0.1] [--nlr 0.0003] [--l2 3e-10] [--wd 0] \
//!     [--inputs small|all|N] [--batch 256] \
//!     [--out target/nn/net.bin] [--float-out target/nn/net-f32.bin] \
//!     [--resume FLOAT_FILE|builtin] [--valid HELD_OUT.tsv]... DATA.tsv...
//! cargo run --release --example train_nn -- --eval-only NET.bin --valid HELD_OUT.tsv
//! ```
//!
//! After training, the integer network (`--out`, the engine's form) is
//! measured on the held-out files too (`--eval-only` measures a file).
//!
//! The defaults are the best settings found (`docs/eval-network.md`): the
//! network overfits the games it sees within two epochs, so training is
//! short, and the linear part moves slowly (`--lr 0.1`).

use fukayomi::eval::Weights;
use fukayomi::eval::data::{Sample, for_each_quiet_position};
use fukayomi::eval::features::{FEATURES, KP_OWN_BASE, for_each_feature};
use fukayomi::eval::network::{FloatNetwork, HIDDEN, Network};
use fukayomi::rules::BoardKind;
use std::time::Instant;

/// Set on a feature owned by the side to move.
const OWN_BIT: u32 = 1 << 31;
const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

struct Args {
    init: String,
    resume: Option<String>,
    out: String,
    float_out: String,
    hidden: usize,
    epochs: usize,
    batch: usize,
    lambda: f64,
    lr: f32,
    nlr: f32,
    l2: f32,
    /// Only measure the integer network of this file (`--eval-only FILE`).
    eval_only: Option<String>,
    /// Decoupled weight decay of `W1` (per step, times the learning rate).
    wd: f32,
    inputs: usize,
    scale: f32,
    files: Vec<String>,
    valid_files: Vec<String>,
}

fn parse_args() -> Args {
    let mut a = Args {
        init: "builtin".into(),
        resume: None,
        out: "target/nn/net.bin".into(),
        float_out: "target/nn/net-f32.bin".into(),
        hidden: 16,
        epochs: 2,
        batch: 256,
        lambda: 1.0,
        lr: 0.1,
        nlr: 0.0003,
        l2: 3e-10,
        wd: 0.0,
        eval_only: None,
        inputs: KP_OWN_BASE,
        scale: 600.0,
        files: Vec::new(),
        valid_files: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut val = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--init" => a.init = val(),
            "--resume" => a.resume = Some(val()),
            "--out" => a.out = val(),
            "--float-out" => a.float_out = val(),
            "--hidden" => a.hidden = val().parse().expect("--hidden N"),
            "--epochs" => a.epochs = val().parse().expect("--epochs N"),
            "--batch" => a.batch = val().parse().expect("--batch N"),
            "--lambda" => a.lambda = val().parse().expect("--lambda X"),
            "--lr" => a.lr = val().parse().expect("--lr X"),
            "--nlr" => a.nlr = val().parse().expect("--nlr X"),
            "--l2" => a.l2 = val().parse().expect("--l2 X"),
            "--eval-only" => a.eval_only = Some(val()),
            "--wd" => a.wd = val().parse().expect("--wd X"),
            "--inputs" => {
                a.inputs = match val().as_str() {
                    "all" => FEATURES,
                    "small" => KP_OWN_BASE,
                    n => n.parse().expect("--inputs all|small|N"),
                }
            }
            "--scale" => a.scale = val().parse().expect("--scale X"),
            "--valid" => a.valid_files.push(val()),
            f if f.starts_with("--") => panic!("unknown flag {f}"),
            _ => a.files.push(flag),
        }
    }
    a
}

/// Positions: their features (index, [`OWN_BIT`] if the side to move owns
/// it) in one flat array, and targets.
#[derive(Default)]
struct Data {
    features: Vec<u32>,
    starts: Vec<usize>,
    targets: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.targets.len()
    }

    fn sample(&self, i: usize) -> &[u32] {
        &self.features[self.starts[i]..self.starts[i + 1]]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads the quiet 9x9 positions of `files`.
fn load(files: &[String], a: &Args) -> Data {
    let mut d = Data {
        starts: vec![0],
        ..Data::default()
    };
    for file in files {
        for_each_quiet_position(file, |Sample { pos, score, result }| {
            if pos.kind() != BoardKind::Standard {
                return;
            }
            let stm = fukayomi::eval::features::sign(pos.side_to_move());
            for_each_feature(&pos, |i, s| {
                d.features
                    .push(i as u32 | if s == stm { OWN_BIT } else { 0 });
            });
            d.starts.push(d.features.len());
            let t = a.lambda * sigmoid(score / f64::from(a.scale)) + (1.0 - a.lambda) * result;
            d.targets.push(t as f32);
        })
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    d
}

/// The model being trained, with its gradients and Adam moments.
struct Trainer {
    net: FloatNetwork,
    prior: Vec<f32>,
    g_lin: Vec<f32>,
    m_lin: Vec<f32>,
    v_lin: Vec<f32>,
    g_w1: Vec<f32>,
    m_w1: Vec<f32>,
    v_w1: Vec<f32>,
    /// Rows of `W1` the current batch touched, and a stamp per row.
    touched: Vec<u32>,
    stamp: Vec<u32>,
    batch_no: u32,
    /// b1, w2, b2 in one dense vector (gradients and moments).
    g_small: Vec<f32>,
    m_small: Vec<f32>,
    v_small: Vec<f32>,
    // Scratch.
    acc: [Vec<f32>; 2],
}

/// Forward pass: the value in centipawns and the two accumulators
/// (side to move, opponent) before the activation.
fn forward(net: &FloatNetwork, feats: &[u32], acc: &mut [Vec<f32>; 2]) -> f32 {
    let (h, n) = (net.hidden, net.inputs);
    let [acc_s, acc_o] = acc;
    acc_s.copy_from_slice(&net.b1);
    acc_o.copy_from_slice(&net.b1);
    let mut lin = 0.0f32;
    for &x in feats {
        let f = (x & !OWN_BIT) as usize;
        let own = x & OWN_BIT != 0;
        lin += if own { net.linear[f] } else { -net.linear[f] };
        if f >= n {
            continue;
        }
        let (ra, rb) = if own { (f, n + f) } else { (n + f, f) };
        let wa = &net.w1[ra * h..ra * h + h];
        let wb = &net.w1[rb * h..rb * h + h];
        for ((s, o), (a, b)) in acc_s
            .iter_mut()
            .zip(acc_o.iter_mut())
            .zip(wa.iter().zip(wb))
        {
            *s += a;
            *o += b;
        }
    }
    let mut out = net.b2;
    for (j, (s, o)) in acc_s.iter().zip(acc_o.iter()).enumerate() {
        out += net.w2[j] * s.clamp(0.0, 1.0) + net.w2[h + j] * o.clamp(0.0, 1.0);
    }
    lin + net.scale * out
}

fn cross_entropy(t: f64, p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Mean cross-entropy minus the targets' entropy over the samples `idx`
/// (all if `None`).
fn loss(net: &FloatNetwork, d: &Data, limit: usize) -> f64 {
    let mut acc = [vec![0.0; net.hidden], vec![0.0; net.hidden]];
    let n = d.len().min(limit);
    let mut total = 0.0;
    for i in 0..n {
        let v = forward(net, d.sample(i), &mut acc);
        let t = f64::from(d.targets[i]);
        let p = sigmoid(f64::from(v) / f64::from(net.scale));
        total += cross_entropy(t, p) - cross_entropy(t, t);
    }
    total / n.max(1) as f64
}

impl Trainer {
    fn new(net: FloatNetwork) -> Trainer {
        let (h, n) = (net.hidden, net.inputs);
        let small = h + 2 * h + 1;
        Trainer {
            prior: net.linear.clone(),
            g_lin: vec![0.0; FEATURES],
            m_lin: vec![0.0; FEATURES],
            v_lin: vec![0.0; FEATURES],
            g_w1: vec![0.0; 2 * n * h],
            m_w1: vec![0.0; 2 * n * h],
            v_w1: vec![0.0; 2 * n * h],
            touched: Vec::new(),
            stamp: vec![0; 2 * n],
            batch_no: 0,
            g_small: vec![0.0; small],
            m_small: vec![0.0; small],
            v_small: vec![0.0; small],
            acc: [vec![0.0; h], vec![0.0; h]],
            net,
        }
    }

    fn touch(&mut self, row: usize) {
        if self.stamp[row] != self.batch_no {
            self.stamp[row] = self.batch_no;
            self.touched.push(row as u32);
        }
    }

    /// One sample's forward and backward pass, adding to the gradients.
    fn accumulate(&mut self, feats: &[u32], target: f32) {
        let (h, n) = (self.net.hidden, self.net.inputs);
        let v = forward(&self.net, feats, &mut self.acc);
        let scale = self.net.scale;
        let p = 1.0 / (1.0 + (-v / scale).exp());
        let err = p - target;
        // d loss / d linear output = err / scale; / d network output = err.
        let g_lin = err / scale;
        let mut d_s = vec![0.0f32; h];
        let mut d_o = vec![0.0f32; h];
        let (b1_end, w2_end) = (h, 3 * h);
        for j in 0..h {
            let (s, o) = (self.acc[0][j], self.acc[1][j]);
            self.g_small[b1_end + j] += err * s.clamp(0.0, 1.0);
            self.g_small[b1_end + h + j] += err * o.clamp(0.0, 1.0);
            if s > 0.0 && s < 1.0 {
                d_s[j] = err * self.net.w2[j];
            }
            if o > 0.0 && o < 1.0 {
                d_o[j] = err * self.net.w2[h + j];
            }
            self.g_small[j] += d_s[j] + d_o[j];
        }
        self.g_small[w2_end] += err;
        for &x in feats {
            let f = (x & !OWN_BIT) as usize;
            let own = x & OWN_BIT != 0;
            self.g_lin[f] += if own { g_lin } else { -g_lin };
            if f >= n {
                continue;
            }
            let (ra, rb) = if own { (f, n + f) } else { (n + f, f) };
            self.touch(ra);
            self.touch(rb);
            for (g, d) in self.g_w1[ra * h..ra * h + h].iter_mut().zip(&d_s) {
                *g += d;
            }
            for (g, d) in self.g_w1[rb * h..rb * h + h].iter_mut().zip(&d_o) {
                *g += d;
            }
        }
    }

    /// The Adam step after a batch of `n` samples.
    fn step(&mut self, a: &Args, n: usize, t: i32, lr: f32, nlr: f32) {
        let (c1, c2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        let inv = 1.0 / n as f32;
        let adam = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32, lr: f32| {
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + EPSILON);
        };
        let net = &mut self.net;
        for i in 0..FEATURES {
            let g = self.g_lin[i] * inv + a.l2 * (net.linear[i] - self.prior[i]);
            adam(
                &mut net.linear[i],
                g,
                &mut self.m_lin[i],
                &mut self.v_lin[i],
                lr,
            );
            self.g_lin[i] = 0.0;
        }
        let h = net.hidden;
        for &row in &self.touched {
            let r = row as usize * h..row as usize * h + h;
            for (((w, g), m), v) in net.w1[r.clone()]
                .iter_mut()
                .zip(&mut self.g_w1[r.clone()])
                .zip(&mut self.m_w1[r.clone()])
                .zip(&mut self.v_w1[r])
            {
                adam(w, *g * inv, m, v, nlr);
                *w -= nlr * a.wd * *w;
                *g = 0.0;
            }
        }
        self.touched.clear();
        for k in 0..self.g_small.len() {
            let g = self.g_small[k] * inv;
            let w = if k < h {
                &mut net.b1[k]
            } else if k < 3 * h {
                &mut net.w2[k - h]
            } else {
                &mut net.b2
            };
            adam(w, g, &mut self.m_small[k], &mut self.v_small[k], nlr);
            self.g_small[k] = 0.0;
        }
        self.batch_no += 1;
    }
}

/// A deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [-1, 1).
    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, (rng.next() % (i as u64 + 1)) as usize);
    }
}

/// The held-out loss of the engine's integer network (evaluated as the
/// engine does, from the positions).
fn integer_loss(q: &Network, a: &Args) -> f64 {
    let (mut total, mut n) = (0.0, 0usize);
    for file in &a.valid_files {
        for_each_quiet_position(file, |Sample { pos, score, result }| {
            if pos.kind() != BoardKind::Standard {
                return;
            }
            let scale = f64::from(a.scale);
            let t = a.lambda * sigmoid(score / scale) + (1.0 - a.lambda) * result;
            let v = q.evaluate(&q.refresh(&pos), pos.side_to_move());
            total += cross_entropy(t, sigmoid(f64::from(v) / scale)) - cross_entropy(t, t);
            n += 1;
        })
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    total / n.max(1) as f64
}

fn main() {
    let a = parse_args();
    let started = Instant::now();
    if let Some(file) = &a.eval_only {
        let q = Network::parse(&std::fs::read(file).expect("network file")).expect("a network");
        eprintln!("{file}: held-out loss {:.5}", integer_loss(&q, &a));
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let net = match &a.resume {
        Some(file) if file == "builtin" => Network::built_in().to_float(a.scale),
        Some(file) => FloatNetwork::parse(&std::fs::read(file).expect("resume file"))
            .expect("a float network file"),
        None => {
            let weights = match a.init.as_str() {
                "material" => Weights::material(),
                "builtin" => Weights::built_in(),
                file => {
                    Weights::parse(&std::fs::read(file).expect("init file")).expect("init weights")
                }
            };
            let mut net = FloatNetwork::new(
                a.hidden,
                a.inputs,
                a.scale,
                weights
                    .board(BoardKind::Standard)
                    .iter()
                    .map(|&w| f32::from(w))
                    .collect(),
            );
            // About 200 features per position: accumulators spread ~0.3
            // around 0.5, inside the activation's linear range.
            let r = 0.3 * 3f32.sqrt() / 200f32.sqrt();
            net.w1.iter_mut().for_each(|w| *w = r * rng.uniform());
            net.b1.iter_mut().for_each(|b| *b = 0.5);
            net
        }
    };
    let train = load(&a.files, &a);
    let valid = load(&a.valid_files, &a);
    eprintln!(
        "loaded {} training, {} held-out positions ({:.1} features each) in {:.1} s",
        train.len(),
        valid.len(),
        train.features.len() as f64 / train.len().max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    eprintln!(
        "hidden {}, inputs {}, start: held-out loss {:.5}",
        net.hidden,
        net.inputs,
        loss(&net, &valid, usize::MAX)
    );
    let mut tr = Trainer::new(net);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut t = 0i32;
    let train_started = Instant::now();
    for epoch in 0..a.epochs {
        let e0 = Instant::now();
        shuffle(&mut order, &mut rng);
        let cos = 0.5 * (1.0 + (std::f32::consts::PI * epoch as f32 / a.epochs as f32).cos());
        let (lr, nlr) = (a.lr * cos, a.nlr * cos);
        for batch in order.chunks(a.batch) {
            for &i in batch {
                tr.accumulate(train.sample(i), train.targets[i]);
            }
            t += 1;
            tr.step(&a, batch.len(), t, lr, nlr);
        }
        eprintln!(
            "epoch {} lr {lr:.3} nlr {nlr:.5}: training loss {:.5}, held-out loss {:.5} ({:.0} s)",
            epoch + 1,
            loss(&tr.net, &train, 50_000),
            loss(&tr.net, &valid, usize::MAX),
            e0.elapsed().as_secs_f64()
        );
        if let Some(dir) = std::path::Path::new(&a.float_out).parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        std::fs::write(&a.float_out, tr.net.to_bytes()).expect("write float network");
    }
    eprintln!("trained in {:.0} s", train_started.elapsed().as_secs_f64());
    if tr.net.hidden == HIDDEN {
        let q = Network::quantise(&tr.net);
        std::fs::write(&a.out, q.to_bytes()).expect("write network");
        eprintln!(
            "wrote {}: held-out loss of the engine's integer network {:.5}",
            a.out,
            integer_loss(&q, &a)
        );
    } else {
        eprintln!("no integer network: the engine's width is {HIDDEN}");
    }
    eprintln!(
        "wrote {}; {:.0} s in all",
        a.float_out,
        started.elapsed().as_secs_f64()
    );
}
