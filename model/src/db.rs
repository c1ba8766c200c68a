//! PostgreSQL, as much of it as the lesson touches: READ COMMITTED transactions whose
//! writes stay private until COMMIT, row locks, `FOR UPDATE` with `SKIP LOCKED`, `NOWAIT`
//! or plain waiting (the waiter re-checks its WHERE clause on the row's newest version, as
//! PostgreSQL's EvalPlanQual does), identity ids handed out at INSERT and visible at
//! COMMIT, roles with grants, and a commit-ordered log for CDC.
//!
//! Each statement runs in one call. A statement that must wait for another transaction's
//! row lock returns [`Exec::Blocked`] and keeps its progress in a cursor the caller owns;
//! the caller calls again once that transaction has ended.

use crate::ids::{EventId, EventKind, TxId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// SQLSTATE codes the model can raise, as PostgreSQL names them.
pub mod sqlstate {
    pub const INSUFFICIENT_PRIVILEGE: &str = "42501";
    pub const LOCK_NOT_AVAILABLE: &str = "55P03";
    pub const DEADLOCK_DETECTED: &str = "40P01";
    pub const IN_FAILED_TRANSACTION: &str = "25P02";
}

/// An error as PostgreSQL reports it: SQLSTATE and message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SqlError {
    pub code: &'static str,
    pub message: &'static str,
}

impl SqlError {
    pub const fn new(code: &'static str, message: &'static str) -> Self {
        SqlError { code, message }
    }
}

/// The result of one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exec<T> {
    Done(T),
    /// Waiting for this transaction to end; call again afterwards.
    Blocked(TxId),
    Err(SqlError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TxStatus {
    Active,
    /// A statement failed; everything but ROLLBACK now fails with 25P02.
    Failed,
    Committed,
    Aborted,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The schema owner; the relay, worker and cleaner connect as it.
    Owner,
    /// `vazifalar_ilova`: INSERT on `vazifalar` and `outbox`, nothing else on the outbox.
    App,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Vazifalar,
    Outbox,
    Inbox,
    Amallar,
    /// `sorov_kalitlari`: the API's idempotency keys (one per client request).
    SorovKalitlari,
}

impl Table {
    /// PostgreSQL's words for a refused privilege on this table.
    pub fn permission_denied(self) -> &'static str {
        match self {
            Table::Vazifalar => "permission denied for table vazifalar",
            Table::Outbox => "permission denied for table outbox",
            Table::Inbox => "permission denied for table inbox",
            Table::Amallar => "permission denied for table amallar",
            Table::SorovKalitlari => "permission denied for table sorov_kalitlari",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Table::Vazifalar => "vazifalar",
            Table::Outbox => "outbox",
            Table::Inbox => "inbox",
            Table::Amallar => "amallar",
            Table::SorovKalitlari => "sorov_kalitlari",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Privilege {
    Select,
    Insert,
    Update,
    Delete,
}

/// How the relay's poll locks its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LockMode {
    /// `FOR UPDATE SKIP LOCKED` (the lesson's choice).
    SkipLocked,
    /// `FOR UPDATE NOWAIT`: error 55P03 on the first locked row.
    Nowait,
    /// `FOR UPDATE`: wait for the holder, then re-check the row.
    Wait,
    /// A plain `SELECT`: no row locks at all.
    None,
}

/// What an UPDATE or DELETE on the outbox does to each row it takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutboxChange {
    /// The relay's mark: `tarqatilgan_vaqt = now(), urinishlar = urinishlar + 1`.
    Published,
    /// A failed publish: `urinishlar = urinishlar + 1`.
    Attempt,
    /// `tarqatilgan_vaqt = now()` alone (the app-role probe).
    SetPublished,
    /// `tarqatilgan_vaqt = NULL`: send it again.
    Unpublish,
    /// `DELETE`.
    Delete,
    /// Moved to the dead-letter table `outbox_olik` (a DELETE … RETURNING into an INSERT).
    DeadLetter,
}

impl LockMode {
    /// The relay's poll with this lock clause, from the one SQL source.
    pub fn poll_sql(self) -> &'static str {
        match self {
            LockMode::SkipLocked => crate::sql::SELECT_BATCH_SKIP_LOCKED,
            LockMode::Nowait => crate::sql::SELECT_BATCH_NOWAIT,
            LockMode::Wait => crate::sql::SELECT_BATCH_WAIT,
            LockMode::None => crate::sql::SELECT_BATCH_HEAD,
        }
    }
}

/// A task row (`vazifalar`); its id is its index + 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct TaskRow {
    pub egasi_id: u32,
    /// Which client request made it (the lesson's loop index `i`).
    pub intent: u32,
    pub xmin: TxId,
}

/// The mutable part of an outbox row: what an UPDATE or DELETE changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutboxData {
    pub tarqatilgan_vaqt: Option<u64>,
    pub urinishlar: u32,
    pub deleted: bool,
    /// Deleted by the dead-letter move: the row now lives in `outbox_olik`.
    pub dead_letter: bool,
}

/// An outbox row. `data` is the newest committed version; the lock holder's private
/// version lives in `Db::pending` until it commits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct OutboxRow {
    pub hodisa: EventId,
    pub kind: EventKind,
    pub foydalanuvchi_id: u32,
    /// `malumot`: the task's index and an amount, the payload the worker acts on.
    pub task_intent: u32,
    pub summa: u32,
    pub yaratilgan_vaqt: u64,
    pub xmin: TxId,
    pub data: OutboxData,
    /// The transaction holding the row lock (0: none).
    lock: TxId,
}

