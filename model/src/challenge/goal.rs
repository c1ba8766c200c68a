//! The goal of an instructor's own challenge (issue #23), as a small text language the
//! model parses and judges: `(api == dual_write_db_first || api == dual_write_queue_first)
//! && lost >= 1`.
//!
//! Why a language and not a list of built-in goals: an instructor writes a scenario and a
//! goal without touching Rust, and the page must judge it from the world exactly as it
//! judges the lesson's own steps (`lesson::reached`), never from what the page thinks
//! happened. Every built-in lesson goal can be written in it ([`super::lesson_goal_text`]).
//!
//! The names are the model's own JSON names (counters, config keys, enum values, process
//! kinds, steps, script statements), the same in every page language. Errors carry a
//! byte offset and a kind with a stable [`GoalErrorKind::code`] the page translates; their
//! `Display` (English) is for logs and tests only.
//!
//! The text comes from a file or a link, so parsing is bounded: at most
//! [`MAX_TEXT_BYTES`] bytes, [`MAX_CONDITIONS`] conditions and [`MAX_DEPTH`] nested
//! parentheses (the recursion's bound), and no input panics.
//!
//! ```text
//! goal    = any
//! any     = all ("||" all)*
//! all     = atom ("&&" atom)*
//! atom    = "(" any ")" | "settled" | subject op value
//!         | "killed" "(" kind "," step ")" | "refused" "(" stmt "," sqlstate ")"
//! subject = counter | "tasks_total" | "kill_steps" "(" kind ")" | config key
//! ```

use crate::action::{ProcKind, Step};
use crate::db::{sqlstate, LockMode};
use crate::scenario::{ApiMode, RelayMode, ScriptStmt, WorkerMode};
use crate::world::{Counters, World};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// The longest goal text accepted, in bytes (the input's, and its canonical text's).
pub const MAX_TEXT_BYTES: usize = 500;
/// The most conditions (comparisons, `settled`, `killed(…)`, `refused(…)`) in one goal.
pub const MAX_CONDITIONS: usize = 16;
/// The deepest nesting of parentheses.
pub const MAX_DEPTH: usize = 8;

/// How a counter is read from [`Counters`].
type ReadCounter = fn(&Counters) -> u64;

/// Every field of [`Counters`], by its JSON name (a unit test checks the list against
/// serde both ways, so a new counter cannot be left out or misread).
const COUNTERS: [(&str, ReadCounter); 21] = [
    ("tasks_in_db", |c| c.tasks_in_db),
    ("events_in_outbox", |c| c.events_in_outbox),
    ("events_unpublished", |c| c.events_unpublished),
    ("queue_adds", |c| c.queue_adds),
    ("queue_dedup_hits", |c| c.queue_dedup_hits),
    ("queue_jobs", |c| c.queue_jobs),
    ("deliveries", |c| c.deliveries),
    ("effects", |c| c.effects),
    ("lost", |c| c.lost),
    ("duplicate_deliveries", |c| c.duplicate_deliveries),
    ("duplicate_effects", |c| c.duplicate_effects),
    ("phantoms", |c| c.phantoms),
    ("reordered", |c| c.reordered),
    ("stuck", |c| c.stuck),
    ("oldest_unpublished_age_ticks", |c| {
        c.oldest_unpublished_age_ticks
    }),
    ("in_flight", |c| c.in_flight),
    ("balance", |c| c.balance),
    ("tick", |c| c.tick),
    ("wal_retained", |c| c.wal_retained),
    ("dead_lettered", |c| c.dead_lettered),
    ("duplicate_tasks", |c| c.duplicate_tasks),
];

/// The SQLSTATEs the model can answer with (`db::sqlstate`): a code outside this list
/// could never be seen, so it is refused as a likely typo.
const SQLSTATES: [&str; 5] = [
    sqlstate::INSUFFICIENT_PRIVILEGE,
    sqlstate::LOCK_NOT_AVAILABLE,
    sqlstate::DEADLOCK_DETECTED,
    sqlstate::IN_FAILED_TRANSACTION,
    sqlstate::UNIQUE_VIOLATION,
];

