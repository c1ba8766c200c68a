//! The lesson panel's controller, shared through context: the two courses (#41: one
//! controller, [`Course`], for the built-in lesson and for the open workshop), which of
//! them the run on the stage belongs to (`away`), the panel's tab, presenter mode, the
//! predict-then-reveal state of a step that asks for a guess, and the visit's seed that
//! orders every question's options.

use leptos::prelude::*;
use outbox_model::challenge::Workshop;
use outbox_model::lesson::Outcome;

use crate::browser::storage;
use crate::ctl::{Ctl, Notice};
use crate::i18n::{Key, Reason};
use crate::lesson::course::lesson_workshop;
pub use crate::lesson::course::{Course, Predict};
pub use crate::lesson::progress::{Prediction, Progress, PROGRESS_KEY};
use crate::lesson::shuffle::{option_order, visit_seed, PREDICT_ORDER};

/// The JSON name of an outcome (what the export holds): the challenge format's.
pub use outbox_model::challenge::outcome_name;

pub fn outcome_key(o: Outcome) -> Key {
    match o {
        Outcome::Lost => Key::OutcomeLost,
        Outcome::Duplicate => Key::OutcomeDuplicate,
        Outcome::Fine => Key::OutcomeFine,
    }
}

/// The saved progress: None when there is none, Err with the reason when it is corrupt
/// (then kept under `…/lesson/corrupt`, not deleted and not half-read).
pub fn load_progress(lesson: &Workshop) -> Option<Result<Progress, Reason>> {
    let text = storage::get(PROGRESS_KEY)?;
    let p = Progress::from_json(&text, lesson, true);
    if p.is_err() {
        storage::quarantine(PROGRESS_KEY, &text);
    }
    Some(p)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Path,
    Schema,
    Exercises,
    Quiz,
    RealWork,
    /// A workshop's open challenge (#23): its tab is there only while one is open.
    Workshop,
    /// Not a tab: the summary step's panel (#43), drawn inside the guided path through
    /// the side tabs' door, so its code loads with theirs, not in the first load.
    Summary,
}

#[derive(Clone, Copy)]
pub struct LessonCtl {
    pub ctl: Ctl,
    /// The built-in lesson.
    pub course: Course,
    /// The open workshop (`course.open` is `None` while none is).
    pub workshop: Course,
    pub tab: RwSignal<Tab>,
    pub presenter: RwSignal<bool>,
    pub predict: RwSignal<Predict>,
    /// A workshop's challenge is open: the run is not the lesson's step, so the lesson's
    /// goal is not judged and its guesses are not recorded in the lesson's progress.
    pub away: RwSignal<bool>,
    /// This visit's seed: the order of every question's options (`shuffle.rs`).
    pub seed: u64,
}

/// Moves a prediction step along: the run stopped before a kill asks for the guess; a
/// guessed run that ended reveals what happened and records the guess in the progress
/// of the course the run belongs to (its first guess only).
fn follow_predictions(lesson: LessonCtl) {
    // The run stopped before a kill: ask for the guess.
    Effect::new(move |_| {
        if lesson.ctl.halted.get() && lesson.predict.get_untracked() == Predict::Open {
            lesson.predict.set(Predict::Paused);
        }
    });
    // A revealed run ended (or one guessed before Play ended without a kill to stop
    // at): show what happened.
    Effect::new(move |_| {
        lesson.ctl.summary_beat.track();
        if let Predict::Guessed { guess, .. } = lesson.predict.get_untracked() {
            if lesson.ctl.finished() {
                let actual = lesson.ctl.with_world(Outcome::of);
                lesson.predict.set(Predict::Revealed { guess, actual });
                lesson.on_stage().record_guess(guess, actual);
            }
        }
    });
}

impl LessonCtl {
    /// Makes the controller with the saved progress (a corrupt one is reported and
    /// replaced), without loading a step: the playground keeps the run it opened with.
    pub fn new(ctl: Ctl) -> LessonCtl {
        let steps = lesson_workshop();
        let progress = match load_progress(&steps) {
            Some(Ok(p)) => p,
            Some(Err(why)) => {
                ctl.report_bad_saved(why);
                Progress::default()
            }
            None => Progress::default(),
        };
        let predict = RwSignal::new(Predict::Off);
        let away = RwSignal::new(false);
        let course = Course::new(ctl, true, Some(steps), progress, predict, away);
        let workshop = Course::new(ctl, false, None, Progress::default(), predict, away);
        let lesson = LessonCtl {
            ctl,
            course,
            workshop,
            tab: RwSignal::new(Tab::Path),
            presenter: RwSignal::new(false),
            predict,
            away,
            seed: visit_seed(),
        };
        follow_predictions(lesson);
        lesson
    }

    /// The course the run on the stage belongs to.
    pub fn on_stage(&self) -> Course {
        if self.away.get_untracked() {
            self.workshop
        } else {
            self.course
        }
    }

    /// Opens the lesson's step `i` and loads its scenario.
    pub fn go(&self, i: usize) {
        self.course.go(i);
    }

    /// Asks for a guess before the run's first kill (`on`), or asks for none.
    pub fn arm_guess(&self, on: bool) {
        self.course.arm_guess(on);
    }

    pub fn next(&self) {
        let i = self.course.step.get_untracked();
        if i + 1 < self.course.steps_count() {
            self.go(i + 1);
        }
    }

    pub fn prev(&self) {
        let i = self.course.step.get_untracked();
        if i > 0 {
            self.go(i - 1);
        }
    }

    /// Loads one of the step's variant scenarios (a preset).
    pub fn variant(&self, name: &str) {
        self.ctl.load_preset(name);
        let asks = self.course.current().is_some_and(|c| c.predict.is_some());
        self.arm_guess(asks);
    }

    /// The outcomes in the order the open step shows them this visit (#41: a fixed
    /// order let the answer be found by its place); the keys 1–3 follow it.
    pub fn guess_order(&self) -> [Outcome; 3] {
        let step = self.on_stage().step.get();
        let n = PREDICT_ORDER + step + if self.away.get() { 100 } else { 0 };
        option_order(self.seed, n).map(|i| Outcome::ALL[i])
    }

    pub fn guess(&self, o: Outcome) {
        match self.predict.get_untracked() {
            Predict::Open
            | Predict::Paused
            | Predict::Guessed {
                revealing: false, ..
            } => self.predict.set(Predict::Guessed {
                guess: o,
                revealing: false,
            }),
            _ => {}
        }
    }

    /// The reveal key: lets the run go on past the kill, to its end.
    pub fn reveal(&self) {
        if let Predict::Guessed {
            guess,
            revealing: false,
        } = self.predict.get_untracked()
        {
            self.predict.set(Predict::Guessed {
                guess,
                revealing: true,
            });
            self.ctl.halt_before_kill.set(false);
            self.ctl.halted.set(false);
            self.ctl.playing.set(true);
        }
    }

    pub fn reset_progress(&self) {
        self.course.progress.set(Progress::default());
        self.ctl
            .notice
            .set(Some(Notice::info(Key::ProgressResetDone, "")));
    }
}

pub fn use_lesson() -> LessonCtl {
    expect_context::<LessonCtl>()
}