impl OutboxRow {
    /// The identity value (rows are stored by id).
    pub fn id(&self, idx: u32) -> u64 {
        idx as u64 + 1
    }
    pub fn lock(&self) -> Option<TxId> {
        (self.lock != 0).then_some(self.lock)
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
struct InboxSlot {
    /// 0 when the slot is empty.
    xmin: TxId,
    /// A transaction that deleted the row and has not ended yet (0: none).
    xmax: TxId,
    ishlangan_vaqt: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ActionRow {
    pub hodisa: EventId,
    pub summa: u32,
    pub xmin: TxId,
}

/// One committed transaction's outbox inserts, in commit order (what logical decoding
/// hands a CDC connector).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct WalRecord {
    pub lsn: u64,
    pub tx: TxId,
    pub events: Vec<EventId>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct TxWork {
    tx: TxId,
    role: Option<Role>,
    session_role: Option<Role>,
    start_tick: u64,
    tasks: Vec<u32>,
    outbox_inserted: Vec<u32>,
    outbox_locked: Vec<u32>,
    inbox: Vec<EventId>,
    inbox_deleted: Vec<EventId>,
    keys: Vec<u32>,
    actions: Vec<u32>,
}

/// A pool that every Db compares and hashes as equal: it holds no state.
#[derive(Clone, Debug, Default)]
// Boxed on purpose: records move between `work` and the pool as pointers.
#[allow(clippy::vec_box)]
struct Pool(Vec<Box<TxWork>>);

impl PartialEq for Pool {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Pool {}
impl std::hash::Hash for Pool {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// Progress of a row-locking or row-updating statement across waits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cursor {
    pub started: bool,
    /// Rows (outbox indexes) the statement's snapshot saw, in id order.
    pub candidates: Vec<u32>,
    pub pos: usize,
    /// Rows returned or changed so far.
    pub got: Vec<u32>,
}

impl Cursor {
    /// Back to the default, keeping the lists' memory for the next statement.
    pub fn reset(&mut self) {
        self.started = false;
        self.candidates.clear();
        self.pos = 0;
        self.got.clear();
    }
}

/// What a COMMIT made durable, for the world's auditor.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CommitOutcome {
    pub committed: bool,
    pub tasks: Vec<u32>,
    pub events: Vec<EventId>,
    pub touched_events: Vec<EventId>,
    pub inbox: Vec<EventId>,
    pub actions: Vec<(EventId, u32)>,
}

impl CommitOutcome {
    /// Empties every list, keeping the memory.
    pub fn clear(&mut self) {
        self.committed = false;
        self.tasks.clear();
        self.events.clear();
        self.touched_events.clear();
        self.inbox.clear();
        self.actions.clear();
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Db {
    txs: Vec<TxStatus>,
    /// Open transactions (few at a time: a linear list beats a map). Boxed, so taking one
    /// out at COMMIT and keeping it for reuse moves a pointer, not the record.
    #[allow(clippy::vec_box)]
    work: Vec<Box<TxWork>>,
    /// Emptied TxWork records kept for reuse, so a steady run does not allocate.
    spare: Pool,
    pub tasks: Vec<TaskRow>,
    pub outbox: Vec<OutboxRow>,
    /// Private versions of locked rows, by outbox index.
    pending: PendingRows,
    /// The partial index `outbox_tarqatilmagan`: committed rows not yet published.
    unpublished: RowSet,
    /// Outbox index by event, for lookups (u32::MAX: none).
    by_event: Vec<u32>,
    inbox: Vec<InboxSlot>,
    /// `sorov_kalitlari`, by the client request's index.
    keys: Vec<InboxSlot>,
    pub actions: Vec<ActionRow>,
    /// Committed counters kept as rows commit, so a snapshot never scans a table.
    committed_tasks: u64,
    committed_events: u64,
    committed_inbox: u64,
    committed_actions: u64,
    balance: u64,
    /// `GRANT SELECT (hodisa_id) ON outbox TO vazifalar_ilova` has been run.
    pub app_can_read_hodisa_id: bool,
    /// Retain the commit log (a replication slot exists).
    pub wal_retain: bool,
    pub wal: VecDeque<WalRecord>,
    /// Events in the retained log, for O(log n) lookups.
    wal_events: BTreeSet<u32>,
    next_lsn: u64,
    /// Rows moved to `outbox_olik` (committed).
    dead_letters: u64,
}

const NONE: u32 = u32::MAX;

/// Private versions of locked rows: (outbox index, data), sorted by index. Only rows a
/// transaction holds locked and has changed are here (a handful: one poll's rows).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct PendingRows(Vec<(u32, OutboxData)>);

impl PendingRows {
    fn get(&self, i: &u32) -> Option<&OutboxData> {
        let v = &self.0;
        v.binary_search_by_key(i, |e| e.0).ok().map(|k| &v[k].1)
    }
    fn insert(&mut self, i: u32, d: OutboxData) {
        match self.0.binary_search_by_key(&i, |e| e.0) {
            Ok(k) => self.0[k].1 = d,
            Err(k) => self.0.insert(k, (i, d)),
        }
    }
    fn keys(&self) -> impl Iterator<Item = &u32> {
        self.0.iter().map(|e| &e.0)
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A set of outbox indexes as a bitmap (bit `i` of word `i / 64`), with a summary word
/// per 64 words so that iterating a sparse set skips empty words: the partial index's
/// inserts and deletes are a few instructions, and it iterates in id order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct RowSet {
    words: Vec<u64>,
    /// Bit `k` of `summary[j]`: word `64 j + k` is not empty.
    summary: Vec<u64>,
    len: usize,
}

/// The set bits of a word, lowest first.
struct Bits(u64);

impl Iterator for Bits {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(b)
    }
}

impl RowSet {
    fn insert(&mut self, i: u32) -> bool {
        let (w, b) = (i as usize / 64, 1u64 << (i % 64));
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
            self.summary.resize(w / 64 + 1, 0);
        }
        if self.words[w] & b != 0 {
            return false;
        }
        self.words[w] |= b;
        self.summary[w / 64] |= 1 << (w % 64);
        self.len += 1;
        true
    }
    fn remove(&mut self, i: &u32) -> bool {
        let (w, b) = (*i as usize / 64, 1u64 << (i % 64));
        match self.words.get_mut(w) {
            Some(x) if *x & b != 0 => {
                *x &= !b;
                if *x == 0 {
                    self.summary[w / 64] &= !(1 << (w % 64));
                }
                self.len -= 1;
                true
            }
            _ => false,
        }
    }
    fn contains(&self, i: &u32) -> bool {
        self.words
            .get(*i as usize / 64)
            .is_some_and(|x| x & (1 << (i % 64)) != 0)
    }
    fn len(&self) -> usize {
        self.len
    }
    /// In increasing order.
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let words = &self.words;
        self.summary.iter().enumerate().flat_map(move |(j, &s)| {
            Bits(s).flat_map(move |k| {
                let w = j * 64 + k;
                Bits(words[w]).map(move |b| (w * 64 + b) as u32)
            })
        })
    }
}

impl Default for Db {
    fn default() -> Self {
        Db {
            // Tx 0 is a sentinel: committed, so it can own preloaded rows.
            txs: vec![TxStatus::Committed],
            work: Vec::new(),
            spare: Pool::default(),
            tasks: Vec::new(),
            outbox: Vec::new(),
            pending: PendingRows::default(),
            unpublished: RowSet::default(),
            by_event: Vec::new(),
            inbox: Vec::new(),
            keys: Vec::new(),
            actions: Vec::new(),
            committed_tasks: 0,
            committed_events: 0,
            committed_inbox: 0,
            committed_actions: 0,
            balance: 0,
            app_can_read_hodisa_id: false,
            wal_retain: false,
            wal: VecDeque::new(),
            wal_events: BTreeSet::new(),
            next_lsn: 1,
            dead_letters: 0,
        }
    }
}

impl Db {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for about this many tasks and events up front (a hint: tables still grow).
    pub(crate) fn reserve(&mut self, events: usize) {
        self.txs.reserve(3 * events + 1);
        self.tasks.reserve(events);
        self.outbox.reserve(events);
        self.by_event.reserve(events + 1);
        self.inbox.reserve(events + 1);
        self.actions.reserve(events);
    }

    // ----- transactions -------------------------------------------------------------

    pub fn begin(&mut self, role: Role, tick: u64) -> TxId {
        let tx = self.txs.len() as TxId;
        self.txs.push(TxStatus::Active);
        let mut w = self.spare.0.pop().unwrap_or_default();
        w.tx = tx;
        w.role = None;
        w.session_role = Some(role);
        w.start_tick = tick;
        self.work.push(w);
        tx
    }

    fn w(&self, tx: TxId) -> Option<&TxWork> {
        self.work.iter().find(|w| w.tx == tx).map(|w| &**w)
    }

    fn wm(&mut self, tx: TxId) -> Option<&mut TxWork> {
        self.work.iter_mut().find(|w| w.tx == tx).map(|w| &mut **w)
    }

    fn take_work(&mut self, tx: TxId) -> Option<Box<TxWork>> {
        let i = self.work.iter().position(|w| w.tx == tx)?;
        Some(self.work.swap_remove(i))
    }

    /// The transaction `w` ended and its rows are unlocked: their private versions go
    /// (every pending version belongs to a locked row).
    fn drop_unlocked_pending(&mut self, w: &TxWork) {
        if !w.outbox_locked.is_empty() && !self.pending.is_empty() {
            let outbox = &self.outbox;
            self.pending.0.retain(|e| outbox[e.0 as usize].lock != 0);
        }
    }

    fn recycle(&mut self, mut w: Box<TxWork>) {
        w.tasks.clear();
        w.outbox_inserted.clear();
        w.outbox_locked.clear();
        w.inbox.clear();
        w.inbox_deleted.clear();
        w.keys.clear();
        w.actions.clear();
        if self.spare.0.len() < 8 {
            self.spare.0.push(w);
        }
    }

    pub fn status(&self, tx: TxId) -> TxStatus {
        self.txs[tx as usize]
    }

    pub fn is_open(&self, tx: TxId) -> bool {
        matches!(self.status(tx), TxStatus::Active | TxStatus::Failed)
    }

    pub fn open_transactions(&self) -> usize {
        self.work.len()
    }

    /// `SET LOCAL ROLE`: lasts until the transaction ends.
    pub fn set_local_role(&mut self, tx: TxId, role: Role) -> Exec<()> {
        if let Err(e) = self.usable(tx) {
            return Exec::Err(e);
        }
        if let Some(w) = self.wm(tx) {
            w.role = Some(role);
        }
        Exec::Done(())
    }

    fn role(&self, tx: TxId) -> Role {
        let w = self.w(tx).expect("open tx");
        w.role.or(w.session_role).unwrap_or(Role::Owner)
    }

    /// `now()`: the transaction's start time, as in PostgreSQL.
    pub fn now(&self, tx: TxId) -> u64 {
        self.w(tx).map(|w| w.start_tick).unwrap_or(0)
    }

    fn usable(&self, tx: TxId) -> Result<(), SqlError> {
        match self.status(tx) {
            TxStatus::Active => Ok(()),
            TxStatus::Failed => Err(SqlError::new(
                sqlstate::IN_FAILED_TRANSACTION,
                "current transaction is aborted, commands ignored until end of transaction block",
            )),
            _ => Err(SqlError::new("25000", "no transaction in progress")),
        }
    }

    /// A statement failed outside the database's own checks (a deadlock victim).
    pub fn mark_failed(&mut self, tx: TxId) {
        if self.status(tx) == TxStatus::Active {
            self.txs[tx as usize] = TxStatus::Failed;
        }
    }

    fn fail<T>(&mut self, tx: TxId, e: SqlError) -> Exec<T> {
        if self.status(tx) == TxStatus::Active {
            self.txs[tx as usize] = TxStatus::Failed;
        }
        Exec::Err(e)
    }

    /// Checks a privilege the way PostgreSQL words the refusal.
    pub fn check(&self, tx: TxId, table: Table, p: Privilege) -> Result<(), SqlError> {
        let allowed = match self.role(tx) {
            Role::Owner => true,
            Role::App => matches!(
                (table, p),
                (Table::Vazifalar, Privilege::Insert)
                    | (Table::Outbox, Privilege::Insert)
                    | (Table::SorovKalitlari, Privilege::Insert)
            ),
        };
        if allowed {
            Ok(())
        } else {
            Err(SqlError::new(
                sqlstate::INSUFFICIENT_PRIVILEGE,
                table.permission_denied(),
            ))
        }
    }

    fn committed(&self, xmin: TxId) -> bool {
        self.txs[xmin as usize] == TxStatus::Committed
    }

    // ----- writes -------------------------------------------------------------------

    pub fn insert_task(&mut self, tx: TxId, egasi_id: u32, intent: u32) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Vazifalar, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        // Identity: the id is taken now, whether or not the row ever commits.
        let id = self.tasks.len() as u64 + 1;
        self.tasks.push(TaskRow {
            egasi_id,
            intent,
            xmin: tx,
        });
        self.wm(tx).expect("open tx").tasks.push((id - 1) as u32);
        Exec::Done(id)
    }

    /// INSERT into the outbox. `returning` asks for `hodisa_id` back, which needs SELECT
    /// on that column.
    #[allow(clippy::too_many_arguments)]
    pub fn insert_event(
        &mut self,
        tx: TxId,
        hodisa: EventId,
        kind: EventKind,
        foydalanuvchi_id: u32,
        task_intent: u32,
        summa: u32,
        returning: bool,
    ) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        if returning && self.role(tx) == Role::App && !self.app_can_read_hodisa_id {
            let e = SqlError::new(
                sqlstate::INSUFFICIENT_PRIVILEGE,
                "permission denied for table outbox",
            );
            return self.fail(tx, e);
        }
        let now = self.now(tx);
        let idx = self.outbox.len() as u32;
        self.outbox.push(OutboxRow {
            hodisa,
            kind,
            foydalanuvchi_id,
            task_intent,
            summa,
            yaratilgan_vaqt: now,
            xmin: tx,
            data: OutboxData {
                tarqatilgan_vaqt: None,
                urinishlar: 0,
                deleted: false,
                dead_letter: false,
            },
            lock: 0,
        });
        let e = hodisa.index();
        if self.by_event.len() <= e {
            self.by_event.resize(e + 1, NONE);
        }
        self.by_event[e] = idx;
        self.wm(tx).expect("open tx").outbox_inserted.push(idx);
        Exec::Done(idx as u64 + 1)
    }

    /// Rows committed before the world starts (the exercises' given outbox).
    pub fn preload_event(
        &mut self,
        hodisa: EventId,
        kind: EventKind,
        task_intent: u32,
        summa: u32,
    ) {
        let tx = self.begin(Role::Owner, 0);
        let r = self.insert_event(tx, hodisa, kind, 1, task_intent, summa, false);
        debug_assert!(matches!(r, Exec::Done(_)));
        self.commit(tx);
    }

    pub fn preload_task(&mut self, intent: u32) {
        let tx = self.begin(Role::Owner, 0);
        let _ = self.insert_task(tx, 1, intent);
        self.commit(tx);
    }

    /// The relay's poll: `… WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT n` with the
    /// given lock clause. Returns outbox indexes.
    pub fn select_batch(
        &mut self,
        tx: TxId,
        mode: LockMode,
        limit: usize,
        c: &mut Cursor,
    ) -> Exec<Vec<u32>> {
        let mut rows = Vec::new();
        match self.select_batch_into(tx, mode, limit, c, &mut rows) {
            Exec::Done(()) => Exec::Done(rows),
            Exec::Blocked(t) => Exec::Blocked(t),
            Exec::Err(e) => Exec::Err(e),
        }
    }

    /// [`Db::select_batch`] into the caller's list (emptied first; written only when the
    /// statement is done), so a relay's polls reuse one allocation.
    pub fn select_batch_into(
        &mut self,
        tx: TxId,
        mode: LockMode,
        limit: usize,
        c: &mut Cursor,
        got: &mut Vec<u32>,
    ) -> Exec<()> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Select))
        {
            return self.fail(tx, e);
        }
        if mode != LockMode::None {
            if let Err(e) = self.check(tx, Table::Outbox, Privilege::Update) {
                return self.fail(tx, e);
            }
        }
        match mode {
            LockMode::None => {
                got.clear();
                got.extend(self.unpublished.iter().take(limit));
                Exec::Done(())
            }
            LockMode::SkipLocked => {
                got.clear();
                for i in self.unpublished.iter() {
                    if got.len() >= limit {
                        break;
                    }
                    let row = &self.outbox[i as usize];
                    match row.lock() {
                        Some(h) if h != tx => continue,
                        _ => got.push(i),
                    }
                }
                for &i in got.iter() {
                    self.lock_row(tx, i);
                }
                Exec::Done(())
            }
            LockMode::Nowait | LockMode::Wait => {
                if !c.started {
                    // The statement's snapshot: committed unpublished rows, in id order.
                    c.started = true;
                    c.candidates.clear();
                    c.candidates.extend(self.unpublished.iter());
                    c.pos = 0;
                    c.got.clear();
                }
                while c.got.len() < limit && c.pos < c.candidates.len() {
                    let i = c.candidates[c.pos];
                    let row = &self.outbox[i as usize];
                    if let Some(h) = row.lock() {
                        if h != tx {
                            if mode == LockMode::Nowait {
                                let e = SqlError::new(
                                    sqlstate::LOCK_NOT_AVAILABLE,
                                    "could not obtain lock on row in relation \"outbox\"",
                                );
                                return self.fail(tx, e);
                            }
                            return Exec::Blocked(h);
                        }
                    }
                    // Re-check the WHERE clause on the newest committed version.
                    let d = row.data;
                    c.pos += 1;
                    if d.deleted || d.tarqatilgan_vaqt.is_some() {
                        continue;
                    }
                    self.lock_row(tx, i);
                    c.got.push(i);
                }
                got.clear();
                got.extend_from_slice(&c.got);
                // The statement is over: the cursor is ready for the next one.
                c.reset();
                Exec::Done(())
            }
        }
    }

    /// A high-water-mark poll: `SELECT … FROM outbox WHERE id > $1 ORDER BY id LIMIT $2`.
    /// Sees only committed rows, so a row whose id was taken earlier but committed later
    /// falls below the mark.
    pub fn select_after(&mut self, tx: TxId, last_id: u64, limit: usize) -> Exec<Vec<u32>> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, Privilege::Select))
        {
            return self.fail(tx, e);
        }
        let rows = (last_id as usize..self.outbox.len())
            .filter(|&i| {
                let r = &self.outbox[i];
                (self.committed(r.xmin) || r.xmin == tx) && !r.data.deleted
            })
            .take(limit)
            .map(|i| i as u32)
            .collect();
        Exec::Done(rows)
    }

    /// The cleanup: `DELETE FROM outbox WHERE tarqatilgan_vaqt < $cutoff` (with
    /// `only_published: false`, the broken variant that also deletes by age alone:
    /// `yaratilgan_vaqt < $cutoff`). Waits on locked rows like any DELETE.
    pub fn cleanup(
        &mut self,
        tx: TxId,
        cutoff: u64,
        only_published: bool,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            let rows: Vec<u32> = (0..self.outbox.len() as u32)
                .filter(|&i| {
                    let r = &self.outbox[i as usize];
                    self.committed(r.xmin) && !r.data.deleted && {
                        if only_published {
                            r.data.tarqatilgan_vaqt.is_some_and(|t| t < cutoff)
                        } else {
                            r.yaratilgan_vaqt < cutoff
                        }
                    }
                })
                .collect();
            c.started = true;
            c.candidates = rows;
            c.pos = 0;
        }
        // Re-checked on the newest version after a wait, as PostgreSQL does.
        self.update_outbox_checked(tx, c, OutboxChange::Delete, |d| {
            !only_published || d.tarqatilgan_vaqt.is_some_and(|t| t < cutoff)
        })
    }

    /// Test set-up: backdates a committed row's publish and creation times.
    pub fn backdate(&mut self, idx: u32, yaratilgan_vaqt: u64, tarqatilgan_vaqt: Option<u64>) {
        let live = {
            let r = &self.outbox[idx as usize];
            self.committed(r.xmin) && !r.data.deleted
        };
        let r = &mut self.outbox[idx as usize];
        r.yaratilgan_vaqt = yaratilgan_vaqt;
        let was = r.data.tarqatilgan_vaqt.is_none();
        r.data.tarqatilgan_vaqt = tarqatilgan_vaqt;
        if live {
            if tarqatilgan_vaqt.is_none() {
                self.unpublished.insert(idx);
            } else if was {
                self.unpublished.remove(&idx);
            }
        }
    }

    fn lock_row(&mut self, tx: TxId, i: u32) {
        let row = &mut self.outbox[i as usize];
        if row.lock != tx {
            debug_assert!(row.lock == 0);
            row.lock = tx;
            self.wm(tx).expect("open tx").outbox_locked.push(i);
        }
    }

    /// `UPDATE outbox SET … WHERE id = ANY($1)` (or DELETE), as `change` says. Rows are taken
    /// in id order; a row another transaction holds makes the statement wait (then the newest
    /// version is changed). Returns the number of rows changed.
    pub fn update_outbox(
        &mut self,
        tx: TxId,
        rows: &[u32],
        change: OutboxChange,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            c.started = true;
            // The cursor's lists keep their memory from the last statement.
            c.candidates.clear();
            c.candidates.extend_from_slice(rows);
            c.candidates.sort_unstable();
            c.candidates.dedup();
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, change, |_| true)
    }

    /// The body of UPDATE/DELETE: `recheck` is the statement's own condition on the newest
    /// version (beyond `id = ANY(...)`).
    fn update_outbox_checked(
        &mut self,
        tx: TxId,
        c: &mut Cursor,
        change: OutboxChange,
        recheck: impl Fn(&OutboxData) -> bool,
    ) -> Exec<u64> {
        let p = if matches!(change, OutboxChange::Delete | OutboxChange::DeadLetter) {
            Privilege::Delete
        } else {
            Privilege::Update
        };
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Outbox, p))
        {
            return self.fail(tx, e);
        }
        let now = self.now(tx);
        while c.pos < c.candidates.len() {
            let i = c.candidates[c.pos];
            let row = &self.outbox[i as usize];
            if !self.committed(row.xmin) && row.xmin != tx {
                c.pos += 1;
                continue;
            }
            if let Some(h) = row.lock() {
                if h != tx {
                    return Exec::Blocked(h);
                }
            }
            let base = self.pending.get(&i).copied().unwrap_or(row.data);
            c.pos += 1;
            if base.deleted || !recheck(&base) {
                continue;
            }
            self.lock_row(tx, i);
            let mut d = base;
            match change {
                OutboxChange::Published => {
                    d.tarqatilgan_vaqt = Some(now);
                    d.urinishlar += 1;
                }
                OutboxChange::Attempt => d.urinishlar += 1,
                OutboxChange::SetPublished => d.tarqatilgan_vaqt = Some(now),
                OutboxChange::Unpublish => d.tarqatilgan_vaqt = None,
                OutboxChange::Delete => d.deleted = true,
                OutboxChange::DeadLetter => {
                    d.deleted = true;
                    d.dead_letter = true;
                }
            }
            self.pending.insert(i, d);
            c.got.push(i);
        }
        let n = c.got.len() as u64;
        c.reset();
        Exec::Done(n)
    }

    /// The probes of the app-role check.
    pub fn probe(&mut self, tx: TxId, table: Table, p: Privilege) -> Exec<u64> {
        if let Err(e) = self.usable(tx).and_then(|_| self.check(tx, table, p)) {
            return self.fail(tx, e);
        }
        match (table, p) {
            (Table::Outbox, Privilege::Select) => Exec::Done(self.count_outbox_visible(tx)),
            (Table::Vazifalar, Privilege::Select) => Exec::Done(self.count_tasks_visible(tx)),
            (Table::Outbox, Privilege::Update | Privilege::Delete) => {
                let rows: Vec<u32> = (0..self.outbox.len() as u32)
                    .filter(|&i| {
                        let r = &self.outbox[i as usize];
                        self.committed(r.xmin) || r.xmin == tx
                    })
                    .collect();
                let change = if p == Privilege::Delete {
                    OutboxChange::Delete
                } else {
                    OutboxChange::SetPublished
                };
                self.update_outbox(tx, &rows, change, &mut Cursor::default())
            }
            _ => Exec::Done(0),
        }
    }

    fn count_outbox_visible(&self, tx: TxId) -> u64 {
        self.outbox
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                let mine = r.lock == tx;
                let d = if mine {
                    self.pending.get(&(*i as u32)).copied().unwrap_or(r.data)
                } else {
                    r.data
                };
                (self.committed(r.xmin) || r.xmin == tx) && !d.deleted
            })
            .count() as u64
    }

    fn count_tasks_visible(&self, tx: TxId) -> u64 {
        self.tasks
            .iter()
            .filter(|t| self.committed(t.xmin) || t.xmin == tx)
            .count() as u64
    }

    /// `INSERT INTO inbox … ON CONFLICT DO NOTHING`. Waits for an uncommitted insert (or
    /// delete) of the same key; returns whether a row was inserted.
    pub fn inbox_insert(&mut self, tx: TxId, hodisa: EventId, tick: u64) -> Exec<bool> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Inbox, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        match slot_insert(&self.txs, &mut self.inbox, hodisa.index(), tx, tick) {
            Exec::Done(true) => {
                self.wm(tx).expect("open tx").inbox.push(hodisa);
                Exec::Done(true)
            }
            other => other,
        }
    }

    /// `INSERT INTO sorov_kalitlari (kalit) VALUES ($1) ON CONFLICT DO NOTHING`: the API's
    /// idempotency key, in the request's own transaction. Returns whether it was new.
    pub fn key_insert(&mut self, tx: TxId, intent: u32, tick: u64) -> Exec<bool> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::SorovKalitlari, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        match slot_insert(&self.txs, &mut self.keys, intent as usize, tx, tick) {
            Exec::Done(true) => {
                self.wm(tx).expect("open tx").keys.push(intent);
                Exec::Done(true)
            }
            other => other,
        }
    }

    /// `DELETE FROM inbox WHERE ishlangan_vaqt < $cutoff`: the consumer's retention. Rows
    /// another open transaction is deleting make it wait, as any DELETE does.
    pub fn inbox_cleanup(&mut self, tx: TxId, cutoff: u64) -> Exec<u64> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Inbox, Privilege::Delete))
        {
            return self.fail(tx, e);
        }
        // First wait for anyone else holding a qualifying row, then take them all.
        for s in &self.inbox {
            if s.xmin != 0
                && self.committed(s.xmin)
                && s.ishlangan_vaqt < cutoff
                && s.xmax != 0
                && s.xmax != tx
                && self.is_open(s.xmax)
            {
                return Exec::Blocked(s.xmax);
            }
        }
        let mut n = 0;
        let mut gone = Vec::new();
        for (i, s) in self.inbox.iter_mut().enumerate() {
            let live = s.xmin != 0 && self.txs[s.xmin as usize] == TxStatus::Committed;
            if live && s.ishlangan_vaqt < cutoff && s.xmax != tx {
                s.xmax = tx;
                gone.push(EventId(i as u32));
                n += 1;
            }
        }
        self.wm(tx).expect("open tx").inbox_deleted.extend(gone);
        Exec::Done(n)
    }

    pub fn action_insert(&mut self, tx: TxId, hodisa: EventId, summa: u32) -> Exec<()> {
        if let Err(e) = self
            .usable(tx)
            .and_then(|_| self.check(tx, Table::Amallar, Privilege::Insert))
        {
            return self.fail(tx, e);
        }
        let idx = self.actions.len() as u32;
        self.actions.push(ActionRow {
            hodisa,
            summa,
            xmin: tx,
        });
        self.wm(tx).expect("open tx").actions.push(idx);
        Exec::Done(())
    }

    // ----- end of transaction ----------------------------------------------------------

    /// COMMIT. On a failed transaction PostgreSQL answers COMMIT with ROLLBACK.
    pub fn commit(&mut self, tx: TxId) -> CommitOutcome {
        let mut out = CommitOutcome::default();
        self.commit_into(tx, &mut out);
        out
    }

    /// COMMIT, reporting into a reused outcome (the world's hot path allocates nothing).
    pub fn commit_into(&mut self, tx: TxId, out: &mut CommitOutcome) {
        if self.status(tx) != TxStatus::Active {
            self.rollback_into(tx, out);
            out.committed = false;
            return;
        }
        let w = self.take_work(tx).expect("open tx");
        self.txs[tx as usize] = TxStatus::Committed;
        out.clear();
        out.committed = true;
        for &t in &w.tasks {
            self.committed_tasks += 1;
            out.tasks.push(t);
        }
        for &i in &w.outbox_inserted {
            let row = &self.outbox[i as usize];
            self.committed_events += 1;
            out.events.push(row.hodisa);
            if row.data.tarqatilgan_vaqt.is_none() && !row.data.deleted && row.lock == 0 {
                self.unpublished.insert(i);
            }
        }
        for &i in &w.outbox_locked {
            let pending = self.pending.get(&i).copied();
            let row = &mut self.outbox[i as usize];
            row.lock = 0;
            out.touched_events.push(row.hodisa);
            if let Some(d) = pending {
                if d.deleted && !row.data.deleted {
                    self.committed_events -= 1;
                }
                if d.dead_letter && !row.data.dead_letter {
                    self.dead_letters += 1;
                }
                row.data = d;
            }
            if row.data.tarqatilgan_vaqt.is_none() && !row.data.deleted {
                self.unpublished.insert(i);
            } else {
                self.unpublished.remove(&i);
            }
        }
        self.drop_unlocked_pending(&w);
        for &h in &w.inbox {
            self.committed_inbox += 1;
            out.inbox.push(h);
        }
        for &h in &w.inbox_deleted {
            self.inbox[h.index()] = InboxSlot::default();
            self.committed_inbox -= 1;
            out.touched_events.push(h);
        }
        for &a in &w.actions {
            let row = &self.actions[a as usize];
            self.committed_actions += 1;
            self.balance += row.summa as u64;
            out.actions.push((row.hodisa, row.summa));
        }
        if !w.outbox_inserted.is_empty() {
            if self.wal_retain {
                let lsn = self.next_lsn;
                self.wal_events.extend(out.events.iter().map(|e| e.0));
                self.wal.push_back(WalRecord {
                    lsn,
                    tx,
                    events: out.events.clone(),
                });
            }
            self.next_lsn += 1;
        }
        self.recycle(w);
    }

    /// ROLLBACK, also what happens when a connection dies with a transaction open.
    pub fn rollback(&mut self, tx: TxId) -> CommitOutcome {
        let mut out = CommitOutcome::default();
        self.rollback_into(tx, &mut out);
        out
    }

    /// ROLLBACK into a reused outcome.
    pub fn rollback_into(&mut self, tx: TxId, out: &mut CommitOutcome) {
        out.clear();
        let Some(w) = self.take_work(tx) else {
            return;
        };
        self.txs[tx as usize] = TxStatus::Aborted;
        for &i in &w.outbox_locked {
            let row = &mut self.outbox[i as usize];
            row.lock = 0;
            out.touched_events.push(row.hodisa);
        }
        self.drop_unlocked_pending(&w);
        for &i in &w.outbox_inserted {
            out.touched_events.push(self.outbox[i as usize].hodisa);
        }
        for &h in &w.inbox {
            self.inbox[h.index()] = InboxSlot::default();
            out.touched_events.push(h);
        }
        for &h in &w.inbox_deleted {
            self.inbox[h.index()].xmax = 0;
        }
        for &k in &w.keys {
            self.keys[k as usize] = InboxSlot::default();
        }
        self.recycle(w);
    }

    // ----- reads for the world, the auditor and the page -----------------------------

    pub fn committed_tasks(&self) -> u64 {
        self.committed_tasks
    }
    pub fn committed_events(&self) -> u64 {
        self.committed_events
    }
    pub fn unpublished_len(&self) -> u64 {
        self.unpublished.len() as u64
    }
    pub fn committed_inbox(&self) -> u64 {
        self.committed_inbox
    }
    pub fn committed_actions(&self) -> u64 {
        self.committed_actions
    }
    pub fn balance(&self) -> u64 {
        self.balance
    }
    pub fn unpublished_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.unpublished.iter()
    }
    pub fn oldest_unpublished(&self) -> Option<&OutboxRow> {
        self.unpublished
            .iter()
            .next()
            .map(|i| &self.outbox[i as usize])
    }

    pub fn task_committed(&self, task_idx: u32) -> bool {
        self.tasks
            .get(task_idx as usize)
            .is_some_and(|t| self.committed(t.xmin))
    }
    pub fn task_status(&self, task_idx: u32) -> TxStatus {
        self.status(self.tasks[task_idx as usize].xmin)
    }

    /// The event's outbox row, if one was ever inserted.
    pub fn event_row(&self, h: EventId) -> Option<&OutboxRow> {
        let i = *self.by_event.get(h.index())?;
        (i != NONE).then(|| &self.outbox[i as usize])
    }

    /// The event's outbox index, if a row was ever inserted.
    pub fn event_index(&self, h: EventId) -> Option<u32> {
        self.by_event.get(h.index()).copied().filter(|&i| i != NONE)
    }

    /// The event has a committed, undeleted outbox row not yet published.
    pub fn event_unpublished(&self, h: EventId) -> bool {
        self.event_row(h).is_some_and(|r| {
            self.committed(r.xmin) && r.data.tarqatilgan_vaqt.is_none() && !r.data.deleted
        })
    }

    pub fn row_committed(&self, r: &OutboxRow) -> bool {
        self.committed(r.xmin)
    }

    pub fn inbox_has(&self, h: EventId) -> bool {
        self.inbox
            .get(h.index())
            .is_some_and(|s| s.xmin != 0 && self.committed(s.xmin))
    }

    /// Rows (outbox indexes) a transaction holds locked.
    pub fn locked_by(&self, tx: TxId) -> Vec<u32> {
        self.w(tx)
            .map(|w| w.outbox_locked.clone())
            .unwrap_or_default()
    }

    /// Drops the log up to and including `lsn` (a slot confirmed it).
    pub fn wal_confirm(&mut self, lsn: u64) {
        while self.wal.front().is_some_and(|r| r.lsn <= lsn) {
            let r = self.wal.pop_front().expect("front");
            for e in r.events {
                self.wal_events.remove(&e.0);
            }
        }
    }

    /// The event's insert is in the retained log (not yet confirmed by the slot).
    pub fn wal_holds(&self, h: EventId) -> bool {
        self.wal_events.contains(&h.0)
    }

    /// Outbox inserts the slot retains (committed, not yet confirmed).
    pub fn wal_retained_events(&self) -> u64 {
        self.wal_events.len() as u64
    }

    /// Rows moved to the dead-letter table.
    pub fn dead_letters(&self) -> u64 {
        self.dead_letters
    }

    /// The key was committed by an earlier request.
    pub fn key_committed(&self, intent: u32) -> bool {
        self.keys
            .get(intent as usize)
            .is_some_and(|s| s.xmin != 0 && self.committed(s.xmin))
    }

    /// The dead-letter move: `DELETE FROM outbox WHERE id = ANY($1) AND urinishlar >= $2`
    /// into `outbox_olik`. Sees the transaction's own `urinishlar + 1`.
    pub fn dead_letter(
        &mut self,
        tx: TxId,
        rows: &[u32],
        min_attempts: u32,
        c: &mut Cursor,
    ) -> Exec<u64> {
        if !c.started {
            c.started = true;
            let mut v = rows.to_vec();
            v.sort_unstable();
            v.dedup();
            c.candidates = v;
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, OutboxChange::DeadLetter, |d| {
            d.urinishlar >= min_attempts
        })
    }

    /// The operator's recovery after Redis lost its data:
    /// `UPDATE outbox SET tarqatilgan_vaqt = NULL WHERE tarqatilgan_vaqt >= $1`.
    pub fn unpublish_since(&mut self, tx: TxId, since: u64, c: &mut Cursor) -> Exec<u64> {
        if !c.started {
            let rows: Vec<u32> = (0..self.outbox.len() as u32)
                .filter(|&i| {
                    let r = &self.outbox[i as usize];
                    self.committed(r.xmin)
                        && !r.data.deleted
                        && r.data.tarqatilgan_vaqt.is_some_and(|t| t >= since)
                })
                .collect();
            c.started = true;
            c.candidates = rows;
            c.pos = 0;
            c.got.clear();
        }
        self.update_outbox_checked(tx, c, OutboxChange::Unpublish, |d| {
            d.tarqatilgan_vaqt.is_some_and(|t| t >= since)
        })
    }

    /// Checks the database's own invariants; returns a description of the first broken one.
    pub fn check_invariants(&self) -> Result<(), String> {
        // partial-index: the index holds exactly the committed, unpublished, live rows.
        for (i, r) in self.outbox.iter().enumerate() {
            let should =
                self.committed(r.xmin) && r.data.tarqatilgan_vaqt.is_none() && !r.data.deleted;
            let id = i + 1;
            if should != self.unpublished.contains(&(i as u32)) {
                return Err(format!(
                    "partial-index: row {id} indexed={} should={should}",
                    !should
                ));
            }
            if let Some(h) = r.lock() {
                if !self.is_open(h) {
                    return Err(format!(
                        "locks-held-by-open-tx: row {id} locked by ended tx {h}"
                    ));
                }
            }
        }
        for i in self.pending.keys() {
            if self.outbox[*i as usize].lock == 0 {
                return Err(format!(
                    "private-writes: row {} has a pending version without a lock",
                    i + 1
                ));
            }
        }
        Ok(())
    }
}

