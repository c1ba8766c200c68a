//! The search itself: which choices a state offers (with the reductions of the module
//! doc), the forced steps, the state key with relay symmetry, and the expansion of a
//! state into its successors.

use super::choice::{
    Choice, FLAG_CUT, FLAG_SETTLED, FLAG_TERMINAL, KILL, OBS_CONSERVATION, OBS_DUP_DELIVERY,
    OBS_DUP_EFFECT, OBS_INVARIANTS, OBS_LOST, OBS_PHANTOM, OBS_RETRIED, OBS_TERMINAL, RESTART,
    STEP, TICK,
};
use super::explorer::Explorer;
use super::key_hash::KeyHash;
use crate::auditor::Class;
use crate::db::{Cursor, LockMode};
use crate::scenario::RelayMode;
use crate::world::{Action, Mem, Proc, ProcKind, RelayMem, Step, World, MAX_PROCS};
use std::hash::Hasher;

/// A process that holds nothing: no wait, no request, batch or job, and no transaction
/// that wrote or locked anything. Killing it (and restarting it) changes nothing but the
/// kill count and where it stands in its empty poll, so the full search does not offer
/// that kill.
fn idle(p: &Proc) -> bool {
    if p.blocked.is_some() {
        return false;
    }
    match &p.mem {
        Mem::Api { req } => req.is_none() && p.tx.is_none(),
        // A relay that has selected nothing (yet) holds no row: its open transaction, if
        // any, has written and locked nothing.
        Mem::Relay(RelayMem { batch, cursor, .. }) => {
            batch.is_empty() && !cursor.started && cursor.got.is_empty()
        }
        Mem::Worker { job } => job.is_none() && p.tx.is_none(),
        _ => false,
    }
}

fn kills_spent(w: &World) -> u32 {
    w.procs.iter().map(|p| p.kills).sum()
}

/// The state's key, with the processes in `order` (see [`Explorer::key`]).
fn key_of(w: &World, order: &[usize]) -> u128 {
    let mut h = KeyHash::new();
    w.hash_state_as(&mut h, order);
    h.write_u32(kills_spent(w));
    h.finish128()
}

/// The order of two relays' own states, for ordering symmetric relays: any order of the
/// relays' states gives each set of relay states one key, as long as only equal states
/// tie. Compared field by field: it once sorted 128-bit hashes of these same fields, and
/// hashing every relay for every successor was a tenth of the search.
fn local_order(p: &Proc, q: &Proc) -> std::cmp::Ordering {
    let flags =
        |p: &Proc| p.alive as u8 | (p.tx.is_some() as u8) << 1 | (p.blocked.is_some() as u8) << 2;
    let (Mem::Relay(a), Mem::Relay(b)) = (&p.mem, &q.mem) else {
        unreachable!("the explorer orders relays only");
    };
    flags(p)
        .cmp(&flags(q))
        .then(p.pc.code().cmp(&q.pc.code()))
        .then_with(|| relay_order(a, b))
}

/// The order of two relays' memories; equal only when they are equal. Destructured, so a
/// field added to `RelayMem` or `Cursor` is a compile error here rather than left out.
fn relay_order(a: &RelayMem, b: &RelayMem) -> std::cmp::Ordering {
    let RelayMem {
        batch,
        pos,
        ok,
        bad,
        cursor,
    } = a;
    let Cursor {
        started,
        candidates,
        pos: cursor_pos,
        got,
    } = cursor;
    batch
        .cmp(&b.batch)
        .then(pos.cmp(&b.pos))
        .then_with(|| ok.cmp(&b.ok))
        .then_with(|| bad.cmp(&b.bad))
        .then(started.cmp(&b.cursor.started))
        .then_with(|| candidates.cmp(&b.cursor.candidates))
        .then(cursor_pos.cmp(&b.cursor.pos))
        .then_with(|| got.cmp(&b.cursor.got))
}

