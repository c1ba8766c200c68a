//! The lesson's statements as they must stay after the expert read of #43: each test holds
//! one corrected sentence (the claim it must make, the overstatement it must not) in every
//! language, and the terms the seed uses where the texts had drifted. A later edit that
//! brings an old claim back fails here with the key and the language.

use super::{t, Key, Lang};

const ALL: [Lang; 3] = [Lang::Uz, Lang::En, Lang::Ru];

/// `key`'s text in `lang` contains `word`.
fn says(lang: Lang, key: Key, word: &str) {
    let text = t(lang, key);
    assert!(
        text.contains(word),
        "{}: {key:?} lacks «{word}»: {text}",
        lang.code()
    );
}

/// `key`'s text in `lang` does not contain `word`.
fn never_says(lang: Lang, key: Key, word: &str) {
    let text = t(lang, key);
    assert!(
        !text.contains(word),
        "{}: {key:?} says «{word}»: {text}",
        lang.code()
    );
}

/// Each `pool.query` is its own autocommitted transaction; an idle node-postgres pool
/// usually reuses one connection, so "each on another connection" overstated it.
#[test]
fn pool_query_is_its_own_transaction_not_another_connection() {
    for key in [Key::LPoolBody, Key::PresetOutboxPoolSummary] {
        says(Lang::En, key, "automatically");
        says(Lang::Ru, key, "автоматическим COMMIT");
        says(Lang::Uz, key, "avtomatik COMMIT");
        never_says(Lang::En, key, "another connection");
        never_says(Lang::En, key, "its own connection");
        never_says(Lang::Ru, key, "на другом соединении");
        never_says(Lang::Ru, key, "на своём соединении");
        never_says(Lang::Uz, key, "boshqa ulanishda");
        never_says(Lang::Uz, key, "o'z ulanishida");
    }
}

/// A `PoolClient` parameter reminds; a client that never ran BEGIN still compiles.
#[test]
fn a_pool_client_parameter_does_not_stop_the_mistake() {
    says(Lang::En, Key::LPoolNotes, "does not stop");
    says(Lang::Ru, Key::LPoolNotes, "не останавливает");
    says(Lang::Uz, Key::LPoolNotes, "to'xtatmaydi");
    for lang in ALL {
        says(lang, Key::LPoolNotes, "BEGIN");
    }
}

/// pg-boss is atomic with the task only when handed the task's transaction's client.
#[test]
fn pg_boss_is_atomic_only_on_the_tasks_client() {
    says(
        Lang::En,
        Key::RealWorkPgBoss,
        "handed that transaction's client",
    );
    says(Lang::Ru, Key::RealWorkPgBoss, "клиента этой транзакции");
    says(Lang::Uz, Key::RealWorkPgBoss, "tranzaksiyaning mijozi");
}

/// `max_slot_wal_keep_size` is −1 (unlimited) by default: by default the disk fills.
#[test]
fn a_stopped_slot_fills_the_disk_by_default() {
    for lang in ALL {
        says(lang, Key::LCdcNotes, "max_slot_wal_keep_size");
        says(lang, Key::LCdcNotes, "−1");
    }
}

/// A published row's entry stays in the partial index, dead, until VACUUM.
#[test]
fn the_partial_index_keeps_dead_entries_until_vacuum() {
    for lang in ALL {
        says(lang, Key::SchemaIndexWhy, "VACUUM");
        never_says(lang, Key::SchemaIndexWhy, "leaves the index");
    }
    never_says(Lang::Ru, Key::SchemaIndexWhy, "из индекса уходит");
    never_says(Lang::Uz, Key::SchemaIndexWhy, "indeksdan chiqadi");
}

/// To a sender a 5xx is as ambiguous as a timeout.
#[test]
fn a_5xx_is_as_ambiguous_as_a_timeout() {
    says(Lang::En, Key::PresetWebhookSummary, "ambiguous");
    says(Lang::Ru, Key::PresetWebhookSummary, "неоднозначен");
    says(Lang::Uz, Key::PresetWebhookSummary, "noaniq");
}

/// The idempotency-key table stores the key, not a result to hand back.
#[test]
fn the_idempotency_key_promises_no_first_result() {
    let key = Key::PresetClientRetryIdempotencyKeySummary;
    never_says(Lang::En, key, "first result");
    never_says(Lang::Ru, key, "первый результат");
    never_says(Lang::Uz, key, "birinchi natija");
}

/// The seed's terms: jobId «ushladi» (caught), «aniq bir marta ta'sir», «worker»; a
/// schedule is «ijro tartibi», never «jadval» (a database table in this lesson).
#[test]
fn uzbek_keeps_the_seeds_terms() {
    says(Lang::Uz, Key::CDedup, "ushladi");
    says(Lang::Uz, Key::LEffectivelyTitle, "aniq bir marta ta'sir");
    for key in [Key::ProofHeading, Key::ProofHolds, Key::MatrixIntro] {
        says(Lang::Uz, key, "ijro tartib");
    }
    for key in [Key::LQueueFirstBody, Key::QDualWriteOpt2] {
        never_says(Lang::Uz, key, "ishchi");
    }
    says(Lang::Uz, Key::BuilderReady, "-tikda");
    never_says(Lang::Uz, Key::QCompleted, "bajarildi");
}

/// Russian: «воркер», not Latin; counts of actions are «действия»; no English left in a
/// blank; the tab and its heading say «Доказательство».
#[test]
fn russian_says_one_word_for_one_thing() {
    for key in [Key::LQueueFirstBody, Key::QDualWriteOpt2] {
        never_says(Lang::Ru, key, "worker");
    }
    for key in [Key::CDupEffects, Key::LsDupEffects, Key::CEffects] {
        says(Lang::Ru, key, "ействи");
    }
    never_says(Lang::Ru, Key::Ex1Blank2, "transaction");
    says(Lang::Ru, Key::ProofHeading, "Доказательство");
    says(Lang::Ru, Key::DetailsProof, "Доказательство");
}

/// "Canon" means nothing to an English or Russian reader: the lesson's reference run.
#[test]
fn the_reference_run_is_not_called_canon_outside_uzbek() {
    for key in [
        Key::LCanonDualTitle,
        Key::LCanonDualBody,
        Key::PresetCanonDualWriteTitle,
        Key::PresetCanonOutboxTitle,
    ] {
        never_says(Lang::En, key, "anon");
        never_says(Lang::Ru, key, "анон");
    }
}

/// The why-question's heading is the question itself, and a duplicate outcome says that
/// an action ran twice.
#[test]
fn the_why_heading_asks_and_a_duplicate_is_an_action_twice() {
    for lang in ALL {
        says(lang, Key::WhyHeading, "?");
        says(lang, Key::WhyHeading, "COMMIT");
    }
    says(Lang::En, Key::OutcomeDuplicate, "twice");
    says(Lang::Ru, Key::OutcomeDuplicate, "дважды");
    says(Lang::Uz, Key::OutcomeDuplicate, "ikki marta");
}
