//! The float model and its gradient.
//!
//! Its forward pass is the engine's integer one (`src/eval/nnue/network.rs`, FORMAT.md §5)
//! with the quantisation scales divided out, so that clipping happens where the engine
//! clips and rounding is all export changes:
//!
//! ```text
//! engine (integers)                          model (floats)
//! acc = b + sum of 38 rows (int16)           acc = b + sum of 38 factorised rows
//! x   = clamp(acc, 0, 127)                   x   = clamp(acc, 0, 1)          (x127)
//! y1  = clamp((b1 + W1 x) >> 6, 0, 127)      y1  = clamp(b1 + W1 x, 0, 1)   (W x64, b x64x127)
//! y2  = clamp((b2 + W2 y1) >> 6, 0, 127)     y2  = clamp(b2 + W2 y1, 0, 1)
//! out = b3 + W3 y2;  cp = out / 16           cp  = (b3 + W3 y2) x 508        (508 = 64 x 127 / 16)
//! ```
//!
//! Every layer's float weights are the integers over 64 (int8: -2 to 1.98, which training
//! keeps them within), feature rows the int16 values over 127.

use crate::data::Sample;
use crate::features::{Buckets, Factoriser};
use crate::rng::Rng;

/// Accumulator width per perspective.
pub const HALF: usize = 256;
/// Inputs of the first hidden layer: both halves, side to move first.
pub const L1_IN: usize = 2 * HALF;
pub const L1_OUT: usize = 32;
pub const L2_OUT: usize = 32;
/// Integer units of one float unit of an activation (the clip top, 127).
pub const ACTIVATION_SCALE: f32 = 127.0;
/// Integer units of one float unit of a hidden or output weight (`1 << 6`, the shift).
pub const WEIGHT_SCALE: f32 = 64.0;
/// The engine's `FV_SCALE`: its evaluation is the output over this.
pub const FV_SCALE: f32 = 16.0;
/// Centipawns of one float unit of the output.
pub const OUTPUT_CP: f32 = WEIGHT_SCALE * ACTIVATION_SCALE / FV_SCALE;
/// The int8 range of hidden and output weights, in float units.
pub const WEIGHT_MIN: f32 = -128.0 / WEIGHT_SCALE;
pub const WEIGHT_MAX: f32 = 127.0 / WEIGHT_SCALE;

/// The parameters, all f32. Dense layers are row-major (`[out][in]`), as in `nn.bin`.
#[derive(Clone)]
pub struct Model {
    pub factoriser: Factoriser,
    /// Factor rows (`Factoriser::rows()` x `HALF`): `P` rows, then bucket rows.
    pub ft: Vec<f32>,
    pub ft_bias: Vec<f32>,
    pub l1_w: Vec<f32>,
    pub l1_b: Vec<f32>,
    pub l2_w: Vec<f32>,
    pub l2_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
}

/// Activations of one forward pass, kept for the backward pass.
pub struct Trace {
    /// Factor rows added per perspective (two per feature).
    pub rows: [[u32; 2 * hayanagi::NNUE_ACTIVE_FEATURES]; 2],
    pub acc: [f32; L1_IN],
    pub x: [f32; L1_IN],
    pub h1: [f32; L1_OUT],
    pub y1: [f32; L1_OUT],
    pub h2: [f32; L2_OUT],
    pub y2: [f32; L2_OUT],
}

impl Default for Trace {
    fn default() -> Trace {
        Trace {
            rows: [[0; 2 * hayanagi::NNUE_ACTIVE_FEATURES]; 2],
            acc: [0.0; L1_IN],
            x: [0.0; L1_IN],
            h1: [0.0; L1_OUT],
            y1: [0.0; L1_OUT],
            h2: [0.0; L2_OUT],
            y2: [0.0; L2_OUT],
        }
    }
}

/// Gradients with the model's shape; the factor rows' part is sparse: only rows in
/// `touched` are non-zero, the rest of `ft` stays zero between batches.
pub struct Gradient {
    pub ft: Vec<f32>,
    pub touched: Vec<u32>,
    is_touched: Vec<bool>,
    pub ft_bias: Vec<f32>,
    pub l1_w: Vec<f32>,
    pub l1_b: Vec<f32>,
    pub l2_w: Vec<f32>,
    pub l2_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
}

