//! What the world records: the log of notes (what each step did, for the page and the
//! trace) and the trace hash that every step, kill and fault is mixed into.

use super::notes::{LogEntry, Note, PINNED_CAP};
use super::World;
use crate::action::Step;
use crate::ids::ProcId;

pub(super) const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;

impl World {
    pub(super) fn log(&mut self, proc: Option<ProcId>, step: Option<Step>, note: Note) {
        self.tally.note(step, &note);
        if self.history
            && matches!(note, Note::Killed | Note::Error { .. })
            && self.pinned.len() < PINNED_CAP
        {
            self.pinned.push(LogEntry {
                tick: self.tick,
                proc,
                step,
                note,
            });
        }
        if self.cfg.log_cap == 0 {
            return;
        }
        if self.log.len() >= self.cfg.log_cap {
            self.log.pop_front();
        }
        self.log.push_back(LogEntry {
            tick: self.tick,
            proc,
            step,
            note,
        });
    }

    pub(super) fn mix(&mut self, v: u64) {
        // FNV-style, a word at a time.
        self.trace_hash = (self.trace_hash ^ v)
            .wrapping_mul(FNV_PRIME)
            .rotate_left(29);
    }
}