/// `INSERT … ON CONFLICT DO NOTHING` on a one-column primary key kept as slots: waits for
/// an uncommitted insert or delete of the same key, then inserts or does nothing.
fn slot_insert(
    txs: &[TxStatus],
    slots: &mut Vec<InboxSlot>,
    key: usize,
    tx: TxId,
    tick: u64,
) -> Exec<bool> {
    if slots.len() <= key {
        slots.resize(key + 1, InboxSlot::default());
    }
    let slot = slots[key];
    let open = |t: TxId| matches!(txs[t as usize], TxStatus::Active | TxStatus::Failed);
    if slot.xmin != 0 {
        if slot.xmax != 0 && slot.xmax != tx && open(slot.xmax) {
            // A DELETE of this key is in flight: wait for it to end.
            return Exec::Blocked(slot.xmax);
        }
        if slot.xmin == tx || txs[slot.xmin as usize] == TxStatus::Committed {
            return Exec::Done(false);
        }
        if open(slot.xmin) {
            return Exec::Blocked(slot.xmin);
        }
    }
    slots[key] = InboxSlot {
        xmin: tx,
        xmax: 0,
        ishlangan_vaqt: tick,
    };
    Exec::Done(true)
}

impl Db {
    /// Feeds the database's state, in a canonical form, to `h`: what the explorer
    /// (`crate::explore`) merges states by. History and names that only depend on how a
    /// state was reached are left out or renamed:
    /// - a transaction is named by `tx_name` (the world names a committed one 0, a
    ///   rolled-back one 1 and an open one by the process holding it), never by its id;
    /// - the log sequence numbers, the committed counters' memory pool and the indexes
    ///   kept for lookups (`unpublished`, `by_event`, `wal_events`) are derived or history;
    /// - rolled-back rows of `amallar` are left out (nothing reads them or refers to their
    ///   places; rolled-back task and outbox rows stay, as their ids are taken);
    /// - the times stored in rows (`yaratilgan_vaqt`, `tarqatilgan_vaqt`,
    ///   `ishlangan_vaqt`, a key's time, a transaction's `now()`) are fed as ages
    ///   (`tick - t`) only when `ages` is set: only the cleaner, the operator's un-mark and
    ///   the stuck/age counters read them, and without those a timestamp's value changes
    ///   nothing a statement does (whether `tarqatilgan_vaqt` is NULL is always fed).
    ///
    /// `open` lists the open transactions in the order of their names (the world passes
    /// those its processes hold, in process order); any other open one is fed after them.
    pub fn hash_state<H: std::hash::Hasher>(
        &self,
        h: &mut H,
        tx_name: &dyn Fn(TxId) -> u64,
        open: &mut dyn Iterator<Item = TxId>,
        ages: Option<u64>,
    ) {
        let age = |h: &mut H, t: u64| {
            if let Some(now) = ages {
                h.write_u64(now.saturating_sub(t));
            }
        };
        let lock = |l: TxId| if l == 0 { u64::MAX } else { tx_name(l) };
        let data = |h: &mut H, d: &OutboxData| {
            h.write_u8(d.tarqatilgan_vaqt.is_some() as u8);
            if let Some(t) = d.tarqatilgan_vaqt {
                age(h, t);
            }
            h.write_u32(d.urinishlar);
            h.write_u8(d.deleted as u8 | (d.dead_letter as u8) << 1);
        };
        // Open transactions, in the order of the names the world gives them.
        let mut fed = 0;
        let listed = open.filter_map(|t| self.w(t));
        let rest = self
            .work
            .iter()
            .filter(|w| tx_name(w.tx) > u32::MAX as u64)
            .map(|w| &**w);
        for w in listed.chain(rest) {
            fed += 1;
            h.write_u64(tx_name(w.tx));
            h.write_u8(self.status(w.tx) as u8);
            std::hash::Hash::hash(&w.role, h);
            std::hash::Hash::hash(&w.session_role, h);
            age(h, w.start_tick);
            for list in [&w.tasks, &w.outbox_inserted, &w.outbox_locked, &w.keys] {
                h.write_u64(list.len() as u64);
                for &i in list.iter() {
                    h.write_u32(i);
                }
            }
            // Action rows by content: their places are not referenced by anything.
            h.write_u64(w.actions.len() as u64);
            for &i in &w.actions {
                let a = &self.actions[i as usize];
                h.write_u32(a.hodisa.0);
                h.write_u32(a.summa);
            }
            for list in [&w.inbox, &w.inbox_deleted] {
                h.write_u64(list.len() as u64);
                for e in list.iter() {
                    h.write_u32(e.0);
                }
            }
        }
        h.write_u64(fed);
        h.write_u64(self.tasks.len() as u64);
        for t in &self.tasks {
            h.write_u32(t.egasi_id);
            h.write_u32(t.intent);
            h.write_u64(tx_name(t.xmin));
        }
        h.write_u64(self.outbox.len() as u64);
        for r in &self.outbox {
            h.write_u32(r.hodisa.0);
            h.write_u8(r.kind as u8);
            h.write_u32(r.foydalanuvchi_id);
            h.write_u32(r.task_intent);
            h.write_u32(r.summa);
            age(h, r.yaratilgan_vaqt);
            h.write_u64(tx_name(r.xmin));
            data(h, &r.data);
            h.write_u64(lock(r.lock));
        }
        h.write_u64(self.pending.0.len() as u64);
        for (i, d) in &self.pending.0 {
            h.write_u32(*i);
            data(h, d);
        }
        for slots in [&self.inbox, &self.keys] {
            for (i, s) in slots.iter().enumerate() {
                if s.xmin == 0 {
                    continue;
                }
                h.write_u64(i as u64);
                h.write_u64(tx_name(s.xmin));
                h.write_u64(lock(s.xmax));
                age(h, s.ishlangan_vaqt);
            }
            h.write_u64(u64::MAX);
        }
        // Rolled-back action rows are left out: nothing reads them, and nothing refers to
        // an action row by its place.
        for a in &self.actions {
            if self.status(a.xmin) == TxStatus::Aborted {
                continue;
            }
            h.write_u8(1);
            h.write_u32(a.hodisa.0);
            h.write_u32(a.summa);
            h.write_u64(tx_name(a.xmin));
        }
        h.write_u8(0);
        for v in [
            self.committed_tasks,
            self.committed_events,
            self.committed_inbox,
            self.committed_actions,
            self.balance,
            self.dead_letters,
        ] {
            h.write_u64(v);
        }
        h.write_u8(self.app_can_read_hodisa_id as u8 | (self.wal_retain as u8) << 1);
        h.write_u64(self.wal.len() as u64);
        for r in &self.wal {
            h.write_u64(tx_name(r.tx));
            h.write_u64(r.events.len() as u64);
            for e in &r.events {
                h.write_u32(e.0);
            }
        }
    }
}

