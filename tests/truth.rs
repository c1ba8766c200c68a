//! Truth: the model's database against a real PostgreSQL, statement by statement.
//!
//! Each scenario is a schedule of statements from `outbox_model::sql`, each run by a named
//! session. On the PostgreSQL side every session is its own connection on its own thread;
//! a statement that does not answer within a moment is waiting, and the server is asked
//! (`pg_blocking_pids`) whom it waits for. On the model side the same schedule runs against
//! `outbox_model::db::Db`. Every answer — rows returned, rows changed, SQLSTATE, who waits
//! for whom — must agree. `cargo xtask test` starts the server and sets `OUTBOX_PG_URL`.
#![cfg(not(target_arch = "wasm32"))]

use outbox_model::db::{Cursor, Db, Exec, LockMode, OutboxChange, Privilege, Role, Table};
use outbox_model::ids::{EventId, EventKind, TxId};
use outbox_model::sql;
use postgres::{Client, NoTls};
use std::collections::BTreeMap;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

/// One observable answer to one statement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ans {
    /// Statement done; no rows to compare.
    Ok,
    /// Ids (or values) returned, in order.
    Rows(Vec<i64>),
    /// Rows changed.
    Count(u64),
    /// SQLSTATE.
    Err(String),
    /// Waiting for these sessions.
    Waits(Vec<String>),
}

fn url() -> String {
    std::env::var("OUTBOX_PG_URL").unwrap_or_else(|_| {
        panic!("OUTBOX_PG_URL is not set: the truth suite needs the PostgreSQL that `cargo xtask test` starts")
    })
}

type Job = Box<dyn FnOnce(&mut Client) -> Ans + Send>;

struct Session {
    name: String,
    pid: i32,
    jobs: Sender<Option<Job>>,
    answers: Receiver<Ans>,
    waiting: bool,
}

/// A scratch database of its own, with the schema, for one scenario.
struct Pg {
    url: String,
    observer: Client,
    sessions: Vec<Session>,
}

fn code(e: &postgres::Error) -> String {
    e.code()
        .map(|c| c.code().to_string())
        .unwrap_or_else(|| format!("?{e}"))
}

impl Pg {
    fn new(name: &str) -> Pg {
        let base = url();
        let mut admin = Client::connect(&base, NoTls).expect("connect");
        let db = format!("truth_{name}").replace('-', "_");
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
            .unwrap();
        admin
            .batch_execute(&format!("CREATE DATABASE {db}"))
            .unwrap();
        // The role is cluster-wide; the scenarios share it.
        if let Err(e) = admin.batch_execute(sql::CREATE_APP_ROLE) {
            // 42710 duplicate_object: another scenario made it first.
            assert!(
                matches!(code(&e).as_str(), "42710" | "23505" | "XX000"),
                "{e}"
            );
        }
        let url = match base.rsplit_once('/') {
            Some((head, tail)) if !tail.contains('@') => {
                let query = tail
                    .split_once('?')
                    .map(|(_, q)| format!("?{q}"))
                    .unwrap_or_default();
                format!("{head}/{db}{query}")
            }
            _ => format!("{base} dbname={db}"),
        };
        let mut observer = Client::connect(&url, NoTls).expect("connect scratch db");
        observer.batch_execute(sql::SCHEMA).expect("schema");
        observer.batch_execute(sql::GRANTS).expect("grants");
        Pg {
            url,
            observer,
            sessions: Vec::new(),
        }
    }

    fn session(&mut self, name: &str) {
        let mut client = Client::connect(&self.url, NoTls).expect("connect");
        let pid: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .unwrap()
            .get(0);
        let (jtx, jrx) = channel::<Option<Job>>();
        let (atx, arx) = channel::<Ans>();
        std::thread::spawn(move || {
            while let Ok(Some(job)) = jrx.recv() {
                let a = job(&mut client);
                if atx.send(a).is_err() {
                    break;
                }
            }
        });
        self.sessions.push(Session {
            name: name.into(),
            pid,
            jobs: jtx,
            answers: arx,
            waiting: false,
        });
    }

    fn idx(&self, name: &str) -> usize {
        self.sessions
            .iter()
            .position(|s| s.name == name)
            .expect("session")
    }

    /// Sends a statement; returns its answer, or whom it waits for.
    fn run(&mut self, who: &str, job: Job) -> Ans {
        let i = self.idx(who);
        assert!(!self.sessions[i].waiting, "{who} is still waiting");
        self.sessions[i].jobs.send(Some(job)).unwrap();
        match self.sessions[i]
            .answers
            .recv_timeout(Duration::from_millis(400))
        {
            Ok(a) => a,
            Err(RecvTimeoutError::Timeout) => {
                self.sessions[i].waiting = true;
                let pid = self.sessions[i].pid;
                let blockers: Vec<i32> = self
                    .observer
                    .query_one("SELECT pg_blocking_pids($1)", &[&pid])
                    .unwrap()
                    .get(0);
                let mut names: Vec<String> = blockers
                    .iter()
                    .filter_map(|b| {
                        self.sessions
                            .iter()
                            .find(|s| s.pid == *b)
                            .map(|s| s.name.clone())
                    })
                    .collect();
                names.sort();
                Ans::Waits(names)
            }
            Err(e) => panic!("{who}: {e}"),
        }
    }

    /// The answer of a statement that was waiting.
    fn finish(&mut self, who: &str) -> Ans {
        let i = self.idx(who);
        assert!(self.sessions[i].waiting, "{who} is not waiting");
        self.sessions[i].waiting = false;
        self.sessions[i]
            .answers
            .recv_timeout(Duration::from_secs(10))
            .expect("answer after the wait")
    }