impl Explorer {
    /// The relay-poll gate (module doc, "Idle polls").
    fn poll_can_find_rows(&self, w: &World) -> bool {
        match w.cfg.relay.lock {
            LockMode::SkipLocked => {
                w.db.any_unpublished(|i| w.db.outbox[i as usize].lock().is_none())
            }
            _ => w.db.has_unpublished(),
        }
    }

    /// The choices at a state, and whether it is quiescent (nothing but idle polls and
    /// kills left: a terminal state; reduced, that is no choice at all).
    fn choose(&mut self, w: &World) -> (Vec<Choice>, bool) {
        let mut v = std::mem::take(&mut self.choices);
        v.clear();
        let relay_gate = w.cfg.relay.mode != RelayMode::HighWater;
        let mut poll_ok = None;
        let mut idle_polls = 0;
        let runnable = w.runnable_mask();
        for (i, p) in w.procs.iter().enumerate() {
            if runnable >> i & 1 == 0 {
                continue;
            }
            if relay_gate && p.kind == ProcKind::Relay && p.pc == Step::Begin {
                let ok = *poll_ok.get_or_insert_with(|| self.poll_can_find_rows(w));
                if !ok {
                    if self.reduce {
                        continue;
                    }
                    idle_polls += 1;
                }
            }
            v.push(STEP | i as u16);
        }
        if v.len() == idle_polls && w.next_wake().is_some() {
            // Nothing can step now, but a timer is pending (a dead worker's lock): time
            // passes. `Tick` runs the clock to it and then one step of a runnable process;
            // the processes the world may pick then are only this state's idle relays (their
            // polls were held back) and what the timer woke.
            v.push(TICK);
        }
        if !self.reduce {
            for (i, p) in w.procs.iter().enumerate() {
                if !p.alive {
                    v.push(RESTART | i as u16);
                }
            }
        }
        let quiescent = v.len() == idle_polls;
        if v.is_empty() {
            return (v, true);
        }
        let spent = kills_spent(w);
        match self.crash {
            None => {
                if spent < self.bounds.max_kills {
                    for (i, p) in w.procs.iter().enumerate() {
                        if p.alive && self.killable[i] && !(self.reduce && idle(p)) {
                            v.push(KILL | i as u16);
                        }
                    }
                }
            }
            Some((i, step)) => {
                let p = &w.procs[i];
                if spent == 0 && p.alive && p.pc == step {
                    v.push(KILL | i as u16);
                }
            }
        }
        (v, quiescent)
    }

    /// The key of a state. Relays share one program and one configuration, so states
    /// that differ only by which relay is which are one state: the relays are fed in the
    /// order of their own states (relays whose own states are equal hold no row and no
    /// lock, so their order changes nothing).
    pub(super) fn key(&self, w: &World) -> u128 {
        let mut order = self.order.borrow_mut();
        let n = self.relays.len();
        if self.reduce && n == 2 {
            // Two relays (the case): one comparison, no sort.
            let (a, b) = (self.relays[0], self.relays[1]);
            let swap = local_order(&w.procs[a], &w.procs[b]).is_gt();
            (order[a], order[b]) = if swap { (b, a) } else { (a, b) };
        } else if self.reduce && n > 2 {
            // Relays ordered by their own states (ties keep their places).
            let mut by = [0usize; MAX_PROCS];
            for (k, b) in by[..n].iter_mut().enumerate() {
                *b = k;
            }
            let relay = |k: usize| &w.procs[self.relays[k]];
            by[..n].sort_by(|&x, &y| local_order(relay(x), relay(y)));
            for (k, &r) in self.relays.iter().enumerate() {
                order[r] = self.relays[by[k]];
            }
        }
        key_of(w, &order)
    }

