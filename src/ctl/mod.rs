//! The controller floor. Here: the page's controller, shared through context — the
//! [`Sim`] (private), the signals that tell components it changed, and every operation a
//! button or key can ask for. Components read snapshots from the memos and the `with_*`
//! readers here and call these methods; the compiler lets none of them change the world
//! any other way. Beside it: the run the page opens with (`startup`), the play loop
//! (`play_loop`) and share URLs (`share`). It stands on `run/`, `browser/` and `i18n/`
//! only; every feature stands on it.

pub mod kill_rules;
pub mod open_event;
pub mod play_loop;
pub mod share;
pub mod startup;

use leptos::prelude::*;
use outbox_model::view::{self, ProcView, QueueView, TablesView};
use outbox_model::{preset, Action, Counters, Scenario, World};

use crate::browser::storage;
use crate::i18n::{Key, Reason};
use crate::run::link;
use crate::run::sim::{Input, Sample, Sim};

/// Steps per second of each speed setting; the last one is "as fast as it goes".
pub const SPEEDS: [u32; 8] = [1, 3, 10, 30, 100, 300, 1000, u32::MAX];
pub const DEFAULT_SPEED: usize = 4;
/// The preset a first visit starts with: the lesson's opening measurement.
pub const DEFAULT_PRESET: &str = "canon-dual-write";

/// A message above the stage; `why` fills the key's `{why}`, in the reader's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub key: Key,
    pub why: Reason,
    pub error: bool,
    /// Offer the "restore my previous run" button (a link replaced the saved run).
    pub restore: bool,
    /// A link to show in a selectable field (the clipboard refused it).
    pub link: Option<String>,
    /// A second message after the first (a long link's warning).
    pub also: Option<Key>,
}

impl Notice {
    /// An alert.
    pub fn error(key: Key, why: impl Into<Reason>) -> Notice {
        Notice {
            error: true,
            ..Notice::info(key, why)
        }
    }

    /// A polite status.
    pub fn info(key: Key, why: impl Into<Reason>) -> Notice {
        Notice {
            key,
            why: why.into(),
            error: false,
            restore: false,
            link: None,
            also: None,
        }
    }
}

/// Rows the tables show: the first ones and the newest ones.
pub const TABLE_HEAD: usize = 4;
pub const TABLE_RECENT: usize = 5;
/// Jobs the queue lists per state.
pub const QUEUE_PER_STATE: usize = 3;

#[derive(Clone, Copy)]
pub struct Ctl {
    /// Private: components read the run through the `with_*` methods and change it only
    /// through the operations below, which tell the panels and save it.
    sim: StoredValue<Sim>,
    /// Bumped after every change of the world (every animation frame while playing).
    pub frame: RwSignal<u64>,
    /// The heavier panels' beats: each is bumped at most twice a second while playing
    /// (see [`Ctl::changed_part`]), and after every single change when not. This one is
    /// the summaries': the chart, the lesson's checks and the spoken counters.
    pub summary_beat: RwSignal<u64>,
    /// The history's beat: the event log, the lifecycle, the sequence diagram and the
    /// trace files.
    pub history_beat: RwSignal<u64>,
    /// The process cards' and the enabled buttons' beat, and the tables' and the queue's:
    /// while playing, the four beats fall on four successive frames, so no single frame
    /// redraws every heavy panel.
    cards_beat: RwSignal<u64>,
    tables_beat: RwSignal<u64>,
    /// Bumped when the scenario is replaced (the set of processes may change).
    pub scenario_version: RwSignal<u64>,
    pub playing: RwSignal<bool>,
    pub speed: RwSignal<usize>,
    pub notice: RwSignal<Option<Notice>>,
    /// A failed save was reported already.
    save_failed: StoredValue<bool>,
    /// The process `k` arms a kill on.
    pub selected_proc: RwSignal<String>,
    /// Each card's chosen kill rule, for its next ☠ while it has none armed
    /// (`kill_rules.rs`).
    kill_rules: RwSignal<Vec<(String, outbox_model::scenario::KillRule)>>,
    /// The event whose lifecycle is shown.
    pub selected_event: RwSignal<Option<u32>>,
    /// A details tab to show (by its name), asked for by a panel that cannot reach the
    /// tabs (`open_event.rs`); the tabs take it and clear it.
    pub show_tab: RwSignal<Option<&'static str>>,
    pub help_open: RwSignal<bool>,
    /// The last share link made (shown so it can be copied by hand).
    pub share_link: RwSignal<Option<String>>,
    /// Stop the run just before a tick that would kill a process (a lesson step that asks
    /// for a guess first).
    pub halt_before_kill: RwSignal<bool>,
    /// The run stopped there.
    pub halted: RwSignal<bool>,
    /// The run came from a shared link (someone else's): the lesson's goals do not count
    /// it for this learner's progress (#24). Any other run clears it.
    pub shared: RwSignal<bool>,
    pub counters: Memo<Counters>,
    pub procs: Memo<Vec<ProcView>>,
    pub enabled: Memo<Vec<Action>>,
    pub tables: Memo<TablesView>,
    pub queue: Memo<QueueView>,
}