/// A parsed goal. Two goals are equal when their canonical texts are: whitespace,
/// redundant parentheses and the grouping of `a && b && c` do not count.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    expr: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Expr {
    /// At least two alternatives, none of them an `Any`.
    Any(Vec<Expr>),
    /// At least two conjuncts, none of them an `All`.
    All(Vec<Expr>),
    Cond(Cond),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Cond {
    Settled,
    Count {
        of: Count,
        op: Op,
        value: u64,
    },
    /// `op` is `==` or `!=`.
    Is {
        setting: Setting,
        op: Op,
    },
    Killed {
        kind: ProcKind,
        step: Step,
    },
    Refused {
        stmt: ScriptStmt,
        sqlstate: &'static str,
    },
}

/// A subject compared as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Count {
    /// An index into [`COUNTERS`].
    Counter(usize),
    TasksTotal,
    KillSteps(ProcKind),
    Relays,
    Workers,
}

/// A configuration key with the value it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Setting {
    Api(ApiMode),
    Worker(WorkerMode),
    RelayMode(RelayMode),
    RelayLock(LockMode),
    Cdc(bool),
    CleanerPublishedOnly(bool),
}

/// The keys of [`Setting`], as the text spells them.
const SETTING_KEYS: [&str; 6] = [
    "api",
    "worker",
    "relay_mode",
    "relay_lock",
    "cdc",
    "cleaner_published_only",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Op {
    Eq,
    Ne,
    Ge,
    Le,
    Gt,
    Lt,
}

impl Op {
    fn text(self) -> &'static str {
        match self {
            Op::Eq => "==",
            Op::Ne => "!=",
            Op::Ge => ">=",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Lt => "<",
        }
    }

    fn compare(self, a: u64, b: u64) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Ge => a >= b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Lt => a < b,
        }
    }
}

/// Why a text is not a goal, and where: `at` is a byte offset into the text (at most its
/// length; the text's length when the text ended too early).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalError {
    pub at: usize,
    pub kind: GoalErrorKind,
}

/// What is wrong, as data: the page words it through [`GoalErrorKind::code`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalErrorKind {
    /// Nothing but white space.
    Empty,
    /// Longer than `max` bytes (the text, or its canonical form).
    TooLong { max: usize },
    /// More than `max` conditions.
    TooManyConditions { max: usize },
    /// Parentheses nested deeper than `max`.
    TooDeep { max: usize },
    /// A character that starts no token (a lone `=`, `&` or `|`, `!` without `=`, any
    /// character outside ASCII letters, digits, `_`, operators, `(`, `)`, `,`).
    BadChar,
    /// A name that is no subject (counter, config key, `settled`, `killed`, …).
    UnknownName { name: String },
    /// A name or code that is not a value of `key` (`api`, `kind`, `step`, `stmt`,
    /// `sqlstate`, …).
    UnknownValue { key: &'static str, value: String },
    /// `key` takes only `==` and `!=`.
    OpNotAllowed { key: &'static str, op: &'static str },
    /// Something else was needed here: `what` is one of `condition`, `operator`,
    /// `value`, `number`, `kind`, `step`, `stmt`, `sqlstate`, `(`, `)`, `,`.
    Expected { what: &'static str },
    /// A number above `u64::MAX`.
    NumberTooLarge,
    /// A whole goal was read and text is left (an unmatched `)`, a missing `&&`).
    Trailing,
}

impl GoalErrorKind {
    /// A stable code, for the page's i18n keys.
    pub fn code(&self) -> &'static str {
        match self {
            GoalErrorKind::Empty => "empty",
            GoalErrorKind::TooLong { .. } => "too_long",
            GoalErrorKind::TooManyConditions { .. } => "too_many_conditions",
            GoalErrorKind::TooDeep { .. } => "too_deep",
            GoalErrorKind::BadChar => "bad_char",
            GoalErrorKind::UnknownName { .. } => "unknown_name",
            GoalErrorKind::UnknownValue { .. } => "unknown_value",
            GoalErrorKind::OpNotAllowed { .. } => "op_not_allowed",
            GoalErrorKind::Expected { .. } => "expected",
            GoalErrorKind::NumberTooLarge => "number_too_large",
            GoalErrorKind::Trailing => "trailing",
        }
    }
}

