//! The network's parameters and its forward pass (`FORMAT.md` §5): the feature
//! transformer's accumulators are clipped to 0..127, then three affine layers, the first
//! two followed by a clipped ReLU after a 6-bit shift.

use super::features::N_FEATURES;
use super::simd::{self, SimdLevel};

/// Accumulator width per perspective.
pub const HALF_DIMS: usize = 256;
/// Inputs of the first affine layer: both perspectives' halves.
pub const L1_IN: usize = 2 * HALF_DIMS;
/// Outputs of the first and second affine layers.
pub const L1_OUT: usize = 32;
pub const L2_OUT: usize = 32;
/// `kWeightScaleBits`: affine outputs are shifted right by this before clipping.
const WEIGHT_SCALE_BITS: u32 = 6;
/// `VALUE_MAX_EVAL`: evaluations are clamped below the mate scores.
pub const MAX_EVAL: i32 = 31753;

/// One row of 256 int16 values (a feature's weights, or an accumulator), aligned for
/// vector loads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HALF_DIMS]);

impl Row {
    pub const ZERO: Row = Row([0; HALF_DIMS]);
}

/// A dense layer with int8 weights stored row-major (`[out][in]`), int32 biases.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub struct Affine<const IN: usize, const OUT: usize> {
    pub weights: [[i8; IN]; OUT],
    pub biases: [i32; OUT],
}

/// A loaded HalfKP 256x2-32-32 network.
pub struct Network {
    pub(crate) ft_biases: Row,
    /// One row per input feature.
    pub(crate) ft_weights: Vec<Row>,
    pub(crate) l1: Box<Affine<L1_IN, L1_OUT>>,
    pub(crate) l2: Box<Affine<L1_OUT, L2_OUT>>,
    pub(crate) output: Box<Affine<L2_OUT, 1>>,
    /// The architecture string stored in the file (informational, never parsed).
    pub(crate) architecture: String,
    /// Vector instructions used by default (the best the CPU has).
    pub(crate) simd: SimdLevel,
    /// Unique to this load in the process (never 0): what tells two nets apart.
    pub(crate) id: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("architecture", &self.architecture)
            .field("simd", &self.simd)
            .finish_non_exhaustive()
    }
}

impl Network {
    /// A new value for `id`.
    pub(crate) fn next_id() -> u64 {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    }

    /// Unique to this load of a net in the process.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The architecture string the file carries.
    pub fn architecture(&self) -> &str {
        &self.architecture
    }

    /// The vector instructions this network's evaluations use.
    pub fn simd(&self) -> SimdLevel {
        self.simd
    }

    /// Choose the vector instructions (for tests and benchmarks). Returns false, changing
    /// nothing, when the CPU lacks them.
    pub fn set_simd(&mut self, level: SimdLevel) -> bool {
        if level.is_supported() {
            self.simd = level;
            true
        } else {
            false
        }
    }

    /// Weights of input feature `f`.
    #[inline(always)]
    pub(crate) fn feature(&self, f: usize) -> &Row {
        debug_assert!(f < N_FEATURES);
        &self.ft_weights[f]
    }

    /// Accumulator from scratch: biases plus the rows of `features`.
    pub(crate) fn refresh(&self, features: &[usize], out: &mut Row) {
        *out = self.ft_biases;
        for &f in features {
            simd::add_row(self.simd, out, self.feature(f));
        }
    }

    /// The output for accumulators `us` (side to move) and `them`, before scaling.
    pub(crate) fn propagate(&self, us: &Row, them: &Row) -> i32 {
        simd::propagate(self.simd, self, us, them)
    }

    /// The evaluation for the side to move, in centipawn-like units: the output divided by
    /// `fv_scale` (at least 1; truncating, as C++ does) and clamped to `±MAX_EVAL`.
    pub(crate) fn evaluate(&self, us: &Row, them: &Row, fv_scale: i32) -> i32 {
        (self.propagate(us, them) / fv_scale).clamp(-MAX_EVAL, MAX_EVAL)
    }
}

/// Clipped input of layer 1: the side to move's half first.
#[inline(always)]
pub(crate) fn transform(us: &Row, them: &Row, out: &mut [u8; L1_IN]) {
    for (o, &v) in out[..HALF_DIMS].iter_mut().zip(us.0.iter()) {
        *o = v.clamp(0, 127) as u8;
    }
    for (o, &v) in out[HALF_DIMS..].iter_mut().zip(them.0.iter()) {
        *o = v.clamp(0, 127) as u8;
    }
}

/// `clamp(x >> 6, 0, 127)`: the clipped ReLU after an affine layer.
#[inline(always)]
pub(crate) fn clipped_relu(x: i32) -> u8 {
    (x >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8
}

/// Affine layer, portable version.
#[inline(always)]
pub(crate) fn affine_scalar<const IN: usize, const OUT: usize>(
    layer: &Affine<IN, OUT>,
    input: &[u8; IN],
    out: &mut [i32; OUT],
) {
    for ((o, row), &b) in out.iter_mut().zip(&layer.weights).zip(&layer.biases) {
        // Wrapping, as the vector paths' int32 lanes do: a net with extreme biases must
        // give the same number on every path (and never panic in a debug build).
        let mut sum = b;
        for (&w, &x) in row.iter().zip(input.iter()) {
            sum = sum.wrapping_add(w as i32 * x as i32);
        }
        *o = sum;
    }
}

/// The forward pass without vector instructions: the reference every other path equals.
pub(crate) fn propagate_scalar(net: &Network, us: &Row, them: &Row) -> i32 {
    let mut x = [0u8; L1_IN];
    transform(us, them, &mut x);
    let mut h1 = [0i32; L1_OUT];
    affine_scalar(&net.l1, &x, &mut h1);
    let y1: [u8; L1_OUT] = h1.map(clipped_relu);
    let mut h2 = [0i32; L2_OUT];
    affine_scalar(&net.l2, &y1, &mut h2);
    let y2: [u8; L2_OUT] = h2.map(clipped_relu);
    let mut out = [0i32; 1];
    affine_scalar(&net.output, &y2, &mut out);
    out[0]
}