impl Ctl {
    pub fn new(sim: Sim) -> Ctl {
        let sim = StoredValue::new(sim);
        let frame = RwSignal::new(0u64);
        let summary_beat = RwSignal::new(0u64);
        let history_beat = RwSignal::new(0u64);
        let cards_beat = RwSignal::new(0u64);
        let tables_beat = RwSignal::new(0u64);
        let counters = Memo::new(move |_| {
            frame.track();
            sim.with_value(|s| s.world().counters())
        });
        // Process cards and the buttons they enable follow their beat: every change
        // when a user acts, a few times a second while playing.
        let procs = Memo::new(move |_| {
            cards_beat.track();
            sim.with_value(|s| view::procs(s.world()))
        });
        let enabled = Memo::new(move |_| {
            cards_beat.track();
            sim.with_value(|s| s.world().enabled())
        });
        let tables = Memo::new(move |_| {
            tables_beat.track();
            sim.with_value(|s| view::tables(s.world(), TABLE_HEAD, TABLE_RECENT))
        });
        let queue = Memo::new(move |_| {
            tables_beat.track();
            sim.with_value(|s| view::queue(s.world(), QUEUE_PER_STATE))
        });
        Ctl {
            sim,
            frame,
            summary_beat,
            history_beat,
            cards_beat,
            tables_beat,
            scenario_version: RwSignal::new(0),
            playing: RwSignal::new(false),
            speed: RwSignal::new(DEFAULT_SPEED),
            notice: RwSignal::new(None),
            save_failed: StoredValue::new(false),
            selected_proc: RwSignal::new("api".to_string()),
            kill_rules: RwSignal::new(Vec::new()),
            selected_event: RwSignal::new(None),
            show_tab: RwSignal::new(None),
            help_open: RwSignal::new(false),
            share_link: RwSignal::new(None),
            halt_before_kill: RwSignal::new(false),
            halted: RwSignal::new(false),
            shared: RwSignal::new(false),
            counters,
            procs,
            enabled,
            tables,
            queue,
        }
    }

    /// Tells every component that the world changed.
    pub fn changed(&self, all: bool) {
        self.frame.update(|f| *f += 1);
        if all {
            self.cards_beat.update(|f| *f += 1);
            self.tables_beat.update(|f| *f += 1);
            self.summary_beat.update(|f| *f += 1);
            self.history_beat.update(|f| *f += 1);
        }
    }

    /// The heavier panels' parts for [`Ctl::changed_part`].
    pub const PARTS: u8 = 4;

    /// Tells the counters, and one part of the heavier panels (0: the chart and the rest
    /// following `summary_beat`; 1: the process cards; 2: the tables and the queue; 3: the
    /// log and the rest following `history_beat`), that the world changed.
    pub fn changed_part(&self, part: u8) {
        self.frame.update(|f| *f += 1);
        match part {
            0 => self.summary_beat.update(|f| *f += 1),
            1 => self.cards_beat.update(|f| *f += 1),
            2 => self.tables_beat.update(|f| *f += 1),
            _ => self.history_beat.update(|f| *f += 1),
        }
    }

