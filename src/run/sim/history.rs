//! A run's history: the counters sampled for the chart, the checkpoints that make
//! seeking cheap (thinned as a run grows), and seeking back and forth over the log.

use super::{Input, Sample, Sim, BIG_WORLD_ROWS};
use outbox_model::World;

pub(super) const MAX_SAMPLES: usize = 120;
/// Rows kept across all checkpoints (a checkpoint is a whole world).
pub(super) const CHECKPOINT_ROWS: usize = 400_000;
pub(super) const MAX_CHECKPOINTS: usize = 24;
/// The cap of the sampling and checkpoint intervals, which double as a run grows: far
/// above any position a run reaches ([`MAX_ATOMS`]), so it never changes what is kept,
/// but it keeps a doubling from ever wrapping to 0.
pub(super) const MAX_EVERY: u64 = 1 << 62;
/// What copying the world costs, in rows: its tables and jobs, and the per-request
/// bookkeeping the model sizes by the scenario's task count from the first tick.
pub(super) fn weight(w: &World) -> usize {
    w.db().tasks.len()
        + w.db().outbox.len()
        + w.queue().len() as usize
        + w.tasks_total() as usize
        + 1
}

impl Sim {
    /// Bookkeeping after the world reached position `pos` (recording or replaying).
    pub(super) fn after_move(&mut self) {
        if self.pos.is_multiple_of(self.sample_every) || self.finished() {
            self.push_sample();
        }
        // A checkpoint copies the whole world, so a big world is copied less often: at
        // least two steps per row since the last one keeps the copying a small, constant
        // share of the stepping however large the run grows.
        if self.pos.is_multiple_of(self.checkpoint_every)
            && self.checkpoints.last().is_some_and(|(p, _)| {
                *p < self.pos && self.pos - *p >= 2 * weight(&self.world) as u64
            })
        {
            if self.defer_big && weight(&self.world) > BIG_WORLD_ROWS {
                self.due = true;
            } else {
                self.push_checkpoint();
            }
        }
    }

    /// Records the counters at `pos`. The samples are the grid points (multiples of
    /// `sample_every`) plus at most one off-grid sample, the newest: an off-grid sample
    /// stands for "now" and is dropped when the present moves on. Without that, every
    /// idle move past the end added an off-grid sample, the thinning below could never
    /// bring the count under [`MAX_SAMPLES`], and `sample_every` doubled until it wrapped
    /// to 0 (issue #25: a remainder by zero).
    fn push_sample(&mut self) {
        let every = self.sample_every;
        while self
            .samples
            .last()
            .is_some_and(|s| s.pos >= self.pos || !s.pos.is_multiple_of(every))
        {
            self.samples.pop();
        }
        self.samples.push(Sample::of(self.pos, &self.world));
        // Grid points from 0 to pos number pos / every + 1, so once over the limit one
        // doubling roughly halves them; `every` stays below pos, far from overflowing,
        // and the cap only guards that reasoning.
        while self.samples.len() > MAX_SAMPLES && self.sample_every < MAX_EVERY {
            self.sample_every = self.sample_every.saturating_mul(2).min(MAX_EVERY);
            let every = self.sample_every;
            let last = *self.samples.last().expect("just pushed");
            self.samples.retain(|s| s.pos.is_multiple_of(every));
            if self.samples.last() != Some(&last) {
                self.samples.push(last);
            }
        }
    }

    /// Big worlds' checkpoints wait for [`Sim::take_due_checkpoint`] while this is on;
    /// turning it off takes a waiting one now.
    pub fn defer_big_checkpoints(&mut self, on: bool) {
        self.defer_big = on;
        if !on {
            self.take_due_checkpoint();
        }
    }

    /// A deferred checkpoint is waiting to be taken.
    pub fn checkpoint_due(&self) -> bool {
        self.due
    }

    /// Takes the waiting checkpoint, if any (a copy of the whole world).
    pub fn take_due_checkpoint(&mut self) {
        if std::mem::take(&mut self.due)
            && self.checkpoints.last().is_some_and(|(p, _)| *p < self.pos)
        {
            self.push_checkpoint();
        }
    }

