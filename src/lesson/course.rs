//! One course controller (#41): the built-in lesson and an instructor's workshop are the
//! same thing to the page — steps in the challenge format (a scenario, a goal in the goal
//! language, a guess to ask for, a solution, texts by key or by language), a learner's
//! progress in them, and whether the open step's goal holds. The lesson is
//! `outbox_model::lesson::lesson_challenges()` as a workshop; a workshop is what a link
//! or a file opened. [`crate::lesson::ctl::LessonCtl`] holds one of each; which one the
//! run on the stage belongs to is its `away` signal.
//!
//! The model judges every goal (`Goal::holds` on the run's world); this remembers which
//! were reached, records the first guess of each step, and keeps the progress saved.

use std::sync::Arc;

use leptos::prelude::*;
use outbox_model::challenge::{outcome_name, Challenge, Workshop};
use outbox_model::lesson::{self, Outcome, STEPS};

use crate::browser::storage;
use crate::ctl::{Ctl, Notice};
use crate::i18n::lesson_words::WHY_INSIDE;
use crate::i18n::Key;
use crate::lesson::progress::{Progress, PROGRESS_KEY};

/// The open workshop's compact JSON.
pub const OPEN_KEY: &str = "outbox-playground/v1/workshop";

/// The lesson's step that asks "why inside the transaction?": its goal counts once the
/// right reason is chosen (the score counts the first choice).
pub const WHY_STEP: &str = "why-inside";
/// The lesson's step whose run ends with every table empty: the notice says where the
/// written rows went (#24).
const ROLLBACK_STEP: &str = "rollback";

/// Where a workshop's progress is kept: under its id and its challenges' ids (FNV-1a),
/// so two workshops that share an id (a stranger's link may take any) keep their own
/// (#40: opening one set the other's progress aside as corrupt).
pub fn progress_key(w: &Workshop) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for id in w.challenges.iter().map(|c| c.id.as_str()) {
        for b in id.bytes().chain([b'\n']) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{OPEN_KEY}/{}/{hash:016x}/progress", w.id)
}

/// The built-in lesson as a workshop (the file an instructor exports and edits).
pub fn lesson_workshop() -> Workshop {
    Workshop {
        v: outbox_model::challenge::FORMAT_VERSION,
        id: "outbox-lesson".into(),
        title: [
            ("uz", "Transactional outbox"),
            ("en", "Transactional outbox"),
        ]
        .map(|(l, t)| (l.to_string(), t.to_string()))
        .into(),
        challenges: outbox_model::lesson::lesson_challenges(),
    }
}

/// Where a prediction step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Predict {
    /// The step asks for no guess (or "show me" is playing it).
    Off,
    /// A guess is wanted; the run will stop before its first kill.
    Open,
    /// The run stopped before a kill and waits for a guess.
    Paused,
    /// A guess was made; `revealing` once the reveal key let the run go on.
    Guessed { guess: Outcome, revealing: bool },
    /// The run ended: the guess and what the model says happened.
    Revealed { guess: Outcome, actual: Outcome },
}

impl Predict {
    /// The state's name in the page (`data-state`, which the end-to-end tests read):
    /// spelled here, so renaming a variant does not change what the tests see.
    pub fn name(&self) -> &'static str {
        match self {
            Predict::Off => "Off",
            Predict::Open => "Open",
            Predict::Paused => "Paused",
            Predict::Guessed { .. } => "Guessed",
            Predict::Revealed { .. } => "Revealed",
        }
    }
}

/// One course: the lesson (`builtin`) or the open workshop.
#[derive(Clone, Copy)]
pub struct Course {
    pub ctl: Ctl,
    pub builtin: bool,
    /// Its steps; `None` while no workshop is open (the lesson's is always there).
    pub open: RwSignal<Option<Arc<Workshop>>>,
    pub step: RwSignal<usize>,
    pub progress: RwSignal<Progress>,
    pub hint: RwSignal<bool>,
    /// The page's one guess state (one run on the stage), shared by both courses.
    pub predict: RwSignal<Predict>,
    /// The run is the workshop's (shared by both courses): the lesson is not judged on it.
    pub away: RwSignal<bool>,
    /// The open step's goal holds in the run's world.
    pub reached: Memo<bool>,
    /// The run of the open step ended without its goal.
    pub failed: Memo<bool>,
}

