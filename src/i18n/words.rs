//! The i18n layer for the model's own names: processes, steps, log notes, event classes,
//! scenario presets. The model speaks in ids (`relay-2`, `select_batch`, `h-7`); the page
//! shows these words, in the current language.

use outbox_model::queue::JobState;
use outbox_model::world::{FaultNote, LogEntry, Note, Wait};
use outbox_model::{Class, Step};

use crate::i18n::{t, tn, Key, Lang};

/// A process's display name (`relay-2` → "relay 2").
pub fn proc_name(lang: Lang, name: &str) -> String {
    let numbered = |prefix: &str, key: Key| {
        name.strip_prefix(prefix)
            .map(|n| t(lang, key).replace("{n}", n))
    };
    match name {
        "client" => t(lang, Key::ProcClient).to_string(),
        "api" => t(lang, Key::ProcApi).to_string(),
        "psql" => t(lang, Key::ProcPsql).to_string(),
        "redis" => t(lang, Key::ProcRedis).to_string(),
        "cdc" => t(lang, Key::ProcCdc).to_string(),
        "cleaner" => t(lang, Key::ProcCleaner).to_string(),
        _ => numbered("relay-", Key::ProcRelay)
            .or_else(|| numbered("worker-", Key::ProcWorker))
            // Several API instances (`apis` > 1): "API 2", "mijoz 2".
            .or_else(|| {
                let (kind, n) = name.split_once('-')?;
                let key = [("api", Key::ProcApi), ("client", Key::ProcClient)]
                    .into_iter()
                    .find(|(k, _)| *k == kind)?
                    .1;
                Some(format!("{} {n}", t(lang, key)))
            })
            .unwrap_or_else(|| name.to_string()),
    }
}

/// A step's label.
pub fn step_name(lang: Lang, step: Step) -> String {
    let key = match step {
        Step::Send => Key::StepSend,
        Step::Await => Key::StepAwait,
        Step::Begin => Key::StepBegin,
        Step::InsertTask => Key::StepInsertTask,
        Step::InsertEvent => Key::StepInsertEvent,
        Step::Commit => Key::StepCommit,
        Step::QueueAdd => Key::StepQueueAdd,
        Step::Respond => Key::StepRespond,
        Step::SelectBatch => Key::StepSelectBatch,
        Step::Publish => Key::StepPublish,
        Step::MarkPublished => Key::StepMarkPublished,
        Step::MarkFailed => Key::StepMarkFailed,
        Step::Rollback => Key::StepRollback,
        Step::Fetch => Key::StepFetch,
        Step::InboxCheck => Key::StepInboxCheck,
        Step::InboxInsert => Key::StepInboxInsert,
        Step::Action => Key::StepAction,
        Step::ExternalCall => Key::StepExternalCall,
        Step::BeginSecond => Key::StepBeginSecond,
        Step::CommitSecond => Key::StepCommitSecond,
        Step::Complete => Key::StepComplete,
        Step::InsertKey => Key::StepInsertKey,
        Step::DeadLetter => Key::StepDeadLetter,
        Step::ReadWal => Key::StepReadWal,
        Step::SaveOffset => Key::StepSaveOffset,
        Step::CleanOutbox => Key::StepCleanOutbox,
        Step::CleanInbox => Key::StepCleanInbox,
        Step::Script(i) => {
            return t(lang, Key::StepScript).replace("{n}", &(i as u32 + 1).to_string())
        }
    };
    t(lang, key).to_string()
}

/// A kill in words: "☠ API was killed after COMMIT, before queue.add — 1×, first at tick
/// 12" (#42: the lesson's "what just happened" and the log's pinned lines).
pub fn kill_fact_text(lang: Lang, k: &outbox_model::happened::KillFact) -> String {
    let place = kill_place(lang, k);
    t(lang, Key::HappenedKill)
        .replace("{proc}", &proc_name(lang, &k.process))
        .replace("{where}", &place)
        .replace("{times}", &k.times.to_string())
        .replace("{tick}", &k.tick.to_string())
}

/// Where a kill struck, in the cards' words: "after COMMIT, before queue.add".
pub fn kill_place(lang: Lang, k: &outbox_model::happened::KillFact) -> String {
    match k.prev {
        Some(p) => t(lang, Key::HappenedAfter)
            .replace("{prev}", &step_name(lang, p))
            .replace("{step}", &step_name(lang, k.step)),
        None => t(lang, Key::HappenedBefore).replace("{step}", &step_name(lang, k.step)),
    }
}

