//! Vector kernels of the NNUE evaluation, chosen at run time.
//!
//! Every path computes exactly the same integers as the portable one: accumulator rows
//! wrap in int16 on every path, and the int8 dot products cannot saturate in
//! `maddubs` because inputs are at most 127 (2 * 127 * 128 < 32768), so the sums are
//! exact. Tests compare every path the CPU supports with the portable one.
//!
//! The row kernels are the portable loops compiled again with the wider instruction set
//! enabled (the compiler vectorises them); the affine layers use explicit intrinsics,
//! since compilers do not turn u8 x i8 dot products into `maddubs`.

use super::network::{
    affine_scalar, clipped_relu, propagate_scalar, transform, Network, Row, L1_IN, L1_OUT, L2_OUT,
};

/// An instruction set for the NNUE kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// Portable code (whatever the compiler's baseline target allows).
    Scalar,
    /// AVX2.
    Avx2,
    /// AVX-512 (F + BW).
    Avx512,
    /// AVX-512 with VNNI dot products (`vpdpbusd`).
    Avx512Vnni,
}

impl SimdLevel {
    /// Every level, slowest first.
    pub const ALL: [SimdLevel; 4] = [
        SimdLevel::Scalar,
        SimdLevel::Avx2,
        SimdLevel::Avx512,
        SimdLevel::Avx512Vnni,
    ];

    /// Does this CPU run it?
    pub fn is_supported(self) -> bool {
        match self {
            SimdLevel::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512 => {
                std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx2")
            }
            #[cfg(target_arch = "x86_64")]
            SimdLevel::Avx512Vnni => {
                SimdLevel::Avx512.is_supported()
                    && std::arch::is_x86_feature_detected!("avx512vnni")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The levels this CPU runs.
    pub fn supported() -> Vec<SimdLevel> {
        SimdLevel::ALL
            .into_iter()
            .filter(|l| l.is_supported())
            .collect()
    }

    /// The fastest level this CPU runs, unless `HAYANAGI_NNUE_SIMD` (`scalar`, `avx2`,
    /// `avx512`, `avx512vnni`) asks for another one it runs.
    pub fn best() -> SimdLevel {
        let best = *SimdLevel::supported().last().unwrap_or(&SimdLevel::Scalar);
        match std::env::var("HAYANAGI_NNUE_SIMD").ok().as_deref() {
            Some(name) => SimdLevel::ALL
                .into_iter()
                .find(|l| l.name() == name && l.is_supported())
                .unwrap_or(best),
            None => best,
        }
    }

    /// Lower-case name, as `HAYANAGI_NNUE_SIMD` spells it.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Scalar => "scalar",
            SimdLevel::Avx2 => "avx2",
            SimdLevel::Avx512 => "avx512",
            SimdLevel::Avx512Vnni => "avx512vnni",
        }
    }
}

#[inline(always)]
fn add_row_portable(dst: &mut Row, src: &Row) {
    for (d, &s) in dst.0.iter_mut().zip(src.0.iter()) {
        *d = d.wrapping_add(s);
    }
}

#[inline(always)]
fn sub_row_portable(dst: &mut Row, src: &Row) {
    for (d, &s) in dst.0.iter_mut().zip(src.0.iter()) {
        *d = d.wrapping_sub(s);
    }
}

/// `dst = prev + Σ added - Σ removed`.
#[inline(always)]
fn update_portable(dst: &mut Row, prev: &Row, added: &[&Row], removed: &[&Row]) {
    *dst = *prev;
    for a in added {
        add_row_portable(dst, a);
    }
    for r in removed {
        sub_row_portable(dst, r);
    }
}

/// `dst += src`, wrapping.
#[inline]
pub(crate) fn add_row(level: SimdLevel, dst: &mut Row, src: &Row) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a level other than Scalar is only ever chosen after `is_supported`
        // (see `Network::set_simd` and `SimdLevel::best`).
        SimdLevel::Avx2 => unsafe { x86::add_row_avx2(dst, src) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (AVX-512 F and BW were detected).
        SimdLevel::Avx512 | SimdLevel::Avx512Vnni => unsafe { x86::add_row_avx512(dst, src) },
        _ => add_row_portable(dst, src),
    }
}

