//! The family's AVX2 unit kernel, where the CPU has it.
//!
//! A unit's scan and update ([`Kernel`]) are the family's inner loops: on Sudoku two thirds
//! of the instructions of a 17-clue puzzle's solve. AVX2 does four cells per instruction.
//! Which kernel runs is chosen once, when the family is made, by the CPU's features; the
//! whole run is then compiled for that kernel (so that AVX2 code is inlined into it rather
//! than called), and this one gives the masks of the plain one of [`kernel`](super::kernel)
//! bit for bit (tested below; CI also runs the family's suites with `BEZZEL_NO_AVX2=1`).
//!
//! Why `unsafe` here (with [`slots`](super::slots), the only modules of the crate that have
//! it): measured on Sudoku at `77a70db` against the plain kernel in the same binary
//! (`BEZZEL_NO_AVX2=1`), pinned, same nodes: 17-clue 23 % less time, top1465 14 %, the
//! forum's hardest 14 %; instructions 344 M -> 229 M on 2,000 17-clue puzzles
//! (`docs/performance-notes.md`, "The family's fifth pass").
//! The unsafe operations are of two kinds, each with its proof at the site: calling a
//! function compiled for CPU features, which [`Avx2`] proves present (it is made only by
//! [`Avx2::detect`]); and unaligned loads and stores of 32 bytes through references to
//! arrays of four `u64`, which are valid for exactly those bytes.

#![allow(unsafe_code)]
// Elsewhere the AVX2 methods only match on an empty type: their arguments and `Work`'s
// method are never used.
#![cfg_attr(not(target_arch = "x86_64"), allow(unused_variables, dead_code))]

use super::kernel::{Kernel, Work, update};
use crate::propagator::Context;
use crate::store::Conflict;
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// Proof that this CPU runs AVX2 (and BMI1, BMI2, POPCNT, LZCNT, which every AVX2 CPU has
/// but are checked anyway): made only where they were detected. Elsewhere than on x86-64 it
/// holds a value of an empty type, so none exists and its methods are never reached.
#[derive(Debug, Clone, Copy)]
pub(super) struct Avx2(Private);

#[cfg(target_arch = "x86_64")]
type Private = ();
#[cfg(not(target_arch = "x86_64"))]
type Private = std::convert::Infallible;

impl Avx2 {
    /// The proof, if this CPU has the features (never on other architectures) and the
    /// environment variable `BEZZEL_NO_AVX2` is not set, to any value (it is there to test
    /// and measure the plain kernel on machines that have AVX2).
    pub(super) fn detect() -> Option<Avx2> {
        #[cfg(target_arch = "x86_64")]
        if std::env::var_os("BEZZEL_NO_AVX2").is_none()
            && std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("popcnt")
            && std::is_x86_feature_detected!("lzcnt")
        {
            return Some(Avx2(()));
        }
        None
    }