impl fmt::Display for GoalErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoalErrorKind::Empty => write!(f, "the goal is empty"),
            GoalErrorKind::TooLong { max } => write!(f, "longer than {max} bytes"),
            GoalErrorKind::TooManyConditions { max } => {
                write!(f, "more than {max} conditions")
            }
            GoalErrorKind::TooDeep { max } => {
                write!(f, "parentheses nested deeper than {max}")
            }
            GoalErrorKind::BadChar => write!(f, "unexpected character"),
            GoalErrorKind::UnknownName { name } => write!(f, "unknown name `{name}`"),
            GoalErrorKind::UnknownValue { key, value } => {
                write!(f, "`{value}` is not a value of {key}")
            }
            GoalErrorKind::OpNotAllowed { key, op } => {
                write!(f, "{key} takes == or !=, not {op}")
            }
            GoalErrorKind::Expected { what } => write!(f, "expected {what}"),
            GoalErrorKind::NumberTooLarge => write!(f, "number too large"),
            GoalErrorKind::Trailing => write!(f, "unexpected text after the goal"),
        }
    }
}

impl fmt::Display for GoalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.at, self.kind)
    }
}

impl std::error::Error for GoalError {}

impl Goal {
    /// Parses a goal (see the module's grammar).
    pub fn parse(text: &str) -> Result<Goal, GoalError> {
        if text.len() > MAX_TEXT_BYTES {
            return Err(err(
                MAX_TEXT_BYTES,
                GoalErrorKind::TooLong {
                    max: MAX_TEXT_BYTES,
                },
            ));
        }
        if text.bytes().all(|b| b.is_ascii_whitespace()) {
            return Err(err(0, GoalErrorKind::Empty));
        }
        let mut p = Parser {
            text,
            pos: 0,
            conditions: 0,
        };
        let expr = p.any(0)?;
        if let Some(t) = p.peek()? {
            return Err(err(t.at, GoalErrorKind::Trailing));
        }
        let goal = Goal { expr };
        // Spaces around operators can make the canonical text longer than the input: it
        // must parse again (round trip), so it is held to the same limit.
        if goal.to_string().len() > MAX_TEXT_BYTES {
            let max = MAX_TEXT_BYTES;
            return Err(err(text.len(), GoalErrorKind::TooLong { max }));
        }
        Ok(goal)
    }

    /// Whether the world shows the goal reached. The counters that walk every unpublished
    /// row are read only by a goal that names them ([`Goal::reads_ages`]).
    pub fn holds(&self, w: &World) -> bool {
        let c = if self.reads_ages() {
            w.counters()
        } else {
            w.counters_without_ages()
        };
        eval(&self.expr, w, &c)
    }

    /// Whether the goal reads `stuck` or `oldest_unpublished_age_ticks`: judging it walks
    /// every unpublished row (`World::counters`), the others cost the same at any size.
    pub fn reads_ages(&self) -> bool {
        fn reads(e: &Expr) -> bool {
            match e {
                Expr::Any(v) | Expr::All(v) => v.iter().any(reads),
                Expr::Cond(Cond::Count {
                    of: Count::Counter(i),
                    ..
                }) => COUNTERS.get(*i).is_some_and(|(name, _)| {
                    matches!(*name, "stuck" | "oldest_unpublished_age_ticks")
                }),
                Expr::Cond(_) => false,
            }
        }
        reads(&self.expr)
    }

    /// How many conditions the goal has.
    pub fn conditions(&self) -> usize {
        count_conditions(&self.expr)
    }
}

impl FromStr for Goal {
    type Err = GoalError;
    fn from_str(s: &str) -> Result<Goal, GoalError> {
        Goal::parse(s)
    }
}

fn err(at: usize, kind: GoalErrorKind) -> GoalError {
    GoalError { at, kind }
}

fn count_conditions(e: &Expr) -> usize {
    match e {
        Expr::Any(v) | Expr::All(v) => v.iter().map(count_conditions).sum(),
        Expr::Cond(_) => 1,
    }
}

// ---- evaluation -------------------------------------------------------------------

fn eval(e: &Expr, w: &World, c: &Counters) -> bool {
    match e {
        Expr::Any(v) => v.iter().any(|x| eval(x, w, c)),
        Expr::All(v) => v.iter().all(|x| eval(x, w, c)),
        Expr::Cond(k) => cond_holds(k, w, c),
    }
}