// ----- reading for the page ---------------------------------------------------------

impl Db {
    /// Whether the transaction that wrote a row (`xmin`) has committed.
    pub fn xmin_committed(&self, xmin: TxId) -> bool {
        self.committed(xmin)
    }

    /// The inbox rows ever inserted, newest event last: (event, `ishlangan_vaqt`,
    /// committed). Rows of a rolled-back transaction are not listed.
    pub fn inbox_rows(&self) -> impl DoubleEndedIterator<Item = (EventId, u64, bool)> + '_ {
        self.inbox
            .iter()
            .enumerate()
            .filter(move |(_, s)| s.xmin != 0 && self.status(s.xmin) != TxStatus::Aborted)
            .map(move |(i, s)| (EventId(i as u32), s.ishlangan_vaqt, self.committed(s.xmin)))
    }

    /// The private version a lock holder has written but not committed, if any.
    pub fn pending_data(&self, idx: u32) -> Option<OutboxData> {
        self.pending.get(&idx).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(db: &mut Db, tx: TxId, n: u32) -> u64 {
        match db.insert_event(tx, EventId(n), EventKind::Created, 1, n, 0, false) {
            Exec::Done(id) => id,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rollback_hides_both_rows_commit_shows_both() {
        let mut db = Db::new();
        let t = db.begin(Role::App, 1);
        assert_eq!(db.insert_task(t, 1, 0), Exec::Done(1));
        ev(&mut db, t, 1);
        db.rollback(t);
        assert_eq!((db.committed_tasks(), db.committed_events()), (0, 0));
        let t = db.begin(Role::App, 2);
        // Identity values are not given back on rollback: the next id is 2.
        assert_eq!(db.insert_task(t, 1, 0), Exec::Done(2));
        ev(&mut db, t, 2);
        db.commit(t);
        assert_eq!(
            (
                db.committed_tasks(),
                db.committed_events(),
                db.unpublished_len()
            ),
            (1, 1, 1)
        );
    }

    #[test]
    fn app_role_may_insert_but_not_read() {
        let mut db = Db::new();
        let t = db.begin(Role::Owner, 1);
        assert_eq!(db.set_local_role(t, Role::App), Exec::Done(()));
        ev(&mut db, t, 1);
        match db.probe(t, Table::Outbox, Privilege::Select) {
            Exec::Err(e) => assert_eq!(e.code, sqlstate::INSUFFICIENT_PRIVILEGE),
            other => panic!("{other:?}"),
        }
        // The transaction is now aborted.
        assert!(
            matches!(db.insert_task(t, 1, 0), Exec::Err(e) if e.code == sqlstate::IN_FAILED_TRANSACTION)
        );
        assert!(!db.commit(t).committed);
    }

    #[test]
    fn skip_locked_hands_out_disjoint_rows() {
        let mut db = Db::new();
        for n in 1..=5 {
            db.preload_event(EventId(n), EventKind::Created, n, 0);
        }
        let a = db.begin(Role::Owner, 1);
        let b = db.begin(Role::Owner, 1);
        let mut c = Cursor::default();
        let ra = match db.select_batch(a, LockMode::SkipLocked, 3, &mut c) {
            Exec::Done(v) => v,
            o => panic!("{o:?}"),
        };
        let rb = match db.select_batch(b, LockMode::SkipLocked, 3, &mut Cursor::default()) {
            Exec::Done(v) => v,
            o => panic!("{o:?}"),
        };
        assert_eq!(ra, vec![0, 1, 2]);
        assert_eq!(rb, vec![3, 4]);
    }

    #[test]
    fn plain_for_update_waits_then_rechecks() {
        let mut db = Db::new();
        for n in 1..=4 {
            db.preload_event(EventId(n), EventKind::Created, n, 0);
        }
        let a = db.begin(Role::Owner, 1);
        let rows = match db.select_batch(a, LockMode::Wait, 2, &mut Cursor::default()) {
            Exec::Done(v) => v,
            o => panic!("{o:?}"),
        };
        let b = db.begin(Role::Owner, 1);
        let mut cb = Cursor::default();
        assert_eq!(
            db.select_batch(b, LockMode::Wait, 2, &mut cb),
            Exec::Blocked(a)
        );
        let mut cu = Cursor::default();
        assert_eq!(
            db.update_outbox(a, &rows, OutboxChange::Published, &mut cu),
            Exec::Done(2)
        );
        db.commit(a);
        // b re-checks rows 1 and 2 (now published), drops them and takes 3 and 4.
        assert_eq!(
            db.select_batch(b, LockMode::Wait, 2, &mut cb),
            Exec::Done(vec![2, 3])
        );
    }

    #[test]
    fn nowait_errors_on_a_locked_row() {
        let mut db = Db::new();
        db.preload_event(EventId(1), EventKind::Created, 1, 0);
        let a = db.begin(Role::Owner, 1);
        let _ = db.select_batch(a, LockMode::SkipLocked, 10, &mut Cursor::default());
        let b = db.begin(Role::Owner, 1);
        match db.select_batch(b, LockMode::Nowait, 10, &mut Cursor::default()) {
            Exec::Err(e) => assert_eq!(e.code, sqlstate::LOCK_NOT_AVAILABLE),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn concurrent_inbox_insert_waits_then_does_nothing() {
        let mut db = Db::new();
        let a = db.begin(Role::Owner, 1);
        let b = db.begin(Role::Owner, 1);
        assert_eq!(db.inbox_insert(a, EventId(7), 1), Exec::Done(true));
        assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Blocked(a));
        db.commit(a);
        assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Done(false));
    }

    #[test]
    fn inbox_insert_proceeds_when_the_other_rolls_back() {
        let mut db = Db::new();
        let a = db.begin(Role::Owner, 1);
        let b = db.begin(Role::Owner, 1);
        assert_eq!(db.inbox_insert(a, EventId(7), 1), Exec::Done(true));
        db.rollback(a);
        assert_eq!(db.inbox_insert(b, EventId(7), 1), Exec::Done(true));
    }

    #[test]
    fn ids_commit_out_of_order() {
        let mut db = Db::new();
        let slow = db.begin(Role::Owner, 1);
        let fast = db.begin(Role::Owner, 1);
        assert_eq!(
            db.insert_event(slow, EventId(1), EventKind::Created, 1, 0, 0, false),
            Exec::Done(1)
        );
        assert_eq!(
            db.insert_event(fast, EventId(2), EventKind::Created, 1, 1, 0, false),
            Exec::Done(2)
        );
        db.commit(fast);
        let visible: Vec<u32> = db.unpublished_ids().collect();
        assert_eq!(visible, vec![1]); // only id 2 (index 1) is visible so far
        db.commit(slow);
        assert_eq!(db.unpublished_ids().collect::<Vec<_>>(), vec![0, 1]);
    }
}
