//! The lesson's built-in goals (`lesson::reached`), written in the challenge goal
//! language: what an instructor would write for the same step, and the proof (the tests
//! judge both on the same worlds) that the language can say each of them exactly.

use crate::lesson::Goal;

/// The goal's text in the challenge goal language.
pub fn lesson_goal_text(goal: Goal) -> &'static str {
    match goal {
        Goal::LoseAnEvent => {
            "(api == dual_write_db_first || api == dual_write_queue_first) && lost >= 1"
        }
        Goal::PhantomEvent => "api == dual_write_queue_first && phantoms >= 1",
        Goal::PoolLosesEvent => "api == outbox_pool && lost >= 1",
        Goal::CanonDualWrite => {
            "settled && api == dual_write_db_first && tasks_in_db == 100 && queue_jobs == 90"
        }
        Goal::CanonOutbox => {
            "settled && api == outbox && tasks_in_db == 100 && queue_jobs == 100 && lost == 0"
        }
        Goal::OutboxKeepsEvents => "settled && api == outbox && kill_steps(api) >= 3 && lost == 0",
        Goal::RolledBackTogether => {
            "settled && tasks_total > 0 && tasks_in_db == 0 && events_in_outbox == 0"
        }
        Goal::RoleDenied => "refused(select_count_outbox, 42501)",
        Goal::RelaySendsTwice => "queue_dedup_hits >= 1 || duplicate_deliveries >= 1",
        Goal::TwoRelaysOnce => {
            "settled && relays >= 2 && relay_lock == skip_locked && events_in_outbox == 200 \
             && queue_adds == 200 && queue_jobs == 200"
        }
        Goal::SkipLockedOff => "settled && relays >= 2 && relay_lock != skip_locked",
        Goal::PublishOutsideLoses | Goal::AtMostOnceLoses => {
            "settled && relay_mode == mark_first && lost >= 1"
        }
        Goal::CdcSurvivesKill => "settled && cdc == true && killed(cdc, save_offset) && lost == 0",
        Goal::CleanerKeepsUnpublished => {
            "settled && cleaner_published_only == true && events_in_outbox > 0 && lost == 0"
        }
        Goal::AtLeastOnceDuplicates => "settled && worker == no_inbox && duplicate_effects >= 1",
        Goal::EffectivelyOnce => {
            "settled && worker == inbox_same_tx && duplicate_deliveries >= 1 && lost == 0 \
             && duplicate_effects == 0"
        }
        Goal::OneEffectOfThree => "settled && deliveries >= 3 && effects == 1 && balance == 50000",
        Goal::InboxOwnTxBreaks => "settled && worker == inbox_own_tx && lost >= 1",
    }
}
