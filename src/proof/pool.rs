//! The "Prove it" searches' workers (issue #22): a pool of Web Workers
//! ([`crate::browser::workers::pool_size`] of them), started when the tab is opened, that
//! run the claims and the crash-point matrix's cells ([`Search`]) one search per worker at
//! a time, the next queued one as soon as a worker is free. Cancel terminates the workers
//! running a group's searches and starts fresh ones in their place.
//!
//! Without workers (none can be made, or one fails to load) the pool says why in
//! [`PoolState::Failed`] and keeps what was asked; [`Pool::run_here`] then loads the same
//! search wasm on the page's thread and runs the queue there in short tasks, as the page
//! did before workers. The page's own wasm never contains the search.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use leptos::prelude::*;
use outbox_model::explore::{Search, ToWorker};

use crate::browser::slices::{now_ms, run_in_tasks};
use crate::browser::workers::{self, HereRunner, Spawned};
use crate::i18n::{Key, Reason};
use crate::proof::reply::{self, Reply};

/// Who asked: a group's searches are cancelled together.
pub type Group = &'static str;
/// Gets each reply of a batch's search: the search's index in the batch, the reply.
pub type OnReply = Rc<dyn Fn(usize, Reply)>;

/// How the searches run, for the page to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolState {
    /// Nothing started yet.
    Idle,
    /// Workers are starting or running (how many).
    Workers(usize),
    /// No worker could run: the reason. Searches wait for [`Pool::run_here`].
    Failed(Reason),
    /// On the page's thread (loading its wasm, then running).
    Here,
}

/// A search waiting or running, and whom to tell.
#[derive(Clone)]
struct Item {
    n: u32,
    group: Group,
    index: usize,
    search: Search,
    on_reply: OnReply,
}

struct Slot {
    spawned: Spawned,
    ready: bool,
    running: Option<Item>,
}

/// Milliseconds a worker may take to load before the pool gives up on workers: a broken
/// download inside a worker rejects a promise there, which the page never hears of.
const START_LIMIT_MS: u32 = 15_000;
/// States per slice on the page's thread (between two looks at the clock).
const HERE_SLICE_STATES: u32 = 64;

struct Inner {
    state: RwSignal<PoolState>,
    /// Workers that have loaded their wasm and said Ready.
    ready: RwSignal<usize>,
    slots: Vec<Slot>,
    queue: VecDeque<Item>,
    next_n: u32,
    /// On the page's thread: the search running there, if any.
    here: Option<Option<(Item, HereRunner)>>,
    /// The search wasm is loaded on the page's thread.
    here_loaded: bool,
    /// The page-thread loop is scheduled (it ends when the queue is empty).
    looping: bool,
    /// Turns false to stop the page-thread loop.
    alive: Rc<std::cell::Cell<bool>>,
    me: Weak<RefCell<Inner>>,
}

/// The narrow handle the proof's components share (context of `Proof`); `Copy`, as the
/// page's handles are: the pool itself lives with the `Proof` component that made it.
#[derive(Clone, Copy)]
pub struct Pool(StoredValue<Rc<RefCell<Inner>>, LocalStorage>);

impl Default for Pool {
    fn default() -> Pool {
        Pool::new()
    }
}

impl Pool {
    pub fn new() -> Pool {
        let inner = Rc::new_cyclic(|me| {
            RefCell::new(Inner {
                state: RwSignal::new(PoolState::Idle),
                ready: RwSignal::new(0),
                slots: Vec::new(),
                queue: VecDeque::new(),
                next_n: 0,
                here: None,
                here_loaded: false,
                looping: false,
                alive: Rc::new(std::cell::Cell::new(true)),
                me: me.clone(),
            })
        });
        Pool(StoredValue::new_local(inner))
    }

    fn inner(&self) -> Rc<RefCell<Inner>> {
        self.0.get_value()
    }

    pub fn state(&self) -> RwSignal<PoolState> {
        self.inner().borrow().state
    }

    /// How many workers are loaded (the note's `data-ready`, which tests wait on).
    pub fn ready(&self) -> RwSignal<usize> {
        self.inner().borrow().ready
    }

    /// Starts the workers now (when "Prove it" is opened), so a click finds them loaded.
    pub fn warm(&self) {
        let rc = self.inner();
        let mut inner = rc.borrow_mut();
        if inner.state.get_untracked() == PoolState::Idle {
            inner.start_workers();
        }
    }