    /// Kills a session's connection (what a dying process does to it) and waits until the
    /// server has rolled its transaction back.
    fn kill(&mut self, who: &str) -> Ans {
        let i = self.idx(who);
        let pid = self.sessions[i].pid;
        let ok: bool = self
            .observer
            .query_one("SELECT pg_terminate_backend($1)", &[&pid])
            .unwrap()
            .get(0);
        for _ in 0..200 {
            let n: i64 = self
                .observer
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
                    &[&pid],
                )
                .unwrap()
                .get(0);
            if n == 0 {
                return if ok {
                    Ans::Ok
                } else {
                    Ans::Err("not killed".into())
                };
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("backend {pid} of {who} did not go away");
    }

    fn exec(&mut self, who: &str, text: &'static str) -> Ans {
        self.run(
            who,
            Box::new(move |c| match c.batch_execute(text) {
                Ok(()) => Ans::Ok,
                Err(e) => Ans::Err(code(&e)),
            }),
        )
    }

    fn count(&mut self, who: &str, text: &'static str, p: Vec<Param>) -> Ans {
        self.run(
            who,
            Box::new(move |c| {
                let refs = params(&p);
                match c.execute(text, &refs) {
                    Ok(n) => Ans::Count(n),
                    Err(e) => Ans::Err(code(&e)),
                }
            }),
        )
    }

    /// A query whose first column is a bigint (ids, counts).
    fn ids(&mut self, who: &str, text: &'static str, p: Vec<Param>) -> Ans {
        self.run(
            who,
            Box::new(move |c| {
                let refs = params(&p);
                match c.query(text, &refs) {
                    Ok(rows) => Ans::Rows(rows.iter().map(|r| r.get::<_, i64>(0)).collect()),
                    Err(e) => Ans::Err(code(&e)),
                }
            }),
        )
    }

    fn value(&mut self, text: &str) -> i64 {
        self.observer.query_one(text, &[]).unwrap().get(0)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        for s in &self.sessions {
            let _ = s.jobs.send(None);
        }
    }
}

/// Statement parameters, owned so they can cross to a session's thread.
enum Param {
    I(i64),
    /// An `integer` parameter (`urinishlar >= $2`).
    I32(i32),
    F(f64),
    /// A `timestamptz` parameter.
    Ts(std::time::SystemTime),
    T(String),
    U(uuid::Uuid),
    J(serde_json::Value),
    A(Vec<i64>),
}

fn params(p: &[Param]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    p.iter()
        .map(|x| -> &(dyn postgres::types::ToSql + Sync) {
            match x {
                Param::I(v) => v,
                Param::I32(v) => v,
                Param::F(v) => v,
                Param::Ts(v) => v,
                Param::T(v) => v,
                Param::U(v) => v,
                Param::J(v) => v,
                Param::A(v) => v,
            }
        })
        .collect()
}

fn uuid(e: u32) -> uuid::Uuid {
    uuid::Uuid::parse_str(&EventId(e).uuid()).unwrap()
}

fn event_params(e: u32) -> Vec<Param> {
    vec![
        Param::U(uuid(e)),
        Param::T(EventKind::Created.tur().into()),
        Param::I(1),
        Param::J(serde_json::json!({ "vazifa": e })),
    ]
}

/// The model side: sessions are transactions of one `Db`.
struct Model {
    db: Db,
    tx: BTreeMap<String, TxId>,
    cursors: BTreeMap<String, Cursor>,
    tick: u64,
}

impl Model {
    fn new() -> Model {
        Model {
            db: Db::new(),
            tx: BTreeMap::new(),
            cursors: BTreeMap::new(),
            tick: 1,
        }
    }
    fn begin(&mut self, who: &str) -> Ans {
        let t = self.db.begin(Role::Owner, self.tick);
        self.tx.insert(who.into(), t);
        self.cursors.insert(who.into(), Cursor::default());
        Ans::Ok
    }
    fn t(&self, who: &str) -> TxId {
        self.tx[who]
    }
    fn commit(&mut self, who: &str) -> Ans {
        let t = self.tx.remove(who).expect("open tx");
        self.db.commit(t);
        Ans::Ok
    }
    fn rollback(&mut self, who: &str) -> Ans {
        let t = self.tx.remove(who).expect("open tx");
        self.db.rollback(t);
        Ans::Ok
    }
    fn conv<T>(&self, r: Exec<T>, f: impl FnOnce(T) -> Ans) -> Ans {
        match r {
            Exec::Done(v) => f(v),
            Exec::Err(e) => Ans::Err(e.code.to_string()),
            Exec::Blocked(t) => {
                let who = self
                    .tx
                    .iter()
                    .find(|(_, v)| **v == t)
                    .map(|(k, _)| k.clone())
                    .unwrap_or_default();
                Ans::Waits(vec![who])
            }
        }
    }
    fn ids(rows: Vec<u32>) -> Ans {
        Ans::Rows(rows.into_iter().map(|i| i as i64 + 1).collect())
    }
    fn select(&mut self, who: &str, mode: LockMode, limit: usize) -> Ans {
        let t = self.t(who);
        let mut c = self.cursors.remove(who).unwrap_or_default();
        let r = self.db.select_batch(t, mode, limit, &mut c);
        self.cursors.insert(who.into(), c);
        self.conv(r, Self::ids)
    }
    fn update(&mut self, who: &str, ids: &[i64], change: OutboxChange) -> Ans {
        let t = self.t(who);
        let rows: Vec<u32> = ids.iter().map(|&i| (i - 1) as u32).collect();
        let mut c = self.cursors.remove(who).unwrap_or_default();
        let r = self.db.update_outbox(t, &rows, change, &mut c);
        let done = !matches!(r, Exec::Blocked(_));
        self.cursors
            .insert(who.into(), if done { Cursor::default() } else { c });
        self.conv(r, Ans::Count)
    }
    fn insert_event(&mut self, who: &str, e: u32) -> Ans {
        let t = self.t(who);
        let r = self
            .db
            .insert_event(t, EventId(e), EventKind::Created, 1, e, 0, false);
        self.conv(r, |_| Ans::Count(1))
    }
    fn insert_task(&mut self, who: &str) -> Ans {
        let t = self.t(who);
        let r = self.db.insert_task(t, 1, 0);
        self.conv(r, |_| Ans::Count(1))
    }
    fn preload(&mut self, n: u32) {
        for e in 1..=n {
            self.db.preload_event(EventId(e), EventKind::Created, e, 0);
        }
    }
}

/// Records one step's two answers and insists they agree.
fn same(log: &mut Vec<String>, scenario: &str, step: &str, pg: Ans, model: Ans) -> Ans {
    let line = format!("truth: {scenario:<24} {step:<44} postgres={pg:?} model={model:?}");
    println!("{line}");
    log.push(line);
    assert_eq!(
        pg, model,
        "{scenario}: {step}: PostgreSQL and the model disagree"
    );
    pg
}

/// BEGIN / COMMIT / ROLLBACK of one session on both sides.
fn tx(
    log: &mut Vec<String>,
    name: &str,
    step: &str,
    pg: &mut Pg,
    m: &mut Model,
    who: &str,
    kw: &'static str,
) {
    let model = match kw {
        sql::BEGIN => m.begin(who),
        sql::COMMIT => m.commit(who),
        _ => m.rollback(who),
    };
    same(log, name, step, pg.exec(who, kw), model);
}

/// The relay's poll with a lock clause, on both sides; returns the agreed answer.
#[allow(clippy::too_many_arguments)]
fn poll(
    log: &mut Vec<String>,
    name: &str,
    step: &str,
    pg: &mut Pg,
    m: &mut Model,
    who: &str,
    mode: LockMode,
    n: i64,
) -> Ans {
    let a = pg.ids(who, mode.poll_sql(), limit(n));
    same(log, name, step, a, m.select(who, mode, n as usize))
}

fn pg_preload(pg: &mut Pg, n: u32) {
    for e in 1..=n {
        pg.observer
            .execute(sql::INSERT_EVENT, &params(&event_params(e)))
            .unwrap();
    }
}

fn limit(n: i64) -> Vec<Param> {
    vec![Param::I(n)]
}

const S: &str = "s1";

#[test]
fn rollback_then_commit_of_task_and_event() {
    let name = "rollback-commit";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg.session(S);
    let log = &mut Vec::new();
    for (round, end) in [(1u32, sql::ROLLBACK), (2, sql::COMMIT)] {
        tx(log, name, "BEGIN", &mut pg, &mut m, S, sql::BEGIN);
        let a = pg.count(
            S,
            sql::INSERT_TASK,
            vec![Param::I(1), Param::T("Hisobot tayyorlash".into())],
        );
        same(log, name, "INSERT INTO vazifalar", a, m.insert_task(S));
        same(
            log,
            name,
            "INSERT INTO outbox",
            pg.count(S, sql::INSERT_EVENT, event_params(round)),
            m.insert_event(S, round),
        );
        let ma = if end == sql::COMMIT {
            m.commit(S)
        } else {
            m.rollback(S)
        };
        same(log, name, end, pg.exec(S, end), ma);
        let counts = Ans::Rows(vec![
            pg.value("SELECT count(*) FROM vazifalar"),
            pg.value("SELECT count(*) FROM outbox"),
        ]);
        let model = Ans::Rows(vec![
            m.db.committed_tasks() as i64,
            m.db.committed_events() as i64,
        ]);
        same(
            log,
            name,
            &format!("after {end}: tasks, events"),
            counts,
            model,
        );
    }
    // Identity values are not handed back by ROLLBACK: the committed task has id 2.
    let ids = Ans::Rows(vec![
        pg.value("SELECT max(id) FROM vazifalar"),
        pg.value("SELECT max(id) FROM outbox"),
    ]);
    let model_ids = Ans::Rows(vec![m.db.tasks.len() as i64, m.db.outbox.len() as i64]);
    same(log, name, "ids of the committed rows", ids, model_ids);
    let waiting =
        pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL AND urinishlar = 0");
    same(
        log,
        name,
        "the event waits, urinishlar 0",
        Ans::Count(waiting as u64),
        Ans::Count(m.db.unpublished_len()),
    );
}

#[test]
fn exercise_2_relay_with_one_failing_event() {
    // Lesson §9 exercise 2 on real rows: five events, publishing event 3 fails once.
    let name = "exercise-2";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 5);
    m.preload(5);
    pg.session("relay");
    let log = &mut Vec::new();
    let mut failed_once = false;
    let mut order = Vec::new();
    let mut polls = Vec::new();
    for round in 1..=3 {
        tx(
            log,
            name,
            &format!("poll {round}: BEGIN"),
            &mut pg,
            &mut m,
            "relay",
            sql::BEGIN,
        );
        let rows = poll(
            log,
            name,
            &format!("poll {round}: SELECT … SKIP LOCKED"),
            &mut pg,
            &mut m,
            "relay",
            LockMode::SkipLocked,
            100,
        );
        let Ans::Rows(ids) = rows else { panic!() };
        let (mut ok, mut bad) = (Vec::new(), Vec::new());
        for id in ids {
            if id == 3 && !failed_once {
                failed_once = true;
                bad.push(id);
            } else {
                order.push(id);
                ok.push(id);
            }
        }
        if !ok.is_empty() {
            let a = pg.count("relay", sql::MARK_PUBLISHED, vec![Param::A(ok.clone())]);
            same(
                log,
                name,
                &format!("poll {round}: UPDATE … tarqatilgan_vaqt"),
                a,
                m.update("relay", &ok, OutboxChange::Published),
            );
        }
        if !bad.is_empty() {
            let a = pg.count("relay", sql::MARK_FAILED, vec![Param::A(bad.clone())]);
            same(
                log,
                name,
                &format!("poll {round}: UPDATE … urinishlar"),
                a,
                m.update("relay", &bad, OutboxChange::Attempt),
            );
        }
        tx(
            log,
            name,
            &format!("poll {round}: COMMIT"),
            &mut pg,
            &mut m,
            "relay",
            sql::COMMIT,
        );
        polls.push((ok.len(), bad.len()));
    }
    // The lesson's expected output.
    assert_eq!(polls, vec![(4, 1), (1, 0), (0, 0)]);
    assert_eq!(order, vec![1, 2, 4, 5, 3]);
    let attempts = pg.value("SELECT urinishlar::bigint FROM outbox WHERE id = 3");
    let model = m.db.event_row(EventId(3)).unwrap().data.urinishlar as i64;
    same(
        log,
        name,
        "urinishlar of event 3",
        Ans::Rows(vec![attempts]),
        Ans::Rows(vec![model]),
    );
    assert_eq!(attempts, 2);
}