    pub fn scenario(&self) -> Scenario {
        self.sim.with_value(|s| s.scenario().clone())
    }

    /// Reads the world now (untracked: track a signal first to follow it).
    pub fn with_world<R>(&self, f: impl FnOnce(&World) -> R) -> R {
        self.sim.with_value(|s| f(s.world()))
    }

    /// Reads the run's scenario (untracked: track `scenario_version` to follow it).
    pub fn with_scenario<R>(&self, f: impl FnOnce(&Scenario) -> R) -> R {
        self.sim.with_value(|s| f(s.scenario()))
    }

    /// Reads the run's log (untracked).
    pub fn with_inputs<R>(&self, f: impl FnOnce(&[Input]) -> R) -> R {
        self.sim.with_value(|s| f(s.inputs()))
    }

    /// Reads the counters sampled along the run (untracked).
    pub fn with_samples<R>(&self, f: impl FnOnce(&[Sample]) -> R) -> R {
        self.sim.with_value(|s| f(s.samples()))
    }

    /// Reads the whole run, for what is made of all of it (a trace file).
    pub fn with_sim<R>(&self, f: impl FnOnce(&Sim) -> R) -> R {
        self.sim.with_value(f)
    }

    /// The stage shows a preset as shipped with no action taken: replacing it loses
    /// nothing.
    pub fn untouched(&self) -> bool {
        self.sim.with_value(|s| {
            s.inputs().is_empty() && preset(&s.scenario().name).is_some_and(|p| &p == s.scenario())
        })
    }

    pub fn finished(&self) -> bool {
        self.sim.with_value(|s| s.finished())
    }

    /// The run's position and length, tracked: a closure reading it follows every change
    /// of the world.
    pub fn position_tracked(&self) -> (u64, u64) {
        self.frame.track();
        self.sim.with_value(|s| (s.pos(), s.total()))
    }

    /// Whether the run has finished, tracked like [`Ctl::position_tracked`].
    pub fn finished_tracked(&self) -> bool {
        self.frame.track();
        self.finished()
    }

    /// Replaces the run with a fresh one of `scenario` (checked first).
    pub fn load(&self, scenario: Scenario) {
        if let Err(e) = Sim::check(&scenario) {
            self.notice
                .set(Some(Notice::error(Key::NoticeBadScenario, e.reason())));
            return;
        }
        let _ = self.replace(Sim::new(scenario));
    }

    /// Replaces the run with an already built one; Err when it could not be saved.
    pub fn replace(&self, sim: Sim) -> Result<(), Reason> {
        self.shared.set(false);
        self.playing.set(false);
        self.sim.set_value(sim);
        self.share_link.set(None);
        self.selected_event.set(None);
        self.scenario_version.update(|v| *v += 1);
        self.changed(true);
        self.save()
    }

    pub fn load_preset(&self, name: &str) {
        if let Some(s) = preset(name) {
            self.load(s);
        }
    }

    /// The same scenario from its start.
    pub fn reset(&self) {
        self.load(self.scenario());
    }

    /// A user's action on the world. A refusal is shown, not hidden.
    pub fn dispatch(&self, a: Action) {
        let r = self.sim.try_update_value(|s| s.act(a));
        match r {
            Some(Err(why)) => self
                .notice
                .set(Some(Notice::error(Key::NoticeRefused, why))),
            _ => {
                self.changed(true);
                let _ = self.save();
            }
        }
    }

    /// Whether the next tick must not run: it would kill a process while a guess is due.
    fn halt_here(&self) -> bool {
        if self.halt_before_kill.get_untracked() && self.sim.with_value(|s| s.next_tick_kills()) {
            self.playing.set(false);
            self.halted.set(true);
            return true;
        }
        false
    }

    /// One scheduler step (the `.` key).
    pub fn step_once(&self) {
        self.playing.set(false);
        if self.halt_here() {
            return;
        }
        self.sim.update_value(|s| {
            s.tick();
        });
        self.changed(true);
        let _ = self.save();
    }