    /// The next forced step (module doc, "Forced steps"), if any.
    fn forced(&self, w: &World) -> Option<usize> {
        if !self.reduce {
            return None;
        }
        let mut poll_ok = None;
        let runnable = w.runnable_mask();
        for (i, p) in w.procs.iter().enumerate() {
            let forced = match (p.kind, p.pc) {
                (ProcKind::Client, _) => self.client_first,
                _ if self.crash == Some((i, p.pc)) => false,
                (ProcKind::Api | ProcKind::Relay | ProcKind::Worker, Step::Begin)
                | (ProcKind::Worker, Step::BeginSecond | Step::Action)
                | (ProcKind::Api, Step::Respond) => true,
                // With one worker: taking the oldest waiting job, and its inbox row.
                (ProcKind::Worker, Step::Fetch | Step::InboxInsert) => w.cfg.workers == 1,
                // Marking rows it holds locked: a private write nobody else reads.
                (ProcKind::Relay, Step::MarkPublished) => w.cfg.relay.lock != LockMode::None,
                // The COMMIT of a poll that selected nothing.
                (ProcKind::Relay, Step::Commit) => {
                    matches!(&p.mem, Mem::Relay(RelayMem { batch, .. }) if batch.is_empty())
                }
                _ => false,
            };
            if !forced || runnable >> i & 1 == 0 {
                continue;
            }
            if p.kind == ProcKind::Relay && p.pc == Step::Begin {
                let ok = *poll_ok.get_or_insert_with(|| self.poll_can_find_rows(w));
                if !ok {
                    continue;
                }
            }
            return Some(i);
        }
        None
    }

    /// Takes the forced steps, recording them in `out` when asked.
    pub(super) fn chain(&self, w: &mut World, mut out: Option<&mut Vec<Action>>) {
        while let Some(i) = self.forced(w) {
            w.step_runnable(i);
            if let Some(o) = out.as_mut() {
                o.push(self.actions[i][0].clone());
            }
        }
    }

    /// Takes choice `c` in `w`: what `World::apply` of [`Explorer::actions_of`] does, by
    /// process place rather than by name (see `World::step_at`).
    pub(super) fn take(&self, w: &mut World, c: Choice) {
        let i = (c & 0xff) as usize;
        match c & 0xff00 {
            TICK => {
                w.step();
            }
            KILL => {
                w.kill_at(i);
                if self.reduce {
                    w.restart_at(i);
                }
            }
            RESTART => w.restart_at(i),
            _ => w.step_runnable(i),
        }
    }

    /// The actions a choice takes: a step, a tick, or a kill and the restart after it.
    pub(super) fn actions_of(&self, c: Choice) -> &[Action] {
        if c == TICK {
            return std::slice::from_ref(&self.tick);
        }
        let a = &self.actions[(c & 0xff) as usize];
        match c & 0xff00 {
            KILL if self.reduce => &a[1..3],
            KILL => &a[1..2],
            RESTART => &a[2..3],
            _ => &a[0..1],
        }
    }

    fn counts(&self, w: &World) -> bool {
        self.crash.is_none() || kills_spent(w) > 0
    }

    fn note(&mut self, obs: usize, parent: u32, c: Choice, pre: bool) {
        if self.first[obs].is_none() {
            self.first[obs] = Some((parent, c, pre));
        }
    }

    /// Notes what a successor shows (the first edge into each observation is kept).
    fn observe(&mut self, n: &World, idx: u32, c: Choice, pre: bool, violations_before: usize) {
        if !self.counts(n) {
            return;
        }
        let a = &n.auditor;
        let seen = [
            (OBS_LOST, a.count(Class::Lost) > 0),
            (OBS_DUP_EFFECT, a.duplicate_effects > 0),
            (OBS_PHANTOM, a.phantoms > 0),
            (OBS_CONSERVATION, a.check_conservation().is_err()),
            (OBS_INVARIANTS, n.violations.len() > violations_before),
            (OBS_DUP_DELIVERY, a.duplicate_deliveries > 0),
        ];
        for (obs, yes) in seen {
            if yes {
                self.note(obs, idx, c, pre);
            }
        }
    }