impl Gradient {
    pub fn new(model: &Model) -> Gradient {
        let rows = model.factoriser.rows();
        Gradient {
            ft: vec![0.0; rows * HALF],
            touched: Vec::new(),
            is_touched: vec![false; rows],
            ft_bias: vec![0.0; HALF],
            l1_w: vec![0.0; L1_IN * L1_OUT],
            l1_b: vec![0.0; L1_OUT],
            l2_w: vec![0.0; L1_OUT * L2_OUT],
            l2_b: vec![0.0; L2_OUT],
            out_w: vec![0.0; L2_OUT],
            out_b: vec![0.0; 1],
        }
    }

    /// The dense parts, in one fixed order (to sum and update them alike).
    pub fn dense(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.ft_bias,
            &mut self.l1_w,
            &mut self.l1_b,
            &mut self.l2_w,
            &mut self.l2_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    /// Back to zero: the touched rows and the dense parts.
    pub fn clear(&mut self) {
        for &r in &self.touched {
            let r = r as usize;
            self.ft[r * HALF..(r + 1) * HALF].fill(0.0);
            self.is_touched[r] = false;
        }
        self.touched.clear();
        for d in self.dense() {
            d.fill(0.0);
        }
    }

    /// Whether the batch touched factor row `r`.
    pub fn touches(&self, r: usize) -> bool {
        self.is_touched[r]
    }

    /// Row `r` of the factor table's gradient, marked as touched.
    pub fn row_mut(&mut self, r: u32) -> &mut [f32] {
        let i = r as usize;
        if !self.is_touched[i] {
            self.is_touched[i] = true;
            self.touched.push(r);
        }
        &mut self.ft[i * HALF..(i + 1) * HALF]
    }
}

/// `a . b` with eight partial sums: floats are not reassociated by the compiler, so one
/// running sum would not vectorise.
#[inline(always)]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (ca, cb) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for i in 0..8 {
            lanes[i] += ca[i] * cb[i];
        }
    }
    lanes.iter().sum()
}

#[inline(always)]
fn add_scaled(dst: &mut [f32], src: &[f32], k: f32) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += k * s;
    }
}

#[inline(always)]
fn clip(v: f32) -> f32 {
    v.clamp(0.0, 1.0)
}

/// The slope of `clip` at `v`: 1 strictly inside the range.
#[inline(always)]
fn passes(v: f32) -> bool {
    v > 0.0 && v < 1.0
}

impl Model {
    /// A fresh model: feature rows small around zero and accumulator biases at mid-range,
    /// so that every unit starts inside its clipped range (units clipped for every
    /// position get no gradient and would never learn).
    pub fn new(buckets: Buckets, seed: u64) -> Model {
        let factoriser = Factoriser::new(buckets);
        let mut rng = Rng::new(seed);
        let rows = factoriser.rows();
        let mut uniform = |n: usize, a: f32| (0..n).map(|_| rng.symmetric(a)).collect();
        Model {
            ft: uniform(rows * HALF, 0.01),
            ft_bias: vec![0.5; HALF],
            l1_w: uniform(L1_IN * L1_OUT, 1.0 / (L1_IN as f32).sqrt()),
            l1_b: vec![0.5; L1_OUT],
            l2_w: uniform(L1_OUT * L2_OUT, 1.0 / (L1_OUT as f32).sqrt()),
            l2_b: vec![0.5; L2_OUT],
            out_w: uniform(L2_OUT, 0.1),
            out_b: vec![0.0; 1],
            factoriser,
        }
    }

    /// The dense parameters in [`Gradient::dense`]'s order.
    pub fn dense(&mut self) -> [&mut Vec<f32>; 7] {
        [
            &mut self.ft_bias,
            &mut self.l1_w,
            &mut self.l1_b,
            &mut self.l2_w,
            &mut self.l2_b,
            &mut self.out_w,
            &mut self.out_b,
        ]
    }

    /// The effective (expanded) float row of HalfKP feature (`king`, `piece`).
    pub fn feature_row(&self, king: usize, piece: usize) -> [f32; HALF] {
        let [p, b] = self.factoriser.rows_of(king, piece);
        let (p, b) = (p as usize * HALF, b as usize * HALF);
        let mut row = [0.0; HALF];
        for (j, r) in row.iter_mut().enumerate() {
            *r = self.ft[p + j] + self.ft[b + j];
        }
        row
    }