    /// Runs `work` with this kernel, compiled with the features on: the run (always
    /// inlined) then uses them throughout, and the kernels inline into it.
    #[inline]
    pub(super) fn run<W: Work>(self, work: &mut W, ctx: &mut Context<'_>) -> Result<(), Conflict> {
        // SAFETY: an `Avx2` exists only where the CPU was seen to have the features.
        #[cfg(target_arch = "x86_64")]
        return unsafe { run_with_features(self, work, ctx) };
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn run_with_features<W: Work>(
    avx2: Avx2,
    work: &mut W,
    ctx: &mut Context<'_>,
) -> Result<(), Conflict> {
    work.run_with(avx2, ctx)
}

impl Kernel for Avx2 {
    #[inline(always)]
    fn scan9(self, masks: &[u64; 9]) -> (u64, u64, u64, u64) {
        // SAFETY: as in `run`.
        #[cfg(target_arch = "x86_64")]
        return unsafe { scan9(masks) };
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }

    #[inline(always)]
    fn update9(self, masks: &mut [u64; 9], fixed: u64, hidden: u64) -> (u64, bool) {
        // SAFETY: as in `run`.
        #[cfg(target_arch = "x86_64")]
        return unsafe { update9(masks, fixed, hidden) };
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }

    #[inline(always)]
    fn open9(self, masks: &[u64; 9]) -> u64 {
        // SAFETY: as in `run`.
        #[cfg(target_arch = "x86_64")]
        return unsafe { open9(masks) };
        #[cfg(not(target_arch = "x86_64"))]
        match self.0 {}
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn load4(m: &[u64; 4]) -> __m256i {
    // SAFETY: `m` is 32 readable bytes, and the load takes any alignment.
    unsafe { _mm256_loadu_si256(m.as_ptr().cast()) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn store4(m: &mut [u64; 4], v: __m256i) {
    // SAFETY: `m` is 32 writable bytes, and the store takes any alignment.
    unsafe { _mm256_storeu_si256(m.as_mut_ptr().cast(), v) }
}

/// Lane 0.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn low(v: __m256i) -> u64 {
    _mm_cvtsi128_si64(_mm256_castsi256_si128(v)) as u64
}

/// Per lane, `v` where it has one bit, else 0.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn single(v: __m256i) -> __m256i {
    let ones = _mm256_set1_epi64x(-1);
    let rest = _mm256_and_si256(v, _mm256_add_epi64(v, ones));
    _mm256_cmpeq_epi64(rest, _mm256_setzero_si256())
}

/// Folds the lanes of two (once, twice)-like pairs at once: `(o, t)` and `(f, c)` each to
/// `o` or-ed over the lanes and `t` the bits in two lanes or in a lane's `t`. The two pairs
/// share registers (the first in lanes 0 and 1, the second in 2 and 3), which halves the
/// shuffles of folding them one after the other.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn fold_pairs(o: __m256i, t: __m256i, f: __m256i, c: __m256i) -> (u64, u64, u64, u64) {
    // Lanes [o0, o1, f0, f1] against [o2, o3, f2, f3], and likewise for `t` and `c`.
    let (x, y) = (
        _mm256_permute2x128_si256::<0x20>(o, f),
        _mm256_permute2x128_si256::<0x31>(o, f),
    );
    let (tx, ty) = (
        _mm256_permute2x128_si256::<0x20>(t, c),
        _mm256_permute2x128_si256::<0x31>(t, c),
    );
    let t = _mm256_or_si256(_mm256_or_si256(tx, ty), _mm256_and_si256(x, y));
    let o = _mm256_or_si256(x, y);
    // Then lane 0 against lane 1, and lane 2 against lane 3.
    let (so, st) = (
        _mm256_shuffle_epi32::<0b01_00_11_10>(o),
        _mm256_shuffle_epi32::<0b01_00_11_10>(t),
    );
    let t = _mm256_or_si256(_mm256_or_si256(t, st), _mm256_and_si256(o, so));
    let o = _mm256_or_si256(o, so);
    let (high_o, high_t) = (
        _mm256_extracti128_si256::<1>(o),
        _mm256_extracti128_si256::<1>(t),
    );
    (
        low(o),
        low(t),
        _mm_cvtsi128_si64(high_o) as u64,
        _mm_cvtsi128_si64(high_t) as u64,
    )
}

/// [`Kernel::scan9`] in three registers (the last with one cell and three empty lanes, which
/// hold no value and so count for nothing).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn scan9(m: &[u64; 9]) -> (u64, u64, u64, u64) {
    let (a, rest) = m.split_first_chunk::<4>().expect("9 = 4 + 5");
    let (b, last) = rest.split_first_chunk::<4>().expect("5 = 4 + 1");
    let (v0, v1, v2) = (
        load4(a),
        load4(b),
        _mm256_set_epi64x(0, 0, 0, last[0] as i64),
    );
    let (f0, f1, f2) = (
        _mm256_and_si256(v0, single(v0)),
        _mm256_and_si256(v1, single(v1)),
        _mm256_and_si256(v2, single(v2)),
    );
    let o01 = _mm256_or_si256(v0, v1);
    let t = _mm256_or_si256(_mm256_and_si256(v0, v1), _mm256_and_si256(o01, v2));
    let o = _mm256_or_si256(o01, v2);
    let f01 = _mm256_or_si256(f0, f1);
    let c = _mm256_or_si256(_mm256_and_si256(f0, f1), _mm256_and_si256(f01, f2));
    let f = _mm256_or_si256(f01, f2);
    fold_pairs(o, t, f, c)
}

/// [`Kernel::update9`]: the first eight cells in two registers, the ninth by the plain
/// `update`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn update9(m: &mut [u64; 9], fixed: u64, hidden: u64) -> (u64, bool) {
    let ones = _mm256_set1_epi64x(-1);
    let zero = _mm256_setzero_si256();
    let (fixed_v, hidden_v) = (
        _mm256_set1_epi64x(fixed as i64),
        _mm256_set1_epi64x(hidden as i64),
    );
    let mut bad = zero;
    let mut step = |old: __m256i| -> (__m256i, u32) {
        // As the plain `update`, four cells at a time.
        let new = _mm256_blendv_epi8(_mm256_andnot_si256(fixed_v, old), old, single(old));
        let h = _mm256_and_si256(new, hidden_v);
        bad = _mm256_or_si256(bad, _mm256_and_si256(h, _mm256_add_epi64(h, ones)));
        let new = _mm256_blendv_epi8(h, new, _mm256_cmpeq_epi64(h, zero));
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi64(new, zero));
        let same = _mm256_cmpeq_epi64(new, old);
        let changed = !(_mm256_movemask_pd(_mm256_castsi256_pd(same)) as u32) & 0xf;
        (new, changed)
    };
    let (a, rest) = m.split_first_chunk_mut::<4>().expect("9 = 4 + 5");
    let (b, last) = rest.split_first_chunk_mut::<4>().expect("5 = 4 + 1");
    let (n0, c0) = step(load4(a));
    store4(a, n0);
    let (n1, c1) = step(load4(b));
    store4(b, n1);
    // The ninth cell as the plain kernel does it: in a register of its own it cost more.
    let (c8, bad8) = update(&mut last[..], fixed, hidden);
    let changed = u64::from(c0 | (c1 << 4)) | (c8 << 8);
    (changed, bad8 || _mm256_testz_si256(bad, bad) == 0)
}