#[test]
fn two_relays_skip_locked_over_200_events() {
    // Lesson §4.1: 200 events, two relays in parallel, each published exactly once.
    let name = "two-relays-skip-locked";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 200);
    m.preload(200);
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    let mut published = Vec::new();
    for round in 1..=4 {
        // Both hold their batches at once: the second skips what the first locked.
        let mut batches = Vec::new();
        for r in ["relay-1", "relay-2"] {
            tx(
                log,
                name,
                &format!("{round}: {r} BEGIN"),
                &mut pg,
                &mut m,
                r,
                sql::BEGIN,
            );
            let a = poll(
                log,
                name,
                &format!("{round}: {r} SELECT … SKIP LOCKED LIMIT 30"),
                &mut pg,
                &mut m,
                r,
                LockMode::SkipLocked,
                30,
            );
            let Ans::Rows(ids) = a else { panic!() };
            batches.push((r, ids));
        }
        for (r, ids) in batches {
            published.extend(ids.iter().copied());
            let a = pg.count(r, sql::MARK_PUBLISHED, vec![Param::A(ids.clone())]);
            same(
                log,
                name,
                &format!("{round}: {r} UPDATE"),
                a,
                m.update(r, &ids, OutboxChange::Published),
            );
            tx(
                log,
                name,
                &format!("{round}: {r} COMMIT"),
                &mut pg,
                &mut m,
                r,
                sql::COMMIT,
            );
        }
    }
    // Then each relay drains the rest with full batches.
    for r in ["relay-1", "relay-2", "relay-1"] {
        tx(
            log,
            name,
            &format!("drain: {r} BEGIN"),
            &mut pg,
            &mut m,
            r,
            sql::BEGIN,
        );
        let a = poll(
            log,
            name,
            &format!("drain: {r} SELECT LIMIT 100"),
            &mut pg,
            &mut m,
            r,
            LockMode::SkipLocked,
            100,
        );
        let Ans::Rows(ids) = a else { panic!() };
        published.extend(ids.iter().copied());
        if !ids.is_empty() {
            let a = pg.count(r, sql::MARK_PUBLISHED, vec![Param::A(ids.clone())]);
            same(
                log,
                name,
                &format!("drain: {r} UPDATE"),
                a,
                m.update(r, &ids, OutboxChange::Published),
            );
        }
        tx(
            log,
            name,
            &format!("drain: {r} COMMIT"),
            &mut pg,
            &mut m,
            r,
            sql::COMMIT,
        );
    }
    published.sort_unstable();
    assert_eq!(
        published,
        (1..=200).collect::<Vec<i64>>(),
        "each event exactly once"
    );
    let once = pg
        .value("SELECT count(*) FROM outbox WHERE urinishlar = 1 AND tarqatilgan_vaqt IS NOT NULL");
    same(
        log,
        name,
        "rows published exactly once",
        Ans::Count(once as u64),
        Ans::Count(200 - m.db.unpublished_len()),
    );
}

#[test]
fn plain_for_update_waits_then_rechecks() {
    let name = "two-relays-for-update";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 200);
    m.preload(200);
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    tx(
        log,
        name,
        "relay-1 BEGIN",
        &mut pg,
        &mut m,
        "relay-1",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-1 SELECT … FOR UPDATE LIMIT 100",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::Wait,
        100,
    );
    let Ans::Rows(first) = a else { panic!() };
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    poll(
        log,
        name,
        "relay-2 SELECT … FOR UPDATE LIMIT 100",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::Wait,
        100,
    );
    let a = pg.count(
        "relay-1",
        sql::MARK_PUBLISHED,
        vec![Param::A(first.clone())],
    );
    same(
        log,
        name,
        "relay-1 UPDATE … tarqatilgan_vaqt",
        a,
        m.update("relay-1", &first, OutboxChange::Published),
    );
    tx(
        log,
        name,
        "relay-1 COMMIT",
        &mut pg,
        &mut m,
        "relay-1",
        sql::COMMIT,
    );
    // relay-2 wakes, re-checks rows 1–100 (now published), drops them, takes 101–200.
    let pg_rows = pg.finish("relay-2");
    let model_rows = m.select("relay-2", LockMode::Wait, 100);
    let second = same(
        log,
        name,
        "relay-2 SELECT answers after the wait",
        pg_rows,
        model_rows,
    );
    assert_eq!(second, Ans::Rows((101..=200).collect()));
    tx(
        log,
        name,
        "relay-2 COMMIT",
        &mut pg,
        &mut m,
        "relay-2",
        sql::COMMIT,
    );
}

#[test]
fn nowait_fails_with_55p03() {
    let name = "nowait";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 10);
    m.preload(10);
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    tx(
        log,
        name,
        "relay-1 BEGIN",
        &mut pg,
        &mut m,
        "relay-1",
        sql::BEGIN,
    );
    poll(
        log,
        name,
        "relay-1 SELECT … NOWAIT LIMIT 5",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::Nowait,
        5,
    );
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    let e = poll(
        log,
        name,
        "relay-2 SELECT … NOWAIT LIMIT 5",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::Nowait,
        5,
    );
    assert_eq!(e, Ans::Err("55P03".into()));
    // The failed transaction refuses everything until ROLLBACK.
    poll(
        log,
        name,
        "relay-2 SELECT in the failed tx",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::Nowait,
        5,
    );
    tx(
        log,
        name,
        "relay-2 ROLLBACK",
        &mut pg,
        &mut m,
        "relay-2",
        sql::ROLLBACK,
    );
    tx(
        log,
        name,
        "relay-1 COMMIT",
        &mut pg,
        &mut m,
        "relay-1",
        sql::COMMIT,
    );
}

#[test]
fn no_lock_both_relays_publish_the_same_rows() {
    let name = "no-lock";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 10);
    m.preload(10);
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    let mut got = Vec::new();
    for r in ["relay-1", "relay-2"] {
        tx(
            log,
            name,
            &format!("{r} BEGIN"),
            &mut pg,
            &mut m,
            r,
            sql::BEGIN,
        );
        let a = same(
            log,
            name,
            &format!("{r} SELECT (no lock) LIMIT 10"),
            pg.ids(r, sql::SELECT_BATCH_HEAD, limit(10)),
            m.select(r, LockMode::None, 10),
        );
        let Ans::Rows(ids) = a else { panic!() };
        got.push(ids);
    }
    assert_eq!(got[0], got[1], "both relays hold the same rows");
    let ids = got[0].clone();
    let a = pg.count("relay-1", sql::MARK_PUBLISHED, vec![Param::A(ids.clone())]);
    same(
        log,
        name,
        "relay-1 UPDATE",
        a,
        m.update("relay-1", &ids, OutboxChange::Published),
    );
    let a = pg.count("relay-2", sql::MARK_PUBLISHED, vec![Param::A(ids.clone())]);
    let w = same(
        log,
        name,
        "relay-2 UPDATE (the same rows)",
        a,
        m.update("relay-2", &ids, OutboxChange::Published),
    );
    assert_eq!(w, Ans::Waits(vec!["relay-1".into()]));
    tx(
        log,
        name,
        "relay-1 COMMIT",
        &mut pg,
        &mut m,
        "relay-1",
        sql::COMMIT,
    );
    let a = pg.finish("relay-2");
    same(
        log,
        name,
        "relay-2 UPDATE after the wait",
        a,
        m.update("relay-2", &ids, OutboxChange::Published),
    );
    tx(
        log,
        name,
        "relay-2 COMMIT",
        &mut pg,
        &mut m,
        "relay-2",
        sql::COMMIT,
    );
    let twice = pg.value("SELECT count(*) FROM outbox WHERE urinishlar = 2");
    let model =
        m.db.outbox
            .iter()
            .filter(|r| r.data.urinishlar == 2)
            .count() as u64;
    same(
        log,
        name,
        "rows marked twice (urinishlar = 2)",
        Ans::Count(twice as u64),
        Ans::Count(model),
    );
}

