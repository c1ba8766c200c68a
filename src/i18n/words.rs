//! The i18n layer for the model's own names: processes, steps, log notes, event classes,
//! scenario presets. The model speaks in ids (`relay-2`, `select_batch`, `h-7`); the page
//! shows these words, in the current language.

use outbox_model::world::{FaultNote, LogEntry, Note, Wait};
use outbox_model::{Class, Step};

use crate::i18n::{t, Key, Lang};

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
        },
    )
}

/// What a log entry says, without its actor and step (`who` names a waited-for process).
pub fn note_text(lang: Lang, note: &Note, who: impl Fn(Wait) -> String) -> String {
    let ev = |key: Key, e: &dyn std::fmt::Display| t(lang, key).replace("{e}", &e.to_string());
    match note {
        Note::Ok => t(lang, Key::NoteOk).to_string(),
        Note::Rows { n } => t(lang, Key::NoteRows).replace("{n}", &n.to_string()),
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
        Note::Delivered { event } => ev(Key::NoteDelivered, event),
        Note::Effect { event } => ev(Key::NoteEffect, event),
        Note::Skipped { event } => ev(Key::NoteSkipped, event),
        Note::Completed { event, ok: true } => ev(Key::NoteCompleted, event),
        Note::Completed { event, ok: false } => ev(Key::NoteCompleteLate, event),
        Note::Blocked { on } => t(lang, Key::NoteBlocked).replace("{who}", &who(*on)),
        Note::Error { code } => t(lang, Key::NoteError).replace("{code}", code),
        Note::Killed => t(lang, Key::NoteKilled).to_string(),
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
            FaultNote::RedisFlushed { jobs } => {
                t(lang, Key::NoteRedisFlushed).replace("{n}", &jobs.to_string())
            }
            FaultNote::RedisRestarted { jobs } => {
                t(lang, Key::NoteRedisRestarted).replace("{n}", &jobs.to_string())
            }
            FaultNote::Unpublished { rows } => {
                t(lang, Key::NoteUnpublished).replace("{n}", &rows.to_string())
            }
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

/// A preset's title and one-line summary in both languages (ours, not the lesson's prose).
pub struct PresetText {
    pub name: &'static str,
    pub uz: (&'static str, &'static str),
    pub en: (&'static str, &'static str),
}

impl PresetText {
    pub fn title(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Uz => self.uz.0,
            Lang::En => self.en.0,
        }
    }
    pub fn summary(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::Uz => self.uz.1,
            Lang::En => self.en.1,
        }
    }
}

/// The words of a preset, by its model name.
pub fn preset_text(name: &str) -> Option<&'static PresetText> {
    PRESETS.iter().find(|p| p.name == name)
}

