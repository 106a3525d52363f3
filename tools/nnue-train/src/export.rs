//! Quantisation into YaneuraOu's HalfKP 256x2-32-32 `nn.bin` (FORMAT.md §2-§3), and the
//! integer forward pass of the result, which must equal the engine's to the unit.

use crate::data::Sample;
use crate::features::KING_SQUARES;
use crate::model::{Model, ACTIVATION_SCALE, HALF, L1_IN, L1_OUT, L2_OUT, WEIGHT_SCALE};
use hayanagi::{NNUE_FEATURES, NNUE_FE_END};
use std::io::{self, Write};

/// File format version (FORMAT.md §2 row 1); the loader refuses any other.
pub const VERSION: u32 = 0x7AF3_2F16;
/// Hashes the loader compares (a mismatch is only a warning there, but a net we write
/// should load without one).
pub const NETWORK_HASH: u32 = 0x3E5A_A6EE;
pub const TRANSFORMER_HASH: u32 = 0x5D69_D7B8;
pub const LAYERS_HASH: u32 = 0x6333_7156;
/// The classic architecture string, as trainers of these nets write it.
pub const ARCHITECTURE: &str = "Features=HalfKP(Friend)[125388->256x2],Network=AffineTransform[1<-32](ClippedReLU[32](AffineTransform[32<-32](ClippedReLU[32](AffineTransform[32<-512](InputSlice[512(0:512)])))))";
/// `VALUE_MAX_EVAL`: the engine clamps evaluations to this.
const MAX_EVAL: i32 = 31753;
/// The engine's `FV_SCALE`.
const FV_SCALE: i32 = 16;

/// A net in the engine's integers.
pub struct Quantised {
    pub ft_bias: Vec<i16>,
    /// `NNUE_FEATURES` rows of `HALF`, feature-major as in the file.
    pub ft: Vec<i16>,
    pub l1_w: Vec<i8>,
    pub l1_b: Vec<i32>,
    pub l2_w: Vec<i8>,
    pub l2_b: Vec<i32>,
    pub out_w: Vec<i8>,
    pub out_b: Vec<i32>,
    /// Values that did not fit their integer type and were clamped to it.
    pub saturated: usize,
}

/// Round `v` into `lo..=hi`, counting a clamp.
fn fit(v: f32, lo: i32, hi: i32, saturated: &mut usize) -> i32 {
    let r = v.round();
    if r < lo as f32 || r > hi as f32 || r.is_nan() {
        *saturated += 1;
    }
    (r as i32).clamp(lo, hi)
}

/// A hidden layer's biases. Their integer unit is that of the sums (64 x 127 a float
/// unit); the 32 added to layers followed by the engine's `>> 6` turn its flooring into
/// rounding to nearest, which is what the float model assumes.
fn biases(b: &[f32], rounding: i32, saturated: &mut usize) -> Vec<i32> {
    b.iter()
        .map(|&v| {
            let q = f64::from(v) * f64::from(WEIGHT_SCALE * ACTIVATION_SCALE);
            if q.abs() > f64::from(i32::MAX / 2) {
                *saturated += 1;
            }
            q.round()
                .clamp(f64::from(i32::MIN / 2), f64::from(i32::MAX / 2)) as i32
                + rounding
        })
        .collect()
}

fn weights(w: &[f32], saturated: &mut usize) -> Vec<i8> {
    w.iter()
        .map(|&v| fit(v * WEIGHT_SCALE, -128, 127, saturated) as i8)
        .collect()
}

impl Quantised {
    /// `model` in integers, its factor rows expanded into every HalfKP row.
    pub fn new(model: &Model) -> Quantised {
        let mut saturated = 0;
        let q16 = |v: f32, s: &mut usize| fit(v * ACTIVATION_SCALE, -32768, 32767, s) as i16;
        let ft_bias = model
            .ft_bias
            .iter()
            .map(|&v| q16(v, &mut saturated))
            .collect();
        let mut ft = Vec::with_capacity(NNUE_FEATURES * HALF);
        for k in 0..KING_SQUARES {
            for p in 0..NNUE_FE_END {
                for v in model.feature_row(k, p) {
                    ft.push(q16(v, &mut saturated));
                }
            }
        }
        let half_rounding = 1 << 5;
        Quantised {
            ft_bias,
            ft,
            l1_w: weights(&model.l1_w, &mut saturated),
            l1_b: biases(&model.l1_b, half_rounding, &mut saturated),
            l2_w: weights(&model.l2_w, &mut saturated),
            l2_b: biases(&model.l2_b, half_rounding, &mut saturated),
            out_w: weights(&model.out_w, &mut saturated),
            out_b: biases(&model.out_b, 0, &mut saturated),
            saturated,
        }
    }