fn cond_holds(k: &Cond, w: &World, c: &Counters) -> bool {
    match k {
        Cond::Settled => w.settled(),
        Cond::Count { of, op, value } => op.compare(count(*of, w, c), *value),
        Cond::Is { setting, op } => (setting_now(*setting, w) == *setting) == (*op == Op::Eq),
        Cond::Killed { kind, step } => w
            .kills
            .iter()
            .any(|(p, s, _)| s == step && kind_of(w, p.0) == Some(*kind)),
        Cond::Refused { stmt, sqlstate } => w
            .script_results
            .iter()
            .any(|r| r.stmt == *stmt && matches!(&r.result, Err(e) if e.code == *sqlstate)),
    }
}

fn kind_of(w: &World, process: u8) -> Option<ProcKind> {
    w.procs.get(process as usize).map(|p| p.kind)
}

fn count(of: Count, w: &World, c: &Counters) -> u64 {
    match of {
        Count::Counter(i) => COUNTERS.get(i).map_or(0, |(_, read)| read(c)),
        Count::TasksTotal => u64::from(w.tasks_total),
        Count::KillSteps(kind) => {
            let mut steps: Vec<Step> = w
                .kills
                .iter()
                .filter(|(p, _, _)| kind_of(w, p.0) == Some(kind))
                .map(|(_, s, _)| *s)
                .collect();
            steps.sort();
            steps.dedup();
            steps.len() as u64
        }
        Count::Relays => u64::from(w.cfg.relays),
        Count::Workers => u64::from(w.cfg.workers),
    }
}

/// The world's value of the setting's key, as a setting (so `==` compares like with like).
fn setting_now(s: Setting, w: &World) -> Setting {
    let cfg = &w.cfg;
    match s {
        Setting::Api(_) => Setting::Api(cfg.api),
        Setting::Worker(_) => Setting::Worker(cfg.worker),
        Setting::RelayMode(_) => Setting::RelayMode(cfg.relay.mode),
        Setting::RelayLock(_) => Setting::RelayLock(cfg.relay.lock),
        Setting::Cdc(_) => Setting::Cdc(cfg.cdc),
        Setting::CleanerPublishedOnly(_) => {
            Setting::CleanerPublishedOnly(cfg.cleaner.as_ref().is_some_and(|k| k.published_only))
        }
    }
}

// ---- names ------------------------------------------------------------------------

/// An enum value by its snake_case JSON name (the model's own serde names).
fn from_name<T: DeserializeOwned>(name: &str) -> Option<T> {
    // Through JSON text, as `read::typed` does (the page's wasm holds those readers).
    serde_json::from_str(&serde_json::Value::String(name.to_string()).to_string()).ok()
}

/// An enum value's snake_case JSON name.
fn name_of<T: Serialize + fmt::Debug>(v: &T) -> String {
    let text = serde_json::to_string(v).unwrap_or_default();
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{v:?}"),
    }
}

fn counter_index(name: &str) -> Option<usize> {
    COUNTERS.iter().position(|(n, _)| *n == name)
}

fn setting_key(name: &str) -> Option<&'static str> {
    SETTING_KEYS.iter().copied().find(|k| *k == name)
}

/// The value `word` of the setting `key`, if it is one.
fn setting_value(key: &str, word: &str) -> Option<Setting> {
    let flag = match word {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    match key {
        "api" => from_name(word).map(Setting::Api),
        "worker" => from_name(word).map(Setting::Worker),
        "relay_mode" => from_name(word).map(Setting::RelayMode),
        "relay_lock" => from_name(word).map(Setting::RelayLock),
        "cdc" => flag.map(Setting::Cdc),
        "cleaner_published_only" => flag.map(Setting::CleanerPublishedOnly),
        _ => None,
    }
}

fn setting_text(s: Setting) -> (&'static str, String) {
    match s {
        Setting::Api(v) => ("api", name_of(&v)),
        Setting::Worker(v) => ("worker", name_of(&v)),
        Setting::RelayMode(v) => ("relay_mode", name_of(&v)),
        Setting::RelayLock(v) => ("relay_lock", name_of(&v)),
        Setting::Cdc(v) => ("cdc", v.to_string()),
        Setting::CleanerPublishedOnly(v) => ("cleaner_published_only", v.to_string()),
    }
}

// ---- canonical text ---------------------------------------------------------------

impl fmt::Display for Goal {
    /// The canonical text: one space around each operator, `, ` between arguments,
    /// parentheses only where `||` sits inside `&&`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, &self.expr)
    }
}

