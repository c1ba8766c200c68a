//! "Prove it": the explorer in the page. Every interleaving and crash point of a small
//! world is searched (in slices, so the page keeps drawing): dual write yields its
//! shortest losing schedule, outbox + inbox holds over the whole space. Below, the
//! crash-point matrix — every labelled step × the five designs — where a cell loads its
//! shortest trace into the playground.

pub mod claims;
pub mod design;
pub mod lockstep;
pub mod matrix;
pub mod page;
pub mod trace_io;

/// States explored between two looks at the clock.
pub const CHUNK: usize = 64;