    /// Queues `searches` for `group`; `on_reply` hears each one's progress and answer.
    pub fn submit(&self, group: Group, searches: Vec<Search>, on_reply: OnReply) {
        let rc = self.inner();
        let mut inner = rc.borrow_mut();
        for (index, search) in searches.into_iter().enumerate() {
            let n = inner.next_n;
            inner.next_n = inner.next_n.wrapping_add(1);
            let on_reply = on_reply.clone();
            inner.queue.push_back(Item {
                n,
                group,
                index,
                search,
                on_reply,
            });
        }
        if inner.state.get_untracked() == PoolState::Idle {
            inner.start_workers();
        }
        inner.pump();
    }

    /// Drops `group`'s queued searches and stops its running ones at once.
    pub fn cancel(&self, group: Group) {
        let rc = self.inner();
        let mut inner = rc.borrow_mut();
        inner.queue.retain(|i| i.group != group);
        let stale: Vec<usize> = (0..inner.slots.len())
            .filter(|&k| {
                inner.slots[k]
                    .running
                    .as_ref()
                    .is_some_and(|i| i.group == group)
            })
            .collect();
        for k in stale {
            // Dropping the old slot terminates its worker (mid-search); the new one is
            // ready when it says so.
            match inner.spawn_slot() {
                Ok(slot) => {
                    inner.slots[k] = slot;
                    inner.ready.update(|n| *n = n.saturating_sub(1));
                }
                Err(why) => return inner.fail(why),
            }
        }
        if let Some(Some((item, _))) = &inner.here {
            if item.group == group {
                inner.here = Some(None);
            }
        }
        inner.pump();
    }

    /// Runs the queue on the page's thread: loads the search wasm here, then works in
    /// short tasks (the fallback when workers failed).
    pub fn run_here(&self) {
        let rc = self.inner();
        let mut inner = rc.borrow_mut();
        if inner.here.is_some() {
            return;
        }
        inner.slots.clear();
        inner.here = Some(None);
        inner.state.set(PoolState::Here);
        let me = inner.me.clone();
        drop(inner);
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = workers::load_here().await;
            let Some(inner) = me.upgrade() else { return };
            let mut inner = inner.borrow_mut();
            match loaded {
                Ok(()) => {
                    inner.here_loaded = true;
                    inner.pump();
                }
                Err(why) => inner.fail(why),
            }
        });
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.alive.set(false);
    }
}

impl Inner {
    fn start_workers(&mut self) {
        let count = workers::pool_size();
        for _ in 0..count {
            match self.spawn_slot() {
                Ok(slot) => self.slots.push(slot),
                Err(why) => return self.fail(why),
            }
        }
        self.state.set(PoolState::Workers(count));
        self.watch_start();
    }

    fn spawn_slot(&self) -> Result<Slot, Reason> {
        let k_of = |me: &Weak<RefCell<Inner>>, worker: &web_sys::Worker| {
            me.upgrade().and_then(|i| {
                let inner = i.borrow();
                inner.slots.iter().position(|s| &s.spawned.worker == worker)
            })
        };
        let (me1, me2) = (self.me.clone(), self.me.clone());
        let cell: Rc<RefCell<Option<web_sys::Worker>>> = Rc::default();
        let (c1, c2) = (cell.clone(), cell.clone());
        let spawned = workers::spawn(
            Rc::new(move |text| {
                let Some(w) = c1.borrow().clone() else { return };
                if let (Some(k), Some(i)) = (k_of(&me1, &w), me1.upgrade()) {
                    let replies = i.borrow_mut().heard(k, &text);
                    deliver(replies);
                }
            }),
            Rc::new(move |why| {
                if let Some(i) = me2.upgrade() {
                    if c2
                        .borrow()
                        .as_ref()
                        .is_some_and(|w| k_of(&me2, w).is_some())
                    {
                        i.borrow_mut().fail(why);
                    }
                }
            }),
        )?;
        *cell.borrow_mut() = Some(spawned.worker.clone());
        Ok(Slot {
            spawned,
            ready: false,
            running: None,
        })
    }

    /// A worker's message: Ready, or a reply to its search.
    fn heard(&mut self, k: usize, text: &str) -> Vec<(Item, Reply)> {
        let msg = match reply::read(text) {
            Ok(msg) => msg,
            Err(why) => {
                leptos::logging::warn!("a worker's message this page cannot read: {why}");
                self.fail(Reason::new(Key::ReasonWorkerMessage));
                return Vec::new();
            }
        };
        let slot = &mut self.slots[k];
        match msg {
            Reply::Ready => {
                slot.ready = true;
                self.ready.update(|n| *n += 1);
            }
            Reply::Failed { why, broken: true } => {
                self.fail(Reason::data(why));
                return Vec::new();
            }
            reply => {
                let over = !matches!(reply, Reply::Progress { .. });
                let Some(item) = slot.running.clone() else {
                    return Vec::new();
                };
                if over {
                    slot.running = None;
                }
                self.pump();
                return vec![(item, reply)];
            }
        }
        self.pump();
        Vec::new()
    }