/// A failed statement in words, with its SQLSTATE and its text.
pub fn error_fact_text(lang: Lang, x: &outbox_model::happened::ErrorFact) -> String {
    t(lang, Key::HappenedError)
        .replace("{proc}", &proc_name(lang, &x.process))
        .replace("{code}", x.code)
        .replace("{times}", &x.times.to_string())
        .replace("{tick}", &x.tick.to_string())
        .replace("{sql}", x.sql)
}

/// A kill rule in words (the card's select, a variant's armed kills).
pub fn kill_rule_key(r: outbox_model::scenario::KillRule) -> Key {
    use outbox_model::scenario::KillRule;
    match r {
        KillRule::Next => Key::WhenNext,
        KillRule::Always => Key::WhenAlways,
        KillRule::CanonMod => Key::WhenMod,
        KillRule::Other => Key::WhenOther,
    }
}

/// The kills a scenario arms from its start, in words: "API: COMMIT (every time)".
pub fn standing_kills(lang: Lang, s: &outbox_model::Scenario) -> Vec<String> {
    use outbox_model::scenario::{Fault, KillRule};
    s.faults
        .iter()
        .filter_map(|f| match f {
            Fault::Kill {
                process,
                step,
                when,
                times,
                ..
            } => Some(format!(
                "{}: {} ({})",
                proc_name(lang, process),
                step_name(lang, *step),
                t(lang, kill_rule_key(KillRule::of(when, *times)))
            )),
            _ => None,
        })
        .collect()
}

/// An event class's words.
pub fn class_name(lang: Lang, c: Class) -> &'static str {
    t(
        lang,
        match c {
            Class::Pending => Key::ClassPending,
            Class::Aborted => Key::ClassAborted,
            Class::Effected => Key::ClassEffected,
            Class::InFlight => Key::ClassInFlight,
            Class::Lost => Key::ClassLost,
            Class::Failed => Key::ClassFailed,
        },
    )
}

/// A job state's words (the queue card's).
pub fn job_state_name(lang: Lang, s: JobState) -> &'static str {
    t(
        lang,
        match s {
            JobState::Waiting => Key::QWaiting,
            JobState::Active => Key::QActive,
            JobState::Completed => Key::QCompleted,
            JobState::Failed => Key::QFailed,
        },
    )
}