#[test]
fn two_deliveries_to_the_inbox() {
    let name = "inbox";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg.session("worker-1");
    pg.session("worker-2");
    let log = &mut Vec::new();
    for (event, first_ends) in [(1u32, sql::COMMIT), (2, sql::ROLLBACK)] {
        for w in ["worker-1", "worker-2"] {
            tx(
                log,
                name,
                &format!("h-{event}: {w} BEGIN"),
                &mut pg,
                &mut m,
                w,
                sql::BEGIN,
            );
        }
        let inbox = |m: &mut Model, w: &str| {
            let t = m.t(w);
            let r = m.db.inbox_insert(t, EventId(event), 1);
            m.conv(r, |ins| Ans::Count(ins as u64))
        };
        let a = pg.count("worker-1", sql::INBOX_INSERT, vec![Param::U(uuid(event))]);
        same(
            log,
            name,
            &format!("h-{event}: worker-1 INSERT INTO inbox"),
            a,
            inbox(&mut m, "worker-1"),
        );
        let a = pg.count("worker-2", sql::INBOX_INSERT, vec![Param::U(uuid(event))]);
        let w = same(
            log,
            name,
            &format!("h-{event}: worker-2 INSERT INTO inbox"),
            a,
            inbox(&mut m, "worker-2"),
        );
        assert_eq!(w, Ans::Waits(vec!["worker-1".into()]));
        let ma = if first_ends == sql::COMMIT {
            m.commit("worker-1")
        } else {
            m.rollback("worker-1")
        };
        same(
            log,
            name,
            &format!("h-{event}: worker-1 {first_ends}"),
            pg.exec("worker-1", first_ends),
            ma,
        );
        let a = pg.finish("worker-2");
        let after = same(
            log,
            name,
            &format!("h-{event}: worker-2 INSERT after the wait"),
            a,
            inbox(&mut m, "worker-2"),
        );
        // Committed first: the second does nothing. Rolled back first: the second inserts.
        assert_eq!(
            after,
            Ans::Count(if first_ends == sql::COMMIT { 0 } else { 1 })
        );
        tx(
            log,
            name,
            &format!("h-{event}: worker-2 COMMIT"),
            &mut pg,
            &mut m,
            "worker-2",
            sql::COMMIT,
        );
    }
}

#[test]
fn insert_only_app_role() {
    let name = "app-role";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg.session(S);
    let log = &mut Vec::new();
    let as_app = |m: &mut Model| {
        m.begin(S);
        let t = m.t(S);
        m.db.set_local_role(t, Role::App);
        Ans::Ok
    };
    let probes: [(&str, &'static str, Table, Privilege); 3] = [
        (
            "SELECT count(*) FROM outbox",
            sql::COUNT_OUTBOX,
            Table::Outbox,
            Privilege::Select,
        ),
        (
            "UPDATE outbox SET tarqatilgan_vaqt",
            sql::UPDATE_ALL_PUBLISHED,
            Table::Outbox,
            Privilege::Update,
        ),
        (
            "DELETE FROM outbox",
            sql::DELETE_ALL,
            Table::Outbox,
            Privilege::Delete,
        ),
    ];
    for (label, text, table, p) in probes {
        pg.exec(S, sql::BEGIN);
        same(
            log,
            name,
            "SET LOCAL ROLE vazifalar_ilova",
            pg.exec(S, sql::SET_ROLE_APP),
            as_app(&mut m),
        );
        same(
            log,
            name,
            "INSERT INTO outbox as the app",
            pg.count(S, sql::INSERT_EVENT, event_params(1)),
            m.insert_event(S, 1),
        );
        let a = pg.run(
            S,
            Box::new(move |c| match c.execute(text, &[]) {
                Ok(n) => Ans::Count(n),
                Err(e) => Ans::Err(code(&e)),
            }),
        );
        let t = m.t(S);
        let r = m.db.probe(t, table, p);
        let model = m.conv(r, Ans::Count);
        let e = same(log, name, label, a, model);
        assert_eq!(e, Ans::Err("42501".into()));
        tx(log, name, "ROLLBACK", &mut pg, &mut m, S, sql::ROLLBACK);
    }
    // What RETURNING hodisa_id needs: SELECT on that column.
    let returning = |pg: &mut Pg| {
        pg.run(
            S,
            Box::new(|c| {
                let p = [
                    Param::T("vazifa.bajarildi".into()),
                    Param::I(1),
                    Param::J(serde_json::json!({})),
                ];
                match c.query(sql::INSERT_EVENT_RETURNING, &params(&p)) {
                    Ok(rows) => Ans::Count(rows.len() as u64),
                    Err(e) => Ans::Err(code(&e)),
                }
            }),
        )
    };
    let model_returning = |m: &mut Model| {
        let t = m.t(S);
        let r =
            m.db.insert_event(t, EventId(9), EventKind::Completed, 1, 0, 0, true);
        m.conv(r, |_| Ans::Count(1))
    };
    pg.exec(S, sql::BEGIN);
    same(
        log,
        name,
        "SET LOCAL ROLE vazifalar_ilova",
        pg.exec(S, sql::SET_ROLE_APP),
        as_app(&mut m),
    );
    let e = same(
        log,
        name,
        "INSERT … RETURNING hodisa_id",
        returning(&mut pg),
        model_returning(&mut m),
    );
    assert_eq!(e, Ans::Err("42501".into()));
    tx(log, name, "ROLLBACK", &mut pg, &mut m, S, sql::ROLLBACK);
    pg.observer.batch_execute(sql::GRANT_RETURNING).unwrap();
    m.db.app_can_read_hodisa_id = true;
    pg.exec(S, sql::BEGIN);
    same(
        log,
        name,
        "SET LOCAL ROLE vazifalar_ilova",
        pg.exec(S, sql::SET_ROLE_APP),
        as_app(&mut m),
    );
    same(
        log,
        name,
        "after GRANT SELECT (hodisa_id): RETURNING",
        returning(&mut pg),
        model_returning(&mut m),
    );
    tx(log, name, "ROLLBACK", &mut pg, &mut m, S, sql::ROLLBACK);
    // The identity column needed no sequence grant (every INSERT above worked); a serial
    // column does. This is PostgreSQL's fact alone: the model has no serial columns.
    pg.observer
        .batch_execute("CREATE TABLE serial_demo (id serial PRIMARY KEY, x int); GRANT INSERT ON serial_demo TO vazifalar_ilova")
        .unwrap();
    pg.exec(S, sql::BEGIN);
    pg.exec(S, sql::SET_ROLE_APP);
    let a = pg.run(
        S,
        Box::new(
            |c| match c.execute("INSERT INTO serial_demo (x) VALUES (1)", &[]) {
                Ok(n) => Ans::Count(n),
                Err(e) => Ans::Err(code(&e)),
            },
        ),
    );
    println!(
        "truth: {name:<24} {:<44} postgres={a:?} (a serial column needs USAGE on its sequence)",
        "INSERT into a serial table as the app"
    );
    assert_eq!(a, Ans::Err("42501".into()));
    pg.exec(S, sql::ROLLBACK);
}

#[test]
fn identity_commits_out_of_order_and_a_high_water_mark_misses_one() {
    let name = "high-water-mark";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg.session("slow");
    pg.session("fast");
    pg.session("relay");
    let log = &mut Vec::new();
    tx(log, name, "slow BEGIN", &mut pg, &mut m, "slow", sql::BEGIN);
    tx(log, name, "fast BEGIN", &mut pg, &mut m, "fast", sql::BEGIN);
    same(
        log,
        name,
        "slow INSERT (takes id 1)",
        pg.count("slow", sql::INSERT_EVENT, event_params(1)),
        m.insert_event("slow", 1),
    );
    same(
        log,
        name,
        "fast INSERT (takes id 2)",
        pg.count("fast", sql::INSERT_EVENT, event_params(2)),
        m.insert_event("fast", 2),
    );
    tx(
        log,
        name,
        "fast COMMIT",
        &mut pg,
        &mut m,
        "fast",
        sql::COMMIT,
    );
    let hwm = |m: &mut Model, last: i64| {
        m.begin("relay");
        let t = m.t("relay");
        let r = m.db.select_after(t, last as u64, 100);
        let a = m.conv(r, Model::ids);
        m.commit("relay");
        a
    };
    let a = same(
        log,
        name,
        "relay: WHERE id > 0",
        pg.ids("relay", sql::SELECT_AFTER, vec![Param::I(0), Param::I(100)]),
        hwm(&mut m, 0),
    );
    assert_eq!(a, Ans::Rows(vec![2]));
    tx(
        log,
        name,
        "slow COMMIT (id 1, below the mark)",
        &mut pg,
        &mut m,
        "slow",
        sql::COMMIT,
    );
    let a = same(
        log,
        name,
        "relay: WHERE id > 2",
        pg.ids("relay", sql::SELECT_AFTER, vec![Param::I(2), Param::I(100)]),
        hwm(&mut m, 2),
    );
    assert_eq!(a, Ans::Rows(vec![]), "event 1 is never seen: lost");
    // The lesson's poll cannot skip it.
    m.begin("relay");
    let b = m.select("relay", LockMode::None, 100);
    m.commit("relay");
    let a = same(
        log,
        name,
        "relay: WHERE tarqatilgan_vaqt IS NULL",
        pg.ids("relay", sql::SELECT_BATCH_HEAD, limit(100)),
        b,
    );
    assert_eq!(a, Ans::Rows(vec![1, 2]));
}

#[test]
fn cleanup_with_a_retention_period() {
    let name = "cleanup";
    const DAY: i64 = 86_400;
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 4);
    m.preload(4);
    // Row 1: published 8 days ago. Row 2: published 1 day ago. Row 3: never published,
    // created 10 days ago. Row 4: new and unpublished. Model time is in seconds here.
    let now = 100 * DAY as u64;
    let backdate: [(i64, Option<i64>); 4] = [(9, Some(8)), (2, Some(1)), (10, None), (0, None)];
    for (i, (created, published)) in backdate.iter().enumerate() {
        let id = i as i64 + 1;
        let text = match published {
            Some(p) => format!("UPDATE outbox SET yaratilgan_vaqt = now() - interval '{created} days', tarqatilgan_vaqt = now() - interval '{p} days' WHERE id = {id}"),
            None => format!("UPDATE outbox SET yaratilgan_vaqt = now() - interval '{created} days' WHERE id = {id}"),
        };
        pg.observer.batch_execute(&text).unwrap();
        let days = |d: i64| now - (d * DAY) as u64;
        m.db.backdate(i as u32, days(*created), published.map(days));
    }
    m.tick = now;
    pg.session("cleaner");
    let log = &mut Vec::new();
    for (label, text, only_published) in [
        (
            "DELETE … tarqatilgan_vaqt < now() - 7 days",
            sql::CLEANUP,
            true,
        ),
        (
            "broken: DELETE … yaratilgan_vaqt < now() - 7 days",
            sql::CLEANUP_BY_AGE,
            false,
        ),
    ] {
        tx(log, name, "BEGIN", &mut pg, &mut m, "cleaner", sql::BEGIN);
        let a = pg.count("cleaner", text, vec![Param::F(7.0 * DAY as f64)]);
        let t = m.t("cleaner");
        let mut c = Cursor::default();
        let r =
            m.db.cleanup(t, now - 7 * DAY as u64, only_published, &mut c);
        let model = m.conv(r, Ans::Count);
        same(log, name, label, a, model);
        tx(log, name, "COMMIT", &mut pg, &mut m, "cleaner", sql::COMMIT);
        let left = pg
            .observer
            .query("SELECT id FROM outbox ORDER BY id", &[])
            .unwrap()
            .iter()
            .map(|r| r.get::<_, i64>(0))
            .collect();
        let model_left = (0..m.db.outbox.len())
            .filter(|&i| !m.db.outbox[i].data.deleted)
            .map(|i| i as i64 + 1)
            .collect();
        same(
            log,
            name,
            "rows left",
            Ans::Rows(left),
            Ans::Rows(model_left),
        );
    }
    // The right cleanup removed only row 1; the broken one also removed row 3, an
    // unpublished event: lost.
    assert!(m.db.event_row(EventId(3)).unwrap().data.deleted);
    assert!(!m.db.event_row(EventId(4)).unwrap().data.deleted);
}