    /// The evaluation of `s` for the side to move, in centipawns, keeping what the
    /// backward pass needs in `t`.
    pub fn forward(&self, s: &Sample, t: &mut Trace) -> f32 {
        for side in 0..2 {
            let acc = &mut t.acc[side * HALF..(side + 1) * HALF];
            acc.copy_from_slice(&self.ft_bias);
            let king = s.kings[side] as usize;
            for (i, &p) in s.pieces[side].iter().enumerate() {
                let rows = self.factoriser.rows_of(king, p as usize);
                t.rows[side][2 * i] = rows[0];
                t.rows[side][2 * i + 1] = rows[1];
                for r in rows {
                    let r = r as usize * HALF;
                    add_scaled(acc, &self.ft[r..r + HALF], 1.0);
                }
            }
        }
        for (x, &a) in t.x.iter_mut().zip(&t.acc) {
            *x = clip(a);
        }
        for o in 0..L1_OUT {
            t.h1[o] = self.l1_b[o] + dot(&self.l1_w[o * L1_IN..(o + 1) * L1_IN], &t.x);
            t.y1[o] = clip(t.h1[o]);
        }
        for o in 0..L2_OUT {
            t.h2[o] = self.l2_b[o] + dot(&self.l2_w[o * L1_OUT..(o + 1) * L1_OUT], &t.y1);
            t.y2[o] = clip(t.h2[o]);
        }
        (self.out_b[0] + dot(&self.out_w, &t.y2)) * OUTPUT_CP
    }

    /// The evaluation alone.
    pub fn evaluate(&self, s: &Sample) -> f32 {
        self.forward(s, &mut Trace::default())
    }

    /// Add to `g` the gradient of a loss whose derivative by the output (centipawns) is
    /// `d_cp`, for the forward pass recorded in `t`.
    pub fn backward(&self, t: &Trace, d_cp: f32, g: &mut Gradient) {
        let d_out = d_cp * OUTPUT_CP;
        g.out_b[0] += d_out;
        add_scaled(&mut g.out_w, &t.y2, d_out);
        let mut d_h2 = [0.0f32; L2_OUT];
        for ((d, &h), &w) in d_h2.iter_mut().zip(&t.h2).zip(&self.out_w) {
            if passes(h) {
                *d = d_out * w;
            }
        }
        let mut d_y1 = [0.0f32; L1_OUT];
        for (o, &d) in d_h2.iter().enumerate() {
            if d != 0.0 {
                g.l2_b[o] += d;
                add_scaled(&mut g.l2_w[o * L1_OUT..(o + 1) * L1_OUT], &t.y1, d);
                add_scaled(&mut d_y1, &self.l2_w[o * L1_OUT..(o + 1) * L1_OUT], d);
            }
        }
        let mut d_x = [0.0f32; L1_IN];
        for (o, (&h, &d)) in t.h1.iter().zip(&d_y1).enumerate() {
            if d != 0.0 && passes(h) {
                g.l1_b[o] += d;
                add_scaled(&mut g.l1_w[o * L1_IN..(o + 1) * L1_IN], &t.x, d);
                add_scaled(&mut d_x, &self.l1_w[o * L1_IN..(o + 1) * L1_IN], d);
            }
        }
        for (d, &a) in d_x.iter_mut().zip(&t.acc) {
            if !passes(a) {
                *d = 0.0;
            }
        }
        for side in 0..2 {
            let d_acc = &d_x[side * HALF..(side + 1) * HALF];
            add_scaled(&mut g.ft_bias, d_acc, 1.0);
            for &r in &t.rows[side] {
                add_scaled(g.row_mut(r), d_acc, 1.0);
            }
        }
    }

    /// Keep hidden and output weights inside what int8 holds, so export never saturates
    /// them (and the float model stays the net the engine will run).
    pub fn clamp_to_int8(&mut self) {
        for w in [&mut self.l1_w, &mut self.l2_w, &mut self.out_w] {
            for v in w.iter_mut() {
                *v = v.clamp(WEIGHT_MIN, WEIGHT_MAX);
            }
        }
    }
}
