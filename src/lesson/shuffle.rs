//! The order a question's options are shown in, drawn per visit (#24, #41): the quiz, the
//! "try it yourself" question and every predict-then-reveal. With a fixed order the right
//! answer had a place (the middle, the longest) and could be found without knowing it.

use crate::browser::slices::now_ms;
use crate::browser::url::url_param;

/// Where the why-question's order is drawn in the visit's sequence (the quiz's questions
/// are 0–3).
pub const WHY_ORDER: usize = 16;
/// Where a predict-then-reveal's order is drawn: this plus the step's index.
pub const PREDICT_ORDER: usize = 32;

/// The order question `n`'s three options are shown in, for the visit's `seed`. Test ids
/// keep each option's own number, so the order changes nothing else.
pub fn option_order(seed: u64, n: usize) -> [usize; 3] {
    let mut rng =
        outbox_model::rng::Rng::new(seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut order = [0, 1, 2];
    // Fisher-Yates with the model's own seeded generator: a link's seed gives its order.
    for i in (1..3).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    order
}

/// The visit's seed: `?quiz=` when the address has one (a shared link shows the same
/// order), else one drawn from the clock for this visit.
pub fn visit_seed() -> u64 {
    url_param("quiz")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| (now_ms() * 1000.0) as u64 % 1_000_000)
}

#[cfg(test)]
mod tests {
    use super::option_order;

    #[test]
    fn every_order_is_a_permutation_and_seeds_vary_it() {
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            for n in 0..4 {
                let mut o = option_order(seed, n);
                seen.insert(o);
                o.sort_unstable();
                assert_eq!(o, [0, 1, 2]);
            }
        }
        assert_eq!(seen.len(), 6, "every order of three turns up");
        assert_eq!(
            option_order(42, 1),
            option_order(42, 1),
            "a seed gives its order"
        );
    }
}
