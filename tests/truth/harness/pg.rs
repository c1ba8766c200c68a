//! The PostgreSQL side: a scratch database per scenario and one connection per session.
//!
//! Every session is its own connection on its own thread; a statement that does not answer
//! within a moment is waiting, and the server is asked (`pg_blocking_pids`) whom it waits
//! for. An `observer` connection outside the sessions sets rows up and reads them back.

use super::Answer;
use outbox_model::ids::{EventId, EventKind};
use outbox_model::sql;
use postgres::{Client, NoTls};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

fn url() -> String {
    std::env::var("OUTBOX_PG_URL").unwrap_or_else(|_| {
        panic!("OUTBOX_PG_URL is not set: the truth suite needs the PostgreSQL that `cargo xtask test` starts")
    })
}

type Job = Box<dyn FnOnce(&mut Client) -> Answer + Send>;

struct Session {
    name: String,
    pid: i32,
    jobs: Sender<Option<Job>>,
    answers: Receiver<Answer>,
    waiting: bool,
}

/// A scratch database of its own, with the schema, for one scenario.
pub struct Pg {
    url: String,
    pub observer: Client,
    sessions: Vec<Session>,
}

fn code(e: &postgres::Error) -> String {
    e.code()
        .map(|c| c.code().to_string())
        .unwrap_or_else(|| format!("?{e}"))
}

impl Pg {
    pub fn new(name: &str) -> Pg {
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

    /// The scratch database's URL (the pool truth's node harness connects to it).
    pub fn url(&self) -> &str {
        &self.url
    }

    pub fn session(&mut self, name: &str) {
        let mut client = Client::connect(&self.url, NoTls).expect("connect");
        let pid: i32 = client
            .query_one("SELECT pg_backend_pid()", &[])
            .unwrap()
            .get(0);
        let (jtx, jrx) = channel::<Option<Job>>();
        let (atx, arx) = channel::<Answer>();
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
    fn run(&mut self, who: &str, job: Job) -> Answer {
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
                Answer::Waits(self.blockers(i))
            }
            Err(e) => panic!("{who}: {e}"),
        }
    }

    /// The sessions that session `i` waits for, by name, sorted.
    fn blockers(&mut self, i: usize) -> Vec<String> {
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
        names
    }

    /// The answer of a statement that was waiting.
    pub fn finish(&mut self, who: &str) -> Answer {
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
    pub fn kill(&mut self, who: &str) -> Answer {
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
                    Answer::Ok
                } else {
                    Answer::Err("not killed".into())
                };
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("backend {pid} of {who} did not go away");
    }

    pub fn exec(&mut self, who: &str, text: &'static str) -> Answer {
        self.run(
            who,
            Box::new(move |c| match c.batch_execute(text) {
                Ok(()) => Answer::Ok,
                Err(e) => Answer::Err(code(&e)),
            }),
        )
    }

    pub fn count(&mut self, who: &str, text: &'static str, p: Vec<Param>) -> Answer {
        self.run(
            who,
            Box::new(move |c| {
                let refs = params(&p);
                match c.execute(text, &refs) {
                    Ok(n) => Answer::Count(n),
                    Err(e) => Answer::Err(code(&e)),
                }
            }),
        )
    }

    /// A query whose first column is a bigint (ids, counts).
    pub fn ids(&mut self, who: &str, text: &'static str, p: Vec<Param>) -> Answer {
        self.run(
            who,
            Box::new(move |c| {
                let refs = params(&p);
                match c.query(text, &refs) {
                    Ok(rows) => Answer::Rows(rows.iter().map(|r| r.get::<_, i64>(0)).collect()),
                    Err(e) => Answer::Err(code(&e)),
                }
            }),
        )
    }

    /// A query answered by how many rows it returned (columns of any type).
    pub fn rows(&mut self, who: &str, text: &'static str) -> Answer {
        self.run(
            who,
            Box::new(move |c| match c.query(text, &[]) {
                Ok(rows) => Answer::Count(rows.len() as u64),
                Err(e) => Answer::Err(code(&e)),
            }),
        )
    }

    /// `INSERT … RETURNING hodisa_id`: the number of rows it returned.
    pub fn returning(&mut self, who: &str, p: Vec<Param>) -> Answer {
        self.run(
            who,
            Box::new(
                move |c| match c.query(sql::INSERT_EVENT_RETURNING, &params(&p)) {
                    Ok(rows) => Answer::Count(rows.len() as u64),
                    Err(e) => Answer::Err(code(&e)),
                },
            ),
        )
    }

    /// `SELECT pg_sleep($1)`: answers Ok, or is still busy (waiting for no one) when
    /// longer than the harness's moment.
    pub fn sleep(&mut self, who: &str, secs: f64) -> Answer {
        self.run(
            who,
            Box::new(
                move |c| match c.execute(sql::PG_SLEEP, &params(&[Param::F(secs)])) {
                    Ok(_) => Answer::Ok,
                    Err(e) => Answer::Err(code(&e)),
                },
            ),
        )
    }

    /// One bigint read by the observer (a count, an id).
    pub fn value(&mut self, text: &str) -> i64 {
        self.observer.query_one(text, &[]).unwrap().get(0)
    }

    /// The first (bigint) column of every row the observer reads.
    pub fn column(&mut self, text: &str) -> Vec<i64> {
        self.observer
            .query(text, &[])
            .unwrap()
            .iter()
            .map(|r| r.get::<_, i64>(0))
            .collect()
    }

    /// Events 1..=n, committed by the observer before the scenario starts.
    pub fn preload(&mut self, n: u32) {
        for e in 1..=n {
            self.preload_event(e);
        }
    }

    /// Event `e`, committed by the observer (outside every session).
    pub fn preload_event(&mut self, e: u32) {
        self.observer
            .execute(sql::INSERT_EVENT, &params(&event_params(e)))
            .unwrap();
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
pub enum Param {
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

pub fn uuid(e: u32) -> uuid::Uuid {
    uuid::Uuid::parse_str(&EventId(e).uuid()).unwrap()
}

pub fn event_params(e: u32) -> Vec<Param> {
    vec![
        Param::U(uuid(e)),
        Param::T(EventKind::Created.tur().into()),
        Param::I(1),
        Param::J(serde_json::json!({ "vazifa": e })),
    ]
}

pub fn limit(n: i64) -> Vec<Param> {
    vec![Param::I(n)]
}