/// The first eight cells of a 9-cell unit in two registers, and the ninth.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn split9(m: &[u64; 9]) -> (__m256i, __m256i, u64) {
    let (a, rest) = m.split_first_chunk::<4>().expect("9 = 4 + 5");
    let (b, last) = rest.split_first_chunk::<4>().expect("5 = 4 + 1");
    (load4(a), load4(b), last[0])
}

/// [`Kernel::open9`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn open9(m: &[u64; 9]) -> u64 {
    let (v0, v1, last) = split9(m);
    let fixed = |v: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(single(v))) as u64;
    let closed = fixed(v0) | (fixed(v1) << 4);
    (!closed & 0xff) | (u64::from(last & last.wrapping_sub(1) != 0) << 8)
}

#[cfg(test)]
mod tests {
    use super::Avx2;
    use crate::propagators::all_different_domain::kernel::{Kernel, Scalar};
    use proptest::prelude::*;

    /// A cell's mask: mostly one to three of nine values (fixed and nearly fixed cells are
    /// where the rules act), sometimes any set of 64 bits, sometimes none.
    fn mask() -> impl Strategy<Value = u64> {
        prop_oneof![
            4 => (0u32..9).prop_map(|v| 1u64 << v),
            4 => (0u32..9, 0u32..9).prop_map(|(a, b)| (1u64 << a) | (1 << b)),
            2 => (0u32..9, 0u32..9, 0u32..9).prop_map(|(a, b, c)| (1u64 << a) | (1 << b) | (1 << c)),
            2 => 1u64..512,
            1 => any::<u64>(),
            1 => Just(0u64),
        ]
    }

    fn unit() -> impl Strategy<Value = [u64; 9]> {
        proptest::array::uniform9(mask())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Every AVX2 kernel gives what the plain one gives, bit for bit, where the CPU has
        /// AVX2 (elsewhere there is nothing to compare).
        #[test]
        fn avx2_kernels_equal_the_plain_ones(
            masks in unit(),
            fixed in prop_oneof![1u64..512, any::<u64>()],
            hidden in prop_oneof![Just(0u64), 1u64..512, any::<u64>()],
        ) {
            let Some(avx2) = Avx2::detect() else {
                return Ok(());
            };
            prop_assert_eq!(avx2.scan9(&masks), Scalar.scan9(&masks));
            prop_assert_eq!(avx2.open9(&masks), Scalar.open9(&masks));
            let (mut wide, mut plain) = (masks, masks);
            let results = (avx2.update9(&mut wide, fixed, hidden), Scalar.update9(&mut plain, fixed, hidden));
            prop_assert_eq!(results.0, results.1);
            prop_assert_eq!(wide, plain);
        }
    }
}
