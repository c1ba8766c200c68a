//! The i18n layer: every string the page shows comes from here.
//!
//! Each key is declared once with its Uzbek and its English text. The macro accepts a key
//! only with both, in the order `uz`, `en`, so a missing translation does not compile.

use leptos::prelude::*;

/// A language of the page. Uzbek is the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Uz,
    En,
}

impl Lang {
    /// Every language, in the order the switch shows them.
    pub const ALL: [Lang; 2] = [Lang::Uz, Lang::En];

    /// The BCP 47 code, as used in `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::Uz => "uz",
            Lang::En => "en",
        }
    }

    /// The inverse of [`Lang::code`].
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }
}

macro_rules! translations {
    ($( $(#[doc = $doc:literal])* $key:ident { uz: $uz:literal, en: $en:literal $(,)? } )+) => {
        /// A string the page shows, in every language.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $( $(#[doc = $doc])* $key, )+
        }

        impl Key {
            /// Every key, in declaration order.
            pub const ALL: &'static [Key] = &[$(Key::$key),+];
        }

        /// The text of `key` in `lang`.
        pub const fn t(lang: Lang, key: Key) -> &'static str {
            match key {
                $( Key::$key => match lang {
                    Lang::Uz => $uz,
                    Lang::En => $en,
                }, )+
            }
        }
    };
}