    /// Gives every free, loaded worker the next queued search (or, on the page's thread,
    /// schedules its loop).
    fn pump(&mut self) {
        if self.here.is_some() {
            if self.here_loaded && !self.looping && !self.queue.is_empty() {
                self.looping = true;
                start_here_loop(self.me.clone(), self.alive.clone());
            }
            return;
        }
        for slot in self.slots.iter_mut() {
            if !slot.ready || slot.running.is_some() {
                continue;
            }
            let Some(item) = self.queue.pop_front() else {
                break;
            };
            let msg = ToWorker {
                n: item.n,
                search: item.search,
            };
            let text = msg.encode();
            let _ = slot.spawned.worker.post_message(&text.into());
            slot.running = Some(item);
        }
    }

    /// Workers cannot run here: stop them, put their searches back, say why.
    fn fail(&mut self, why: Reason) {
        let running: Vec<Item> = self.slots.drain(..).filter_map(|s| s.running).collect();
        for item in running.into_iter().rev() {
            self.queue.push_front(item);
        }
        if let Some(Some((item, _))) = self.here.take() {
            self.queue.push_front(item);
        }
        self.ready.set(0);
        self.state.set(PoolState::Failed(why));
    }

    /// Fails the pool if no worker has said Ready within [`START_LIMIT_MS`].
    fn watch_start(&self) {
        let me = self.me.clone();
        gloo_timers::callback::Timeout::new(START_LIMIT_MS, move || {
            let Some(inner) = me.upgrade() else { return };
            let mut inner = inner.borrow_mut();
            let loading = !inner.slots.is_empty() && inner.slots.iter().all(|s| !s.ready);
            if loading && inner.here.is_none() {
                inner.fail(Reason::new(Key::ReasonWorkerSilent).arg("s", START_LIMIT_MS / 1000));
            }
        })
        .forget();
    }
}

/// Calls the askers back, after the pool's borrow is released (they may submit again).
fn deliver(replies: Vec<(Item, Reply)>) {
    for (item, reply) in replies {
        (item.on_reply)(item.index, reply);
    }
}

/// The page-thread loop: the queue's searches one after another, in short tasks, until
/// the queue is empty (the next submit schedules it again).
fn start_here_loop(me: Weak<RefCell<Inner>>, alive: Rc<std::cell::Cell<bool>>) {
    run_in_tasks(alive, move |deadline| {
        let Some(inner) = me.upgrade() else {
            return false;
        };
        while now_ms() < deadline {
            let (replies, more) = here_slice(&inner);
            deliver(replies);
            if !more {
                inner.borrow_mut().looping = false;
                return false;
            }
        }
        true
    });
}

/// One slice on the page's thread: start the next search, or run the current one;
/// whether there is more to do.
fn here_slice(inner: &Rc<RefCell<Inner>>) -> (Vec<(Item, Reply)>, bool) {
    let mut guard = inner.borrow_mut();
    let Some(here) = guard.here.as_mut() else {
        return (Vec::new(), false);
    };
    if here.is_none() {
        let Some(item) = guard.queue.pop_front() else {
            return (Vec::new(), false);
        };
        let text = ToWorker {
            n: item.n,
            search: item.search,
        }
        .encode();
        return match HereRunner::new(&text) {
            Ok(r) => {
                guard.here = Some(Some((item, r)));
                (Vec::new(), true)
            }
            Err(why) => {
                guard.queue.push_front(item);
                guard.fail(why);
                (Vec::new(), false)
            }
        };
    }
    let Some((item, runner)) = here.as_ref() else {
        return (Vec::new(), false);
    };
    let (text, over) = match runner.step(HERE_SLICE_STATES) {
        Ok(r) => r,
        Err(why) => {
            guard.fail(why);
            return (Vec::new(), false);
        }
    };
    let item = item.clone();
    if over {
        guard.here = Some(None);
    }
    match reply::read(&text) {
        Ok(reply) => (vec![(item, reply)], true),
        Err(why) => {
            leptos::logging::warn!("a reply this page cannot read: {why}");
            guard.fail(Reason::new(Key::ReasonWorkerMessage));
            (Vec::new(), false)
        }
    }
}