pub const PRESETS: &[PresetText] = &[
    PresetText {
        name: "canon-dual-write",
        uz: ("Kanon: dual write", "100 vazifa; API har i % 10 == 3 da COMMIT'dan keyin, queue.add'dan oldin o'ladi. Natija: bazada 100, navbatda 90."),
        en: ("Canon: dual write", "100 tasks; the API dies after COMMIT, before queue.add, at every i % 10 == 3. Result: 100 in the database, 90 in the queue."),
    },
    PresetText {
        name: "canon-outbox",
        uz: ("Kanon: outbox", "Xuddi shu o'limlar, lekin hodisa vazifa bilan birga COMMIT bo'ladi va relay hammasini yuboradi: 100 va 100."),
        en: ("Canon: outbox", "The same kills, but the event commits with its task and the relay publishes them all: 100 and 100."),
    },
    PresetText {
        name: "canon-republish",
        uz: ("Qayta yuborish va jobId", "Relay birinchi queue.add'dan keyin o'ladi; keyingi so'rov uni yana yuboradi, jobId = hodisa_id takrorni yutadi: baribir 100 ish."),
        en: ("Republish and jobId", "The relay dies after its first queue.add; the next poll sends it again and jobId = hodisa_id absorbs it: still 100 jobs."),
    },
    PresetText {
        name: "exercise-2",
        uz: ("2-mashq: relay modeli", "Beshta hodisa, 3-sini yuborish bir marta muvaffaqiyatsiz: so'rovlar 4/1, 1/0, 0/0; navbat tartibi 1, 2, 4, 5, 3."),
        en: ("Exercise 2: the relay", "Five events, publishing event 3 fails once: polls return 4/1, 1/0, 0/0; queue order 1, 2, 4, 5, 3."),
    },
    PresetText {
        name: "exercise-3",
        uz: ("3-mashq: to'lov inboxi", "50 000 lik to'lov uch marta yetkaziladi, birinchisi tranzaksiya o'rtasida o'ladi; inbox balansni 50 000 da ushlaydi."),
        en: ("Exercise 3: the payment inbox", "A 50 000 payment is delivered three times, the first dies mid-transaction; the inbox keeps the balance at 50 000."),
    },
    PresetText {
        name: "two-relays-skip-locked",
        uz: ("Ikki relay: SKIP LOCKED", "200 hodisa, ikki relay parallel: har biri boshqa qatorlarni oladi, har hodisa aniq bir marta."),
        en: ("Two relays: SKIP LOCKED", "200 events, two relays in parallel: each takes other rows, every event exactly once."),
    },
    PresetText {
        name: "two-relays-wait",
        uz: ("Ikki relay: oddiy FOR UPDATE", "Ikkinchi relay birinchisining COMMIT'ini kutadi, qayta tekshiradi va tarqatilganlarni tashlab ketadi."),
        en: ("Two relays: plain FOR UPDATE", "The second relay waits for the first one's COMMIT, re-checks, and drops rows already published."),
    },
    PresetText {
        name: "two-relays-nowait",
        uz: ("Ikki relay: NOWAIT", "To'qnashuv 55P03 xatosini beradi va so'rov ROLLBACK bo'ladi."),
        en: ("Two relays: NOWAIT", "A collision is error 55P03 and the poll rolls back."),
    },
    PresetText {
        name: "two-relays-no-lock",
        uz: ("Ikki relay: qulfsiz", "Ikkalasi bir xil qatorlarni yuboradi; ish mavjud ekan, jobId ikkinchisini yutadi."),
        en: ("Two relays: no lock", "Both publish the same rows; jobId absorbs the second add while the job exists."),
    },
    PresetText {
        name: "rollback",
        uz: ("ROLLBACK", "Vazifa va hodisa bitta tranzaksiyada yozilib, ROLLBACK qilinadi: 0 vazifa, 0 hodisa."),
        en: ("ROLLBACK", "Task and event written in one transaction, then ROLLBACK: 0 tasks, 0 events."),
    },
    PresetText {
        name: "app-role",
        uz: ("Faqat INSERT roli", "Ilova roli outboxga faqat yoza oladi: SELECT, UPDATE, DELETE, hatto INSERT … RETURNING ham (u SELECT huquqini talab qiladi) 42501 bilan rad etiladi."),
        en: ("INSERT-only role", "The app role may only write to the outbox: SELECT, UPDATE, DELETE, and even INSERT … RETURNING (it needs SELECT), are denied with 42501."),
    },
    PresetText {
        name: "dual-write-queue-first",
        uz: ("Dual write: avval navbat", "API avval hodisani qo'shadi, keyin har i % 10 == 3 da COMMIT'dan oldin o'ladi: 10 ta fantom hodisa."),
        en: ("Dual write: queue first", "The API adds the event first, then dies before COMMIT at every i % 10 == 3: 10 phantom events."),
    },
    PresetText {
        name: "at-most-once-relay",
        uz: ("Ko'pi bilan bir marta", "Relay avval belgilab COMMIT qiladi, keyin yuboradi; oradagi o'lim hodisani yo'qotadi."),
        en: ("At most once", "The relay marks and commits first, publishes after; a death in between loses the event."),
    },
    PresetText {
        name: "worker-no-inbox",
        uz: ("Inboxsiz worker", "Worker COMMIT'dan keyin, tasdiqdan oldin o'ladi; ish qayta keladi va amal ikki marta bajariladi."),
        en: ("Worker without inbox", "The worker dies after COMMIT, before acknowledging; the job comes back and the action runs twice."),
    },
    PresetText {
        name: "worker-inbox-own-tx",
        uz: ("Inbox alohida tranzaksiyada", "Inbox oldin COMMIT bo'ladi, worker amaldan oldin o'ladi; qayta kelgani takror deb tashlanadi, amal umuman bo'lmaydi."),
        en: ("Inbox in its own transaction", "The inbox commits first, the worker dies before the action; the redelivery is skipped as a duplicate and the action never happens."),
    },
    PresetText {
        name: "worker-action-then-inbox",
        uz: ("Avval amal, keyin inbox", "Amal COMMIT bo'ladi, worker inboxdan oldin o'ladi; qayta kelganda amal yana bajariladi."),
        en: ("Action first, inbox after", "The action commits, the worker dies before the inbox row; the redelivery acts again."),
    },
    PresetText {
        name: "worker-external-effect",
        uz: ("Tashqi ta'sir (email)", "Email tranzaksiyadan tashqarida yuboriladi; worker COMMIT'dan oldin o'lsa, email ikki marta ketadi."),
        en: ("Outside effect (email)", "The email is sent outside the transaction; if the worker dies before COMMIT, it goes out twice."),
    },
    PresetText {
        name: "worker-external-idempotency-key",
        uz: ("Tashqi ta'sir + idempotentlik kaliti", "Xizmat hodisa_id ni Idempotency-Key sifatida oladi: email bir marta ketadi."),
        en: ("Outside effect + idempotency key", "The service takes hodisa_id as its Idempotency-Key: the email goes out once."),
    },
    PresetText {
        name: "queue-down",
        uz: ("Redis o'chdi", "Redis bir muddat ulanishni rad etadi: relay qo'sha olmaydi, urinishlar o'sadi, hech narsa yo'qolmaydi."),
        en: ("Redis down", "Redis refuses connections for a while: the relay's adds fail, urinishlar grows, nothing is lost."),
    },
    PresetText {
        name: "queue-hang",
        uz: ("Redis osilib qoldi", "Redis ulanadi, lekin javob bermaydi: relay tranzaksiyasi ichida kutib qoladi, qator qulflari turadi, partiya tiqiladi; Redis qaytgach hammasi oqadi."),
        en: ("Redis hangs", "Redis accepts connections but never answers: the relay waits inside its transaction, its row locks stay, the batch is stuck; when Redis answers everything flows."),
    },
    PresetText {
        name: "poison-stall",
        uz: ("Zaharli hodisalar: tiqilish", "Navbat boshida doim muvaffaqiyatsiz uchta hodisa, partiya 3: har so'rov shu uchtasini oladi, urinishlar cheksiz o'sadi, qolgan 17 tasi tiqiladi."),
        en: ("Poison events: stall", "Three always-failing events at the head with batch 3: every poll takes the same three, urinishlar grows forever, the other 17 are stuck."),
    },
    PresetText {
        name: "poison-dead-letter",
        uz: ("Zaharli hodisalar: outbox_olik", "Xuddi shu zaharli hodisalar, lekin 5 urinishdan keyin relay ularni outbox_olik ga ko'chiradi: bosh bo'shaydi, qolgan 17 tasi yuboriladi."),
        en: ("Poison events: dead letter", "The same poison events, but after 5 attempts the relay moves them to outbox_olik: the head clears and the other 17 are published."),
    },
    PresetText {
        name: "redis-flush",
        uz: ("Redis ma'lumotni yo'qotdi", "Relay qatorlarni belgilagandan keyin Redis persistensiyasiz qayta turadi: outbox 'tarqatildi' desa ham ishlar yo'q; operator qatorlarni qayta tarqatilmagan qiladi, relay ularni qayta tarqatadi, inbox takrorni yutadi."),
        en: ("Redis loses its data", "Redis restarts without persistence after the relay marked rows published: the outbox says published but the jobs are gone; the operator un-marks the rows, the relay republishes, the inbox absorbs the overlap."),
    },
    PresetText {
        name: "cdc-relay",
        uz: ("CDC relay (WAL)", "CDC relay COMMIT tartibida o'qiydi, ROLLBACK'ni hech ko'rmaydi; yuborgach, offsetni saqlashdan oldin o'ladi va bir muddat turmaydi: slot WAL ni ushlab turadi, qayta yuborishni jobId yutadi."),
        en: ("CDC relay (WAL)", "The CDC relay reads commits in order and never sees a rollback; it dies after publishing, before saving its offset, and stays down a while: the slot keeps the WAL, jobId absorbs the republish."),
    },
    PresetText {
        name: "high-water-relay",
        uz: ("High-water-mark relay", "WHERE id > last_id: sekin tranzaksiya id'ni erta oladi, belgi o'tib ketgach COMMIT qiladi, hodisasi hech qachon o'qilmaydi: butunlay yo'qoladi."),
        en: ("High-water-mark relay", "WHERE id > last_id: a slow transaction takes its id early and commits after the mark has passed it; its event is never read, lost for good."),
    },
    PresetText {
        name: "high-water-lesson-poll",
        uz: ("Darsdagi so'rov bilan", "Xuddi shu sekin tranzaksiya, lekin WHERE tarqatilgan_vaqt IS NULL: kech qator keyingi so'rovda olinadi, tartibi o'zgaradi, lekin yo'qolmaydi."),
        en: ("With the lesson's poll", "The same slow transaction with WHERE tarqatilgan_vaqt IS NULL: the late row is taken by the next poll, out of order but not lost."),
    },
    PresetText {
        name: "cleaner-by-age",
        uz: ("Noto'g'ri tozalovchi", "tarqatilgan_vaqt filtrisiz tozalovchi (1 kun saqlash), relay 4 kun ishlamaydi: tarqatilmagan qatorlar o'chiriladi, hamma hodisa yo'qoladi."),
        en: ("A broken cleaner", "A cleaner without the tarqatilgan_vaqt filter (1-day retention) while the relay is down 4 days: it deletes unpublished rows, every event is lost."),
    },
    PresetText {
        name: "cleaner-published-only",
        uz: ("Darsdagi outboxTozala", "Faqat tarqatilgan qatorlarni o'chiradigan tozalovchi (1 kun), relay 4 kun ishlamaydi: tarqatilmaganlarga tegmaydi, hech narsa yo'qolmaydi."),
        en: ("The lesson's outboxTozala", "A cleaner that deletes only published rows (1 day) while the relay is down 4 days: unpublished rows are untouched, nothing is lost."),
    },
    PresetText {
        name: "inbox-retention",
        uz: ("Qisqa inbox saqlash", "Inbox qatorlari 1 kun saqlanadi, relay esa 5 kun ishlamaydi: qayta yuborilgan hodisalarni inbox endi tanimaydi, har amal ikki marta bajariladi."),
        en: ("Short inbox retention", "Inbox rows are kept 1 day but the relay is down 5 days: the inbox no longer knows the republished events, every action runs twice."),
    },
    PresetText {
        name: "client-retry",
        uz: ("Mijoz qayta urinadi", "API COMMIT qiladi va javobdan oldin o'ladi; mijoz idempotentlik kalitisiz qayta yuboradi: ikkinchi vazifa va yangi hodisa_id, amal ikki marta."),
        en: ("The client retries", "The API commits, then dies before answering; the client retries without an idempotency key: a second task and a new hodisa_id, acted on twice."),
    },
    PresetText {
        name: "client-retry-idempotency-key",
        uz: ("Qayta urinish + kalit", "Xuddi shu yo'qolgan javob, lekin API mijoz kalitini tranzaksiyada saqlaydi: qayta urinish hech narsa yozmaydi va birinchi natijani oladi."),
        en: ("Retry with a key", "The same lost answer, but the API stores the client's key in its transaction: the retry writes nothing and gets the first result."),
    },
    PresetText {
        name: "ordering-retry",
        uz: ("Tartib buzilishi", "Har vazifaning ikki hodisasi: yaratildi, keyin bajarildi; birinchisini yuborish bir marta muvaffaqiyatsiz, qayta urinish undan keyin keladi: iste'molchi teskari tartibni ko'radi."),
        en: ("Out of order", "Each task has two events, created then completed; the first fails once and its retry arrives after the second: the consumer sees them out of order."),
    },
    PresetText {
        name: "relay-lag",
        uz: ("Relay orqada qoladi", "Har so'rovda bitta qator yuboradigan relay tezroq yozuvchilar ortida: eng eski tarqatilmagan qatorning yoshi o'sib boradi."),
        en: ("The relay lags", "A relay that publishes one row per poll behind faster writers: the age of the oldest unpublished row keeps growing."),
    },
    PresetText {
        name: "two-copies-at-once",
        uz: ("Ikki nusxa bir vaqtda", "Qulfsiz va jobIdsiz ikki relay har hodisaga ikki ish qo'yadi; ikki worker ikkalasini birga oladi: ikkinchi INSERT … ON CONFLICT birinchisini kutadi va hech narsa qilmaydi."),
        en: ("Two copies at once", "Two relays without locks or jobId put two jobs per event; two workers take both at once: the second INSERT … ON CONFLICT waits for the first, then does nothing."),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_model_preset_has_words_in_both_languages() {
        for s in outbox_model::presets() {
            let p = preset_text(&s.name)
                .unwrap_or_else(|| panic!("preset {} has no words in src/words.rs", s.name));
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
        assert_eq!(proc_name(Lang::En, "unknown-x"), "unknown-x");
    }

    #[test]
    fn script_steps_count_from_one() {
        assert_eq!(step_name(Lang::En, Step::Script(0)), "psql statement 1");
    }
}

#[cfg(test)]
mod step_ids {
    use crate::playground::pipeline::process_card::step_id;
    use outbox_model::Step;

    #[test]
    fn step_ids_are_the_models_json_names() {
        let mut steps: Vec<Step> = Vec::new();
        // Every step some program of some preset uses.
        for s in outbox_model::presets() {
            let w = outbox_model::World::new(&s);
            for p in w.procs() {
                steps.extend(p.program.iter().copied());
            }
        }
        steps.sort();
        steps.dedup();
        assert!(steps.len() >= 25, "only {} steps seen", steps.len());
        for step in steps {
            let json = serde_json::to_value(step).unwrap();
            match json.as_str() {
                Some(name) => assert_eq!(step_id(step), name),
                None => assert!(step_id(step).starts_with("script-")),
            }
        }
    }
}
