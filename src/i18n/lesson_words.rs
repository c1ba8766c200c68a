//! The lesson's words: each guided step's texts and the quiz, as keys of the i18n layer.
//! The step ids come from the model ([`outbox_model::lesson::STEPS`]); a test checks
//! that every id has its texts.

use crate::i18n::Key;

/// The texts of one guided step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepWords {
    pub title: Key,
    pub body: Key,
    pub goal: Key,
    pub hint: Key,
    pub notes: Key,
    /// What a run that reached the goal did, in the step's words (#42).
    pub happened: Key,
}

/// The texts of the step with this id. A table (one entry a step): longer than 70 lines
/// on purpose.
#[allow(clippy::too_many_lines)]
pub fn step_words(id: &str) -> Option<StepWords> {
    Some(match id {
        "lose-dual" => StepWords {
            title: Key::LLoseDualTitle,
            body: Key::LLoseDualBody,
            goal: Key::LLoseDualGoal,
            hint: Key::LLoseDualHint,
            notes: Key::LLoseDualNotes,
            happened: Key::LLoseDualHappened,
        },
        "queue-first" => StepWords {
            title: Key::LQueueFirstTitle,
            body: Key::LQueueFirstBody,
            goal: Key::LQueueFirstGoal,
            hint: Key::LQueueFirstHint,
            notes: Key::LQueueFirstNotes,
            happened: Key::LQueueFirstHappened,
        },
        "canon-dual" => StepWords {
            title: Key::LCanonDualTitle,
            body: Key::LCanonDualBody,
            goal: Key::LCanonDualGoal,
            hint: Key::LCanonDualHint,
            notes: Key::LCanonDualNotes,
            happened: Key::LCanonDualHappened,
        },
        "canon-outbox" => StepWords {
            title: Key::LCanonOutboxTitle,
            body: Key::LCanonOutboxBody,
            goal: Key::LCanonOutboxGoal,
            hint: Key::LCanonOutboxHint,
            notes: Key::LCanonOutboxNotes,
            happened: Key::LCanonOutboxHappened,
        },
        "outbox-try" => StepWords {
            title: Key::LOutboxTryTitle,
            body: Key::LOutboxTryBody,
            goal: Key::LOutboxTryGoal,
            hint: Key::LOutboxTryHint,
            notes: Key::LOutboxTryNotes,
            happened: Key::LOutboxTryHappened,
        },
        "pool" => StepWords {
            title: Key::LPoolTitle,
            body: Key::LPoolBody,
            goal: Key::LPoolGoal,
            hint: Key::LPoolHint,
            notes: Key::LPoolNotes,
            happened: Key::LPoolHappened,
        },
        "pool-load" => StepWords {
            title: Key::LPoolLoadTitle,
            body: Key::LPoolLoadBody,
            goal: Key::LPoolLoadGoal,
            hint: Key::LPoolLoadHint,
            notes: Key::LPoolLoadNotes,
            happened: Key::LPoolLoadHappened,
        },
        "rollback" => StepWords {
            title: Key::LRollbackTitle,
            body: Key::LRollbackBody,
            goal: Key::LRollbackGoal,
            hint: Key::LRollbackHint,
            notes: Key::LRollbackNotes,
            happened: Key::LRollbackHappened,
        },
        "app-role" => StepWords {
            title: Key::LAppRoleTitle,
            body: Key::LAppRoleBody,
            goal: Key::LAppRoleGoal,
            hint: Key::LAppRoleHint,
            notes: Key::LAppRoleNotes,
            happened: Key::LAppRoleHappened,
        },
        "relay-twice" => StepWords {
            title: Key::LRelayTwiceTitle,
            body: Key::LRelayTwiceBody,
            goal: Key::LRelayTwiceGoal,
            hint: Key::LRelayTwiceHint,
            notes: Key::LRelayTwiceNotes,
            happened: Key::LRelayTwiceHappened,
        },
        "two-relays" => StepWords {
            title: Key::LTwoRelaysTitle,
            body: Key::LTwoRelaysBody,
            goal: Key::LTwoRelaysGoal,
            hint: Key::LTwoRelaysHint,
            notes: Key::LTwoRelaysNotes,
            happened: Key::LTwoRelaysHappened,
        },
        "no-skip-locked" => StepWords {
            title: Key::LNoSkipTitle,
            body: Key::LNoSkipBody,
            goal: Key::LNoSkipGoal,
            hint: Key::LNoSkipHint,
            notes: Key::LNoSkipNotes,
            happened: Key::LNoSkipHappened,
        },
        "why-inside" => StepWords {
            title: Key::LWhyInsideTitle,
            body: Key::LWhyInsideBody,
            goal: Key::LWhyInsideGoal,
            hint: Key::LWhyInsideHint,
            notes: Key::LWhyInsideNotes,
            happened: Key::LWhyInsideHappened,
        },
        "cdc" => StepWords {
            title: Key::LCdcTitle,
            body: Key::LCdcBody,
            goal: Key::LCdcGoal,
            hint: Key::LCdcHint,
            notes: Key::LCdcNotes,
            happened: Key::LCdcHappened,
        },
        "cleanup" => StepWords {
            title: Key::LCleanupTitle,
            body: Key::LCleanupBody,
            goal: Key::LCleanupGoal,
            hint: Key::LCleanupHint,
            notes: Key::LCleanupNotes,
            happened: Key::LCleanupHappened,
        },
        "at-most-once" => StepWords {
            title: Key::LAtMostTitle,
            body: Key::LAtMostBody,
            goal: Key::LAtMostGoal,
            hint: Key::LAtMostHint,
            notes: Key::LAtMostNotes,
            happened: Key::LAtMostHappened,
        },
        "at-least-once" => StepWords {
            title: Key::LAtLeastTitle,
            body: Key::LAtLeastBody,
            goal: Key::LAtLeastGoal,
            hint: Key::LAtLeastHint,
            notes: Key::LAtLeastNotes,
            happened: Key::LAtLeastHappened,
        },
        "effectively-once" => StepWords {
            title: Key::LEffectivelyTitle,
            body: Key::LEffectivelyBody,
            goal: Key::LEffectivelyGoal,
            hint: Key::LEffectivelyHint,
            notes: Key::LEffectivelyNotes,
            happened: Key::LEffectivelyHappened,
        },
        "inbox-three" => StepWords {
            title: Key::LInboxThreeTitle,
            body: Key::LInboxThreeBody,
            goal: Key::LInboxThreeGoal,
            hint: Key::LInboxThreeHint,
            notes: Key::LInboxThreeNotes,
            happened: Key::LInboxThreeHappened,
        },
        "inbox-own-tx" => StepWords {
            title: Key::LInboxOwnTxTitle,
            body: Key::LInboxOwnTxBody,
            goal: Key::LInboxOwnTxGoal,
            hint: Key::LInboxOwnTxHint,
            notes: Key::LInboxOwnTxNotes,
            happened: Key::LInboxOwnTxHappened,
        },
        "summary" => StepWords {
            title: Key::LSummaryTitle,
            body: Key::LSummaryBody,
            goal: Key::LSummaryGoal,
            hint: Key::LSummaryHint,
            notes: Key::LSummaryNotes,
            happened: Key::LSummaryHappened,
        },
        _ => return None,
    })
}

