//! The play loop: while the run plays, the model runs on animation frames within a time
//! budget per frame, and the panels are told what changed (the counters every frame, the
//! heavier panels in four parts a few times a second). Frames come from the page's one
//! frame helper ([`use_raf_fn`]), which stops the loop when the playground goes.

use leptos::prelude::*;

use crate::browser::frame_loop::use_raf_fn;
use crate::browser::slices::now_ms;
use crate::ctl::{Ctl, SPEEDS};

/// Model time per animation frame at full speed: what is left of a 60 Hz frame goes to
/// drawing. 2 ms since the stage (#17): it draws the cards, tokens, counters and the
/// lesson together every frame, and 3 ms left the page bench's p95 at 16.6 ms (budget 16).
const FRAME_BUDGET_MS: f64 = 2.0;
/// How often the heavier panels follow while playing (twice a second: each redraw is a
/// long frame, and the counters and tokens already move every frame).
const HEAVY_PANELS_MS: f64 = 500.0;
/// Model time on a frame that also redraws the heavier panels: the redraw takes most of
/// the frame, so the model yields to it.
const SLOW_FRAME_MODEL_MS: f64 = 0.5;
/// At full speed, a big world's checkpoint (a copy of the whole world, a frame of its
/// own) is taken at most this often, the first one this long after play starts: the model
/// keeps running while one waits, seeking back replays from the last one taken, and a
/// waiting one is taken when play stops.
const BIG_COPY_EVERY_MS: f64 = 1000.0;
/// Frames after play starts on which the model yields to the drawing, like a heavy frame.
const FIRST_FRAMES: u8 = 3;
/// Ticks the model runs between two looks at the clock.
const TICKS_PER_CHECK: u64 = 64;

/// Runs the model on animation frames while playing; stops when the component goes.
pub fn play_loop(ctl: Ctl) {
    let mut state = PlayLoop::new(ctl);
    use_raf_fn(move |ts_ms| {
        state.on_frame(ts_ms);
        true
    });
}

/// What the loop remembers from one frame to the next (timestamps in ms, on the frame
/// clock).
struct PlayLoop {
    ctl: Ctl,
    last_frame_ms: Option<f64>,
    /// Ticks owed at a fixed speed, carried to the next frame.
    backlog_ticks: f64,
    last_heavy_ms: f64,
    last_copy_ms: f64,
    was_playing: bool,
    first_frames: u8,
    /// The heavier panels follow in four parts on four successive frames: the next part
    /// to redraw (0 between two refreshes).
    part: u8,
}

impl PlayLoop {
    fn new(ctl: Ctl) -> PlayLoop {
        PlayLoop {
            ctl,
            last_frame_ms: None,
            backlog_ticks: 0.0,
            last_heavy_ms: 0.0,
            last_copy_ms: f64::NEG_INFINITY,
            was_playing: false,
            first_frames: 0,
            part: 0,
        }
    }

    fn on_frame(&mut self, ts: f64) {
        let dt = self
            .last_frame_ms
            .map_or(0.0, |l| (ts - l).clamp(0.0, 100.0));
        self.last_frame_ms = Some(ts);
        if self.ctl.playing.get_untracked() {
            self.play_frame(ts, dt);
        } else {
            self.paused_frame();
        }
    }

    fn play_frame(&mut self, ts: f64, dt: f64) {
        let ctl = self.ctl;
        let start = now_ms();
        if !self.was_playing {
            self.was_playing = true;
            // The panels are up to date when play starts: the first refresh and the first
            // big copy wait their periods, and stay off the first frames (slow already:
            // they draw the new state of the controls, and the browser is still compiling
            // the code for playing).
            self.last_heavy_ms = ts;
            self.last_copy_ms = ts;
            self.first_frames = FIRST_FRAMES;
        }
        let first = self.first_frames > 0;
        self.first_frames = self.first_frames.saturating_sub(1);
        let rate = SPEEDS[ctl.speed.get_untracked().min(SPEEDS.len() - 1)];
        let may_copy = rate != u32::MAX || ts - self.last_copy_ms >= BIG_COPY_EVERY_MS;
        let copied = self.take_due_copy(ts, may_copy);
        let heavy = !copied && (self.part > 0 || ts - self.last_heavy_ms >= HEAVY_PANELS_MS);
        // The model still moves on those frames: a frame that changes nothing on screen
        // is not drawn, and the next one waits for the display's tick.
        let budget = if copied {
            (FRAME_BUDGET_MS - (now_ms() - start)).max(SLOW_FRAME_MODEL_MS)
        } else if heavy || first {
            SLOW_FRAME_MODEL_MS
        } else {
            FRAME_BUDGET_MS
        };
        let more = if rate == u32::MAX {
            run_full_speed(ctl, start, budget, may_copy)
        } else {
            self.run_at_rate(start, rate, dt)
        };
        self.tell_panels(ts, more, heavy);
    }

