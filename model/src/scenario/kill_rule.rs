//! The rule a ☠ is armed under, as a process card offers it: the next time, every time,
//! or the lesson's canon (every request with `i % 10 == 3`). The model owns it so the
//! card's choice and the kills already armed are one thing (#42): the card shows the rule
//! of its armed kills as they are, and a new choice re-arms them.

use crate::action::When;
use serde::Serialize;

/// The canon's kill rule: every task whose index `i % 10 == 3`.
pub const CANON_KILL: When = When::TaskIndexMod {
    modulus: 10,
    remainder: 3,
};

/// The rule a kill is armed under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KillRule {
    /// The next time the step is reached, once.
    Next,
    /// Every time the step is reached.
    Always,
    /// Every request whose loop index `i % 10 == 3` (the lesson's §2 canon).
    CanonMod,
    /// Anything else a scenario may arm (the n-th time, one event, a limited count), or
    /// several rules at once.
    Other,
}

impl KillRule {
    /// The `ArmKill` arguments of the rule (`Other` has none of its own: the next time).
    pub fn when(self) -> (When, Option<u32>) {
        match self {
            KillRule::Next | KillRule::Other => (When::Nth { n: 1 }, Some(1)),
            KillRule::Always => (When::Always, None),
            KillRule::CanonMod => (CANON_KILL, None),
        }
    }

    /// The rule an armed kill follows. A first-time rule fires once whatever its count.
    pub fn of(when: &When, times: Option<u32>) -> KillRule {
        match (when, times) {
            (When::Nth { n: 1 }, _) => KillRule::Next,
            (When::Always, None) => KillRule::Always,
            (w, None) if *w == CANON_KILL => KillRule::CanonMod,
            _ => KillRule::Other,
        }
    }

    /// One rule for several armed kills: theirs when they agree, `Other` when not, None
    /// when there are none.
    pub fn common(rules: impl IntoIterator<Item = KillRule>) -> Option<KillRule> {
        rules.into_iter().fold(None, |acc, r| match acc {
            None => Some(r),
            Some(a) if a == r => Some(a),
            Some(_) => Some(KillRule::Other),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_reads_back_as_itself() {
        for r in [KillRule::Next, KillRule::Always, KillRule::CanonMod] {
            let (when, times) = r.when();
            assert_eq!(KillRule::of(&when, times), r);
        }
        assert_eq!(KillRule::of(&When::Nth { n: 2 }, Some(1)), KillRule::Other);
        assert_eq!(KillRule::of(&When::Always, Some(3)), KillRule::Other);
    }

    #[test]
    fn mixed_rules_are_other() {
        assert_eq!(KillRule::common([]), None);
        assert_eq!(
            KillRule::common([KillRule::CanonMod, KillRule::CanonMod]),
            Some(KillRule::CanonMod)
        );
        assert_eq!(
            KillRule::common([KillRule::Next, KillRule::Always]),
            Some(KillRule::Other)
        );
    }
}