/// `dst = prev + Σ added - Σ removed`, wrapping.
#[inline]
pub(crate) fn update(
    level: SimdLevel,
    dst: &mut Row,
    prev: &Row,
    added: &[&Row],
    removed: &[&Row],
) {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_row`, the level was checked against the CPU.
        SimdLevel::Avx2 => unsafe { x86::update_avx2(dst, prev, added, removed) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (AVX-512 F and BW were detected).
        SimdLevel::Avx512 | SimdLevel::Avx512Vnni => unsafe {
            x86::update_avx512(dst, prev, added, removed)
        },
        _ => update_portable(dst, prev, added, removed),
    }
}

/// The network's output for accumulators `us` (side to move) and `them`.
#[inline]
pub(crate) fn propagate(level: SimdLevel, net: &Network, us: &Row, them: &Row) -> i32 {
    match level {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as in `add_row`, the level was checked against the CPU.
        SimdLevel::Avx2 => unsafe { x86::propagate_avx2(net, us, them) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (AVX-512 F and BW were detected).
        SimdLevel::Avx512 => unsafe { x86::propagate_avx512(net, us, them) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above (AVX-512 F, BW and VNNI were detected).
        SimdLevel::Avx512Vnni => unsafe { x86::propagate_avx512_vnni(net, us, them) },
        _ => propagate_scalar(net, us, them),
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use crate::eval::nnue::network::Affine;
    use std::arch::x86_64::*;

    /// Layer-1 input, aligned like the weight rows.
    #[repr(C, align(64))]
    struct Input<const N: usize>([u8; N]);

    // The row kernels below are the portable loops, compiled with AVX2 enabled: 256
    // int16 lanes are 16 registers, and `wrapping_add` is `vpaddw`.

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn add_row_avx2(dst: &mut Row, src: &Row) {
        add_row_portable(dst, src)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_avx2(dst: &mut Row, prev: &Row, added: &[&Row], removed: &[&Row]) {
        update_portable(dst, prev, added, removed)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn add_row_avx512(dst: &mut Row, src: &Row) {
        add_row_portable(dst, src)
    }

    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn update_avx512(
        dst: &mut Row,
        prev: &Row,
        added: &[&Row],
        removed: &[&Row],
    ) {
        update_portable(dst, prev, added, removed)
    }

    /// Sum each of the four accumulators' lanes, add the biases `o..o + 4` and store
    /// the four results at `out[o..o + 4]`.
    ///
    /// # Safety
    /// AVX2 must be available (it is only inlined into functions enabling it), and
    /// `o + 4 <= OUT`.
    #[inline(always)]
    unsafe fn reduce4_store<const OUT: usize>(
        acc: [__m256i; 4],
        biases: &[i32; OUT],
        out: &mut [i32; OUT],
        o: usize,
    ) {
        let s = _mm256_hadd_epi32(
            _mm256_hadd_epi32(acc[0], acc[1]),
            _mm256_hadd_epi32(acc[2], acc[3]),
        );
        let sum = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256::<1>(s));
        // SAFETY: callers pass o + 4 <= OUT, so the bias load and the store stay inside.
        let b = _mm_loadu_si128(biases.as_ptr().add(o) as *const __m128i);
        _mm_storeu_si128(
            out.as_mut_ptr().add(o) as *mut __m128i,
            _mm_add_epi32(sum, b),
        );
    }

    /// `out = biases + weights * input` for `IN` a multiple of 32 and `OUT` of 4: four
    /// rows at a time, `maddubs` products widened by `madd` and summed across lanes.
    #[target_feature(enable = "avx2")]
    unsafe fn affine_avx2<const IN: usize, const OUT: usize>(
        layer: &Affine<IN, OUT>,
        input: &[u8; IN],
        out: &mut [i32; OUT],
    ) {
        debug_assert!(IN.is_multiple_of(32) && OUT.is_multiple_of(4));
        let ones = _mm256_set1_epi16(1);
        for o in (0..OUT).step_by(4) {
            let mut acc = [_mm256_setzero_si256(); 4];
            for k in (0..IN).step_by(32) {
                // SAFETY (loads): k + 32 <= IN, so every 32-byte load stays inside
                // `input` and inside row `o + r` (< OUT) of the weights.
                let x = _mm256_loadu_si256(input.as_ptr().add(k) as *const __m256i);
                for (r, a) in acc.iter_mut().enumerate() {
                    let w =
                        _mm256_loadu_si256(layer.weights[o + r].as_ptr().add(k) as *const __m256i);
                    let pairs = _mm256_maddubs_epi16(x, w);
                    *a = _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, ones));
                }
            }
            reduce4_store(acc, &layer.biases, out, o);
        }
    }

    /// Layer 1 with 512-bit registers: 64 inputs per step, four rows at a time. With
    /// `VNNI`, `vpdpbusd` adds four u8 x i8 products straight into each int32 lane (no
    /// int16 step, so nothing could saturate): the same integers as `maddubs` + `madd`.
    ///
    /// # Safety
    /// AVX-512 F + BW (and VNNI when `VNNI`) must be available: it is only inlined into
    /// the `propagate_avx512*` functions, which enable them after the CPU was checked.
    #[inline(always)]
    unsafe fn affine_avx512<const IN: usize, const OUT: usize, const VNNI: bool>(
        layer: &Affine<IN, OUT>,
        input: &[u8; IN],
        out: &mut [i32; OUT],
    ) {
        debug_assert!(IN.is_multiple_of(64) && OUT.is_multiple_of(4));
        let ones = _mm512_set1_epi16(1);
        for o in (0..OUT).step_by(4) {
            let mut acc = [_mm512_setzero_si512(); 4];
            for k in (0..IN).step_by(64) {
                // SAFETY (loads): k + 64 <= IN, inside `input` and inside each row.
                let x = _mm512_loadu_si512(input.as_ptr().add(k) as *const _);
                for (r, a) in acc.iter_mut().enumerate() {
                    let w = _mm512_loadu_si512(layer.weights[o + r].as_ptr().add(k) as *const _);
                    if VNNI {
                        *a = _mm512_dpbusd_epi32(*a, x, w);
                    } else {
                        let pairs = _mm512_maddubs_epi16(x, w);
                        *a = _mm512_add_epi32(*a, _mm512_madd_epi16(pairs, ones));
                    }
                }
            }
            // Fold each 512-bit sum to 256 bits, then reduce as the AVX2 kernel does.
            let fold = |v: __m512i| {
                _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v))
            };
            reduce4_store(acc.map(fold), &layer.biases, out, o);
        }
    }

    /// The forward pass with `layer1` for the first layer and the AVX2 kernel for the
    /// second (32 inputs fill only half a 512-bit register).
    ///
    /// # Safety
    /// AVX2 must be available: only inlined into the `propagate_*` functions below.
    #[inline(always)]
    unsafe fn propagate_with(
        net: &Network,
        us: &Row,
        them: &Row,
        layer1: impl FnOnce(&Affine<L1_IN, L1_OUT>, &[u8; L1_IN], &mut [i32; L1_OUT]),
    ) -> i32 {
        let mut x = Input([0u8; L1_IN]);
        transform(us, them, &mut x.0);
        let mut h1 = [0i32; L1_OUT];
        layer1(&net.l1, &x.0, &mut h1);
        let y1 = Input(h1.map(clipped_relu));
        let mut h2 = [0i32; L2_OUT];
        affine_avx2(&net.l2, &y1.0, &mut h2);
        let y2 = h2.map(clipped_relu);
        let mut out = [0i32; 1];
        affine_scalar(&net.output, &y2, &mut out);
        out[0]
    }

    // SAFETY (the three below): each enables what the kernels it inlines use; the caller
    // has checked the CPU (see `propagate`).

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn propagate_avx2(net: &Network, us: &Row, them: &Row) -> i32 {
        propagate_with(net, us, them, |l, x, o| affine_avx2(l, x, o))
    }

    #[target_feature(enable = "avx512f,avx512bw,avx2")]
    pub(super) unsafe fn propagate_avx512(net: &Network, us: &Row, them: &Row) -> i32 {
        propagate_with(net, us, them, |l, x, o| {
            affine_avx512::<L1_IN, L1_OUT, false>(l, x, o)
        })
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512vnni,avx2")]
    pub(super) unsafe fn propagate_avx512_vnni(net: &Network, us: &Row, them: &Row) -> i32 {
        propagate_with(net, us, them, |l, x, o| {
            affine_avx512::<L1_IN, L1_OUT, true>(l, x, o)
        })
    }
}
