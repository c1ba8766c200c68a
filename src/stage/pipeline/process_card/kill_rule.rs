//! The rule a kill is armed under (the card's select): the next time, every time, or
//! the lesson's canon (every tenth request).

use outbox_model::scenario::When;

/// The rule a kill is armed under (the card's select).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    Next,
    Always,
    CanonMod,
}

impl Rule {
    pub fn when(self) -> (When, Option<u32>) {
        match self {
            Rule::Next => (When::Nth { n: 1 }, Some(1)),
            Rule::Always => (When::Always, None),
            // The lesson's canon: every request whose loop index i has i % 10 == 3.
            Rule::CanonMod => (
                When::TaskIndexMod {
                    modulus: 10,
                    remainder: 3,
                },
                None,
            ),
        }
    }
}
