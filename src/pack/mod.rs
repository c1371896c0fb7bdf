//! Greedy budget packing (the reference's `pack`).
//!
//! Walk the items in rank order and place each whose cost still fits in the budget. With
//! [`Overflow::Stop`] the first item that does not fit ends the walk, so nothing ranked below
//! it is placed (the kept indices are a prefix of the input); with [`Overflow::Skip`] the walk
//! passes over it and tries the smaller items below. Items are never cut. O(n) time.
//!
//! Counts are u128 and sums use checked addition: a sum that would overflow cannot fit, so
//! nothing wraps and nothing panics. The binding maps Python ints beyond u128 to `u128::MAX`,
//! which is exact for every budget below `u128::MAX` (such a cost can never fit); it handles
//! larger budgets itself with Python ints.

#[cfg(feature = "python")]
pub mod py;

/// What to do at the first item that does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Stop: drop that item and everything ranked below it.
    Stop,
    /// Skip that item and keep trying the ones below it.
    Skip,
}

impl Overflow {
    /// The legal option strings, in the order error messages list them.
    pub const ALL: [(&'static str, Overflow); 2] =
        [("stop", Overflow::Stop), ("skip", Overflow::Skip)];
}

/// The indices placed (ascending) and the sum of their costs (never above `budget`).
pub fn pack(costs: &[u128], budget: u128, overflow: Overflow) -> (Vec<usize>, u128) {
    let mut kept = Vec::new();
    let mut used: u128 = 0;
    for (i, &cost) in costs.iter().enumerate() {
        match used.checked_add(cost) {
            Some(total) if total <= budget => {
                kept.push(i);
                used = total;
            }
            _ if overflow == Overflow::Stop => break,
            _ => {}
        }
    }
    (kept, used)
}

#[cfg(test)]
// Tests may panic on bad fixtures, and their generators cast freely.
#[allow(clippy::unwrap_used, clippy::cast_sign_loss)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn reference_doctests() {
        assert_eq!(
            pack(&[40, 30, 50, 10], 80, Overflow::Stop),
            (vec![0, 1], 70)
        );
        assert_eq!(
            pack(&[40, 30, 50, 10], 80, Overflow::Skip),
            (vec![0, 1, 3], 80)
        );
        assert_eq!(pack(&[], 0, Overflow::Stop), (vec![], 0));
        assert_eq!(pack(&[0, 0, 1], 0, Overflow::Skip), (vec![0, 1], 0));
    }

    #[test]
    fn huge_costs_do_not_wrap() {
        let max = u128::MAX;
        assert_eq!(pack(&[1, max, 2], max - 1, Overflow::Skip), (vec![0, 2], 3));
        assert_eq!(
            pack(&[max - 1, 5], max - 1, Overflow::Skip),
            (vec![0], max - 1)
        );
        assert_eq!(
            pack(
                &[u128::from(u64::MAX); 3],
                u128::from(u64::MAX) * 2,
                Overflow::Stop
            )
            .1,
            u128::from(u64::MAX) * 2
        );
    }

    proptest! {
        #[test]
        fn never_panics_and_respects_the_budget(
            costs in proptest::collection::vec(any::<u128>(), 0..40),
            small in proptest::collection::vec(0u128..100, 0..40),
            budget in any::<u128>(),
            small_budget in 0u128..500,
        ) {
            for (costs, budget) in [(&costs, budget), (&small, small_budget), (&small, budget)] {
                for overflow in [Overflow::Stop, Overflow::Skip] {
                    let (kept, used) = pack(costs, budget, overflow);
                    prop_assert!(used <= budget);
                    prop_assert_eq!(used, kept.iter().map(|&i| costs[i]).sum::<u128>());
                    prop_assert!(kept.windows(2).all(|w| w[0] < w[1]));
                    if overflow == Overflow::Stop {
                        prop_assert!(kept.iter().enumerate().all(|(j, &i)| i == j));
                    }
                }
            }
        }
    }
}
