//! "Prove it": the explorer, for the page. Every interleaving and crash point of a small
//! world is searched — in Web Workers (`pool`), so the page keeps drawing: dual write
//! yields its shortest losing schedule, outbox + inbox holds over the whole space. Below,
//! the crash-point matrix — every labelled step × the five designs — where a cell loads
//! its shortest trace into the playground.

pub mod claims;
pub mod design;
pub mod lockstep;
pub mod matrix;
pub mod page;
pub mod pool;
pub mod reply;
#[cfg(test)]
mod tampered;
pub mod trace_io;
pub mod workers_note;