    /// A big world's checkpoint (a copy of the whole world: ~15 ms at 100 000 tasks in the
    /// page) is taken at the start of a frame that does no heavy redraw, at full speed
    /// only as often as BIG_COPY_EVERY_MS allows, and the model gets what is left of its
    /// time. Returns whether one was taken.
    fn take_due_copy(&mut self, ts: f64, may_copy: bool) -> bool {
        let copied = self
            .ctl
            .sim
            .try_update_value(|s| {
                s.defer_big_checkpoints(true);
                let due = may_copy && s.checkpoint_due();
                if due {
                    s.take_due_checkpoint();
                }
                due
            })
            .unwrap_or(false);
        if copied {
            self.last_copy_ms = ts;
        }
        copied
    }

    /// At a fixed speed: the ticks `dt` ms are worth (with what was owed), within the
    /// frame's budget. Returns false once the run has finished.
    fn run_at_rate(&mut self, start: f64, rate: u32, dt: f64) -> bool {
        let d = self.backlog_ticks + rate as f64 * dt / 1000.0;
        let n = d.floor();
        self.backlog_ticks = d - n;
        let mut left = n as u64;
        let mut more = true;
        while more && left > 0 && now_ms() - start < FRAME_BUDGET_MS {
            let k = left.min(TICKS_PER_CHECK);
            more = self.ctl.run_ticks(k);
            left -= k;
        }
        if left > 0 {
            // The model cannot keep up: drop the backlog instead of piling it up.
            self.backlog_ticks = 0.0;
        }
        more
    }

    /// Tells the panels what changed: everything when the run ended (and stops it), one
    /// part of the heavier panels on a heavy frame, the counters otherwise.
    fn tell_panels(&mut self, ts: f64, more: bool, heavy: bool) {
        let ctl = self.ctl;
        if !more {
            self.part = 0;
            ctl.changed(true);
            ctl.playing.set(false);
            let _ = ctl.save();
        } else if heavy {
            if self.part == 0 {
                self.last_heavy_ms = ts;
            }
            ctl.changed_part(self.part);
            self.part = (self.part + 1) % Ctl::PARTS;
        } else {
            ctl.changed(false);
        }
    }

    fn paused_frame(&mut self) {
        // Just stopped (paused, or stopped before a kill): every panel is drawn from the
        // tick the counters show. While playing, the tables, the queue and the cards
        // follow twice a second; the first frame after play left them up to 500 ms
        // behind the counters ("In DB 7" over a tasks table of 5 rows, #42).
        if std::mem::replace(&mut self.was_playing, false) || self.part > 0 {
            self.part = 0;
            self.ctl.changed(true);
        }
        self.backlog_ticks = 0.0;
        self.ctl
            .sim
            .update_value(|s| s.defer_big_checkpoints(false));
    }
}

/// As fast as it goes: ticks until the budget is spent, the run ends, or a checkpoint that
/// may be taken falls due (it waits for the next frame's start). Returns false once the
/// run has finished.
fn run_full_speed(ctl: Ctl, start: f64, budget: f64, may_copy: bool) -> bool {
    let due = || may_copy && ctl.sim.with_value(|s| s.checkpoint_due());
    let mut more = true;
    while more && now_ms() - start < budget && !due() {
        more = ctl.run_ticks(TICKS_PER_CHECK);
    }
    more
}