    fn push_checkpoint(&mut self) {
        self.checkpoints.push((self.pos, self.world.clone()));
        // Thin until both limits hold: each doubling keeps the start, the grid points of
        // the new interval and the newest (off-grid when it was deferred), so the loop
        // ends at the latest when only the start and the newest are left, and the count
        // never exceeds MAX_CHECKPOINTS + 1 (the +1 is the newest, just pushed).
        while self.checkpoints.len() > 2 && self.checkpoints_too_heavy() {
            if self.checkpoint_every >= MAX_EVERY {
                // Nothing finer is left to drop: keep the start and the newest only.
                let last = self.checkpoints.pop().expect("more than two");
                self.checkpoints.truncate(1);
                self.checkpoints.push(last);
                break;
            }
            self.checkpoint_every = self.checkpoint_every.saturating_mul(2).min(MAX_EVERY);
            let every = self.checkpoint_every;
            let newest = self.checkpoints.len() - 1;
            let mut k = 0;
            self.checkpoints.retain(|(p, _)| {
                k += 1;
                *p == 0 || p.is_multiple_of(every) || k - 1 == newest
            });
            // Still too heavy (a huge world): keep the start and the newest only.
            let rows: usize = self.checkpoints.iter().map(|(_, w)| weight(w)).sum();
            if rows > CHECKPOINT_ROWS && self.checkpoints.len() > 2 {
                let last = self.checkpoints.pop().expect("more than two");
                self.checkpoints.truncate(1);
                self.checkpoints.push(last);
            }
        }
    }

    fn checkpoints_too_heavy(&self) -> bool {
        let rows: usize = self.checkpoints.iter().map(|(_, w)| weight(w)).sum();
        self.checkpoints.len() > MAX_CHECKPOINTS || rows > CHECKPOINT_ROWS
    }

    /// Moves the world to position `p` of the recorded log (clamped), replaying from the
    /// nearest checkpoint. The log itself is kept until the user acts.
    pub fn seek(&mut self, p: u64) {
        let p = p.min(self.total);
        if p == self.pos {
            return;
        }
        let (cp_pos, cp) = self
            .checkpoints
            .iter()
            .rev()
            .find(|(q, _)| *q <= p)
            .map(|(q, w)| (*q, w))
            .expect("checkpoint 0 is always kept");
        if !(p > self.pos && self.pos >= cp_pos) {
            self.world = cp.clone();
            self.pos = cp_pos;
        }
        self.samples.retain(|s| s.pos <= self.pos);
        self.finished = false;
        // Walk the log from the current position to p.
        let mut at = 0u64;
        let inputs = std::mem::take(&mut self.inputs);
        for input in &inputs {
            let len = match input {
                Input::Ticks(n) => *n,
                Input::Act(_) => 1,
            };
            if at + len <= self.pos {
                at += len;
                continue;
            }
            if at >= p {
                break;
            }
            match input {
                Input::Ticks(_) => {
                    let from = self.pos.max(at);
                    let to = p.min(at + len);
                    for _ in from..to {
                        if !self.world.step() {
                            self.finished = true;
                        }
                        self.pos += 1;
                        self.after_move();
                    }
                }
                Input::Act(a) => {
                    // It was accepted when recorded; the same world accepts it again.
                    let _ = self.world.apply(a);
                    self.finished = false;
                    self.pos += 1;
                    self.after_move();
                }
            }
            at += len;
        }
        self.inputs = inputs;
    }

    /// One log entry back.
    pub fn back(&mut self) {
        self.seek(self.pos.saturating_sub(1));
    }

    /// Drops the log after the current position (the user acts from an earlier moment).
    pub(super) fn truncate_future(&mut self) {
        if self.pos == self.total {
            return;
        }
        let mut at = 0u64;
        let mut keep = Vec::new();
        for input in self.inputs.drain(..) {
            if at >= self.pos {
                break;
            }
            match input {
                Input::Ticks(n) => {
                    let n = n.min(self.pos - at);
                    at += n;
                    keep.push(Input::Ticks(n));
                }
                a => {
                    at += 1;
                    keep.push(a);
                }
            }
        }
        self.inputs = keep;
        self.total = self.pos;
        let pos = self.pos;
        self.checkpoints.retain(|(p, _)| *p <= pos);
        self.samples.retain(|s| s.pos <= pos);
    }
}