    /// A successor of state `idx` (at depth `d`) by choice `c`: a new state, into the
    /// frontier, or a state seen before, its world back to the spares; an edge either way.
    fn settle(&mut self, idx: u32, d: u32, key: u128, n: Box<World>, c: Choice) {
        let next = self.parent.len() as u32;
        let to = self.seen.get_or_insert(key, next);
        if to == next {
            self.parent.push(idx);
            self.via.push(c);
            self.depth.push((d + 1).min(u16::MAX as u32) as u16);
            self.flags.push(0);
            self.max_depth_seen = self.max_depth_seen.max(d + 1);
            self.frontier.push_back((to, n));
        } else {
            self.spare.push(n);
        }
        self.edges.push(to);
    }

    pub(super) fn expand(&mut self, idx: u32, w: Box<World>) {
        let d = self.depth[idx as usize] as u32;
        let (choices, quiescent) = self.choose(&w);
        if quiescent {
            self.record_terminal(idx, &w);
        }
        if choices.is_empty() {
            self.spare.push(w);
        } else if d >= self.bounds.max_depth {
            if !quiescent {
                self.flags[idx as usize] |= FLAG_CUT;
            }
            self.spare.push(w);
        } else {
            self.successors(idx, d, w, &choices);
        }
        self.choices = choices;
        debug_assert_eq!(
            self.edge_start.len(),
            idx as usize + 1,
            "expansion in index order"
        );
        self.edge_start.push(self.edges.len() as u32);
    }

    /// A state where nothing but the clock can move: marked terminal (and settled), its
    /// counters kept among the outcomes, and the observers told.
    #[inline(always)]
    fn record_terminal(&mut self, idx: u32, w: &World) {
        let mut f = FLAG_TERMINAL;
        if w.settled() {
            f |= FLAG_SETTLED;
        }
        self.flags[idx as usize] |= f;
        if let Some(o) = self.outcomes.as_mut() {
            let mut c = w.counters();
            c.tick = 0;
            c.stuck = 0;
            c.oldest_unpublished_age_ticks = 0;
            o.insert(serde_json::to_string(&c).expect("counters serialise"));
        }
        if self.counts(w) && idx != 0 {
            let (p, c) = (self.parent[idx as usize], self.via[idx as usize]);
            self.note(OBS_TERMINAL, p, c, false);
            if self.first[OBS_RETRIED].is_none() && !super::property::retry_acts_once(w) {
                self.note(OBS_RETRIED, p, c, false);
            }
        }
    }

    /// Every successor of state `idx` (at depth `d`, world `w`) by `choices`, in order:
    /// taken, observed, chained through its forced steps and settled into the graph.
    #[inline(always)]
    fn successors(&mut self, idx: u32, d: u32, w: Box<World>, choices: &[Choice]) {
        let lost_before = w.auditor.count(Class::Lost);
        let violations_before = w.violations.len();
        let mut parent = Some(w);
        // A successor is looked up one successor later, its key's slot asked for
        // meanwhile (see `Seen::prefetch`); lookups keep the successors' order.
        let mut pending: Option<(u128, Box<World>, Choice)> = None;
        for (k, &c) in choices.iter().enumerate() {
            // The last choice takes the parent's world itself; the others refill a
            // spare world.
            let mut n = if k + 1 == choices.len() {
                parent.take().expect("parent world")
            } else {
                let p = parent.as_ref().expect("parent world");
                match self.spare.pop() {
                    Some(mut n) => {
                        n.refill_from(p);
                        n
                    }
                    None => p.clone(),
                }
            };
            self.take(&mut n, c);
            self.observe(&n, idx, c, true, violations_before);
            self.chain(&mut n, None);
            self.observe(&n, idx, c, false, violations_before);
            if n.auditor.count(Class::Lost) < lost_before {
                self.lost_retracted += 1;
            }
            let key = self.key(&n);
            self.seen.prefetch(key);
            if let Some((key, n, c)) = pending.replace((key, n, c)) {
                self.settle(idx, d, key, n, c);
            }
        }
        if let Some((key, n, c)) = pending {
            self.settle(idx, d, key, n, c);
        }
    }
}