#[test]
fn relay_killed_before_commit_leaves_rows_for_the_next_poll() {
    // The relay published and marked its batch, then died before COMMIT: the connection
    // closes, PostgreSQL rolls back, the rows are unlocked and unpublished again.
    let name = "kill-relay";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 8);
    m.preload(8);
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    tx(
        log,
        name,
        "relay-1 BEGIN",
        &mut pg,
        &mut m,
        "relay-1",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-1 SELECT … SKIP LOCKED LIMIT 5",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::SkipLocked,
        5,
    );
    let Ans::Rows(ids) = a else { panic!() };
    let a = pg.count("relay-1", sql::MARK_PUBLISHED, vec![Param::A(ids.clone())]);
    same(
        log,
        name,
        "relay-1 UPDATE … tarqatilgan_vaqt",
        a,
        m.update("relay-1", &ids, OutboxChange::Published),
    );
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    poll(
        log,
        name,
        "relay-2 SELECT while relay-1 holds 1–5",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::SkipLocked,
        5,
    );
    tx(
        log,
        name,
        "relay-2 COMMIT",
        &mut pg,
        &mut m,
        "relay-2",
        sql::COMMIT,
    );
    same(
        log,
        name,
        "kill relay-1 (connection closed)",
        pg.kill("relay-1"),
        m.rollback("relay-1"),
    );
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-2 SELECT after the kill",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::SkipLocked,
        5,
    );
    assert_eq!(a, Ans::Rows(ids), "the killed relay's rows come back");
    tx(
        log,
        name,
        "relay-2 ROLLBACK",
        &mut pg,
        &mut m,
        "relay-2",
        sql::ROLLBACK,
    );
    let unpublished =
        pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL AND urinishlar = 0");
    same(
        log,
        name,
        "unpublished rows, urinishlar 0",
        Ans::Count(unpublished as u64),
        Ans::Count(m.db.unpublished_len()),
    );
}

#[test]
fn dead_letter_after_three_attempts_moves_only_that_row() {
    // Publishing event 2 always fails; event 6 (added later) fails twice. With the move
    // after 3 attempts, round 3 moves row 2 (3 attempts) but not row 6 (2 attempts): the
    // next poll skips 2, gets 6, and the order flows on.
    let name = "dead-letter";
    const AFTER: i32 = 3;
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 5);
    m.preload(5);
    pg.session("relay");
    let log = &mut Vec::new();
    let mut fails_of_6 = 0;
    for round in 1..=5 {
        if round == 2 {
            pg.observer
                .execute(sql::INSERT_EVENT, &params(&event_params(6)))
                .unwrap();
            m.db.preload_event(EventId(6), EventKind::Created, 6, 0);
        }
        let r = "relay";
        tx(
            log,
            name,
            &format!("{round}: BEGIN"),
            &mut pg,
            &mut m,
            r,
            sql::BEGIN,
        );
        let a = poll(
            log,
            name,
            &format!("{round}: SELECT … SKIP LOCKED"),
            &mut pg,
            &mut m,
            r,
            LockMode::SkipLocked,
            100,
        );
        let Ans::Rows(ids) = a else { panic!() };
        let expected: &[i64] = match round {
            1 => &[1, 2, 3, 4, 5],
            2 | 3 => &[2, 6],
            4 => &[6],
            _ => &[],
        };
        assert_eq!(ids, expected, "round {round}");
        let mut ok = Vec::new();
        let mut bad = Vec::new();
        for id in ids {
            if id == 2 || (id == 6 && fails_of_6 < 2) {
                fails_of_6 += (id == 6) as i32;
                bad.push(id);
            } else {
                ok.push(id);
            }
        }
        if !ok.is_empty() {
            let a = pg.count(r, sql::MARK_PUBLISHED, vec![Param::A(ok.clone())]);
            same(
                log,
                name,
                &format!("{round}: UPDATE … tarqatilgan_vaqt {ok:?}"),
                a,
                m.update(r, &ok, OutboxChange::Published),
            );
        }
        if !bad.is_empty() {
            let a = pg.count(r, sql::MARK_FAILED, vec![Param::A(bad.clone())]);
            same(
                log,
                name,
                &format!("{round}: UPDATE … urinishlar {bad:?}"),
                a,
                m.update(r, &bad, OutboxChange::Attempt),
            );
            // The move sees this transaction's own urinishlar + 1.
            let a = pg.count(
                r,
                sql::DEAD_LETTER,
                vec![Param::A(bad.clone()), Param::I32(AFTER)],
            );
            let t = m.t(r);
            let rows: Vec<u32> = bad.iter().map(|&i| (i - 1) as u32).collect();
            let res =
                m.db.dead_letter(t, &rows, AFTER as u32, &mut Cursor::default());
            let moved = same(
                log,
                name,
                &format!("{round}: WITH olik AS (DELETE …) INSERT {bad:?}"),
                a,
                m.conv(res, Ans::Count),
            );
            assert_eq!(moved, Ans::Count((round == 3) as u64), "round {round}");
        }
        tx(
            log,
            name,
            &format!("{round}: COMMIT"),
            &mut pg,
            &mut m,
            r,
            sql::COMMIT,
        );
    }
    // outbox_olik holds exactly row 2, with its id, hodisa_id and 3 attempts.
    let olik: Vec<i64> = pg
        .observer
        .query("SELECT id FROM outbox_olik ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get::<_, i64>(0))
        .collect();
    let model_olik: Vec<i64> = (0..m.db.outbox.len())
        .filter(|&i| m.db.outbox[i].data.dead_letter)
        .map(|i| i as i64 + 1)
        .collect();
    same(
        log,
        name,
        "outbox_olik ids",
        Ans::Rows(olik),
        Ans::Rows(model_olik),
    );
    let moved = pg
        .observer
        .query_one(
            "SELECT count(*) FROM outbox_olik WHERE hodisa_id = $1 AND urinishlar = 3",
            &[&uuid(2)],
        )
        .unwrap()
        .get::<_, i64>(0);
    let row2 = m.db.event_row(EventId(2)).unwrap().data;
    same(
        log,
        name,
        "outbox_olik: event 2, urinishlar 3",
        Ans::Count(moved as u64),
        Ans::Count((row2.dead_letter && row2.urinishlar == 3) as u64),
    );
    same(
        log,
        name,
        "outbox rows left, of them unpublished",
        Ans::Rows(vec![
            pg.value("SELECT count(*) FROM outbox"),
            pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL"),
        ]),
        Ans::Rows(vec![
            m.db.committed_events() as i64,
            m.db.unpublished_len() as i64,
        ]),
    );
    assert_eq!(m.db.dead_letters(), 1);
    let attempts_6 = pg.value("SELECT urinishlar::bigint FROM outbox WHERE id = 6");
    same(
        log,
        name,
        "urinishlar of event 6 (2 fails, 1 publish)",
        Ans::Rows(vec![attempts_6]),
        Ans::Rows(vec![
            m.db.event_row(EventId(6)).unwrap().data.urinishlar as i64,
        ]),
    );
}

