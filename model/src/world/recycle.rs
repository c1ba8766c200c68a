//! What the explorer needs of a world beyond running it: refilling one world from
//! another of the same scenario in place (its buffers kept), dropping the run's history,
//! and asking the memory for the lists an expansion reads next.

use super::{Mem, World};

impl World {
    /// `clone_from`'s part for what the scenario fixes (the configuration, the script,
    /// the processes' names, kinds and programs), the processes, and the relays' poll
    /// histories (a list per process, each refilled in place, see `refill_nested`).
    pub(super) fn clone_fixed_from(&mut self, source: &World) {
        self.cfg.clone_from(&source.cfg);
        self.script.clone_from(&source.script);
        self.procs.clone_from(&source.procs);
        crate::refill_nested(&mut self.polls, &source.polls);
    }

    /// `self.clone_from(source)` for two worlds of one scenario, as the explorer's are (it
    /// refills the worlds of merged states with its successors): what the scenario fixes is
    /// left as it is. Copying the processes' names and programs again was two memcpy calls
    /// per process of every recycled world.
    pub(crate) fn refill_from(&mut self, source: &World) {
        debug_assert!(self.cfg == source.cfg && self.script == source.script);
        self.clone_fields_from(source);
        crate::refill_nested(&mut self.polls, &source.polls);
        if self.procs.len() != source.procs.len() {
            self.procs.clone_from(&source.procs);
            return;
        }
        for (a, b) in self.procs.iter_mut().zip(&source.procs) {
            a.refill_from(b);
        }
    }

    /// Keeps no history from here on (see [`World::history`]) and lets go of what was
    /// kept, buffers included: the explorer's worlds, copied into every successor.
    pub(crate) fn drop_history(&mut self) {
        self.history = false;
        self.kills = Vec::new();
        self.pinned = Vec::new();
        self.causes = Default::default();
        self.polls.iter_mut().for_each(|p| *p = Vec::new());
    }

    /// Asks for the lists an expansion of this world reads (`crate::prefetch`): the
    /// explorer calls it for the world it expands next, whose struct it asked for before.
    pub(crate) fn prefetch_parts(&self) {
        crate::prefetch::slice(&self.procs);
        self.db.prefetch_parts();
        self.queue.prefetch_parts();
        self.auditor.prefetch_parts();
    }

    /// Asks for what the lists of [`World::prefetch_parts`] point to: the open
    /// transactions' records and the relays' lists.
    pub(crate) fn prefetch_deep(&self) {
        self.db.prefetch_deep();
        for p in &self.procs {
            if let Mem::Relay(m) = &p.mem {
                crate::prefetch::slice(&m.batch);
                crate::prefetch::slice(&m.ok);
                crate::prefetch::slice(&m.cursor.candidates);
                crate::prefetch::slice(&m.cursor.got);
            }
        }
    }

    /// Asks for the lists of what [`World::prefetch_deep`] asked for.
    pub(crate) fn prefetch_deeper(&self) {
        self.db.prefetch_deeper();
    }
}