/// A quiz question: its text, three answers, why each is right or wrong, the right one.
#[derive(Clone, Copy, Debug)]
pub struct Question {
    pub text: Key,
    pub options: [Key; 3],
    pub why: [Key; 3],
    pub right: usize,
}

/// The lesson's interview questions (§10): dual write, outbox, exactly-once, the
/// idempotent consumer.
pub const QUIZ: [Question; 4] = [
    Question {
        text: Key::QDualWrite,
        options: [
            Key::QDualWriteOpt0,
            Key::QDualWriteOpt1,
            Key::QDualWriteOpt2,
        ],
        why: [
            Key::QDualWriteWhy0,
            Key::QDualWriteWhy1,
            Key::QDualWriteWhy2,
        ],
        right: 1,
    },
    Question {
        text: Key::QOutbox,
        options: [Key::QOutboxOpt0, Key::QOutboxOpt1, Key::QOutboxOpt2],
        why: [Key::QOutboxWhy0, Key::QOutboxWhy1, Key::QOutboxWhy2],
        right: 0,
    },
    Question {
        text: Key::QExactlyOnce,
        options: [
            Key::QExactlyOnceOpt0,
            Key::QExactlyOnceOpt1,
            Key::QExactlyOnceOpt2,
        ],
        why: [
            Key::QExactlyOnceWhy0,
            Key::QExactlyOnceWhy1,
            Key::QExactlyOnceWhy2,
        ],
        right: 1,
    },
    Question {
        text: Key::QIdempotent,
        options: [
            Key::QIdempotentOpt0,
            Key::QIdempotentOpt1,
            Key::QIdempotentOpt2,
        ],
        why: [
            Key::QIdempotentWhy0,
            Key::QIdempotentWhy1,
            Key::QIdempotentWhy2,
        ],
        right: 2,
    },
];

/// The "try it yourself" question of §4.2: why the relay publishes inside its
/// transaction.
pub const WHY_INSIDE: Question = Question {
    text: Key::LWhyInsideTitle,
    options: [Key::WhyOpt0, Key::WhyOpt1, Key::WhyOpt2],
    why: [Key::WhyWhy0, Key::WhyWhy1, Key::WhyWhy2],
    right: outbox_model::lesson::WHY_INSIDE_RIGHT,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{t, Lang};

    #[test]
    fn every_lesson_step_has_its_words_in_both_languages() {
        for st in outbox_model::lesson::STEPS {
            let w = step_words(st.id).unwrap_or_else(|| panic!("no words for step {}", st.id));
            for key in [w.title, w.body, w.goal, w.hint, w.notes] {
                let (uz, en) = (t(Lang::Uz, key), t(Lang::En, key));
                assert!(!uz.trim().is_empty() && !en.trim().is_empty(), "{key:?}");
                // A text left untranslated reads the same in both languages.
                assert_ne!(uz, en, "{key:?} is not translated");
            }
        }
    }

    /// #24: a fair quiz: in no language is the right answer the longest option in more
    /// than half the questions (it was in all four).
    #[test]
    fn the_right_answer_is_not_given_away_by_its_length() {
        for lang in [Lang::Uz, Lang::En, Lang::Ru] {
            let longest = QUIZ
                .iter()
                .filter(|q| {
                    let len = |i: usize| t(lang, q.options[i]).chars().count();
                    (0..3).all(|i| i == q.right || len(q.right) > len(i))
                })
                .count();
            assert!(
                longest * 2 <= QUIZ.len(),
                "{}: {longest} of {}",
                lang.code(),
                QUIZ.len()
            );
        }
    }

    #[test]
    fn quiz_answers_are_explained_and_translated() {
        for q in QUIZ.iter().chain(std::iter::once(&WHY_INSIDE)) {
            assert!(q.right < 3);
            for key in q
                .options
                .iter()
                .chain(q.why.iter())
                .chain(std::iter::once(&q.text))
            {
                assert_ne!(
                    t(Lang::Uz, *key),
                    t(Lang::En, *key),
                    "{key:?} is not translated"
                );
            }
        }
    }
}