/// The operator's lock timeout. The model's operator gives up at once on a locked row; in
/// PostgreSQL `lock_timeout = 0` means "no timeout" (it waits forever, shown below), so the
/// nearest real setting is the smallest positive one.
const SET_LOCK_TIMEOUT_1MS: &str = "SET LOCAL lock_timeout = '1ms'";
const SET_LOCK_TIMEOUT_0: &str = "SET LOCAL lock_timeout = 0";

#[test]
fn unpublish_since_refused_while_a_relay_holds_a_row() {
    // Redis came back empty two days ago. Row 1 was published 3 days ago, rows 2 and 3 one
    // day ago, row 4 never. The operator un-marks everything published since the crash.
    let name = "unpublish-since";
    const DAY: i64 = 86_400;
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 4);
    m.preload(4);
    let now = 100 * DAY as u64;
    let published: [Option<i64>; 4] = [Some(3), Some(1), Some(1), None];
    for (i, p) in published.iter().enumerate() {
        if let Some(p) = p {
            let id = i + 1;
            pg.observer
                .batch_execute(&format!("UPDATE outbox SET tarqatilgan_vaqt = now() - interval '{p} days', urinishlar = 1 WHERE id = {id}"))
                .unwrap();
            let r = &m.db.outbox[i];
            let created = r.yaratilgan_vaqt;
            m.db.backdate(i as u32, created, Some(now - (p * DAY) as u64));
            m.db.outbox[i].data.urinishlar = 1;
        }
    }
    m.tick = now;
    let since_pg = std::time::SystemTime::now() - Duration::from_secs(2 * DAY as u64);
    let since_model = now - 2 * DAY as u64;
    let since = move || vec![Param::Ts(since_pg)];
    pg.session("relay-1");
    pg.session("relay-2");
    pg.session("operator");
    let log = &mut Vec::new();
    // relay-1 holds row 4 (unpublished: the operator's WHERE never matches it).
    tx(
        log,
        name,
        "relay-1 BEGIN",
        &mut pg,
        &mut m,
        "relay-1",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-1 SELECT … SKIP LOCKED",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::SkipLocked,
        10,
    );
    assert_eq!(a, Ans::Rows(vec![4]));
    // relay-2 (a relay without row locks) marks row 3 again and has not committed.
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    let a = pg.count("relay-2", sql::MARK_PUBLISHED, vec![Param::A(vec![3])]);
    same(
        log,
        name,
        "relay-2 UPDATE … tarqatilgan_vaqt [3]",
        a,
        m.update("relay-2", &[3], OutboxChange::Published),
    );
    // The operator, with the lock timeout: refused on row 3.
    let op = "operator";
    let unmark = |m: &mut Model| {
        let t = m.t(op);
        let r = m.db.unpublish_since(t, since_model, &mut Cursor::default());
        match r {
            // The world's operator gives up on the first locked row: the lock timeout.
            Exec::Blocked(h) => {
                assert_eq!(h, m.t("relay-2"), "blocked by relay-2");
                Ans::Err(outbox_model::db::sqlstate::LOCK_NOT_AVAILABLE.into())
            }
            r => m.conv(r, Ans::Count),
        }
    };
    tx(log, name, "operator BEGIN", &mut pg, &mut m, op, sql::BEGIN);
    same(
        log,
        name,
        "operator SET LOCAL lock_timeout = '1ms'",
        pg.exec(op, SET_LOCK_TIMEOUT_1MS),
        Ans::Ok,
    );
    let a = pg.count(op, sql::UNPUBLISH_SINCE, since());
    let e = same(
        log,
        name,
        "operator UPDATE … SET tarqatilgan_vaqt = NULL",
        a,
        unmark(&mut m),
    );
    assert_eq!(e, Ans::Err("55P03".into()));
    tx(
        log,
        name,
        "operator ROLLBACK",
        &mut pg,
        &mut m,
        op,
        sql::ROLLBACK,
    );
    // PostgreSQL's fact alone: a zero lock_timeout is no timeout, the UPDATE waits.
    pg.exec(op, sql::BEGIN);
    pg.exec(op, SET_LOCK_TIMEOUT_0);
    let a = pg.count(op, sql::UNPUBLISH_SINCE, since());
    println!(
        "truth: {name:<24} {:<44} postgres={a:?} (0 disables lock_timeout: it waits)",
        "operator with lock_timeout = 0"
    );
    assert_eq!(a, Ans::Waits(vec!["relay-2".into()]));
    // relay-2 gives up; the waiting UPDATE then takes rows 2 and 3 (rolled back: PG only).
    tx(
        log,
        name,
        "relay-2 ROLLBACK",
        &mut pg,
        &mut m,
        "relay-2",
        sql::ROLLBACK,
    );
    let a = pg.finish(op);
    assert_eq!(a, Ans::Count(2));
    pg.exec(op, sql::ROLLBACK);
    // Now no relay holds a published row: the operator un-marks rows 2 and 3 while
    // relay-1 still holds row 4.
    tx(log, name, "operator BEGIN", &mut pg, &mut m, op, sql::BEGIN);
    same(
        log,
        name,
        "operator SET LOCAL lock_timeout = '1ms'",
        pg.exec(op, SET_LOCK_TIMEOUT_1MS),
        Ans::Ok,
    );
    let a = pg.count(op, sql::UNPUBLISH_SINCE, since());
    let n = same(
        log,
        name,
        "operator UPDATE … SET tarqatilgan_vaqt = NULL",
        a,
        unmark(&mut m),
    );
    assert_eq!(n, Ans::Count(2));
    tx(
        log,
        name,
        "operator COMMIT",
        &mut pg,
        &mut m,
        op,
        sql::COMMIT,
    );
    // relay-1's next poll in the same transaction sees them again, with its own row 4.
    let a = poll(
        log,
        name,
        "relay-1 SELECT … SKIP LOCKED again",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::SkipLocked,
        10,
    );
    assert_eq!(a, Ans::Rows(vec![2, 3, 4]));
    let a = pg.count(
        "relay-1",
        sql::MARK_PUBLISHED,
        vec![Param::A(vec![2, 3, 4])],
    );
    same(
        log,
        name,
        "relay-1 UPDATE … tarqatilgan_vaqt [2, 3, 4]",
        a,
        m.update("relay-1", &[2, 3, 4], OutboxChange::Published),
    );
    tx(
        log,
        name,
        "relay-1 COMMIT",
        &mut pg,
        &mut m,
        "relay-1",
        sql::COMMIT,
    );
    let attempts: Vec<i64> = pg
        .observer
        .query("SELECT urinishlar::bigint FROM outbox ORDER BY id", &[])
        .unwrap()
        .iter()
        .map(|r| r.get::<_, i64>(0))
        .collect();
    let model: Vec<i64> =
        m.db.outbox
            .iter()
            .map(|r| r.data.urinishlar as i64)
            .collect();
    same(
        log,
        name,
        "urinishlar of rows 1–4",
        Ans::Rows(attempts),
        Ans::Rows(model),
    );
    same(
        log,
        name,
        "unpublished rows",
        Ans::Count(pg.value("SELECT count(*) FROM outbox WHERE tarqatilgan_vaqt IS NULL") as u64),
        Ans::Count(m.db.unpublished_len()),
    );
}

