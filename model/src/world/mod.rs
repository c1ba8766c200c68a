//! The world: the database, the queue, the processes, the clock, the PRNG and the auditor.
//! Processes are small programs of labelled steps; every label is a kill point. Faults
//! are actions like any other. Nothing here reads a clock or the OS: a scenario and its
//! seed decide everything.
//!
//! This module only names its parts. The world's state and its main loop (`step`,
//! `advance`, `run`, `apply`) are in `state`; the types its fields hold each have a file
//! that imports nothing of the world's behaviour (`armed`, `notes`, `counters`,
//! `relay_mem`, `script_result`, `gate_state`, `cause`, `procs`, `tally`), so the files
//! that give the world its behaviour import them and `state`, never the other way round
//! (#39: no two files import each other). The behaviour lives in: building a world from a scenario (`build`),
//! the processes and their memory (`procs`), what the explorer needs to recycle and
//! prefetch worlds (`recycle`), which process may run (`gates`), faults, kills
//! and restarts (`faults`), judging events (`judge`), the log and the trace hash (`log`),
//! the explorer's canonical hash (`canon`), what every program shares (`process`), the
//! step lists and their SQL (`program`), one file per process program, and the API's
//! node-postgres pool under `outbox_pool_begin` (`pool`, its state in `pool_state`).

mod api;
mod armed;
mod build;
mod canon;
mod cause;
mod cause_log;
mod cdc;
mod cleaner;
mod client;
mod counters;
mod faults;
mod gate_state;
mod gates;
mod judge;
mod log;
mod notes;
mod pool;
mod pool_state;
mod process;
mod procs;
mod program;
mod read;
mod recycle;
mod refusal;
mod relay;
mod relay_mem;
mod script_result;
mod session;
mod state;
mod tally;
mod worker;

pub use crate::action::{Action, ProcKind, Step, When};
pub use crate::scenario::{proc_index, proc_names, processes, MAX_PROCS};
pub use armed::ArmedKill;
pub use cause::{Blow, Cause, Causes, Fate, Repeat, MAX_CAUSES};
pub use counters::{CheckLevel, Counters};
pub use notes::{FaultNote, LogEntry, Note, PINNED_CAP};
pub use pool_state::{Hold, PgPool, POOL_IDLE_TIMEOUT_TICKS};
pub use procs::{HeldJob, Mem, Proc, Request, Wait};
pub use program::{program, script_sql, step_before, step_sql};
pub use refusal::Refusal;
pub use relay_mem::{Poll, RelayMem};
pub use script_result::{ScriptResult, PG_SLEEP_TICKS};
pub use state::World;
pub use tally::{RelayTally, Tally, SQL_ERROR_CODES};