translations! {
    /// The page title (a name: the same in both languages).
    Title {
        uz: "Outbox Playground",
        en: "Outbox Playground",
    }
    /// The one-line promise under the title.
    Tagline {
        uz: "Transactional outbox: bazaga yozish va hodisani navbatga yuborishni buzib o'rganing",
        en: "Transactional outbox: learn to write to the database and queue the event by breaking it",
    }
    /// The accessible name of the language switch.
    LangSwitchLabel {
        uz: "Til",
        en: "Language",
    }
    /// The short label of the Uzbek button.
    LangUzShort {
        uz: "UZ",
        en: "UZ",
    }
    /// The full name of Uzbek, in Uzbek (an endonym reads the same in every language).
    LangUzName {
        uz: "O'zbekcha",
        en: "O'zbekcha",
    }
    /// The short label of the English button.
    LangEnShort {
        uz: "EN",
        en: "EN",
    }
    /// The full name of English, in English.
    LangEnName {
        uz: "English",
        en: "English",
    }
    /// The lesson's canon line; {db} and {q} are filled in.
    CanonLine {
        uz: "bazada {db}, navbatda {q}",
        en: "{db} in the database, {q} in the queue",
    }
    /// Notice: a shared link could not be opened; {why} is the reason.
    NoticeBadLink {
        uz: "Havolani ochib bo'lmadi ({why}). Yangi standart ssenariy boshlandi.",
        en: "The link could not be opened ({why}). A fresh default scenario was started.",
    }
    /// Notice: the saved state was corrupt; {why} is the reason.
    NoticeBadSaved {
        uz: "Saqlangan holat buzilgan ekan ({why}). U yangisi bilan almashtirildi.",
        en: "The saved state was corrupt ({why}). It was replaced with a fresh one.",
    }
    /// Notice: the model refused an action; {why} is the reason.
    NoticeRefused {
        uz: "Model bu amalni rad etdi: {why}",
        en: "The model refused this action: {why}",
    }
    /// Notice: the scenario from the mode switches is not valid; {why} is the reason.
    NoticeBadScenario {
        uz: "Bu sozlamalar bilan ssenariy yaroqsiz: {why}",
        en: "These settings make an invalid scenario: {why}",
    }
    /// Notice: the share link was copied.
    NoticeLinkCopied {
        uz: "Havola nusxalandi: uni ochgan kishi aynan shu yugurishni ko'radi.",
        en: "Link copied: whoever opens it sees exactly this run.",
    }
    /// Notice: the share link is in the address bar (clipboard unavailable).
    NoticeLinkInAddress {
        uz: "Havola manzil satrida: uni o'zingiz nusxalang.",
        en: "The link is in the address bar: copy it from there.",
    }
    /// Close a notice.
    Dismiss {
        uz: "Yopish",
        en: "Dismiss",
    }
    /// Heading of the controls.
    ControlsHeading {
        uz: "Boshqaruv",
        en: "Controls",
    }
    Play {
        uz: "Ishga tushirish",
        en: "Play",
    }
    Pause {
        uz: "To'xtatish",
        en: "Pause",
    }
    StepOne {
        uz: "Bir qadam",
        en: "One step",
    }
    StepBack {
        uz: "Bir qadam orqaga",
        en: "Step back",
    }
    Speed {
        uz: "Tezlik",
        en: "Speed",
    }
    /// Speed value; {n} is steps per second.
    SpeedPerSecond {
        uz: "soniyasiga {n} qadam",
        en: "{n} steps a second",
    }
    SpeedMax {
        uz: "iloji boricha tez",
        en: "as fast as it goes",
    }
    Timeline {
        uz: "Vaqt chizig'i",
        en: "Timeline",
    }
    /// Timeline position; {pos} of {total} steps.
    TimelineValue {
        uz: "{pos} / {total} qadam",
        en: "step {pos} of {total}",
    }
    Preset {
        uz: "Ssenariy",
        en: "Scenario",
    }
    /// The option for a scenario built from the switches.
    PresetCustom {
        uz: "O'z sozlamalarim",
        en: "My own settings",
    }
    Seed {
        uz: "Seed (tasodif urug'i)",
        en: "Seed",
    }
    Reset {
        uz: "Qaytadan",
        en: "Reset",
    }
    Share {
        uz: "Havolani ulashish",
        en: "Share link",
    }
    Finished {
        uz: "Yugurish tugadi",
        en: "The run has finished",
    }
    /// Heading of the mode switches.
    ModesHeading {
        uz: "Rejimlar",
        en: "Modes",
    }
    ApiModeLabel {
        uz: "API yozishi",
        en: "API writes",
    }
    ApiDualDbFirst {
        uz: "Dual write: avval baza",
        en: "Dual write: database first",
    }
    ApiDualQueueFirst {
        uz: "Dual write: avval navbat",
        en: "Dual write: queue first",
    }
    ApiOutbox {
        uz: "Outbox (bitta tranzaksiya)",
        en: "Outbox (one transaction)",
    }
    WorkerModeLabel {
        uz: "Worker himoyasi",
        en: "Worker guard",
    }
    WorkerNoInbox {
        uz: "Inbox yo'q",
        en: "No inbox",
    }
    WorkerInboxSameTx {
        uz: "Inbox + amal bitta tranzaksiyada",
        en: "Inbox + action in one transaction",
    }
    WorkerInboxOwnTx {
        uz: "Inbox o'z tranzaksiyasida (avval)",
        en: "Inbox in its own transaction (first)",
    }
    WorkerActionThenInbox {
        uz: "Avval amal, keyin inbox",
        en: "Action first, inbox after",
    }
    WorkerExternal {
        uz: "Tashqi xizmat (email, to'lov)",
        en: "Outside service (email, payment)",
    }
    LockLabel {
        uz: "Relay qulfi",
        en: "Relay lock",
    }
    LockSkipLocked {
        uz: "FOR UPDATE SKIP LOCKED",
        en: "FOR UPDATE SKIP LOCKED",
    }
    LockNowait {
        uz: "FOR UPDATE NOWAIT",
        en: "FOR UPDATE NOWAIT",
    }
    LockWait {
        uz: "FOR UPDATE (kutadi)",
        en: "FOR UPDATE (waits)",
    }
    LockNone {
        uz: "Qulfsiz SELECT",
        en: "Plain SELECT, no lock",
    }
    RelayModeLabel {
        uz: "Relay tartibi",
        en: "Relay order",
    }
    RelayLesson {
        uz: "Yuborish, keyin belgilash (kamida bir marta)",
        en: "Publish, then mark (at least once)",
    }
    RelayMarkFirst {
        uz: "Belgilash, keyin yuborish (ko'pi bilan bir marta)",
        en: "Mark, then publish (at most once)",
    }
    RelaysLabel {
        uz: "Relaylar soni",
        en: "Relays",
    }
    WorkersLabel {
        uz: "Workerlar soni",
        en: "Workers",
    }
    BatchLabel {
        uz: "Partiya (LIMIT)",
        en: "Batch (LIMIT)",
    }
    TasksLabel {
        uz: "Vazifalar soni",
        en: "Tasks",
    }
    JobIdLabel {
        uz: "jobId = hodisa_id",
        en: "jobId = hodisa_id",
    }
    ExtKeyLabel {
        uz: "Tashqi xizmat hodisa_id ni idempotentlik kaliti qiladi",
        en: "The outside service takes hodisa_id as its idempotency key",
    }
    AutoRestartLabel {
        uz: "O'ldirilgan jarayon o'zi qayta turadi",
        en: "A killed process restarts by itself",
    }
    Apply {
        uz: "Qo'llash",
        en: "Apply",
    }
    /// Heading of the counters.
    CountersHeading {
        uz: "Hisoblagichlar",
        en: "Counters",
    }
    CInDb {
        uz: "Bazada",
        en: "In DB",
    }
    COutbox {
        uz: "Outboxda",
        en: "In outbox",
    }
    CQueue {
        uz: "Navbatda",
        en: "In queue",
    }
    CDelivered {
        uz: "Yetkazildi",
        en: "Delivered",
    }
    CEffects {
        uz: "Amallar",
        en: "Effects",
    }
    CLost {
        uz: "YO'QOLDI",
        en: "LOST",
    }
    CDupDeliveries {
        uz: "Takror yetkazish",
        en: "Duplicate deliveries",
    }
    CDupEffects {
        uz: "Takror amal",
        en: "Duplicate effects",
    }
    CPhantoms {
        uz: "Arvoh hodisalar",
        en: "Phantoms",
    }
    CUnpublished {
        uz: "Tarqatilmagan",
        en: "Unpublished",
    }
    CDedup {
        uz: "jobId yutdi",
        en: "Absorbed by jobId",
    }
    CReordered {
        uz: "Tartibi buzilgan",
        en: "Reordered",
    }
    CStuck {
        uz: "Tiqilib qolgan",
        en: "Stuck",
    }
    CLag {
        uz: "Eng eski kutayotgan (tik)",
        en: "Oldest unpublished (ticks)",
    }
    CTick {
        uz: "Tik",
        en: "Tick",
    }
    CBalance {
        uz: "Balans",
        en: "Balance",
    }
    /// Spoken when a loss counter changes.
    Announce {
        uz: "Yo'qoldi: {lost}. Takror yetkazish: {dd}. Takror amal: {de}. Arvoh: {ph}.",
        en: "Lost: {lost}. Duplicate deliveries: {dd}. Duplicate effects: {de}. Phantoms: {ph}.",
    }
    ChartLabel {
        uz: "Hisoblagichlar vaqt bo'yicha: yetkazilgan, yo'qolgan, takrorlar",
        en: "Counters over time: delivered, lost, duplicates",
    }
    /// Heading of the pipeline.
    PipelineHeading {
        uz: "Quvur: mijozdan amalgacha",
        en: "The pipeline: from client to effect",
    }
    ColClient {
        uz: "Mijoz",
        en: "Client",
    }
    ColApi {
        uz: "API",
        en: "API",
    }
    ColPostgres {
        uz: "PostgreSQL",
        en: "PostgreSQL",
    }
    ColRelays {
        uz: "Relay",
        en: "Relay",
    }
    ColQueue {
        uz: "Navbat (BullMQ)",
        en: "Queue (BullMQ)",
    }
    ColWorkers {
        uz: "Worker",
        en: "Worker",
    }
    ColEffect {
        uz: "Natija",
        en: "Effect",
    }
    NoRelays {
        uz: "Relay yo'q: API navbatga o'zi yozadi",
        en: "No relay: the API writes to the queue itself",
    }
    NoWorkers {
        uz: "Worker yo'q",
        en: "No worker",
    }
    TableTasks {
        uz: "vazifalar",
        en: "vazifalar (tasks)",
    }
    TableOutbox {
        uz: "outbox",
        en: "outbox",
    }
    TableInbox {
        uz: "inbox",
        en: "inbox",
    }
    /// Row count of a table; {n}.
    Rows {
        uz: "{n} qator",
        en: "{n} rows",
    }
    /// Unpublished rows of the outbox; {n}.
    UnpublishedRows {
        uz: "{n} tarqatilmagan",
        en: "{n} unpublished",
    }
    Uncommitted {
        uz: "COMMIT qilinmagan",
        en: "not committed",
    }
    /// A row lock; {who} holds it.
    LockedBy {
        uz: "qulf: {who}",
        en: "locked: {who}",
    }
    PublishedAt {
        uz: "tarqatildi",
        en: "published",
    }
    NotPublished {
        uz: "kutmoqda",
        en: "waiting",
    }
    Urinishlar {
        uz: "urinishlar",
        en: "urinishlar (attempts)",
    }
    QWaiting {
        uz: "kutmoqda",
        en: "waiting",
    }
    QActive {
        uz: "ishlanmoqda",
        en: "active",
    }
    QCompleted {
        uz: "bajarildi",
        en: "completed",
    }
    QFailed {
        uz: "muvaffaqiyatsiz",
        en: "failed",
    }
    QHealthUp {
        uz: "Redis ishlayapti",
        en: "Redis is up",
    }
    QHealthDown {
        uz: "Redis ulanishni rad etyapti",
        en: "Redis refuses connections",
    }
    QHealthHang {
        uz: "Redis javob bermayapti (osilib qoldi)",
        en: "Redis does not answer (hangs)",
    }
    /// A job's deliveries; {n}.
    Deliveries {
        uz: "{n} marta yetkazildi",
        en: "delivered {n}×",
    }
    EffectRows {
        uz: "amallar jadvali",
        en: "amallar (effects) table",
    }
    ProcAlive {
        uz: "tirik",
        en: "alive",
    }
    ProcDead {
        uz: "o'lik",
        en: "dead",
    }
    /// A process waits; {who}.
    ProcWaiting {
        uz: "{who} ni kutmoqda",
        en: "waiting for {who}",
    }
    /// A process's kill count; {n}.
    ProcKills {
        uz: "{n} marta o'ldirildi",
        en: "killed {n}×",
    }
    /// Events a process holds; {list}.
    ProcHolding {
        uz: "qo'lida: {list}",
        en: "holding: {list}",
    }
    KillNow {
        uz: "Hozir o'ldirish",
        en: "Kill now",
    }
    Restart {
        uz: "Qayta ishga tushirish",
        en: "Restart",
    }
    StepThis {
        uz: "Shu jarayonni bir qadam",
        en: "Step this process",
    }
    /// Arm a kill at a step; {step}.
    ArmKill {
        uz: "{step} qadamida o'ldirish",
        en: "Kill at {step}",
    }
    /// Disarm the kills of a process.
    Disarm {
        uz: "Qurollangan o'limlarni olib tashlash",
        en: "Disarm its kills",
    }
    Armed {
        uz: "qurollangan",
        en: "armed",
    }
    NowRunning {
        uz: "hozir shu qadam",
        en: "runs next",
    }
    RuleLabel {
        uz: "Qachon o'lsin",
        en: "When to die",
    }
    WhenAlways {
        uz: "har safar",
        en: "every time",
    }
    WhenNext {
        uz: "keyingi safar (bir marta)",
        en: "next time (once)",
    }
    /// The canon rule.
    WhenMod {
        uz: "i % 10 == 3 bo'lganda",
        en: "when i % 10 == 3",
    }
    FaultsHeading {
        uz: "Nosozliklar",
        en: "Faults",
    }
    QueueDown {
        uz: "Redis o'chdi (rad etadi)",
        en: "Redis down (refuses)",
    }
    QueueHang {
        uz: "Redis osilib qoldi",
        en: "Redis hangs",
    }
    QueueUp {
        uz: "Redis qaytdi",
        en: "Redis back up",
    }
    RetryFailed {
        uz: "Failed ishlarni qayta urinish",
        en: "Retry failed jobs",
    }
    FailEvent {
        uz: "Hodisani yuborish muvaffaqiyatsiz bo'lsin",
        en: "Make publishing an event fail",
    }
    EventNumber {
        uz: "Hodisa raqami (h-N)",
        en: "Event number (h-N)",
    }
    Times {
        uz: "Necha marta",
        en: "How many times",
    }
    SqlHeading {
        uz: "Jonli SQL",
        en: "Live SQL",
    }
    SqlIntro {
        uz: "Har bir jarayon bajaradigan buyruqlar; hozirgisi ajratilgan.",
        en: "The statements each process runs; the current one is highlighted.",
    }
    LogHeading {
        uz: "Hodisalar jurnali",
        en: "Event log",
    }
    LogEmpty {
        uz: "Hali hech narsa bo'lmadi.",
        en: "Nothing has happened yet.",
    }
    LifecycleHeading {
        uz: "Bitta hodisaning hayoti",
        en: "One event's life",
    }
    LifecycleHint {
        uz: "Jurnaldagi hodisa raqamini bosing yoki kiriting.",
        en: "Click an event id in the log, or type one.",
    }
    LifecycleUnknown {
        uz: "Bunday hodisa hali yaratilmagan.",
        en: "No such event has been made yet.",
    }
    LifeTask {
        uz: "Vazifa qatori",
        en: "Task row",
    }
    LifeOutbox {
        uz: "Outbox qatori",
        en: "Outbox row",
    }
    LifeJobs {
        uz: "Navbatdagi ish(lar)",
        en: "Queue job(s)",
    }
    LifeInbox {
        uz: "Inbox qatori",
        en: "Inbox row",
    }
    LifeCounts {
        uz: "Qo'shildi / jobId yutdi / yetkazildi / amal",
        en: "Added / absorbed by jobId / delivered / effects",
    }
    LifeClass {
        uz: "Holati",
        en: "Standing",
    }
    Yes {
        uz: "bor",
        en: "yes",
    }
    No {
        uz: "yo'q",
        en: "no",
    }
    ClassPending {
        uz: "kutilmoqda (vazifa hali COMMIT qilinmagan)",
        en: "pending (its task is not committed yet)",
    }
    ClassAborted {
        uz: "bekor (vazifa hech qachon bo'lmaydi)",
        en: "aborted (its task will never exist)",
    }
    ClassEffected {
        uz: "bajarildi",
        en: "acted on",
    }
    ClassInFlight {
        uz: "yo'lda",
        en: "in flight",
    }
    ClassLost {
        uz: "YO'QOLDI",
        en: "LOST",
    }
    HelpButton {
        uz: "Klaviatura (?)",
        en: "Keyboard (?)",
    }
    HelpHeading {
        uz: "Klaviatura",
        en: "Keyboard",
    }
    HelpSpace {
        uz: "Bo'sh joy: ishga tushirish / to'xtatish",
        en: "Space: play / pause",
    }
    HelpDot {
        uz: ". (nuqta): bir qadam",
        en: ". (dot): one step",
    }
    HelpComma {
        uz: ", (vergul): bir qadam orqaga",
        en: ", (comma): one step back",
    }
    HelpK {
        uz: "k: tanlangan jarayonni keyingi qadamida o'ldirish",
        en: "k: arm a kill at the selected process's next step",
    }
    HelpQuestion {
        uz: "?: shu yordam",
        en: "?: this help",
    }
    HelpEscape {
        uz: "Esc: yopish",
        en: "Esc: close",
    }
    Close {
        uz: "Yopish",
        en: "Close",
    }
    Selected {
        uz: "tanlangan",
        en: "selected",
    }
    Select {
        uz: "Tanlash",
        en: "Select",
    }
    ErrorHeading {
        uz: "Sahifada xato yuz berdi",
        en: "The page hit an error",
    }
    ErrorBody {
        uz: "Quyidagi hisobotni nusxalab, bizga yuboring. Sahifani yangilasangiz, saqlangan ssenariy qaytadi.",
        en: "Copy the report below and send it to us. Reloading the page brings your saved scenario back.",
    }
    ErrorCopy {
        uz: "Hisobotni nusxalash",
        en: "Copy the report",
    }
    StepSend {
        uz: "so'rov yuborish",
        en: "send the request",
    }
    StepAwait {
        uz: "javobni kutish",
        en: "await the answer",
    }
    StepBegin {
        uz: "BEGIN",
        en: "BEGIN",
    }
    StepInsertTask {
        uz: "INSERT vazifalar",
        en: "INSERT vazifalar",
    }
    StepInsertEvent {
        uz: "INSERT outbox",
        en: "INSERT outbox",
    }
    StepCommit {
        uz: "COMMIT",
        en: "COMMIT",
    }
    StepQueueAdd {
        uz: "queue.add",
        en: "queue.add",
    }
    StepRespond {
        uz: "javob: 201",
        en: "answer: 201",
    }
    StepSelectBatch {
        uz: "SELECT … partiya",
        en: "SELECT … batch",
    }
    StepPublish {
        uz: "queue.add (yuborish)",
        en: "queue.add (publish)",
    }
    StepMarkPublished {
        uz: "UPDATE tarqatildi",
        en: "UPDATE published",
    }
    StepMarkFailed {
        uz: "UPDATE urinishlar + 1",
        en: "UPDATE urinishlar + 1",
    }
    StepRollback {
        uz: "ROLLBACK",
        en: "ROLLBACK",
    }
    StepFetch {
        uz: "navbatdan ish olish",
        en: "take a job",
    }
    StepInboxCheck {
        uz: "inboxni tekshirish",
        en: "check the inbox",
    }
    StepInboxInsert {
        uz: "INSERT inbox",
        en: "INSERT inbox",
    }
    StepAction {
        uz: "amal (INSERT amallar)",
        en: "action (INSERT amallar)",
    }
    StepExternalCall {
        uz: "tashqi xizmatni chaqirish",
        en: "call the outside service",
    }
    StepBeginSecond {
        uz: "BEGIN (ikkinchi)",
        en: "BEGIN (second)",
    }
    StepCommitSecond {
        uz: "COMMIT (ikkinchi)",
        en: "COMMIT (second)",
    }
    StepComplete {
        uz: "ishni tasdiqlash (ack)",
        en: "acknowledge the job",
    }
    StepScript {
        uz: "psql buyrug'i {n}",
        en: "psql statement {n}",
    }
    ProcClient {
        uz: "mijoz",
        en: "client",
    }
    ProcApi {
        uz: "API",
        en: "API",
    }
    ProcRelay {
        uz: "relay {n}",
        en: "relay {n}",
    }
    ProcWorker {
        uz: "worker {n}",
        en: "worker {n}",
    }
    ProcPsql {
        uz: "psql sessiyasi",
        en: "psql session",
    }
    ProcRedis {
        uz: "Redis",
        en: "Redis",
    }
    NoteOk {
        uz: "bajarildi",
        en: "done",
    }
    NoteRows {
        uz: "{n} qator",
        en: "{n} rows",
    }
    NoteInserted {
        uz: "inbox: yangi hodisa",
        en: "inbox: a new event",
    }
    NoteInboxDup {
        uz: "inbox: allaqachon bor (ON CONFLICT DO NOTHING)",
        en: "inbox: already there (ON CONFLICT DO NOTHING)",
    }
    NoteCommitted {
        uz: "COMMIT",
        en: "COMMIT",
    }
    NoteRolledBack {
        uz: "ROLLBACK",
        en: "ROLLBACK",
    }
    NoteAdded {
        uz: "{e} navbatga qo'shildi",
        en: "{e} added to the queue",
    }
    NoteAddDedup {
        uz: "{e}: shu jobId bor, qo'shilmadi",
        en: "{e}: that jobId exists, not added",
    }
    NoteAddRefused {
        uz: "{e}: Redis rad etdi",
        en: "{e}: Redis refused",
    }
    NotePublishFailed {
        uz: "{e}: yuborish muvaffaqiyatsiz",
        en: "{e}: publishing failed",
    }
    NoteDelivered {
        uz: "{e} workerga yetkazildi",
        en: "{e} delivered to a worker",
    }
    NoteEffect {
        uz: "{e}: amal bajarildi",
        en: "{e}: the action ran",
    }
    NoteSkipped {
        uz: "{e}: takror, o'tkazib yuborildi",
        en: "{e}: duplicate, skipped",
    }
    NoteCompleted {
        uz: "{e}: ish tasdiqlandi",
        en: "{e}: job acknowledged",
    }
    NoteCompleteLate {
        uz: "{e}: tasdiq kech qoldi (qulf boshqada)",
        en: "{e}: acknowledgement too late (lock lost)",
    }
    NoteBlocked {
        uz: "{who} ni kutmoqda",
        en: "waits for {who}",
    }
    NoteError {
        uz: "xato {code}",
        en: "error {code}",
    }
    NoteKilled {
        uz: "O'LDIRILDI",
        en: "KILLED",
    }
    NoteRestarted {
        uz: "qayta ishga tushdi",
        en: "restarted",
    }
    NoteStalled {
        uz: "{e}: ish qotib qoldi, qayta navbatga",
        en: "{e}: job stalled, back to waiting",
    }
    NoteStalledFailed {
        uz: "{e}: ish ko'p qotdi, failed ga o'tdi",
        en: "{e}: stalled too often, moved to failed",
    }
    NoteReplyOk {
        uz: "javob: 201 Created",
        en: "answer: 201 Created",
    }
    NoteReplyErr {
        uz: "javob: 500 xato",
        en: "answer: 500 error",
    }
    NoteKillArmed {
        uz: "o'lim qurollandi",
        en: "kill armed",
    }
    NoteQueueDown {
        uz: "Redis o'chdi",
        en: "Redis went down",
    }
    NoteQueueHangs {
        uz: "Redis osilib qoldi",
        en: "Redis hangs",
    }
    NoteQueueUp {
        uz: "Redis qaytdi",
        en: "Redis is back",
    }
    NotePublishFails {
        uz: "h-{n} ni yuborish {t} marta muvaffaqiyatsiz bo'ladi",
        en: "publishing h-{n} will fail {t} times",
    }
    NoteFailedRetried {
        uz: "failed ishlar qayta navbatga qo'yildi",
        en: "failed jobs were retried",
    }
    StepInsertKey {
        uz: "INSERT so'rov kaliti",
        en: "INSERT request key",
    }
    StepDeadLetter {
        uz: "outbox_olik ga ko'chirish",
        en: "move to outbox_olik",
    }
    StepReadWal {
        uz: "WAL ni o'qish",
        en: "read the WAL",
    }
    StepSaveOffset {
        uz: "offsetni saqlash",
        en: "save the offset",
    }
    StepCleanOutbox {
        uz: "DELETE eski outbox qatorlari",
        en: "DELETE old outbox rows",
    }
    StepCleanInbox {
        uz: "DELETE eski inbox qatorlari",
        en: "DELETE old inbox rows",
    }
    ProcCdc {
        uz: "CDC relay",
        en: "CDC relay",
    }
    ProcCleaner {
        uz: "tozalovchi",
        en: "cleaner",
    }
    NoteRedisFlushed {
        uz: "Redis bo'sh qaytdi: {n} ish yo'q bo'ldi",
        en: "Redis came back empty: {n} jobs gone",
    }
    NoteUnpublished {
        uz: "operator {n} qatorni qayta tarqatilmagan qildi",
        en: "the operator un-marked {n} rows",
    }
    NoteUnpublishRefused {
        uz: "operator UPDATE'i qulflangan qatorga urildi (55P03)",
        en: "the operator's UPDATE hit a locked row (55P03)",
    }
    CWalRetained {
        uz: "Saqlanayotgan WAL",
        en: "WAL retained",
    }
    CDeadLettered {
        uz: "outbox_olik da",
        en: "Dead-lettered",
    }
    CDupTasks {
        uz: "Takror vazifa",
        en: "Duplicate tasks",
    }
    RedisFlush {
        uz: "Redis ma'lumotsiz qayta ishga tushdi",
        en: "Redis restarts empty",
    }
    Unpublish {
        uz: "Qayta tarqatilmagan qilish (operator)",
        en: "Un-mark published rows (operator)",
    }
    SinceTick {
        uz: "shu tikdan beri",
        en: "since tick",
    }
    ColCleaner {
        uz: "Tozalovchi",
        en: "Cleaner",
    }
    SystemActor {
        uz: "tizim",
        en: "system",
    }
}