#[test]
fn two_requests_with_one_idempotency_key() {
    // The client sends the same request twice (a retry after a timeout); both reach the
    // API at once, each in its own transaction as the app role. The key's unique index
    // makes the second wait for the first; then it does nothing (first committed) or
    // inserts (first rolled back). ON CONFLICT DO NOTHING: no 23505 either way.
    let name = "idempotency-key";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg.session("api-1");
    pg.session("api-2");
    let log = &mut Vec::new();
    let key = |intent: u32| vec![Param::T(format!("sorov-{intent}"))];
    let model_key = |m: &mut Model, who: &str, intent: u32| {
        let t = m.t(who);
        let r = m.db.key_insert(t, intent, 1);
        m.conv(r, |ins| Ans::Count(ins as u64))
    };
    let begin_as_app =
        |log: &mut Vec<String>, pg: &mut Pg, m: &mut Model, who: &str, step: &str| {
            tx(
                log,
                name,
                &format!("{step}: {who} BEGIN"),
                pg,
                m,
                who,
                sql::BEGIN,
            );
            let t = m.t(who);
            let r = m.db.set_local_role(t, Role::App);
            let model = m.conv(r, |_| Ans::Ok);
            same(
                log,
                name,
                &format!("{step}: {who} SET LOCAL ROLE vazifalar_ilova"),
                pg.exec(who, sql::SET_ROLE_APP),
                model,
            );
        };
    for (intent, first_ends) in [(1u32, sql::COMMIT), (2, sql::ROLLBACK)] {
        let step = format!("sorov-{intent}");
        for w in ["api-1", "api-2"] {
            begin_as_app(log, &mut pg, &mut m, w, &step);
        }
        let a = pg.count("api-1", sql::KEY_INSERT, key(intent));
        let first = same(
            log,
            name,
            &format!("{step}: api-1 INSERT INTO sorov_kalitlari"),
            a,
            model_key(&mut m, "api-1", intent),
        );
        assert_eq!(first, Ans::Count(1));
        let a = pg.count("api-2", sql::KEY_INSERT, key(intent));
        let w = same(
            log,
            name,
            &format!("{step}: api-2 INSERT INTO sorov_kalitlari"),
            a,
            model_key(&mut m, "api-2", intent),
        );
        assert_eq!(w, Ans::Waits(vec!["api-1".into()]));
        let ma = if first_ends == sql::COMMIT {
            m.commit("api-1")
        } else {
            m.rollback("api-1")
        };
        same(
            log,
            name,
            &format!("{step}: api-1 {first_ends}"),
            pg.exec("api-1", first_ends),
            ma,
        );
        let a = pg.finish("api-2");
        let after = same(
            log,
            name,
            &format!("{step}: api-2 INSERT after the wait"),
            a,
            model_key(&mut m, "api-2", intent),
        );
        assert_eq!(
            after,
            Ans::Count(if first_ends == sql::COMMIT { 0 } else { 1 })
        );
        tx(
            log,
            name,
            &format!("{step}: api-2 COMMIT"),
            &mut pg,
            &mut m,
            "api-2",
            sql::COMMIT,
        );
    }
    // A later retry of either request finds its key committed: nothing, and no wait.
    for intent in [1u32, 2] {
        let step = format!("retry sorov-{intent}");
        begin_as_app(log, &mut pg, &mut m, "api-1", &step);
        let a = pg.count("api-1", sql::KEY_INSERT, key(intent));
        let n = same(
            log,
            name,
            &format!("{step}: INSERT INTO sorov_kalitlari"),
            a,
            model_key(&mut m, "api-1", intent),
        );
        assert_eq!(n, Ans::Count(0));
        tx(
            log,
            name,
            &format!("{step}: ROLLBACK"),
            &mut pg,
            &mut m,
            "api-1",
            sql::ROLLBACK,
        );
    }
    // The grant is INSERT alone: the app role may not read the keys.
    begin_as_app(log, &mut pg, &mut m, "api-1", "read");
    let a = pg.run(
        "api-1",
        Box::new(
            |c| match c.execute("SELECT count(*) FROM sorov_kalitlari", &[]) {
                Ok(n) => Ans::Count(n),
                Err(e) => Ans::Err(code(&e)),
            },
        ),
    );
    let t = m.t("api-1");
    let r = m.db.probe(t, Table::SorovKalitlari, Privilege::Select);
    let model = m.conv(r, Ans::Count);
    let e = same(
        log,
        name,
        "read: SELECT count(*) FROM sorov_kalitlari",
        a,
        model,
    );
    assert_eq!(e, Ans::Err("42501".into()));
    tx(
        log,
        name,
        "read: ROLLBACK",
        &mut pg,
        &mut m,
        "api-1",
        sql::ROLLBACK,
    );
    let keys = pg.value("SELECT count(*) FROM sorov_kalitlari");
    let model_keys = [1u32, 2].iter().filter(|&&i| m.db.key_committed(i)).count() as i64;
    same(
        log,
        name,
        "committed keys",
        Ans::Rows(vec![keys]),
        Ans::Rows(vec![model_keys]),
    );
}