fn write_expr(f: &mut fmt::Formatter<'_>, e: &Expr) -> fmt::Result {
    match e {
        Expr::Any(v) => write_joined(f, v, " || "),
        Expr::All(v) => write_joined(f, v, " && "),
        Expr::Cond(k) => write_cond(f, k),
    }
}

fn write_joined(f: &mut fmt::Formatter<'_>, v: &[Expr], sep: &str) -> fmt::Result {
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        if matches!(x, Expr::Any(_)) {
            f.write_str("(")?;
            write_expr(f, x)?;
            f.write_str(")")?;
        } else {
            write_expr(f, x)?;
        }
    }
    Ok(())
}

fn write_cond(f: &mut fmt::Formatter<'_>, k: &Cond) -> fmt::Result {
    match k {
        Cond::Settled => f.write_str("settled"),
        Cond::Count { of, op, value } => {
            match of {
                Count::Counter(i) => f.write_str(COUNTERS.get(*i).map_or("?", |(n, _)| *n)),
                Count::TasksTotal => f.write_str("tasks_total"),
                Count::KillSteps(kind) => write!(f, "kill_steps({})", name_of(kind)),
                Count::Relays => f.write_str("relays"),
                Count::Workers => f.write_str("workers"),
            }?;
            write!(f, " {} {value}", op.text())
        }
        Cond::Is { setting, op } => {
            let (key, value) = setting_text(*setting);
            write!(f, "{key} {} {value}", op.text())
        }
        Cond::Killed { kind, step } => {
            write!(f, "killed({}, {})", name_of(kind), name_of(step))
        }
        Cond::Refused { stmt, sqlstate } => write!(f, "refused({}, {sqlstate})", name_of(stmt)),
    }
}

// ---- lexing -----------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Open,
    Close,
    Comma,
    And,
    Or,
    Op(Op),
    /// A run of ASCII letters, digits and `_` (names, numbers, SQLSTATEs).
    Word(&'a str),
}

#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    tok: Tok<'a>,
    at: usize,
    end: usize,
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The token starting at `at` (white space already skipped), or `None` at the end.
fn lex(text: &str, at: usize) -> Result<Option<Token<'_>>, GoalError> {
    let bytes = text.as_bytes();
    let Some(&b) = bytes.get(at) else {
        return Ok(None);
    };
    let next = bytes.get(at + 1).copied();
    let (tok, len) = match (b, next) {
        (b'(', _) => (Tok::Open, 1),
        (b')', _) => (Tok::Close, 1),
        (b',', _) => (Tok::Comma, 1),
        (b'&', Some(b'&')) => (Tok::And, 2),
        (b'|', Some(b'|')) => (Tok::Or, 2),
        (b'=', Some(b'=')) => (Tok::Op(Op::Eq), 2),
        (b'!', Some(b'=')) => (Tok::Op(Op::Ne), 2),
        (b'>', Some(b'=')) => (Tok::Op(Op::Ge), 2),
        (b'<', Some(b'=')) => (Tok::Op(Op::Le), 2),
        (b'>', _) => (Tok::Op(Op::Gt), 1),
        (b'<', _) => (Tok::Op(Op::Lt), 1),
        _ if is_word_byte(b) => {
            let len = bytes
                .get(at..)
                .unwrap_or_default()
                .iter()
                .take_while(|&&c| is_word_byte(c))
                .count();
            let word = text.get(at..at + len).unwrap_or_default();
            (Tok::Word(word), len)
        }
        _ => return Err(err(at, GoalErrorKind::BadChar)),
    };
    Ok(Some(Token {
        tok,
        at,
        end: at + len,
    }))
}

// ---- parsing ----------------------------------------------------------------------

struct Parser<'a> {
    text: &'a str,
    /// Byte offset of the next unread character.
    pos: usize,
    conditions: usize,
}

impl<'a> Parser<'a> {
    fn skip_space(&mut self) {
        let rest = self.text.as_bytes().get(self.pos..).unwrap_or_default();
        self.pos += rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    }