/// The language state, shared through context. `Copy`, so closures take it by value.
#[derive(Clone, Copy, Debug)]
pub struct I18n {
    lang: RwSignal<Lang>,
}

impl I18n {
    /// The current language (tracked: a closure that calls it re-runs on a switch).
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }

    /// Switches the page to `lang`.
    pub fn set_lang(&self, lang: Lang) {
        self.lang.set(lang);
    }

    /// The text of `key` in the current language (tracked).
    pub fn t(&self, key: Key) -> &'static str {
        t(self.lang.get(), key)
    }
}

/// Creates the language signal and provides it to every component below the caller.
pub fn provide_i18n(initial: Lang) -> I18n {
    let i18n = I18n {
        lang: RwSignal::new(initial),
    };
    provide_context(i18n);
    i18n
}

/// The text of `key` in the current language, tracked: usable as a view or an attribute.
/// Every key shares this one closure type, which keeps the page's code small (a closure
/// written out at each use is a new type, and each type is compiled again).
pub fn tr(key: Key) -> impl Fn() -> &'static str + Clone + Copy + Send + Sync + 'static {
    let i18n = use_i18n();
    move || i18n.t(key)
}

/// The [`I18n`] provided by an ancestor (`App` provides it).
pub fn use_i18n() -> I18n {
    expect_context::<I18n>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_non_empty_in_every_language() {
        for &key in Key::ALL {
            for lang in Lang::ALL {
                assert!(
                    !t(lang, key).trim().is_empty(),
                    "{key:?} is empty in {}",
                    lang.code()
                );
            }
        }
    }

    #[test]
    fn uzbek_is_the_default_and_codes_round_trip() {
        assert_eq!(Lang::default(), Lang::Uz);
        for lang in Lang::ALL {
            assert_eq!(Lang::from_code(lang.code()), Some(lang));
        }
        assert_eq!(Lang::from_code("ru"), None);
    }

    #[test]
    fn the_tagline_differs_between_languages() {
        assert_ne!(t(Lang::Uz, Key::Tagline), t(Lang::En, Key::Tagline));
    }
}