#[test]
fn inbox_cleanup_deletes_only_rows_past_the_retention() {
    // Inbox rows of events 1–4, processed 10, 8 and 1 days ago and now; retention 7 days.
    let name = "inbox-cleanup";
    const DAY: i64 = 86_400;
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    let now = 100 * DAY as u64;
    for (e, days) in [(1u32, 10i64), (2, 8), (3, 1), (4, 0)] {
        pg.observer.execute(sql::INBOX_INSERT, &[&uuid(e)]).unwrap();
        pg.observer
            .execute(
                &format!("UPDATE inbox SET ishlangan_vaqt = now() - interval '{days} days' WHERE hodisa_id = $1"),
                &[&uuid(e)],
            )
            .unwrap();
        let t = m.db.begin(Role::Owner, now);
        assert_eq!(
            m.db.inbox_insert(t, EventId(e), now - (days * DAY) as u64),
            Exec::Done(true)
        );
        m.db.commit(t);
    }
    m.tick = now;
    pg.session("cleaner");
    pg.session("cleaner-2");
    pg.session("worker");
    let log = &mut Vec::new();
    let retention = || vec![Param::F(7.0 * DAY as f64)];
    let model_cleanup = |m: &mut Model, who: &str| {
        let t = m.t(who);
        let cutoff = m.db.now(t) - 7 * DAY as u64;
        let r = m.db.inbox_cleanup(t, cutoff);
        m.conv(r, Ans::Count)
    };
    let model_inbox = |m: &mut Model, who: &str, e: u32| {
        let t = m.t(who);
        let r = m.db.inbox_insert(t, EventId(e), now);
        m.conv(r, |ins| Ans::Count(ins as u64))
    };
    // A redelivery of event 2 meets the cleaner's uncommitted DELETE and waits; the
    // cleaner rolls back, so the dedup row stays and the insert does nothing.
    tx(
        log,
        name,
        "A: cleaner BEGIN",
        &mut pg,
        &mut m,
        "cleaner",
        sql::BEGIN,
    );
    let a = pg.count("cleaner", sql::INBOX_CLEANUP, retention());
    let n = same(
        log,
        name,
        "A: cleaner DELETE … < now() - 7 days",
        a,
        model_cleanup(&mut m, "cleaner"),
    );
    assert_eq!(n, Ans::Count(2));
    tx(
        log,
        name,
        "A: worker BEGIN",
        &mut pg,
        &mut m,
        "worker",
        sql::BEGIN,
    );
    let a = pg.count("worker", sql::INBOX_INSERT, vec![Param::U(uuid(2))]);
    let w = same(
        log,
        name,
        "A: worker INSERT INTO inbox (event 2)",
        a,
        model_inbox(&mut m, "worker", 2),
    );
    assert_eq!(w, Ans::Waits(vec!["cleaner".into()]));
    tx(
        log,
        name,
        "A: cleaner ROLLBACK",
        &mut pg,
        &mut m,
        "cleaner",
        sql::ROLLBACK,
    );
    let a = pg.finish("worker");
    let n = same(
        log,
        name,
        "A: worker INSERT after the wait",
        a,
        model_inbox(&mut m, "worker", 2),
    );
    assert_eq!(n, Ans::Count(0));
    tx(
        log,
        name,
        "A: worker COMMIT",
        &mut pg,
        &mut m,
        "worker",
        sql::COMMIT,
    );
    // Again, committed this time: a redelivery of event 1 and a second cleaner both wait.
    tx(
        log,
        name,
        "B: cleaner BEGIN",
        &mut pg,
        &mut m,
        "cleaner",
        sql::BEGIN,
    );
    let a = pg.count("cleaner", sql::INBOX_CLEANUP, retention());
    let n = same(
        log,
        name,
        "B: cleaner DELETE … < now() - 7 days",
        a,
        model_cleanup(&mut m, "cleaner"),
    );
    assert_eq!(n, Ans::Count(2));
    tx(
        log,
        name,
        "B: worker BEGIN",
        &mut pg,
        &mut m,
        "worker",
        sql::BEGIN,
    );
    let a = pg.count("worker", sql::INBOX_INSERT, vec![Param::U(uuid(1))]);
    let w = same(
        log,
        name,
        "B: worker INSERT INTO inbox (event 1)",
        a,
        model_inbox(&mut m, "worker", 1),
    );
    assert_eq!(w, Ans::Waits(vec!["cleaner".into()]));
    tx(
        log,
        name,
        "B: cleaner-2 BEGIN",
        &mut pg,
        &mut m,
        "cleaner-2",
        sql::BEGIN,
    );
    let a = pg.count("cleaner-2", sql::INBOX_CLEANUP, retention());
    let w = same(
        log,
        name,
        "B: cleaner-2 DELETE … < now() - 7 days",
        a,
        model_cleanup(&mut m, "cleaner-2"),
    );
    assert_eq!(w, Ans::Waits(vec!["cleaner".into()]));
    tx(
        log,
        name,
        "B: cleaner COMMIT",
        &mut pg,
        &mut m,
        "cleaner",
        sql::COMMIT,
    );
    // The dedup row of event 1 is gone: its redelivery is processed again.
    let a = pg.finish("worker");
    let n = same(
        log,
        name,
        "B: worker INSERT after the wait",
        a,
        model_inbox(&mut m, "worker", 1),
    );
    assert_eq!(n, Ans::Count(1));
    let a = pg.finish("cleaner-2");
    let n = same(
        log,
        name,
        "B: cleaner-2 DELETE after the wait",
        a,
        model_cleanup(&mut m, "cleaner-2"),
    );
    assert_eq!(n, Ans::Count(0));
    tx(
        log,
        name,
        "B: cleaner-2 COMMIT",
        &mut pg,
        &mut m,
        "cleaner-2",
        sql::COMMIT,
    );
    tx(
        log,
        name,
        "B: worker COMMIT",
        &mut pg,
        &mut m,
        "worker",
        sql::COMMIT,
    );
    let mut left = Vec::new();
    for e in 1u32..=4 {
        let n: i64 = pg
            .observer
            .query_one(
                "SELECT count(*) FROM inbox WHERE hodisa_id = $1",
                &[&uuid(e)],
            )
            .unwrap()
            .get(0);
        if n == 1 {
            left.push(e as i64);
        }
    }
    let model_left: Vec<i64> = (1u32..=4)
        .filter(|&e| m.db.inbox_has(EventId(e)))
        .map(|e| e as i64)
        .collect();
    let a = same(
        log,
        name,
        "inbox rows left (events)",
        Ans::Rows(left),
        Ans::Rows(model_left),
    );
    assert_eq!(a, Ans::Rows(vec![1, 3, 4]));
    same(
        log,
        name,
        "inbox row count",
        Ans::Count(pg.value("SELECT count(*) FROM inbox") as u64),
        Ans::Count(m.db.committed_inbox()),
    );
}

impl Pg {
    /// `SELECT pg_sleep($1)`: answers Ok, or is still busy (waiting for no one) when
    /// longer than the harness's moment.
    fn sleep(&mut self, who: &str, secs: f64) -> Ans {
        self.run(
            who,
            Box::new(
                move |c| match c.execute(sql::PG_SLEEP, &params(&[Param::F(secs)])) {
                    Ok(_) => Ans::Ok,
                    Err(e) => Ans::Err(code(&e)),
                },
            ),
        )
    }
}

/// The model side of `pg_sleep`: the Db has no such statement; the world's session is busy
/// for `PG_SLEEP_TICKS` with its transaction open, blocked by no transaction.
fn model_sleeping() -> Ans {
    Ans::Waits(vec![])
}

#[test]
fn a_slow_transaction_hides_its_row_and_keeps_its_locks() {
    let name = "pg-sleep";
    let mut pg = Pg::new(name);
    let mut m = Model::new();
    pg_preload(&mut pg, 3);
    m.preload(3);
    pg.session("psql");
    pg.session("relay-1");
    pg.session("relay-2");
    let log = &mut Vec::new();
    // psql inserts event 4 and then sleeps inside its transaction.
    tx(log, name, "psql BEGIN", &mut pg, &mut m, "psql", sql::BEGIN);
    same(
        log,
        name,
        "psql INSERT INTO outbox (id 4)",
        pg.count("psql", sql::INSERT_EVENT, event_params(4)),
        m.insert_event("psql", 4),
    );
    // relay-1 takes rows 1–3, then its publish is slow: it sleeps holding them.
    tx(
        log,
        name,
        "relay-1 BEGIN",
        &mut pg,
        &mut m,
        "relay-1",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-1 SELECT … SKIP LOCKED",
        &mut pg,
        &mut m,
        "relay-1",
        LockMode::SkipLocked,
        10,
    );
    assert_eq!(a, Ans::Rows(vec![1, 2, 3]));
    same(
        log,
        name,
        "psql SELECT pg_sleep(1) (busy)",
        pg.sleep("psql", 1.0),
        model_sleeping(),
    );
    same(
        log,
        name,
        "relay-1 SELECT pg_sleep(1) (busy)",
        pg.sleep("relay-1", 1.0),
        model_sleeping(),
    );
    // relay-2 neither sees the sleeping insert nor waits for it; relay-1's rows stay
    // locked through its sleep.
    tx(
        log,
        name,
        "relay-2 BEGIN",
        &mut pg,
        &mut m,
        "relay-2",
        sql::BEGIN,
    );
    let a = poll(
        log,
        name,
        "relay-2 SELECT … SKIP LOCKED",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::SkipLocked,
        10,
    );
    assert_eq!(a, Ans::Rows(vec![]));
    let a = poll(
        log,
        name,
        "relay-2 SELECT … FOR UPDATE",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::Wait,
        10,
    );
    assert_eq!(a, Ans::Waits(vec!["relay-1".into()]));
    same(
        log,
        name,
        "psql pg_sleep answers",
        pg.finish("psql"),
        Ans::Ok,
    );
    tx(
        log,
        name,
        "psql COMMIT",
        &mut pg,
        &mut m,
        "psql",
        sql::COMMIT,
    );
    same(
        log,
        name,
        "relay-1 pg_sleep answers",
        pg.finish("relay-1"),
        Ans::Ok,
    );
    let a = pg.count(
        "relay-1",
        sql::MARK_PUBLISHED,
        vec![Param::A(vec![1, 2, 3])],
    );
    same(
        log,
        name,
        "relay-1 UPDATE … tarqatilgan_vaqt [1, 2, 3]",
        a,
        m.update("relay-1", &[1, 2, 3], OutboxChange::Published),
    );
    tx(
        log,
        name,
        "relay-1 COMMIT",
        &mut pg,
        &mut m,
        "relay-1",
        sql::COMMIT,
    );
    // relay-2's FOR UPDATE re-checks 1–3 (published now, dropped). Its snapshot was
    // taken before psql committed: row 4 is not in it.
    let a = same(
        log,
        name,
        "relay-2 SELECT answers after the wait",
        pg.finish("relay-2"),
        m.select("relay-2", LockMode::Wait, 10),
    );
    assert_eq!(a, Ans::Rows(vec![]));
    let a = poll(
        log,
        name,
        "relay-2 SELECT … FOR UPDATE again",
        &mut pg,
        &mut m,
        "relay-2",
        LockMode::Wait,
        10,
    );
    assert_eq!(a, Ans::Rows(vec![4]));
    tx(
        log,
        name,
        "relay-2 ROLLBACK",
        &mut pg,
        &mut m,
        "relay-2",
        sql::ROLLBACK,
    );
}