/// What a log entry says, without its actor and step (`who` names a waited-for process).
pub fn note_text(lang: Lang, note: &Note, who: impl Fn(Wait) -> String) -> String {
    let ev = |key: Key, e: &dyn std::fmt::Display| t(lang, key).replace("{e}", &e.to_string());
    match note {
        Note::Ok => t(lang, Key::NoteOk).to_string(),
        Note::Rows { n } => tn(lang, Key::NoteRows, u64::from(*n)),
        Note::Inserted { inserted: true } => t(lang, Key::NoteInserted).to_string(),
        Note::Inserted { inserted: false } => t(lang, Key::NoteInboxDup).to_string(),
        Note::Committed => t(lang, Key::NoteCommitted).to_string(),
        Note::RolledBack => t(lang, Key::NoteRolledBack).to_string(),
        Note::Added {
            event,
            created: true,
        } => ev(Key::NoteAdded, event),
        Note::Added {
            event,
            created: false,
        } => ev(Key::NoteAddDedup, event),
        Note::AddRefused { event } => ev(Key::NoteAddRefused, event),
        Note::PublishFailed { event } => ev(Key::NotePublishFailed, event),
        Note::PublishTimedOut { event } => ev(Key::NotePublishTimedOut, event),
        Note::Delivered { event } => ev(Key::NoteDelivered, event),
        Note::Effect { event } => ev(Key::NoteEffect, event),
        Note::Skipped { event } => ev(Key::NoteSkipped, event),
        Note::Completed { event, ok: true } => ev(Key::NoteCompleted, event),
        Note::Completed { event, ok: false } => ev(Key::NoteCompleteLate, event),
        Note::Blocked { on } => t(lang, Key::NoteBlocked).replace("{who}", &who(*on)),
        Note::Error { code } => t(lang, Key::NoteError).replace("{code}", code),
        Note::Killed => t(lang, Key::NoteKilled).to_string(),
        Note::Delayed { ticks } => tn(lang, Key::NoteDelayed, *ticks),
        Note::Restarted => t(lang, Key::NoteRestarted).to_string(),
        Note::Stalled {
            event,
            failed: false,
        } => ev(Key::NoteStalled, event),
        Note::Stalled {
            event,
            failed: true,
        } => ev(Key::NoteStalledFailed, event),
        Note::Reply { ok: true } => t(lang, Key::NoteReplyOk).to_string(),
        Note::Reply { ok: false } => t(lang, Key::NoteReplyErr).to_string(),
        Note::Fault { fault } => match fault {
            FaultNote::KillArmed => t(lang, Key::NoteKillArmed).to_string(),
            FaultNote::QueueDown => t(lang, Key::NoteQueueDown).to_string(),
            FaultNote::QueueHangs => t(lang, Key::NoteQueueHangs).to_string(),
            FaultNote::QueueUp => t(lang, Key::NoteQueueUp).to_string(),
            FaultNote::PublishFails { event, times } => t(lang, Key::NotePublishFails)
                .replace("{n}", &event.to_string())
                .replace("{t}", &times.to_string()),
            FaultNote::FailedJobsRetried => t(lang, Key::NoteFailedRetried).to_string(),
            FaultNote::JobRetried { event } => ev(Key::NoteJobRetried, event),
            FaultNote::RedisFlushed { jobs } => tn(lang, Key::NoteRedisFlushed, u64::from(*jobs)),
            FaultNote::RedisRestarted { jobs } => {
                tn(lang, Key::NoteRedisRestarted, u64::from(*jobs))
            }
            FaultNote::Unpublished { rows } => tn(lang, Key::NoteUnpublished, u64::from(*rows)),
            FaultNote::UnpublishRefused => t(lang, Key::NoteUnpublishRefused).to_string(),
        },
    }
}

/// A whole log line's actor.
pub fn actor(lang: Lang, entry: &LogEntry, names: &[String]) -> String {
    match entry.proc {
        Some(p) => names
            .get(p.0 as usize)
            .map(|n| proc_name(lang, n))
            .unwrap_or_default(),
        None => t(lang, Key::SystemActor).to_string(),
    }
}

/// A preset's title and one-line summary: keys named after the model's preset name
/// (`canon-dual-write` → `PresetCanonDualWriteTitle` / `…Summary`), so a new preset needs
/// only its two texts in each language file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PresetText {
    pub title: Key,
    pub summary: Key,
}

impl PresetText {
    pub fn title(&self, lang: Lang) -> &'static str {
        t(lang, self.title)
    }
    pub fn summary(&self, lang: Lang) -> &'static str {
        t(lang, self.summary)
    }
}

/// The words of a preset, by its model name.
pub fn preset_text(name: &str) -> Option<PresetText> {
    let camel: String = name
        .split(['-', '_'])
        .flat_map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect();
    let (title, summary) = crate::i18n::table::preset_keys(&camel)?;
    Some(PresetText { title, summary })
}

/// The model's preset names, in its order (the picker's options), computed once.
pub fn preset_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        outbox_model::presets()
            .into_iter()
            .map(|s| s.name)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_preset_has_words_in_every_language() {
        for s in outbox_model::presets() {
            let p = preset_text(&s.name).unwrap_or_else(|| {
                panic!("preset {} has no title and summary keys in i18n/", s.name)
            });
            for lang in Lang::ALL {
                assert!(!p.title(lang).trim().is_empty(), "{} title", s.name);
                assert!(!p.summary(lang).trim().is_empty(), "{} summary", s.name);
            }
        }
    }

    #[test]
    fn process_names_read_as_words() {
        assert_eq!(proc_name(Lang::En, "relay-2"), "relay 2");
        assert_eq!(proc_name(Lang::Uz, "client"), "mijoz");
        assert_eq!(proc_name(Lang::Uz, "client-2"), "mijoz 2");
        assert_eq!(proc_name(Lang::En, "api-1"), "API 1");
        assert_eq!(proc_name(Lang::En, "unknown-x"), "unknown-x");
    }

    #[test]
    fn script_steps_count_from_one() {
        assert_eq!(step_name(Lang::En, Step::Script(0)), "psql statement 1");
    }
}
