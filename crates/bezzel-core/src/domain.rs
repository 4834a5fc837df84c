//! Domains: how a user states them, and how the engine stores them.
//!
//! A user gives a domain as a range (`1..=9`, `0..8`) or as a set of values (`&[1, 3, 5]`),
//! through the [`IntoDomain`] trait. The engine keeps every domain as a bitset relative to the
//! smallest initial value, so that value `v` is bit `v - base`. Domains of up to 64 values fit one
//! machine word, which is the hot path; wider ones span several words, scanned a word at a time.
//! `min`, `max` and `size` are stored beside the bits so that reading them is O(1).

use crate::error::ModelError;

/// Smallest value a domain may contain.
pub const MIN_VALUE: i32 = -(1 << 30);
/// Largest value a domain may contain.
pub const MAX_VALUE: i32 = 1 << 30;
/// Most values between a domain's smallest and largest value (bitset size per variable).
pub const MAX_DOMAIN_WIDTH: u64 = 1 << 24;

/// A validated initial domain: the values, sorted and without duplicates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainSpec {
    values: Vec<i32>,
}

impl DomainSpec {
    /// Builds a domain from the inclusive range `lo..=hi`.
    pub fn range(lo: i32, hi: i32) -> Result<DomainSpec, ModelError> {
        DomainSpec::wide_range(lo.into(), hi.into())
    }

    /// [`range`](DomainSpec::range) for ends of any integer type, widened without loss so
    /// that an out-of-range value is refused rather than wrapped.
    fn wide_range(lo: i128, hi: i128) -> Result<DomainSpec, ModelError> {
        if lo > hi {
            return Err(ModelError::InvalidRange { lo, hi });
        }
        let lo = check_value(lo)?;
        let hi = check_value(hi)?;
        check_width(lo, hi)?;
        Ok(DomainSpec {
            values: (lo..=hi).collect(),
        })
    }

    /// Builds a domain from a list of values (duplicates are ignored, order does not matter).
    pub fn values<I: IntoIterator<Item = i32>>(values: I) -> Result<DomainSpec, ModelError> {
        DomainSpec::wide_values(values.into_iter().map(i128::from))
    }

    fn wide_values<I: IntoIterator<Item = i128>>(values: I) -> Result<DomainSpec, ModelError> {
        let mut vals = Vec::new();
        for v in values {
            vals.push(check_value(v)?);
        }
        vals.sort_unstable();
        vals.dedup();
        match (vals.first(), vals.last()) {
            (Some(&lo), Some(&hi)) => check_width(lo, hi)?,
            _ => return Err(ModelError::EmptyDomain { name: None }),
        }
        Ok(DomainSpec { values: vals })
    }

    /// The smallest value.
    pub fn min(&self) -> i32 {
        self.values[0]
    }

    /// The largest value.
    pub fn max(&self) -> i32 {
        self.values[self.values.len() - 1]
    }

    /// The values in increasing order.
    pub fn as_slice(&self) -> &[i32] {
        &self.values
    }
}

/// The value as an `i32` if it lies in `MIN_VALUE..=MAX_VALUE`.
fn check_value(v: i128) -> Result<i32, ModelError> {
    if (i128::from(MIN_VALUE)..=i128::from(MAX_VALUE)).contains(&v) {
        Ok(v as i32)
    } else {
        Err(ModelError::ValueOutOfRange { value: v })
    }
}

fn check_width(lo: i32, hi: i32) -> Result<(), ModelError> {
    let width = (i64::from(hi) - i64::from(lo) + 1) as u64;
    if width > MAX_DOMAIN_WIDTH {
        Err(ModelError::DomainTooWide {
            width,
            max: MAX_DOMAIN_WIDTH,
        })
    } else {
        Ok(())
    }
}

/// Anything that can be turned into an initial domain: ranges of integers, slices, vectors and
/// arrays of values, or a ready [`DomainSpec`].
pub trait IntoDomain {
    /// Validates and converts.
    fn into_domain(self) -> Result<DomainSpec, ModelError>;
}

impl IntoDomain for DomainSpec {
    fn into_domain(self) -> Result<DomainSpec, ModelError> {
        Ok(self)
    }
}

impl IntoDomain for &DomainSpec {
    fn into_domain(self) -> Result<DomainSpec, ModelError> {
        Ok(self.clone())
    }
}