impl Course {
    /// A course over `open`, with `progress`; its goal judged while it owns the run.
    pub fn new(
        ctl: Ctl,
        builtin: bool,
        open: Option<Workshop>,
        progress: Progress,
        predict: RwSignal<Predict>,
        away: RwSignal<bool>,
    ) -> Course {
        let open = RwSignal::new(open.map(Arc::new));
        let step = RwSignal::new(progress.step);
        let progress = RwSignal::new(progress);
        let judged = move |finished: bool| {
            ctl.summary_beat.track();
            // Someone else's run (a shared link) is not this learner's doing; the other
            // course's run is not this one's.
            if ctl.shared.get() || away.get() == builtin {
                return None;
            }
            let w = open.get()?;
            let c = w.challenges.get(step.get())?;
            // A workshop's goal is judged on its challenge's own scenario only (a preset
            // picked on the stage is not its run); the lesson's on any run, since its
            // variants and "show me" load other scenarios that make the same point.
            if !builtin && !ctl.with_scenario(|s| *s == c.scenario) {
                return None;
            }
            if finished && !ctl.finished() {
                return None;
            }
            let holds = ctl.with_world(|w| c.goal.holds(w));
            let answered =
                c.id != WHY_STEP || !builtin || progress.with(|p| p.why == Some(WHY_INSIDE.right));
            Some(holds && answered)
        };
        let course = Course {
            ctl,
            builtin,
            open,
            step,
            progress,
            hint: RwSignal::new(false),
            predict,
            away,
            reached: Memo::new(move |_| judged(false) == Some(true)),
            failed: Memo::new(move |_| judged(true) == Some(false)),
        };
        course.remember();
        course
    }

    /// Marks a reached goal done and keeps the progress saved.
    fn remember(self) {
        Effect::new(move |_| {
            if !self.reached.get() {
                return;
            }
            let Some(id) = self.current_id() else { return };
            if self.builtin && id == ROLLBACK_STEP {
                // All zeros is the lesson here: say where the written rows went (#24).
                self.ctl
                    .notice
                    .set(Some(Notice::info(Key::NoticeRolledBack, "")));
            }
            if !self.progress.with_untracked(|p| p.is_done(&id)) {
                self.progress.update(|p| p.done.push(id));
            }
        });
        Effect::new(move |_| {
            let p = self.progress.get();
            let key = if self.builtin {
                Some(PROGRESS_KEY.to_string())
            } else {
                self.open.with_untracked(|w| {
                    w.as_ref()
                        .filter(|w| w.id == p.workshop)
                        .map(|w| progress_key(w))
                })
            };
            let Some(key) = key else { return };
            if let Err(why) = storage::set(&key, &p.to_json()) {
                self.ctl.report_save_failed(why);
            }
        });
    }

    /// The open step's id.
    pub fn current_id(&self) -> Option<String> {
        self.current().map(|c| c.id)
    }

    /// The open step (untracked).
    pub fn current(&self) -> Option<Challenge> {
        let i = self.step.get_untracked();
        self.open
            .with_untracked(|w| w.as_ref()?.challenges.get(i).cloned())
    }

    /// How many steps the course has (tracked).
    pub fn steps_count(&self) -> usize {
        self.open
            .with(|w| w.as_ref().map_or(0, |w| w.challenges.len()))
    }

    /// Opens step `i`: its scenario, its guess if it asks for one, no hint yet; the run
    /// is this course's from now on.
    pub fn go(&self, i: usize) {
        let Some((i, c)) = self.open.with_untracked(|w| {
            let cs = &w.as_ref()?.challenges;
            let i = i.min(cs.len().checked_sub(1)?);
            Some((i, cs[i].clone()))
        }) else {
            return;
        };
        self.away.set(!self.builtin);
        self.step.set(i);
        self.progress.update(|p| {
            p.step = i;
            p.step_id.clone_from(&c.id);
        });
        self.hint.set(false);
        // A step's own notice (the ROLLBACK's) belongs to that step.
        if self
            .ctl
            .notice
            .with_untracked(|n| n.as_ref().is_some_and(|n| n.key == Key::NoticeRolledBack))
        {
            self.ctl.notice.set(None);
        }
        self.ctl.load(c.scenario);
        self.arm_guess(c.predict.is_some());
    }

    /// Asks for a guess before the run's first kill (`on`), or asks for none.
    pub fn arm_guess(&self, on: bool) {
        self.predict
            .set(if on { Predict::Open } else { Predict::Off });
        self.ctl.halt_before_kill.set(on);
        self.ctl.halted.set(false);
    }

    /// Plays the open step's solution: its actions on its start, then the run. A lesson
    /// step whose solution needs another configuration loads that one (`lesson::solution`).
    pub fn show_solution(&self) {
        let Some(c) = self.current() else { return };
        let (start, actions) = match (&c.solution, self.builtin) {
            (Some(actions), _) => (c.scenario.clone(), actions.clone()),
            (None, true) => match STEPS.iter().find(|s| s.id == c.id) {
                Some(st) => lesson::solution(st.goal),
                None => return,
            },
            (None, false) => return,
        };
        self.arm_guess(false);
        self.ctl.load(start.clone());
        // A scenario the page refused to load (said in a notice) left another run on the
        // stage: the solution's actions are not played on it (#40).
        let other_run = self.ctl.with_scenario(|s| *s != start);
        if other_run || self.ctl.with_inputs(|inputs| !inputs.is_empty()) {
            return;
        }
        for a in actions {
            self.ctl.dispatch(a);
        }
        self.ctl.playing.set(true);
    }

    /// A reveal ended on this course's step: its first guess is kept (#41).
    pub fn record_guess(&self, guess: Outcome, actual: Outcome) {
        let Some(id) = self.current_id() else { return };
        self.progress.update(|p| {
            p.record_guess(&id, outcome_name(guess), outcome_name(actual));
        });
    }
}