    /// Runs up to `n` ticks (the play loop); returns false once the run has finished.
    pub fn run_ticks(&self, n: u64) -> bool {
        if self.halt_before_kill.get_untracked() {
            // Tick by tick, looking one tick ahead.
            for _ in 0..n {
                if self.halt_here() {
                    return false;
                }
                let more = self.sim.try_update_value(|s| s.tick() && !s.finished());
                if more != Some(true) {
                    return false;
                }
            }
            return true;
        }
        let mut more = true;
        self.sim.update_value(|s| {
            more = s.ticks(n) == n && !s.finished();
        });
        more
    }

    pub fn back(&self) {
        self.playing.set(false);
        self.sim.update_value(|s| s.back());
        self.changed(true);
    }

    pub fn seek(&self, pos: u64) {
        self.playing.set(false);
        self.sim.update_value(|s| s.seek(pos));
        self.changed(true);
    }

    pub fn toggle_play(&self) {
        if self.playing.get_untracked() {
            self.playing.set(false);
            let _ = self.save();
        } else if !self.finished() {
            self.playing.set(true);
        }
    }

    /// Arms a kill on the selected process at the step it runs next, under its card's rule
    /// (the `k` key).
    pub fn arm_selected(&self) {
        let name = self.selected_proc.get_untracked();
        let pc = self
            .procs
            .with_untracked(|ps| ps.iter().find(|p| p.name == name).map(|p| p.pc));
        if let Some(step) = pc {
            self.arm_kill(&name, step);
        }
    }

    /// Chooses the process `k` arms a kill on by its place on the stage (0-based; the
    /// number keys): nothing happens past the last one.
    pub fn select_nth(&self, i: usize) {
        let name = self
            .procs
            .with_untracked(|ps| ps.get(i).map(|p| p.name.clone()));
        if let Some(name) = name {
            self.selected_proc.set(name);
        }
    }

    /// Moves the choice of process by `delta` places, wrapping (the arrow keys).
    pub fn select_by(&self, delta: isize) {
        let (at, n) = self.procs.with_untracked(|ps| {
            let name = self.selected_proc.get_untracked();
            (ps.iter().position(|p| p.name == name), ps.len())
        });
        if n == 0 {
            return;
        }
        let at = at.map_or(0, |a| a as isize);
        let next = (at + delta).rem_euclid(n as isize) as usize;
        self.select_nth(next);
    }

    /// One speed faster or slower, within the slider's range (the `+` / `-` keys).
    pub fn speed_by(&self, delta: isize, max: usize) {
        let now = self.speed.get_untracked() as isize;
        self.speed
            .set((now + delta).clamp(0, max as isize) as usize);
    }

    /// The link that reopens this run exactly.
    pub fn link_fragment(&self) -> String {
        self.sim.with_value(|s| link::fragment(&s.to_run()))
    }

    /// Reports something saved that could not be read (unless a worse notice is up).
    pub fn report_bad_saved(&self, why: Reason) {
        if self.notice.get_untracked().is_none() {
            self.notice
                .set(Some(Notice::error(Key::NoticeBadSaved, why)));
        }
    }

    /// Keeps the run in localStorage. A full or blocked storage is reported once (the
    /// run is still in its share link); the page goes on without saving.
    pub fn save(&self) -> Result<(), Reason> {
        let json = self.sim.with_value(|s| link::to_json(&s.to_run()));
        let saved = storage::save(&json);
        if let Err(why) = &saved {
            self.report_save_failed(why.clone());
        }
        saved
    }

    /// Says once per page load that saving failed (every later step would fail too).
    pub fn report_save_failed(&self, why: Reason) {
        if !self.save_failed.get_value() {
            self.save_failed.set_value(true);
            self.notice
                .set(Some(Notice::error(Key::NoticeSaveFailed, why)));
        }
    }
}

pub fn use_ctl() -> Ctl {
    expect_context::<Ctl>()
}