    fn peek(&mut self) -> Result<Option<Token<'a>>, GoalError> {
        self.skip_space();
        lex(self.text, self.pos)
    }

    /// The next token, consumed; `what` names what was needed when the text ends.
    fn next(&mut self, what: &'static str) -> Result<Token<'a>, GoalError> {
        match self.peek()? {
            Some(t) => {
                self.pos = t.end;
                Ok(t)
            }
            None => Err(err(self.text.len(), GoalErrorKind::Expected { what })),
        }
    }

    fn expect(&mut self, tok: Tok<'static>, what: &'static str) -> Result<(), GoalError> {
        let t = self.next(what)?;
        if t.tok == tok {
            Ok(())
        } else {
            Err(err(t.at, GoalErrorKind::Expected { what }))
        }
    }

    /// Consumes the next token if it is `tok`.
    fn eat(&mut self, tok: Tok<'static>) -> Result<bool, GoalError> {
        match self.peek()? {
            Some(t) if t.tok == tok => {
                self.pos = t.end;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn any(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let mut items = vec![self.all(depth)?];
        while self.eat(Tok::Or)? {
            items.push(self.all(depth)?);
        }
        Ok(joined(items, true))
    }

    fn all(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let mut items = vec![self.atom(depth)?];
        while self.eat(Tok::And)? {
            items.push(self.atom(depth)?);
        }
        Ok(joined(items, false))
    }

    fn atom(&mut self, depth: usize) -> Result<Expr, GoalError> {
        let t = self.next("condition")?;
        match t.tok {
            Tok::Open if depth >= MAX_DEPTH => {
                Err(err(t.at, GoalErrorKind::TooDeep { max: MAX_DEPTH }))
            }
            Tok::Open => {
                let e = self.any(depth + 1)?;
                self.expect(Tok::Close, ")")?;
                Ok(e)
            }
            Tok::Word(name) => {
                self.conditions += 1;
                if self.conditions > MAX_CONDITIONS {
                    let max = MAX_CONDITIONS;
                    return Err(err(t.at, GoalErrorKind::TooManyConditions { max }));
                }
                self.condition(name, t.at).map(Expr::Cond)
            }
            _ => Err(err(t.at, GoalErrorKind::Expected { what: "condition" })),
        }
    }

    /// The rest of the condition that starts with the name `name` at `at`.
    fn condition(&mut self, name: &'a str, at: usize) -> Result<Cond, GoalError> {
        match name {
            "settled" => Ok(Cond::Settled),
            "killed" => {
                self.expect(Tok::Open, "(")?;
                let kind = self.named("kind")?;
                self.expect(Tok::Comma, ",")?;
                let step = self.named("step")?;
                self.expect(Tok::Close, ")")?;
                Ok(Cond::Killed { kind, step })
            }
            "refused" => {
                self.expect(Tok::Open, "(")?;
                let stmt = self.named("stmt")?;
                self.expect(Tok::Comma, ",")?;
                let sqlstate = self.sqlstate()?;
                self.expect(Tok::Close, ")")?;
                Ok(Cond::Refused { stmt, sqlstate })
            }
            "kill_steps" => {
                self.expect(Tok::Open, "(")?;
                let kind = self.named("kind")?;
                self.expect(Tok::Close, ")")?;
                self.count(Count::KillSteps(kind))
            }
            "tasks_total" => self.count(Count::TasksTotal),
            "relays" => self.count(Count::Relays),
            "workers" => self.count(Count::Workers),
            _ => {
                if let Some(key) = setting_key(name) {
                    self.setting(key)
                } else if let Some(i) = counter_index(name) {
                    self.count(Count::Counter(i))
                } else {
                    let name = name.to_string();
                    Err(err(at, GoalErrorKind::UnknownName { name }))
                }
            }
        }
    }

    /// An enum value by its JSON name, for the argument `key` (`kind`, `step`, `stmt`).
    fn named<T: DeserializeOwned>(&mut self, key: &'static str) -> Result<T, GoalError> {
        let t = self.next(key)?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: key }));
        };
        from_name(word).ok_or_else(|| {
            let value = word.to_string();
            err(t.at, GoalErrorKind::UnknownValue { key, value })
        })
    }

    fn sqlstate(&mut self) -> Result<&'static str, GoalError> {
        let key = "sqlstate";
        let t = self.next(key)?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: key }));
        };
        SQLSTATES
            .iter()
            .copied()
            .find(|s| *s == word)
            .ok_or_else(|| {
                let value = word.to_string();
                err(t.at, GoalErrorKind::UnknownValue { key, value })
            })
    }

    fn op(&mut self) -> Result<(Op, usize), GoalError> {
        let t = self.next("operator")?;
        match t.tok {
            Tok::Op(op) => Ok((op, t.at)),
            _ => Err(err(t.at, GoalErrorKind::Expected { what: "operator" })),
        }
    }

    /// `op number` after a numeric subject.
    fn count(&mut self, of: Count) -> Result<Cond, GoalError> {
        let (op, _) = self.op()?;
        let t = self.next("value")?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: "value" }));
        };
        if !word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(t.at, GoalErrorKind::Expected { what: "number" }));
        }
        let value = word
            .bytes()
            .try_fold(0u64, |n, d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })
            .ok_or_else(|| err(t.at, GoalErrorKind::NumberTooLarge))?;
        Ok(Cond::Count { of, op, value })
    }

    /// `== value` or `!= value` after a configuration key.
    fn setting(&mut self, key: &'static str) -> Result<Cond, GoalError> {
        let (op, op_at) = self.op()?;
        if !matches!(op, Op::Eq | Op::Ne) {
            let op = op.text();
            return Err(err(op_at, GoalErrorKind::OpNotAllowed { key, op }));
        }
        let t = self.next("value")?;
        let Tok::Word(word) = t.tok else {
            return Err(err(t.at, GoalErrorKind::Expected { what: "value" }));
        };
        let setting = setting_value(key, word).ok_or_else(|| {
            let value = word.to_string();
            err(t.at, GoalErrorKind::UnknownValue { key, value })
        })?;
        Ok(Cond::Is { setting, op })
    }
}

