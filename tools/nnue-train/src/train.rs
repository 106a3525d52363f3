//! The optimiser: Adam over mini-batches, the gradient of each batch split over threads.
//!
//! A batch touches a few thousand of the factor table's rows; only those are summed and
//! updated ("lazy" Adam: an untouched row keeps its moments as they are), so a step costs
//! what the batch uses, not the table's size.

use crate::data::Sample;
use crate::model::{Gradient, Model, Trace, HALF};

/// The loss of a prediction `p = sigmoid(cp / K)` against the target
/// `t = lambda * result + (1 - lambda) * sigmoid(score / K)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// `(p - t)^2`, what tools/tune minimises (so the figures compare).
    Mse,
    /// `-(t ln p + (1 - t) ln(1 - p))`: its gradient does not vanish when the net is
    /// confidently wrong.
    CrossEntropy,
}

/// What the loss needs besides the positions.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    pub loss: Loss,
    pub k: f32,
    pub lambda: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Objective {
    pub fn target(&self, s: &Sample) -> f32 {
        self.lambda * s.result + (1.0 - self.lambda) * sigmoid(s.score / self.k)
    }

    /// The loss of evaluation `cp` on `s` and its derivative by `cp`.
    pub fn loss(&self, s: &Sample, cp: f32) -> (f32, f32) {
        let t = self.target(s);
        let p = sigmoid(cp / self.k);
        match self.loss {
            Loss::Mse => ((p - t) * (p - t), 2.0 * (p - t) * p * (1.0 - p) / self.k),
            Loss::CrossEntropy => {
                let q = p.clamp(1e-7, 1.0 - 1e-7);
                (-(t * q.ln() + (1.0 - t) * (1.0 - q).ln()), (p - t) / self.k)
            }
        }
    }
}

/// The mean loss of `eval` over `set`, on `threads` threads.
pub fn mean_loss<F>(set: &[Sample], objective: &Objective, threads: usize, eval: F) -> f64
where
    F: Fn(&Sample) -> f32 + Sync,
{
    if set.is_empty() {
        return 0.0;
    }
    let chunk = set.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = set
            .chunks(chunk)
            .map(|part| {
                let eval = &eval;
                scope.spawn(move || {
                    part.iter()
                        .map(|s| f64::from(objective.loss(s, eval(s)).0))
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    total / set.len() as f64
}

/// Adam's state for every parameter.
pub struct Adam {
    pub lr: f32,
    /// Decoupled weight decay of the feature rows per step, times `lr`: with few games
    /// the rows otherwise learn the positions of the training games (the net overfits
    /// within one or two epochs of 200,000 positions). Applied to a row when a batch
    /// touches it, as its moments are.
    pub weight_decay: f32,
    step: i32,
    ft_m: Vec<f32>,
    ft_v: Vec<f32>,
    dense_m: Vec<Vec<f32>>,
    dense_v: Vec<Vec<f32>>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// One Adam step of `w`, after shrinking it by `decay` (decoupled weight decay,
/// Loshchilov & Hutter's AdamW: the pull towards zero does not go through the moments).
#[inline(always)]
fn adam_update(w: &mut [f32], g: &[f32], m: &mut [f32], v: &mut [f32], rate: f32, decay: f32) {
    for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= *w * decay + rate * *m / (v.sqrt() + EPSILON);
    }
}

impl Adam {
    pub fn new(model: &mut Model, lr: f32, weight_decay: f32) -> Adam {
        let dense: Vec<Vec<f32>> = model.dense().iter().map(|d| vec![0.0; d.len()]).collect();
        Adam {
            lr,
            weight_decay,
            step: 0,
            ft_m: vec![0.0; model.ft.len()],
            ft_v: vec![0.0; model.ft.len()],
            dense_m: dense.clone(),
            dense_v: dense,
        }
    }

    /// One step with the sum of `grads` (one per thread) over a batch of `n` positions.
    /// Leaves `grads` zeroed for the next batch.
    fn step(&mut self, model: &mut Model, grads: &mut [Gradient], n: usize) {
        self.step += 1;
        let scale = 1.0 / n as f32;
        // Bias correction folded into the rate (Kingma & Ba, end of section 2).
        let rate = self.lr * (1.0 - BETA2.powi(self.step)).sqrt() / (1.0 - BETA1.powi(self.step));
        // Rows: each row some thread touched is summed over the threads and updated
        // once, the rows shared out among the threads.
        let decay = self.lr * self.weight_decay;
        let shared: &[Gradient] = grads;
        let mut rows: Vec<_> = model
            .ft
            .chunks_exact_mut(HALF)
            .zip(self.ft_m.chunks_exact_mut(HALF))
            .zip(self.ft_v.chunks_exact_mut(HALF))
            .enumerate()
            .filter(|(r, _)| shared.iter().any(|g| g.touches(*r)))
            .collect();
        let per_thread = rows.len().div_ceil(shared.len()).max(1);
        std::thread::scope(|scope| {
            for part in rows.chunks_mut(per_thread) {
                scope.spawn(move || {
                    let mut g = [0.0f32; HALF];
                    for (r, ((w, m), v)) in part.iter_mut() {
                        g.fill(0.0);
                        for t in shared.iter().filter(|t| t.touches(*r)) {
                            for (a, b) in g.iter_mut().zip(&t.ft[*r * HALF..(*r + 1) * HALF]) {
                                *a += b * scale;
                            }
                        }
                        adam_update(w, &g, m, v, rate, decay);
                    }
                });
            }
        });
        let (first, rest) = grads.split_first_mut().expect("at least one thread");
        // Dense parts: summed in the first gradient, then one update.
        for other in rest.iter_mut() {
            for (d, s) in first.dense().into_iter().zip(other.dense()) {
                for (a, b) in d.iter_mut().zip(s.iter()) {
                    *a += b;
                }
            }
        }
        for (i, (w, g)) in model.dense().into_iter().zip(first.dense()).enumerate() {
            g.iter_mut().for_each(|x| *x *= scale);
            adam_update(w, g, &mut self.dense_m[i], &mut self.dense_v[i], rate, 0.0);
        }
        model.clamp_to_int8();
        for g in grads.iter_mut() {
            g.clear();
        }
    }
}

/// Train on the positions `ids` of `train` in that order, `batch` positions a step.
/// Returns the sum of the training losses of the positions as they were evaluated (before
/// each step) and how many were trained. `stop` is asked before each batch (a time budget).
#[allow(clippy::too_many_arguments)]
pub fn steps(
    model: &mut Model,
    adam: &mut Adam,
    grads: &mut [Gradient],
    train: &[Sample],
    order: &[u32],
    batch: usize,
    objective: &Objective,
    stop: &dyn Fn() -> bool,
) -> (f64, usize) {
    let mut total = 0.0f64;
    let mut done = 0usize;
    for ids in order.chunks(batch.max(1)) {
        if stop() {
            break;
        }
        let per_thread = ids.len().div_ceil(grads.len());
        let m: &Model = model;
        let sum: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = ids
                .chunks(per_thread)
                .zip(grads.iter_mut())
                .map(|(part, g)| {
                    scope.spawn(move || {
                        let mut t = Trace::default();
                        let mut loss = 0.0f64;
                        for &i in part {
                            let s = &train[i as usize];
                            let cp = m.forward(s, &mut t);
                            let (l, d) = objective.loss(s, cp);
                            loss += f64::from(l);
                            m.backward(&t, d, g);
                        }
                        loss
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("train thread"))
                .sum()
        });
        total += sum;
        done += ids.len();
        adam.step(model, grads, ids.len());
    }
    (total, done)
}
