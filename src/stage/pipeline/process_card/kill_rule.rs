//! The card's select of the rule a kill is armed under: its options' values and words.
//! The rule itself is the model's (`KillRule`), kept for the card by `Ctl` (#42).

use outbox_model::scenario::KillRule;

/// The rules a learner can choose, in the select's order.
pub const CHOICES: [KillRule; 3] = [KillRule::Next, KillRule::Always, KillRule::CanonMod];

/// The option's value (the tests' and the select's name of a rule).
pub fn value(r: KillRule) -> &'static str {
    match r {
        KillRule::Next => "next",
        KillRule::Always => "always",
        KillRule::CanonMod => "mod",
        KillRule::Other => "other",
    }
}

/// The rule an option's value names.
pub fn parse(v: &str) -> KillRule {
    match v {
        "always" => KillRule::Always,
        "mod" => KillRule::CanonMod,
        "other" => KillRule::Other,
        _ => KillRule::Next,
    }
}

/// The rule in words.
pub use crate::i18n::words::kill_rule_key as key;