    /// Row of HalfKP feature (`king`, `piece`).
    pub fn feature_row(&self, king: usize, piece: usize) -> &[i16] {
        let f = king * NNUE_FE_END + piece;
        &self.ft[f * HALF..(f + 1) * HALF]
    }

    /// The output before `FV_SCALE`, computed as the engine computes it: int16
    /// accumulators (wrapping), clipped to 0..127, int32 sums (wrapping), `>> 6`, clipped.
    pub fn raw_output(&self, s: &Sample) -> i32 {
        let mut x = [0u8; L1_IN];
        for side in 0..2 {
            let mut acc: Vec<i16> = self.ft_bias.clone();
            for &p in &s.pieces[side] {
                let row = self.feature_row(s.kings[side] as usize, p as usize);
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(w);
                }
            }
            for (o, &a) in x[side * HALF..(side + 1) * HALF].iter_mut().zip(&acc) {
                *o = a.clamp(0, 127) as u8;
            }
        }
        let y1 = clip6(affine(&self.l1_w, &self.l1_b, &x, L1_OUT));
        let y2 = clip6(affine(&self.l2_w, &self.l2_b, &y1, L2_OUT));
        affine(&self.out_w, &self.out_b, &y2, 1)[0]
    }

    /// The evaluation the engine gives `s`: the output over 16, truncated, clamped.
    pub fn evaluate(&self, s: &Sample) -> i32 {
        (self.raw_output(s) / FV_SCALE).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The whole `nn.bin`, little-endian, in the order of FORMAT.md §2.
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        w.write_all(&VERSION.to_le_bytes())?;
        w.write_all(&NETWORK_HASH.to_le_bytes())?;
        w.write_all(&(ARCHITECTURE.len() as u32).to_le_bytes())?;
        w.write_all(ARCHITECTURE.as_bytes())?;
        w.write_all(&TRANSFORMER_HASH.to_le_bytes())?;
        let i16s = |v: &[i16]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        w.write_all(&i16s(&self.ft_bias))?;
        for row in self.ft.chunks(1 << 16) {
            w.write_all(&i16s(row))?;
        }
        w.write_all(&LAYERS_HASH.to_le_bytes())?;
        for (b, wt) in [
            (&self.l1_b, &self.l1_w),
            (&self.l2_b, &self.l2_w),
            (&self.out_b, &self.out_w),
        ] {
            for v in b.iter() {
                w.write_all(&v.to_le_bytes())?;
            }
            w.write_all(&wt.iter().map(|&v| v as u8).collect::<Vec<u8>>())?;
        }
        Ok(())
    }

    pub fn write_file(&self, path: &std::path::Path) -> io::Result<()> {
        let file = std::fs::File::create(path)?;
        let mut w = io::BufWriter::with_capacity(1 << 20, file);
        self.write(&mut w)?;
        w.flush()
    }
}

/// `b + W x` in wrapping int32, as the engine's portable path.
fn affine(w: &[i8], b: &[i32], x: &[u8], out: usize) -> Vec<i32> {
    let n = x.len();
    (0..out)
        .map(|o| {
            w[o * n..(o + 1) * n]
                .iter()
                .zip(x)
                .fold(b[o], |s, (&w, &x)| {
                    s.wrapping_add(i32::from(w) * i32::from(x))
                })
        })
        .collect()
}

/// The clipped ReLU after a hidden layer: `clamp(x >> 6, 0, 127)`.
fn clip6(h: Vec<i32>) -> Vec<u8> {
    h.into_iter()
        .map(|v| (v >> 6).clamp(0, 127) as u8)
        .collect()
}