macro_rules! range_domains {
    ($($t:ty),*) => {$(
        impl IntoDomain for std::ops::RangeInclusive<$t> {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                DomainSpec::wide_range(*self.start() as i128, *self.end() as i128)
            }
        }
        impl IntoDomain for std::ops::Range<$t> {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                let (lo, hi) = (self.start as i128, self.end as i128 - 1);
                if lo > hi {
                    return Err(ModelError::EmptyDomain { name: None });
                }
                DomainSpec::wide_range(lo, hi)
            }
        }
        impl IntoDomain for &[$t] {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                DomainSpec::wide_values(self.iter().map(|&v| v as i128))
            }
        }
        impl IntoDomain for Vec<$t> {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                self.as_slice().into_domain()
            }
        }
        impl<const N: usize> IntoDomain for [$t; N] {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                self.as_slice().into_domain()
            }
        }
        impl<const N: usize> IntoDomain for &[$t; N] {
            fn into_domain(self) -> Result<DomainSpec, ModelError> {
                self.as_slice().into_domain()
            }
        }
    )*};
}
// `as i128` widens every one of these types without loss.
range_domains!(i32, i64, u32, u64, usize);

/// Position of the lowest set bit at or after `from` within `bits[..end]`.
#[inline]
pub(crate) fn next_one(words: &[u64], from: usize, end: usize) -> Option<usize> {
    if from >= end {
        return None;
    }
    let mut k = from / 64;
    let mut w = *words.get(k)? & (u64::MAX << (from % 64));
    loop {
        if w != 0 {
            let i = k * 64 + w.trailing_zeros() as usize;
            return (i < end).then_some(i);
        }
        k += 1;
        if k * 64 >= end {
            return None;
        }
        w = *words.get(k)?;
    }
}

/// Position of the highest set bit at or before `upto` (inclusive).
#[inline]
pub(crate) fn prev_one(words: &[u64], upto: usize) -> Option<usize> {
    let mut k = upto / 64;
    let mut w = words[k] & (u64::MAX >> (63 - upto % 64));
    loop {
        if w != 0 {
            return Some(k * 64 + 63 - w.leading_zeros() as usize);
        }
        if k == 0 {
            return None;
        }
        k -= 1;
        w = words[k];
    }
}

/// Number of set bits in `lo..hi`.
#[inline]
pub(crate) fn count_ones(words: &[u64], lo: usize, hi: usize) -> u32 {
    if lo >= hi {
        return 0;
    }
    let (first, last) = (lo / 64, (hi - 1) / 64);
    let low_mask = u64::MAX << (lo % 64);
    let high_mask = u64::MAX >> (63 - (hi - 1) % 64);
    // Bounds mostly move within one word.
    if first == last {
        return (words[first] & low_mask & high_mask).count_ones();
    }
    let inner: u32 = words[first + 1..last].iter().map(|w| w.count_ones()).sum();
    (words[first] & low_mask).count_ones() + inner + (words[last] & high_mask).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_value_lists_validate() {
        assert_eq!((1..=3).into_domain().unwrap().as_slice(), &[1, 2, 3]);
        assert_eq!((-2..1).into_domain().unwrap().as_slice(), &[-2, -1, 0]);
        assert_eq!(
            vec![5, -1, 5, 3].into_domain().unwrap().as_slice(),
            &[-1, 3, 5]
        );
        assert_eq!(
            std::ops::RangeInclusive::new(5, 1).into_domain(),
            Err(ModelError::InvalidRange { lo: 5, hi: 1 })
        );
        assert!(matches!(
            (3..3).into_domain(),
            Err(ModelError::EmptyDomain { .. })
        ));
        assert!(matches!(
            Vec::<i32>::new().into_domain(),
            Err(ModelError::EmptyDomain { .. })
        ));
        assert!(matches!(
            (0..=i64::from(MAX_VALUE) + 1).into_domain(),
            Err(ModelError::ValueOutOfRange { .. })
        ));
        assert!(matches!(
            [0, MAX_VALUE].into_domain(),
            Err(ModelError::DomainTooWide { .. })
        ));
    }

    #[test]
    fn bit_scans_agree_with_a_naive_scan() {
        let words = [0b1010_0000u64, 0, 1 << 63, 0b1];
        let set: Vec<usize> = (0..256)
            .filter(|&i| words[i / 64] >> (i % 64) & 1 == 1)
            .collect();
        for from in 0..256 {
            let expect = set.iter().copied().find(|&i| i >= from);
            assert_eq!(next_one(&words, from, 256), expect, "next from {from}");
            let expect = set.iter().copied().rev().find(|&i| i <= from);
            assert_eq!(prev_one(&words, from), expect, "prev upto {from}");
        }
        assert_eq!(count_ones(&words, 0, 256), 4);
        assert_eq!(count_ones(&words, 6, 192), 2);
        assert_eq!(count_ones(&words, 6, 191), 1);
        let one = [0b1001_0110u64];
        assert_eq!(next_one(&one, 3, 64), Some(4));
        assert_eq!(prev_one(&one, 3), Some(2));
        assert_eq!(prev_one(&one, 0), None);
        assert_eq!(next_one(&one, 8, 64), None);
    }
}