/// One item as itself, several as an `Any` (`any`) or an `All`, with items of the same
/// kind spliced in: `a && (b && c)` is `a && b && c`.
fn joined(items: Vec<Expr>, any: bool) -> Expr {
    let mut flat = Vec::with_capacity(items.len());
    for x in items {
        match x {
            Expr::Any(v) if any => flat.extend(v),
            Expr::All(v) if !any => flat.extend(v),
            x => flat.push(x),
        }
    }
    if flat.len() == 1 {
        if let Some(only) = flat.pop() {
            return only;
        }
    }
    if any {
        Expr::Any(flat)
    } else {
        Expr::All(flat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_every_field_by_its_json_name() {
        // Each field gets a different value, read back through the table.
        let names: Vec<&str> = COUNTERS.iter().map(|(n, _)| *n).collect();
        let json: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), serde_json::Value::from(i as u64 + 1)))
            .collect();
        let c: Counters = serde_json::from_value(serde_json::Value::Object(json)).unwrap();
        for (i, (n, read)) in COUNTERS.iter().enumerate() {
            assert_eq!(read(&c), i as u64 + 1, "{n}");
        }
        let keys: Vec<String> = match serde_json::to_value(&c).unwrap() {
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            other => panic!("{other:?}"),
        };
        let mut sorted = names.clone();
        sorted.sort();
        let mut keys_sorted = keys.clone();
        keys_sorted.sort();
        assert_eq!(sorted, keys_sorted, "every counter, no other name");
    }

    #[test]
    fn names_are_the_serde_names_both_ways() {
        assert_eq!(name_of(&ApiMode::DualWriteDbFirst), "dual_write_db_first");
        assert_eq!(
            from_name::<LockMode>("skip_locked"),
            Some(LockMode::SkipLocked)
        );
        assert_eq!(from_name::<Step>("save_offset"), Some(Step::SaveOffset));
        assert_eq!(from_name::<Step>("script"), None);
        assert_eq!(from_name::<ProcKind>("Api"), None);
        assert_eq!(
            name_of(&ScriptStmt::SelectCountOutbox),
            "select_count_outbox"
        );
    }

    #[test]
    fn joined_flattens_only_its_own_kind() {
        let a = Expr::Cond(Cond::Settled);
        let inner = Expr::Any(vec![a.clone(), a.clone()]);
        assert_eq!(joined(vec![inner.clone()], false), inner);
        let e = joined(vec![a.clone(), inner.clone()], true);
        assert_eq!(e, Expr::Any(vec![a.clone(), a.clone(), a.clone()]));
        let e = joined(vec![a.clone(), inner.clone()], false);
        assert_eq!(e, Expr::All(vec![a, inner]));
    }
}
