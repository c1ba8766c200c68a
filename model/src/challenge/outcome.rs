//! What a kill leads to, as a learner guesses it before the reveal: a challenge's
//! `predict` and a lesson step's guess.

use crate::world::World;

/// What a kill leads to, as the room guesses it before the reveal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Lost,
    Duplicate,
    Fine,
}

impl Outcome {
    pub const ALL: [Outcome; 3] = [Outcome::Lost, Outcome::Duplicate, Outcome::Fine];

    /// The outcome a finished run shows, from its counters.
    pub fn of(w: &World) -> Outcome {
        let c = w.counters();
        if c.lost > 0 {
            Outcome::Lost
        } else if c.duplicate_effects > 0 || c.phantoms > 0 {
            Outcome::Duplicate
        } else {
            Outcome::Fine
        }
    }
}
