//! Every text the page shows, in every language: a table (longer than 70 lines on
//! purpose, one entry a key). Each key is declared once with its Uzbek and its English
//! text; the macro accepts a key only with both, in the order `uz`, `en`, so a missing
//! translation does not compile.

use crate::i18n::Lang;

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
        uz: "Havolani ochib bo'lmadi ({why}). Saqlangan yugurishingiz (yoki standart ssenariy) ochiq qoldi.",
        en: "The link could not be opened ({why}). Your saved run (or the default scenario) stays open.",
    }
    /// Notice: saved state could not be read (corrupt, or from a newer version of the
    /// page); {why} is the reason and the key it was moved to.
    NoticeBadSaved {
        uz: "Saqlangan holatni o'qib bo'lmadi ({why}). U o'chirilmadi: brauzer xotirasida \"…/corrupt\" kaliti ostida saqlab qo'yildi, sahifa yangi holat bilan davom etadi.",
        en: "The saved state could not be read ({why}). It was not deleted: it is kept in the browser's storage under its \"…/corrupt\" key, and the page goes on with a fresh state.",
    }
    /// Notice: the saved run crashed the page while it was being opened last time; {why}
    /// is the key it was moved to.
    NoticeSavedCrashed {
        uz: "Saqlangan yugurish o'tgan safar ochilayotganda sahifani buzdi. U qayta ochilmaydi: \"{why}\" kaliti ostida saqlab qo'yildi, standart ssenariy boshlandi.",
        en: "The saved run crashed the page while it was being opened last time. It is not opened again: it is kept under the \"{why}\" key, and the default scenario was started.",
    }
    /// Notice: saving to the browser's storage failed (quota full, storage blocked).
    NoticeSaveFailed {
        uz: "Brauzer xotirasiga saqlab bo'lmadi ({why}). Keyingi qadamlar saqlanmaydi, lekin yugurish ulashish havolasida bor: \"Havolani ulashish\" tugmasini bosib, havolani saqlab qo'ying.",
        en: "Saving to the browser's storage failed ({why}). Later steps are not saved, but the run is still in the share link: press \"Share link\" and keep the link.",
    }
    /// Notice: a link replaced a different saved run, kept under {why}.
    NoticeLinkReplacedSaved {
        uz: "Havoladagi yugurish ochildi. Avvalgi saqlangan yugurishingiz o'chmadi (\"{why}\" kaliti ostida): uni tugma bilan qaytarishingiz mumkin.",
        en: "The link's run is open. Your previously saved run was not lost (it is under the \"{why}\" key): the button brings it back.",
    }
    /// The notice's button that brings back the run a link replaced.
    RestoreRun {
        uz: "Avvalgi yugurishimni qaytarish",
        en: "Restore my previous run",
    }
    /// Notice: the run a link replaced is back.
    NoticeRestoredRun {
        uz: "Avvalgi yugurishingiz qaytarildi.",
        en: "Your previous run is back.",
    }
    /// Notice: the clipboard refused the share link; {why} is the browser's reason.
    NoticeCopyFailed {
        uz: "Havolani nusxalab bo'lmadi ({why}). Uni quyidagi maydondan qo'lda nusxalang.",
        en: "The link could not be copied ({why}). Copy it by hand from the field below.",
    }
    /// Added to a share notice when the link is long; {n} is the length warned about.
    NoticeLinkLong {
        uz: "Diqqat: havola {n} belgidan uzun, ba'zi chat ilovalari bunday havolani kesib qo'yadi va u ochilmaydi. Uzoq yugurishni fayl sifatida yuborgan ma'qul.",
        en: "Note: the link is longer than {n} characters, and some chat apps cut such links, which then open nothing. A long run is safer sent as a file.",
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
        uz: "Fantom hodisalar",
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
        uz: "Yo'qoldi: {lost}. Takror yetkazish: {dd}. Takror amal: {de}. Fantom: {ph}.",
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
        uz: "Quyidagi hisobotni nusxalab, bizga yuboring. Sahifani yangilasangiz, saqlangan ssenariy qaytadi; sahifa yana buzilsa, \"Saqlangan holatni tozalash va qayta yuklash\" tugmasini bosing.",
        en: "Copy the report below and send it to us. Reloading the page brings your saved scenario back; if the page breaks again, press \"Reset saved state and reload\".",
    }
    ErrorCopy {
        uz: "Hisobotni nusxalash",
        en: "Copy the report",
    }
    /// The panic panel's button: forget everything the page saved, then reload.
    ErrorReset {
        uz: "Saqlangan holatni tozalash va qayta yuklash",
        en: "Reset saved state and reload",
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
    QueueAboutTitle {
        uz: "BullMQ 6.3.16 kabi",
        en: "Behaves like BullMQ 6.3.16",
    }
    QueueAbout {
        uz: "Bu navbat BullMQ 6.3.16 va Redis 7.0 kabi ishlaydi va haqiqiysi bilan qadamma-qadam tekshirilgan: navbatda bor jobId qayta qo'shilmaydi; workeri o'lgan ish qulfi tugagach navbat boshiga qaytadi; maxStalledCount martadan ko'p to'xtab qolgan ish keyingi safar olinganda bajarilmasdan failed holatiga o'tadi. Ustuvorlik (priority) va kechiktirish (delay) modellashtirilmagan.",
        en: "This queue behaves like BullMQ 6.3.16 on Redis 7.0, checked step by step against the real thing: a jobId already in the queue is not added again; a job whose worker died goes back to the head of the line when its lock runs out; a job that stalled more than maxStalledCount times is failed, unprocessed, the next time a worker fetches it. Priority and delay are not modelled.",
    }
    NoteRedisRestarted {
        uz: "Redis appendonly fayli bilan qayta ishga tushdi: {n} ish joyida",
        en: "Redis restarted from its append-only file: {n} jobs still there",
    }
    NoteUnpublished {
        uz: "operator {n} qatorni qayta tarqatilmagan qildi",
        en: "the operator un-marked {n} rows",
    }
    NoteUnpublishRefused {
        uz: "operator UPDATE'i relay qulflagan qatorni lock_timeout (1 ms) ichida ololmadi: 55P03, UPDATE bekor qilindi",
        en: "the operator's UPDATE waited longer than its lock_timeout (1 ms) for a row a relay holds: 55P03, the UPDATE was cancelled",
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
    RedisRestart {
        uz: "Redis appendonly bilan qayta ishga tushdi",
        en: "Redis restarts with appendonly",
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
    /// Lesson step `LoseDual`: its title.
    LLoseDualTitle {
        uz: "Dual write: hodisani yo'qotib ko'ring",
        en: "Dual write: make an event go missing",
    }
    /// What the step teaches, in our words.
    LLoseDualBody {
        uz: "API avval vazifani bazaga yozadi va COMMIT qiladi, keyin hodisani navbatga qo'shadi. Bu ikki alohida tizim: orada jarayon o'lsa, vazifa qoladi, hodisa esa hech qayerga ketmaydi.",
        en: "The API commits the task to the database first and only then adds the event to the queue. Two separate systems: if the process dies in between, the task stays and the event never goes anywhere.",
    }
    /// The goal the model checks.
    LLoseDualGoal {
        uz: "Maqsad: dual write rejimida kamida bitta hodisa yo'qolsin (yo'qolgan ≥ 1).",
        en: "Goal: under dual write, lose at least one event (lost ≥ 1).",
    }
    /// The hint.
    LLoseDualHint {
        uz: "API kartasida «navbatga qo'shish» qadamidagi o'ldirish tugmasini bosing, keyin ishga tushiring.",
        en: "On the API card, arm the kill at the \"add to queue\" step, then press play.",
    }
    /// The speaker's notes.
    LLoseDualNotes {
        uz: "Auditoriyadan so'rang: COMMIT bo'ldi, navbatga yozilmadi — kim buni sezadi? Javob: hech kim, xato ham chiqmaydi.",
        en: "Ask the room: the COMMIT happened, the queue write did not — who notices? Nobody; there is not even an error.",
    }
    /// Lesson step `CanonDual`: its title.
    LCanonDualTitle {
        uz: "Kanon o'lchovi: 100 vazifa, 90 hodisa",
        en: "The canon measurement: 100 tasks, 90 events",
    }
    /// What the step teaches, in our words.
    LCanonDualBody {
        uz: "Kanon 100 ta vazifa yaratadi va i % 10 == 3 bo'lgan har bir so'rovda API COMMIT'dan keyin, navbatga yozishdan oldin o'ladi. Ishga tushiring va ikki sonni solishtiring.",
        en: "The canon creates 100 tasks and, for every request with i % 10 == 3, the API dies after COMMIT and before the queue write. Run it and compare the two numbers.",
    }
    /// The goal the model checks.
    LCanonDualGoal {
        uz: "Maqsad: oxirigacha yurgizing — bazada 100, navbatda 90.",
        en: "Goal: run it to the end — 100 in the database, 90 in the queue.",
    }
    /// The hint.
    LCanonDualHint {
        uz: "Bo'sh joy tugmasi yoki ▶ ni bosing; tezlikni oshirsangiz tezroq tugaydi.",
        en: "Press space or ▶; a higher speed finishes sooner.",
    }
    /// The speaker's notes.
    LCanonDualNotes {
        uz: "Raqamlarni baland o'qing: bazada 100, navbatda 90. O'nta eslatma hech qachon ketmaydi va log'da hech narsa yo'q.",
        en: "Read the numbers aloud: 100 in the database, 90 in the queue. Ten reminders never go out, and the logs are silent.",
    }
    /// Lesson step `CanonOutbox`: its title.
    LCanonOutboxTitle {
        uz: "Xuddi shu o'lim, endi outbox bilan",
        en: "The same deaths, now with the outbox",
    }
    /// What the step teaches, in our words.
    LCanonOutboxBody {
        uz: "Endi API hodisani navbatga emas, outbox jadvaliga — vazifa bilan bitta tranzaksiyada yozadi. Alohida relay jadvalni o'qib, navbatga tarqatadi. O'limlar o'sha-o'sha: i % 10 == 3.",
        en: "Now the API writes the event into the outbox table, in the same transaction as the task, not into the queue. A separate relay reads the table and publishes. The deaths are the same: i % 10 == 3.",
    }
    /// The goal the model checks.
    LCanonOutboxGoal {
        uz: "Maqsad: oxirigacha yurgizing — bazada 100, navbatda 100, yo'qolgan 0.",
        en: "Goal: run it to the end — 100 in the database, 100 in the queue, 0 lost.",
    }
    /// The hint.
    LCanonOutboxHint {
        uz: "▶ ni bosing va relay kartasini kuzating: u tarqatilmagan qatorlarni partiyalab oladi.",
        en: "Press ▶ and watch the relay card: it takes the unpublished rows in batches.",
    }
    /// The speaker's notes.
    LCanonOutboxNotes {
        uz: "Farqni ko'rsating: API o'lsa ham hodisa bazada turibdi. Navbatga yetkazish endi qayta urinib bo'ladigan alohida ish.",
        en: "Point at the difference: even when the API dies, the event is already in the database. Delivering it is now a separate job that can be retried.",
    }
    /// Lesson step `OutboxTry`: its title.
    LOutboxTryTitle {
        uz: "Outbox bilan hodisani yo'qotishga urinib ko'ring",
        en: "Try to lose an event with the outbox",
    }
    /// What the step teaches, in our words.
    LOutboxTryBody {
        uz: "API'ni istalgan qadamida o'ldiring: BEGIN'dan keyin, vazifa yozilgandan keyin, hodisa yozilgandan keyin, COMMIT'dan keyin. Har safar yo vazifa ham hodisa ham yo'q, yo ikkalasi ham bor.",
        en: "Kill the API at any step you like: after BEGIN, after the task insert, after the event insert, after COMMIT. Each time either both the task and the event are gone, or both are there.",
    }
    /// The goal the model checks.
    LOutboxTryGoal {
        uz: "Maqsad: API'ni kamida uch xil qadamda o'ldiring, oxirigacha yurgizing — yo'qolgan baribir 0 (bu imkonsiz ekanini o'zingiz ko'rasiz).",
        en: "Goal: kill the API at three different steps at least and run to the end — lost stays 0 (you will see it cannot be done).",
    }
    /// The hint.
    LOutboxTryHint {
        uz: "API kartasida uchta turli qadamga o'ldirishni qo'ying (masalan hodisa yozish, COMMIT, javob), so'ng ▶.",
        en: "Arm kills at three different steps on the API card (say the event insert, COMMIT and respond), then ▶.",
    }
    /// The speaker's notes.
    LOutboxTryNotes {
        uz: "Xonadan taklif so'rang: qayerda o'ldirsak yo'qotamiz? Har taklifni sinab ko'ring — hech biri ishlamaydi.",
        en: "Ask the room where to kill to lose an event. Try every suggestion — none works.",
    }
    /// Lesson step `Rollback`: its title.
    LRollbackTitle {
        uz: "ROLLBACK: ikkala qator birga yo'qoladi",
        en: "ROLLBACK: both rows vanish together",
    }
    /// What the step teaches, in our words.
    LRollbackBody {
        uz: "Vazifa va hodisa yoziladi, keyingi qadamda esa xato chiqadi va tranzaksiya ROLLBACK bo'ladi. Bitta tranzaksiya — hammasi yoki hech narsa.",
        en: "The task and the event are written, then the next step fails and the transaction rolls back. One transaction: all or nothing.",
    }
    /// The goal the model checks.
    LRollbackGoal {
        uz: "Maqsad: oxirigacha yurgizing — vazifalar 0, hodisalar 0.",
        en: "Goal: run it to the end — 0 tasks, 0 events.",
    }
    /// The hint.
    LRollbackHint {
        uz: "▶ ni bosing va SQL panelida BEGIN … ROLLBACK ni kuzating.",
        en: "Press ▶ and follow BEGIN … ROLLBACK in the SQL panel.",
    }
    /// The speaker's notes.
    LRollbackNotes {
        uz: "Jadval sonlarini ko'rsating: 0 va 0. Yarim yozilgan holat yo'q.",
        en: "Show the table counts: 0 and 0. There is no half-written state.",
    }
    /// Lesson step `AppRole`: its title.
    LAppRoleTitle {
        uz: "Ilova roli: faqat yozadi",
        en: "The app role: write only",
    }
    /// What the step teaches, in our words.
    LAppRoleBody {
        uz: "API vazifalar_ilova roli bilan ishlaydi: u outbox'ga INSERT qila oladi, lekin o'qiy, o'zgartira yoki o'chira olmaydi. API buzilsa ham hujumchi hodisalarni o'qiy olmaydi va ularni «tarqatildi» deb belgilay olmaydi.",
        en: "The API runs as the vazifalar_ilova role: it may INSERT into the outbox, but not read, update or delete it. Even if the API is compromised, an attacker can neither read the events nor mark them as published.",
    }
    /// The goal the model checks.
    LAppRoleGoal {
        uz: "Maqsad: psql sessiyasini yurgizing — SELECT count(*) FROM outbox 42501 bilan rad etilsin.",
        en: "Goal: run the psql session — SELECT count(*) FROM outbox is refused with 42501.",
    }
    /// The hint.
    LAppRoleHint {
        uz: "▶ yoki «.» bilan sessiyani qadam-baqadam yurgizing va SQL panelini o'qing.",
        en: "Step the session with ▶ or \".\" and read the SQL panel.",
    }
    /// The speaker's notes.
    LAppRoleNotes {
        uz: "Ruxsat xatosini ko'rsating: permission denied for table outbox. Relay boshqa rolda, boshqa jarayonda ishlaydi.",
        en: "Point at the permission error: permission denied for table outbox. The relay runs as another role, in another process.",
    }
    /// Lesson step `RelayTwice`: its title.
    LRelayTwiceTitle {
        uz: "Relay bir hodisani ikki marta yuborsin",
        en: "Make the relay send an event twice",
    }
    /// What the step teaches, in our words.
    LRelayTwiceBody {
        uz: "Relay hodisani navbatga qo'shadi, keyin qatorni belgilaydi va COMMIT qiladi. Agar u qo'shgandan keyin, belgilashdan oldin o'lsa, tranzaksiya qaytadi va keyingi so'rov o'sha hodisani yana yuboradi. Yo'qolmaydi, lekin takrorlanadi.",
        en: "The relay adds the event to the queue, then marks the row and commits. If it dies after the add and before the mark, the transaction rolls back and the next poll sends the same event again. Nothing is lost, but it is sent twice.",
    }
    /// The goal the model checks.
    LRelayTwiceGoal {
        uz: "Maqsad: relay kamida bitta hodisani ikki marta yuborsin (jobId takrori yoki ikkinchi yetkazish ≥ 1).",
        en: "Goal: the relay sends at least one event twice (a jobId dedup hit or a second delivery ≥ 1).",
    }
    /// The hint.
    LRelayTwiceHint {
        uz: "Relay kartasida «tarqatildi deb belgilash» qadamiga o'ldirish qo'ying, so'ng ▶.",
        en: "Arm a kill at the relay's \"mark published\" step, then ▶.",
    }
    /// The speaker's notes.
    LRelayTwiceNotes {
        uz: "Bu at-least-once: jobId = hodisa_id takrorni navbatda ushlaydi, lekin faqat ish hali navbatda turganda.",
        en: "This is at-least-once: jobId = hodisa_id absorbs the repeat in the queue, but only while the job is still there.",
    }
    /// Lesson step `TwoRelays`: its title.
    LTwoRelaysTitle {
        uz: "Ikki relay, 200 hodisa, har biri bir marta",
        en: "Two relays, 200 events, each once",
    }
    /// What the step teaches, in our words.
    LTwoRelaysBody {
        uz: "Ikki relay parallel ishlaydi. FOR UPDATE SKIP LOCKED bilan biri qulflagan qatorlarni ikkinchisi o'tkazib yuboradi, shuning uchun ular bir qatorni hech qachon birga olmaydi.",
        en: "Two relays run side by side. With FOR UPDATE SKIP LOCKED, each skips the rows the other has locked, so they never take the same row.",
    }
    /// The goal the model checks.
    LTwoRelaysGoal {
        uz: "Maqsad: oxirigacha yurgizing — 200 hodisa, navbatga 200 qo'shish, takror 0.",
        en: "Goal: run it to the end — 200 events, 200 adds, no repeats.",
    }
    /// The hint.
    LTwoRelaysHint {
        uz: "▶ ni bosing; ikki relay kartasi navbatma-navbat ishlaydi.",
        en: "Press ▶; the two relay cards take turns.",
    }
    /// The speaker's notes.
    LTwoRelaysNotes {
        uz: "Ikkala relay ham ishlaganini ko'rsating: ish bo'lindi, takror yo'q.",
        en: "Show that both relays did work: the rows were split, nothing repeated.",
    }
    /// Lesson step `NoSkip`: its title.
    LNoSkipTitle {
        uz: "SKIP LOCKED'ni o'chiring",
        en: "Turn SKIP LOCKED off",
    }
    /// What the step teaches, in our words.
    LNoSkipBody {
        uz: "Qulflash usulini almashtiring: oddiy FOR UPDATE (kutadi va qayta tekshiradi), NOWAIT (xato 55P03) yoki qulfsiz SELECT (ikkala relay bir qatorni oladi). Har birida nima bo'lishini kuzating.",
        en: "Change the lock mode: plain FOR UPDATE (waits, then re-checks), NOWAIT (error 55P03) or a SELECT without a lock (both relays take the same rows). Watch what each one does.",
    }
    /// The goal the model checks.
    LNoSkipGoal {
        uz: "Maqsad: ikki relay SKIP LOCKED'dan boshqa usul bilan oxirigacha ishlasin.",
        en: "Goal: two relays run to the end with a lock mode other than SKIP LOCKED.",
    }
    /// The hint.
    LNoSkipHint {
        uz: "Rejimlar panelidagi «Relay qulfi» tanlovini o'zgartiring yoki pastdagi variant tugmalaridan birini bosing, so'ng ▶.",
        en: "Change the \"Relay lock\" choice in the modes panel, or press one of the variant buttons below, then ▶.",
    }
    /// The speaker's notes.
    LNoSkipNotes {
        uz: "Qulfsiz variantda jobId takrorlari sonini ko'rsating: relay'lar bir ishni ikki marta qildi, navbat uni yutdi.",
        en: "In the lock-free variant show the dedup count: the relays did the same work twice and the queue swallowed it.",
    }
    /// Lesson step `WhyInside`: its title.
    LWhyInsideTitle {
        uz: "O'zingiz tekshiring: nega relay tranzaksiya ichida yuboradi?",
        en: "Try it yourself: why does the relay publish inside its transaction?",
    }
    /// What the step teaches, in our words.
    LWhyInsideBody {
        uz: "Relay navbatga SELECT … FOR UPDATE'dan keyin, COMMIT'dan oldin yuboradi. Teskarisini qilsak — avval belgilab COMMIT, keyin yuborsak — nima bo'ladi? Javobni tanlang, so'ng modelda ko'ring.",
        en: "The relay publishes after SELECT … FOR UPDATE and before COMMIT. What if it did it the other way round — mark, COMMIT, then publish? Choose an answer, then watch the model.",
    }
    /// The goal the model checks.
    LWhyInsideGoal {
        uz: "Maqsad: to'g'ri javobni tanlang va «avval belgilaydigan» relay hodisani yo'qotganini oxirigacha yurgizib ko'ring.",
        en: "Goal: choose the right answer and run the mark-first relay to the end to watch it lose an event.",
    }
    /// The hint.
    LWhyInsideHint {
        uz: "Relay COMMIT'dan keyin, yuborishdan oldin o'lsa, qator allaqachon «tarqatildi» — uni hech kim qayta olmaydi.",
        en: "If the relay dies after its COMMIT and before the publish, the row already says published — nobody will ever pick it up again.",
    }
    /// The speaker's notes.
    LWhyInsideNotes {
        uz: "Tranzaksiya ichida yuborish — o'lim belgini ham qaytaradi, demak hodisa qayta yuboriladi: yo'qotish o'rniga takror.",
        en: "Publishing inside the transaction means a death also undoes the mark, so the event is sent again: a repeat instead of a loss.",
    }
    /// Lesson step `Cdc`: its title.
    LCdcTitle {
        uz: "CDC: WAL'dan o'qiydigan relay",
        en: "CDC: a relay that reads the WAL",
    }
    /// What the step teaches, in our words.
    LCdcBody {
        uz: "Polling o'rniga CDC relay Postgres'ning WAL jurnalini commit tartibida o'qiydi: ROLLBACK bo'lgan tranzaksiyalar unga hech qachon tushmaydi. U yuboradi, keyin o'qigan joyini (offset) saqlaydi.",
        en: "Instead of polling, a CDC relay reads PostgreSQL's WAL in commit order: rolled-back transactions never reach it. It publishes, then saves its offset.",
    }
    /// The goal the model checks.
    LCdcGoal {
        uz: "Maqsad: CDC relay'ni yuborgandan keyin, offsetni saqlashdan oldin o'ldiring va oxirigacha yurgizing — yo'qolgan 0.",
        en: "Goal: kill the CDC relay after it publishes and before it saves its offset, run to the end — 0 lost.",
    }
    /// The hint.
    LCdcHint {
        uz: "CDC kartasida «offsetni saqlash» qadamiga o'ldirish qo'ying, so'ng ▶. Qayta tug'ilganda u saqlangan joydan davom etadi.",
        en: "Arm a kill at the CDC card's \"save offset\" step, then ▶. On restart it resumes from the saved offset.",
    }
    /// The speaker's notes.
    LCdcNotes {
        uz: "Slot jurnalni relay qaytguncha saqlab turadi: «WAL saqlangan» hisoblagichini ko'rsating. Narxi — yana bir infratuzilma.",
        en: "The slot keeps the log until the relay is back: show the \"WAL retained\" counter. The price is one more piece of infrastructure.",
    }
    /// Lesson step `Cleanup`: its title.
    LCleanupTitle {
        uz: "Eski qatorlarni tozalash",
        en: "Cleaning up old rows",
    }
    /// What the step teaches, in our words.
    LCleanupBody {
        uz: "Outbox cheksiz o'smasligi uchun rejali ish eski qatorlarni o'chiradi. Lekin faqat tarqatilganlarini: yaratilgan vaqti bo'yicha o'chiradigan tozalovchi relay ishlamay turganda hali yuborilmagan hodisalarni ham o'chirib yuboradi.",
        en: "A scheduled job deletes old rows so the outbox does not grow forever — but only published ones: a cleaner that deletes by creation time alone also removes events not yet sent while the relay is down.",
    }
    /// The goal the model checks.
    LCleanupGoal {
        uz: "Maqsad: relay to'rt kun ishlamay turganda tozalovchi faqat tarqatilganlarni o'chirsin — yo'qolgan 0.",
        en: "Goal: with the relay down for four days, the cleaner deletes published rows only — 0 lost.",
    }
    /// The hint.
    LCleanupHint {
        uz: "Avval «Noto'g'ri tozalovchi» variantini yurgizib, yo'qotishni ko'ring; keyin «Darsdagi outboxTozala» variantini tanlang va ▶.",
        en: "Run the \"A broken cleaner\" variant first to see the loss; then pick \"The lesson's outboxTozala\" and ▶.",
    }
    /// The speaker's notes.
    LCleanupNotes {
        uz: "Bitta WHERE sharti — tarqatilgan_vaqt < … — butun farq. U bo'lmasa, tozalash hodisalarni yo'qotadi.",
        en: "One WHERE condition — tarqatilgan_vaqt < … — is the whole difference. Without it, cleanup loses events.",
    }
    /// Lesson step `AtMost`: its title.
    LAtMostTitle {
        uz: "Kafolatlar: at-most-once",
        en: "Guarantees: at-most-once",
    }
    /// What the step teaches, in our words.
    LAtMostBody {
        uz: "Bu relay avval belgilab COMMIT qiladi, keyin yuboradi. Yuborishdan oldin o'lsa, hodisa «tarqatilgan» bo'lib qoladi. Ishga tushirishdan oldin taxmin qiling.",
        en: "This relay marks and commits first, then publishes. If it dies before publishing, the event stays marked as published. Guess before you run it.",
    }
    /// The goal the model checks.
    LAtMostGoal {
        uz: "Maqsad: oxirigacha yurgizing — yo'qolgan ≥ 1 (ko'pi bilan bir marta: yo'qotish mumkin).",
        en: "Goal: run it to the end — lost ≥ 1 (at most once: losses are possible).",
    }
    /// The hint.
    LAtMostHint {
        uz: "O'lim oldidan sahifa to'xtaydi: «yo'qoladi», «takrorlanadi» yoki «joyida»ni tanlang, so'ng ochish tugmasini bosing.",
        en: "The page stops before the kill: choose lost, duplicate or fine, then press reveal.",
    }
    /// The speaker's notes.
    LAtMostNotes {
        uz: "Avval xona ovoz bersin, keyin R bilan oching.",
        en: "Let the room vote first, then reveal with R.",
    }
    /// Lesson step `AtLeast`: its title.
    LAtLeastTitle {
        uz: "Kafolatlar: at-least-once",
        en: "Guarantees: at-least-once",
    }
    /// What the step teaches, in our words.
    LAtLeastBody {
        uz: "Darsdagi relay, lekin worker'da inbox yo'q. Worker amalni bajarib COMMIT qiladi va tasdiqlashdan oldin o'ladi: ish qaytadan yetkaziladi. Taxmin qiling.",
        en: "The lesson's relay, but the worker has no inbox. The worker commits its action and dies before acknowledging: the job is delivered again. Make your guess.",
    }
    /// The goal the model checks.
    LAtLeastGoal {
        uz: "Maqsad: oxirigacha yurgizing — ikki marta bajarilgan amal ≥ 1 (kamida bir marta: takror mumkin).",
        en: "Goal: run it to the end — actions done twice ≥ 1 (at least once: repeats are possible).",
    }
    /// The hint.
    LAtLeastHint {
        uz: "O'lim oldidan tanlang, so'ng oching.",
        en: "Choose before the kill, then reveal.",
    }
    /// The speaker's notes.
    LAtLeastNotes {
        uz: "Hech narsa yo'qolmadi, lekin amal ikki marta bajarildi: bu to'lov bo'lsa, mijoz ikki marta to'laydi.",
        en: "Nothing was lost, but the action ran twice: if it were a payment, the customer would pay twice.",
    }
    /// Lesson step `Effectively`: its title.
    LEffectivelyTitle {
        uz: "Kafolatlar: samarali bir marta",
        en: "Guarantees: effectively once",
    }
    /// What the step teaches, in our words.
    LEffectivelyBody {
        uz: "Xuddi shu o'lim, endi worker inbox yozuvini amal bilan bitta tranzaksiyada qiladi. Qayta yetkazilgan ish inbox'da topiladi va o'tkazib yuboriladi. Taxmin qiling.",
        en: "The same death, but now the worker writes its inbox row in the same transaction as the action. The redelivered job is found in the inbox and skipped. Make your guess.",
    }
    /// The goal the model checks.
    LEffectivelyGoal {
        uz: "Maqsad: oxirigacha yurgizing — qayta yetkazish ≥ 1, lekin yo'qolgan 0 va takror amal 0.",
        en: "Goal: run it to the end — a redelivery ≥ 1, yet 0 lost and 0 repeated actions.",
    }
    /// The hint.
    LEffectivelyHint {
        uz: "O'lim oldidan tanlang, so'ng oching.",
        en: "Choose before the kill, then reveal.",
    }
    /// The speaker's notes.
    LEffectivelyNotes {
        uz: "«Aniq bir marta» yetkazish yo'q; bor narsa — kamida bir marta yetkazish va idempotent iste'molchi.",
        en: "There is no exactly-once delivery; what exists is at-least-once delivery plus an idempotent consumer.",
    }
    /// Lesson step `InboxThree`: its title.
    LInboxThreeTitle {
        uz: "Inbox: uch yetkazish, bitta amal",
        en: "Inbox: three deliveries, one effect",
    }
    /// What the step teaches, in our words.
    LInboxThreeBody {
        uz: "Bitta to'lov hodisasi (50 000) uch marta yetkaziladi; birinchi yetkazish tranzaksiya o'rtasida o'ladi. Inbox yozuvi va balans bitta tranzaksiyada.",
        en: "One payment event (50 000) is delivered three times; the first delivery dies in the middle of its transaction. The inbox row and the balance change share one transaction.",
    }
    /// The goal the model checks.
    LInboxThreeGoal {
        uz: "Maqsad: oxirigacha yurgizing — yetkazish ≥ 3, amal 1, balans 50 000.",
        en: "Goal: run it to the end — deliveries ≥ 3, effects 1, balance 50 000.",
    }
    /// The hint.
    LInboxThreeHint {
        uz: "O'lim oldidan tanlang, so'ng oching; balansni kuzating.",
        en: "Choose before the kill, then reveal; watch the balance.",
    }
    /// The speaker's notes.
    LInboxThreeNotes {
        uz: "Birinchi urinish ROLLBACK — balans 0; ikkinchisi — 50 000; uchinchisi inbox'da topiladi — baribir 50 000.",
        en: "The first try rolls back — balance 0; the second makes it 50 000; the third is found in the inbox — still 50 000.",
    }
    /// Lesson step `InboxOwnTx`: its title.
    LInboxOwnTxTitle {
        uz: "Inbox'ni buzing: alohida tranzaksiya",
        en: "Break the inbox: its own transaction",
    }
    /// What the step teaches, in our words.
    LInboxOwnTxBody {
        uz: "Inbox yozuvini amaldan alohida tranzaksiyaga ko'chiring. Worker inbox'ni COMMIT qilib, amaldan oldin o'lsa, qayta yetkazish «takror» deb o'tkazib yuboriladi va amal hech qachon bajarilmaydi.",
        en: "Move the inbox row into a transaction of its own. If the worker commits the inbox and dies before the action, the redelivery is skipped as a repeat and the action never happens.",
    }
    /// The goal the model checks.
    LInboxOwnTxGoal {
        uz: "Maqsad: worker rejimi «Inbox o'z tranzaksiyasida (avval)» bo'lsin va bitta amal yo'qolsin (yo'qolgan ≥ 1).",
        en: "Goal: the worker mode is \"Inbox in its own transaction (first)\" and one action is lost (lost ≥ 1).",
    }
    /// The hint.
    LInboxOwnTxHint {
        uz: "Rejimlar panelida worker himoyasini «Inbox o'z tranzaksiyasida (avval)» ga o'zgartiring, worker kartasida «BEGIN (ikkinchi)» qadamiga o'ldirish qo'ying, so'ng ▶.",
        en: "In the modes panel set the worker's guard to \"Inbox in its own transaction (first)\", arm a kill at the worker's \"BEGIN (second)\" step, then ▶.",
    }
    /// The speaker's notes.
    LInboxOwnTxNotes {
        uz: "Xulosa: inbox va amal faqat birga to'g'ri. Alohida bo'lsa — yo yo'qotish, yo takror.",
        en: "The takeaway: the inbox and the action are only right together. Apart, you get either a loss or a repeat.",
    }
    /// Quiz question `DualWrite`.
    QDualWrite {
        uz: "Dual write muammosi nima?",
        en: "What is the dual-write problem?",
    }
    QDualWriteOpt0 {
        uz: "Bitta ma'lumotni ikki jadvalga yozish sekin.",
        en: "Writing the same data into two tables is slow.",
    }
    QDualWriteWhy0 {
        uz: "Tezlik emas: gap ikki xil tizimda. Bitta bazadagi ikki jadval bitta tranzaksiyaga sig'adi.",
        en: "It is not about speed: it is about two different systems. Two tables in one database fit in one transaction.",
    }
    QDualWriteOpt1 {
        uz: "Bazaga va brokerga alohida yoziladi; orada o'lim bo'lsa, biri bor, ikkinchisi yo'q.",
        en: "The database and the broker are written separately; a death in between leaves one without the other.",
    }
    QDualWriteWhy1 {
        uz: "To'g'ri. Postgres tranzaksiyasi Redis'ni qamrab olmaydi, shuning uchun ikki yozuvni atomik qilishning oddiy yo'li yo'q.",
        en: "Right. A PostgreSQL transaction does not cover Redis, so there is no simple way to make the two writes atomic.",
    }
    QDualWriteOpt2 {
        uz: "Ikki worker bitta ishni bir vaqtda oladi.",
        en: "Two workers take the same job at the same time.",
    }
    QDualWriteWhy2 {
        uz: "Bu raqobat masalasi (uni qulflar hal qiladi), dual write emas.",
        en: "That is a race between consumers (locks handle it), not dual write.",
    }
    /// Quiz question `Outbox`.
    QOutbox {
        uz: "Outbox naqshini qisqacha tushuntiring.",
        en: "Explain the outbox pattern in one line.",
    }
    QOutboxOpt0 {
        uz: "Hodisa ma'lumot bilan bitta tranzaksiyada outbox jadvaliga yoziladi; relay keyin uni navbatga tarqatadi.",
        en: "The event is written into an outbox table in the same transaction as the data; a relay publishes it later.",
    }
    QOutboxWhy0 {
        uz: "To'g'ri. API faqat bitta tizimga yozadi; yetkazish — alohida, qayta urinib bo'ladigan ish.",
        en: "Right. The API writes to one system only; delivery becomes a separate job that can be retried.",
    }
    QOutboxOpt1 {
        uz: "API navbatga ikki marta yozadi, bittasi albatta yetib boradi.",
        en: "The API writes to the queue twice so one of them gets through.",
    }
    QOutboxWhy1 {
        uz: "Ikki marta yozish o'lim muammosini hal qilmaydi: COMMIT'dan keyin o'lsa, ikkalasi ham yozilmaydi.",
        en: "Writing twice does not help with deaths: if it dies after COMMIT, neither write happens.",
    }
    QOutboxOpt2 {
        uz: "Trigger har o'zgarishni brokerga yuboradi.",
        en: "A trigger sends every change to the broker.",
    }
    QOutboxWhy2 {
        uz: "Triggerning tashqi tizimga qilgan chaqiruvi ROLLBACK bilan bekor bo'lmaydi (bu yana dual write), trigger esa hodisaning biznes ma'nosini bilmaydi; darsda hodisani ilovaning o'zi yozadi.",
        en: "A trigger's call to an outside system is not undone by ROLLBACK (the dual write again), and a trigger does not know the event's business meaning; in the lesson the application writes the event.",
    }
    /// Quiz question `ExactlyOnce`.
    QExactlyOnce {
        uz: "Exactly-once yetkazish mumkinmi?",
        en: "Is exactly-once delivery possible?",
    }
    QExactlyOnceOpt0 {
        uz: "Ha, jobId = hodisa_id buni kafolatlaydi.",
        en: "Yes, jobId = hodisa_id guarantees it.",
    }
    QExactlyOnceWhy0 {
        uz: "jobId faqat ish navbatda turganda takrorni yutadi; removeOnComplete'dan keyin yoki Redis tozalangandan keyin yana yetkaziladi.",
        en: "The jobId only absorbs a repeat while the job is in the queue; after removeOnComplete or a Redis flush it is delivered again.",
    }
    QExactlyOnceOpt1 {
        uz: "Yo'q; amalda at-least-once yetkazish va idempotent iste'molchi birga «samarali bir marta» beradi.",
        en: "No; in practice at-least-once delivery plus an idempotent consumer gives \"effectively once\".",
    }
    QExactlyOnceWhy1 {
        uz: "To'g'ri. Relay o'lishi mumkin bo'lgan joyda takror bo'ladi; uni iste'molchi inbox bilan ushlaydi.",
        en: "Right. Wherever the relay can die there can be a repeat; the consumer catches it with an inbox.",
    }
    QExactlyOnceOpt2 {
        uz: "Ha, agar relay'ni ikki nusxada ishga tushirsak.",
        en: "Yes, if we run two copies of the relay.",
    }
    QExactlyOnceWhy2 {
        uz: "Ikki relay faqat ishni bo'ladi (SKIP LOCKED); takror xavfini kamaytirmaydi.",
        en: "Two relays only share the work (SKIP LOCKED); they do not remove the risk of repeats.",
    }
    /// Quiz question `Idempotent`.
    QIdempotent {
        uz: "Idempotent iste'molchi qanday quriladi?",
        en: "How is an idempotent consumer built?",
    }
    QIdempotentOpt0 {
        uz: "Amaldan keyin alohida tranzaksiyada inbox'ga yoziladi.",
        en: "Write the inbox in a separate transaction after the action.",
    }
    QIdempotentWhy0 {
        uz: "Amal bo'lib, inbox yozilmasa, keyingi yetkazishda amal ikki marta bajariladi.",
        en: "If the action commits and the inbox write does not, the next delivery runs the action twice.",
    }
    QIdempotentOpt1 {
        uz: "Inbox'ni amaldan oldin alohida tranzaksiyada yozamiz.",
        en: "Write the inbox in its own transaction before the action.",
    }
    QIdempotentWhy1 {
        uz: "Inbox bo'lib, amal yiqilsa, keyingi yetkazish «takror» deb o'tkaziladi va amal hech qachon bajarilmaydi.",
        en: "If the inbox commits and the action fails, the next delivery is skipped as a repeat and the action never happens.",
    }
    QIdempotentOpt2 {
        uz: "hodisa_id PRIMARY KEY bo'lgan inbox'ga ON CONFLICT DO NOTHING bilan, amal bilan bitta tranzaksiyada yoziladi.",
        en: "Insert hodisa_id into an inbox with a PRIMARY KEY, ON CONFLICT DO NOTHING, in the same transaction as the action.",
    }
    QIdempotentWhy2 {
        uz: "To'g'ri. Faqat birga: yo ikkalasi ham, yo hech biri.",
        en: "Right. Only together: both or neither.",
    }
    /// The "try it yourself" question's answer.
    WhyOpt0 {
        uz: "Tezroq ishlashi uchun.",
        en: "So that it runs faster.",
    }
    WhyWhy0 {
        uz: "Tezlik emas: yuborish tranzaksiyani uzaytiradi, qulflar uzoqroq turadi.",
        en: "Not speed: publishing inside makes the transaction longer and keeps the locks longer.",
    }
    WhyOpt1 {
        uz: "O'lim belgini ham qaytarsin: hodisa qayta yuboriladi, yo'qolmaydi.",
        en: "So that a death also undoes the mark: the event is sent again instead of lost.",
    }
    WhyWhy1 {
        uz: "To'g'ri. COMMIT'dan oldin o'lsa, ROLLBACK qatorni «tarqatilmagan» qoldiradi; keyingi so'rov uni yana oladi.",
        en: "Right. A death before COMMIT rolls the mark back; the next poll picks the row up again.",
    }
    WhyOpt2 {
        uz: "Navbat tranzaksiyaga qo'shilishi uchun.",
        en: "So that the queue joins the transaction.",
    }
    WhyWhy2 {
        uz: "Redis Postgres tranzaksiyasiga qo'shila olmaydi — dual write muammosining o'zi shu.",
        en: "Redis cannot join a PostgreSQL transaction — that is the dual-write problem itself.",
    }
    CourseHeading {
        uz: "Dars",
        en: "Lesson",
    }
    TabPath {
        uz: "Qadamlar",
        en: "Steps",
    }
    TabExercises {
        uz: "Mashqlar",
        en: "Exercises",
    }
    TabQuiz {
        uz: "Savollar",
        en: "Quiz",
    }
    StepOf {
        uz: "{n}-qadam / {m}",
        en: "Step {n} of {m}",
    }
    SectionLabel {
        uz: "§{s}",
        en: "§{s}",
    }
    GoalReached {
        uz: "✓ Maqsadga erishildi",
        en: "✓ Goal reached",
    }
    GoalNotYet {
        uz: "Maqsadga hali erishilmadi",
        en: "Goal not reached yet",
    }
    HintShow {
        uz: "Maslahat",
        en: "Hint",
    }
    ShowMe {
        uz: "Ko'rsat",
        en: "Show me",
    }
    PrevStep {
        uz: "← Oldingi",
        en: "← Previous",
    }
    NextStep {
        uz: "Keyingi →",
        en: "Next →",
    }
    RestartStep {
        uz: "Qadamni qayta boshlash",
        en: "Restart the step",
    }
    Variants {
        uz: "Variantlar:",
        en: "Variants:",
    }
    StepsDone {
        uz: "{n} / {m} qadam bajarildi",
        en: "{n} of {m} steps done",
    }
    ProgressReset {
        uz: "Natijani tozalash",
        en: "Reset progress",
    }
    ProgressExport {
        uz: "JSON sifatida yuklab olish",
        en: "Download as JSON",
    }
    ProgressResetDone {
        uz: "Natija tozalandi.",
        en: "Progress cleared.",
    }
    PresenterOn {
        uz: "Taqdimot rejimi",
        en: "Presenter mode",
    }
    PresenterOff {
        uz: "Taqdimotdan chiqish",
        en: "Leave presenter mode",
    }
    NotesOpen {
        uz: "Ma'ruzachi eslatmalari",
        en: "Speaker notes",
    }
    NotesHeading {
        uz: "Ma'ruzachi eslatmalari",
        en: "Speaker notes",
    }
    NotesWaiting {
        uz: "Asosiy oyna kutilmoqda… Taqdimot oynasida qadamni almashtiring.",
        en: "Waiting for the main window… change the step there.",
    }
    NotesNext {
        uz: "Keyingisi:",
        en: "Next:",
    }
    NotesAnswer {
        uz: "Javob:",
        en: "Answer:",
    }
    PredictAsk {
        uz: "Bashorat qiling: nima bo'ladi?",
        en: "Predict: what will happen?",
    }
    PredictPaused {
        uz: "O'limdan oldin to'xtadi. Nima bo'ladi?",
        en: "Paused before the kill. What will happen?",
    }
    OutcomeLost {
        uz: "Yo'qoladi",
        en: "Lost",
    }
    OutcomeDuplicate {
        uz: "Takrorlanadi",
        en: "Duplicate",
    }
    OutcomeFine {
        uz: "Joyida",
        en: "Fine",
    }
    Reveal {
        uz: "Ochish (R)",
        en: "Reveal (R)",
    }
    PredictRight {
        uz: "To'g'ri taxmin!",
        en: "You called it!",
    }
    PredictWrong {
        uz: "Taxmin boshqa edi.",
        en: "Not what you predicted.",
    }
    PredictResult {
        uz: "Natija:",
        en: "Result:",
    }
    PredictChosen {
        uz: "Sizning taxminingiz:",
        en: "Your guess:",
    }
    Ex1Heading {
        uz: "1-mashq: bo'shliqlarni to'ldiring",
        en: "Exercise 1: fill in the blanks",
    }
    Ex1Blank1 {
        uz: "Ikki tizimga alohida yozish muammosi — ___ write",
        en: "Writing to two systems separately is the ___ write problem",
    }
    Ex1Blank2 {
        uz: "Hodisa ma'lumot bilan bitta ___ da yoziladi",
        en: "The event is written in the same ___ as the data",
    }
    Ex1Blank3 {
        uz: "Outbox'dan o'qib tarqatuvchi jarayon — ___",
        en: "The process that reads the outbox and publishes — ___",
    }
    Ex1Blank4 {
        uz: "Parallel relay'lar bir qatorni olmasligi uchun — FOR UPDATE ___",
        en: "So that parallel relays never take the same row — FOR UPDATE ___",
    }
    Ex1Blank5 {
        uz: "Iste'molchi tomondagi dedup jadvali — ___",
        en: "The consumer's dedup table — ___",
    }
    Ex1Check {
        uz: "Tekshirish",
        en: "Check",
    }
    Ex1Score {
        uz: "{n} / 5 to'g'ri",
        en: "{n} of 5 right",
    }
    AnswerRight {
        uz: "to'g'ri",
        en: "right",
    }
    AnswerWrong {
        uz: "noto'g'ri",
        en: "wrong",
    }
    Ex2Heading {
        uz: "2-mashq: relay modeli",
        en: "Exercise 2: the relay model",
    }
    Ex2Intro {
        uz: "Beshta hodisa, 3-hodisani yuborish birinchi safar xato beradi; relay uch marta chaqiriladi. Chapda — darsdagi kutilgan chiqish, o'ngda — modelimiz.",
        en: "Five events; publishing event 3 fails the first time; the relay is called three times. Left: the lesson's expected output; right: our model's.",
    }
    Ex3Heading {
        uz: "3-mashq: to'lov inbox'i",
        en: "Exercise 3: the payment inbox",
    }
    Ex3Intro {
        uz: "t-1 to'lovi (50 000) uch marta yetkaziladi, birinchisi tranzaksiya o'rtasida o'ladi. Balans qancha bo'ladi?",
        en: "Payment t-1 (50 000) is delivered three times; the first dies mid-transaction. What is the balance?",
    }
    ExRun {
        uz: "Modelda yurgizish",
        en: "Run in the model",
    }
    ExLoad {
        uz: "O'yin maydoniga yuklash",
        en: "Load into the playground",
    }
    ExExpected {
        uz: "Kutilgan (dars)",
        en: "Expected (lesson)",
    }
    ExActual {
        uz: "Model",
        en: "Model",
    }
    ExMatch {
        uz: "✓ mos keldi",
        en: "✓ matches",
    }
    ExMismatch {
        uz: "✗ farq bor",
        en: "✗ differs",
    }
    Balance {
        uz: "Balans",
        en: "Balance",
    }
    QuizHeading {
        uz: "Intervyu savollari",
        en: "Interview questions",
    }
    QuizScore {
        uz: "{n} / {m} to'g'ri",
        en: "{n} of {m} right",
    }
    PresenterKeys {
        uz: "PgDn/PgUp — qadamlar, bo'sh joy — ishga tushirish, «.» — bir qadam, 1/2/3 — taxmin, R — ochish, Esc — chiqish",
        en: "PgDn/PgUp — steps, space — play, \".\" — one step, 1/2/3 — guess, R — reveal, Esc — leave",
    }
    WhyHeading {
        uz: "Javobingiz:",
        en: "Your answer:",
    }
    HelpPgKeys {
        uz: "PgDn / PgUp — dars qadamlari (taqdimot rejimida)",
        en: "PgDn / PgUp — the lesson's steps (presenter mode)",
    }
    SeqHeading {
        uz: "Ketma-ketlik diagrammasi",
        en: "Sequence diagram",
    }
    SeqExport {
        uz: "SVG sifatida yuklab olish",
        en: "Download as SVG",
    }
    SeqPostgres {
        uz: "PostgreSQL",
        en: "PostgreSQL",
    }
    SeqQueue {
        uz: "Navbat (Redis)",
        en: "Queue (Redis)",
    }
    SeqKilled {
        uz: "o'ldirildi:",
        en: "killed:",
    }
    SeqLost {
        uz: "yo'qoldi — bazada bor, hech qachon bajarilmaydi",
        en: "lost — in the database, never acted on",
    }
    SeqPhantom {
        uz: "fantom — vazifasi yo'q hodisa yetkazildi",
        en: "phantom — delivered for a task that never existed",
    }
    SeqDupEffect {
        uz: "amal ikki marta bajarildi",
        en: "acted on twice",
    }
    SeqDup {
        uz: "ikki marta yuborildi yoki yetkazildi",
        en: "sent or delivered twice",
    }
    DesignDualDbFirst {
        uz: "Dual write: avval baza",
        en: "Dual write, DB first",
    }
    DesignDualQueueFirst {
        uz: "Dual write: avval navbat",
        en: "Dual write, queue first",
    }
    DesignAtMostOnce {
        uz: "Outbox, avval belgilaydigan relay",
        en: "Outbox, mark-first relay",
    }
    DesignOutbox {
        uz: "Outbox (inbox'siz)",
        en: "Outbox (no inbox)",
    }
    DesignOutboxInbox {
        uz: "Outbox + inbox",
        en: "Outbox + inbox",
    }
    CellLost {
        uz: "yo'qoladi",
        en: "lost",
    }
    CellDupEffect {
        uz: "ikki amal",
        en: "duplicate effect",
    }
    CellPhantom {
        uz: "fantom",
        en: "phantom",
    }
    CellDupDelivery {
        uz: "ikki yetkazish",
        en: "duplicate delivery",
    }
    CellFine {
        uz: "joyida",
        en: "fine",
    }
    CellNa {
        uz: "—",
        en: "—",
    }
    NoticeBadTrace {
        uz: "Faylni ochib bo'lmadi: {why}. Joriy ishga tegilmadi.",
        en: "The file could not be opened: {why}. The current run is untouched.",
    }
    NoticeImported {
        uz: "Fayl yuklandi.",
        en: "The file was loaded.",
    }
    /// Notice: the imported run is open but could not be saved; {why} is the reason.
    NoticeImportedNotSaved {
        uz: "Fayl ochildi, lekin brauzer xotirasiga saqlanmadi ({why}): sahifani yangilasangiz, u yo'qoladi. Uni saqlash uchun havolasini ulashing yoki faylni asrab qo'ying.",
        en: "The file is open but could not be saved in the browser's storage ({why}): reloading the page loses it. Keep the file, or share its link to keep it.",
    }
    /// Notice: a file over the import limit was refused unread; {why} is its size and the limit.
    NoticeFileTooBig {
        uz: "Fayl juda katta ({why}), shuning uchun o'qilmadi. Joriy ishga tegilmadi.",
        en: "The file is too big ({why}), so it was not read. The current run is untouched.",
    }
    ProofHeading {
        uz: "Isbot: barcha jadvallar va o'lim nuqtalari",
        en: "Prove it: every schedule and every crash point",
    }
    ProofIntro {
        uz: "Bitta ishga tushirish emas, hammasi: kichik dunyoda har bir navbatma-navbatlik va har bir o'lim nuqtasi ko'rib chiqiladi. Dual write uchun eng qisqa yo'qotuvchi jadval topiladi; outbox + inbox uchun hech biri yo'q.",
        en: "Not one run but all of them: in a small world every interleaving and every crash point is searched. Dual write yields its shortest losing schedule; outbox + inbox yields none.",
    }
    ProofBounds {
        uz: "Chegaralar: {tasks} vazifa, {relays} relay, {workers} worker, ko'pi bilan {kills} o'lim.",
        en: "Bounds: {tasks} tasks, {relays} relays, {workers} worker, up to {kills} kills.",
    }
    ProofRun {
        uz: "Hammasini tekshirish",
        en: "Check them all",
    }
    ProofProgress {
        uz: "{states} holat, {ms} ms ({rate} holat/s)",
        en: "{states} states, {ms} ms ({rate} states/s)",
    }
    ProofHolds {
        uz: "bajariladi: {states} holat / {schedules} jadval",
        en: "holds over {states} states / {schedules} schedules",
    }
    ProofBroken {
        uz: "buziladi: {n} amal ({choices} tanlov) — yuklash",
        en: "broken: {n} actions ({choices} choices) — load it",
    }
    MatrixHeading {
        uz: "O'lim nuqtalari matritsasi",
        en: "The crash-point matrix",
    }
    MatrixIntro {
        uz: "Har qator — jarayonning bitta qadami, har ustun — bitta dizayn. Katak: shu qadamda o'ldirilsa nima bo'ladi (barcha navbatma-navbatliklar ichida eng yomoni). Katakni bossangiz, eng qisqa jadval o'yin maydoniga yuklanadi.",
        en: "Each row is one step of a process, each column a design. A cell says what a kill at that step leads to (the worst over every interleaving). Click a cell to load its shortest schedule into the playground.",
    }
    MatrixRun {
        uz: "Matritsani hisoblash",
        en: "Compute the matrix",
    }
    MatrixProgress {
        uz: "{n} / {m} katak",
        en: "{n} of {m} cells",
    }
    LsHeading {
        uz: "Yonma-yon",
        en: "Side by side",
    }
    LsIntro {
        uz: "Bir xil seed va bir xil o'limlar ikki-uch dizayn orqali qadam-baqadam: hisoblagichlar qayerda ajralishini kuzating.",
        en: "The same seed and the same kills through two or three designs, step by step: watch where the counters part ways.",
    }
    LsTasks {
        uz: "Bazadagi vazifalar",
        en: "Tasks in the DB",
    }
    LsJobs {
        uz: "Navbatdagi ishlar",
        en: "Jobs in the queue",
    }
    LsEffects {
        uz: "Amallar",
        en: "Effects",
    }
    LsLost {
        uz: "Yo'qolgan",
        en: "Lost",
    }
    LsDupEffects {
        uz: "Ikki marta bajarilgan",
        en: "Duplicate effects",
    }
    LsPhantoms {
        uz: "Fantomlar",
        en: "Phantoms",
    }
    LsSeed {
        uz: "Seed",
        en: "Seed",
    }
    LsKillApi {
        uz: "API COMMIT'dan keyin o'ladi (i % 10 == 3)",
        en: "The API dies after COMMIT (i % 10 == 3)",
    }
    LsKillWorker {
        uz: "Worker COMMIT'dan keyin, tasdiqdan oldin o'ladi (i % 10 == 3)",
        en: "The worker dies after COMMIT, before the ack (i % 10 == 3)",
    }
    LsRun {
        uz: "Yonma-yon yurgizish",
        en: "Run side by side",
    }
    IoHeading {
        uz: "Eksport va import",
        en: "Export and import",
    }
    IoTrace {
        uz: "Jadval (JSON)",
        en: "Trace (JSON)",
    }
    IoRustTest {
        uz: "Rust testi sifatida",
        en: "As a Rust test",
    }
    IoScenario {
        uz: "Ssenariy (JSON)",
        en: "Scenario (JSON)",
    }
    IoImport {
        uz: "Fayldan yuklash:",
        en: "Import a file:",
    }
    IoTooLong {
        uz: "Bu ishga tushirish jadval sifatida eksport qilish uchun juda uzun; ssenariyni yuklab oling.",
        en: "This run is too long to export as a trace; download its scenario instead.",
    }
    HelpReveal {
        uz: "1 / 2 / 3 — taxmin, R — ochish",
        en: "1 / 2 / 3 — a guess, R — reveal",
    }
}
