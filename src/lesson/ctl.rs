//! The lesson's controller, shared through context: which guided step is open, the
//! learner's progress (kept in localStorage), presenter mode, and the predict-then-reveal
//! state of a step that asks for a guess. Goals are judged by the model
//! ([`outbox_model::lesson::reached`]); this only remembers which were reached.

use leptos::prelude::*;
use outbox_model::lesson::{self, LessonStep, Outcome, STEPS};
use serde::{Deserialize, Serialize};

use crate::browser::storage;
use crate::ctl::{Ctl, Notice};
use crate::i18n::lesson_words::QUIZ;
use crate::i18n::{Key, Reason};

/// The saved progress, under a versioned key.
pub const PROGRESS_KEY: &str = "outbox-playground/v1/lesson";

/// What a learner has done, as saved and exported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Progress {
    /// The step open last.
    pub step: usize,
    /// Ids of the steps whose goal was reached.
    pub done: Vec<String>,
    /// Exercise 1's answers as typed.
    pub blanks: Vec<String>,
    /// The answer chosen for each quiz question (shown with its explanation).
    pub quiz: Vec<Option<usize>>,
    /// The first answer given to each question: the one the score counts (#24: trying
    /// every option until one turns green is not knowing it). Saved progress from before
    /// this field counts its `quiz` answers as first.
    #[serde(default)]
    pub quiz_first: Vec<Option<usize>>,
    /// The answer chosen for the "try it yourself" question.
    pub why: Option<usize>,
    /// Guesses made before a reveal: step id, guess, what happened.
    pub predictions: Vec<Prediction>,
}

impl Progress {
    /// The first answer to quiz question `n`: the one that scores.
    pub fn first_answer(&self, n: usize) -> Option<usize> {
        let first = self.quiz_first.get(n).copied().flatten();
        first.or_else(|| {
            // Saved before `quiz_first` existed: its one answer is the first.
            let saved_before = self.quiz_first.iter().all(Option::is_none);
            saved_before
                .then(|| self.quiz.get(n).copied().flatten())
                .flatten()
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    pub step: String,
    pub guess: String,
    pub actual: String,
}

impl Progress {
    pub fn from_json(text: &str) -> Result<Progress, Reason> {
        let p: Progress = serde_json::from_str(text).map_err(|e| Reason::json(&e))?;
        p.check()?;
        Ok(p)
    }

    /// Every index and size a saved progress carries, checked before the page uses it:
    /// an answer index out of range used to panic on every reload (issue #26).
    pub fn check(&self) -> Result<(), Reason> {
        let out_of_range = |field: &str| Reason::new(Key::ReasonProgressField).arg("field", field);
        const ANSWERS: usize = 3;
        const MAX_TEXT: usize = 1_000;
        if self.step >= STEPS.len() {
            return Err(out_of_range("step"));
        }
        if self.quiz.len() > QUIZ.len() {
            return Err(out_of_range("quiz"));
        }
        if let Some(n) = self
            .quiz
            .iter()
            .position(|a| a.is_some_and(|a| a >= ANSWERS))
        {
            return Err(out_of_range(&format!("quiz[{n}]")));
        }
        if self.why.is_some_and(|w| w >= ANSWERS) {
            return Err(out_of_range("why"));
        }
        if self.blanks.len() > lesson::BLANKS.len()
            || self.blanks.iter().any(|b| b.len() > MAX_TEXT)
        {
            return Err(out_of_range("blanks"));
        }
        if self.done.len() > STEPS.len() || self.predictions.len() > STEPS.len() {
            return Err(out_of_range("done/predictions"));
        }
        let long = |p: &Prediction| {
            [&p.step, &p.guess, &p.actual]
                .iter()
                .any(|t| t.len() > MAX_TEXT)
        };
        if self.done.iter().any(|d| d.len() > MAX_TEXT) || self.predictions.iter().any(long) {
            return Err(out_of_range("done/predictions"));
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn is_done(&self, id: &str) -> bool {
        self.done.iter().any(|d| d == id)
    }
}

/// The JSON name of an outcome (what the export holds): the challenge format's.
pub use outbox_model::challenge::outcome_name;

pub fn outcome_key(o: Outcome) -> Key {
    match o {
        Outcome::Lost => Key::OutcomeLost,
        Outcome::Duplicate => Key::OutcomeDuplicate,
        Outcome::Fine => Key::OutcomeFine,
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

/// The saved progress: None when there is none, Err with the reason when it is corrupt
/// (then kept under `…/lesson/corrupt`, not deleted and not half-read).
pub fn load_progress() -> Option<Result<Progress, Reason>> {
    let text = storage::get(PROGRESS_KEY)?;
    let p = Progress::from_json(&text);
    if p.is_err() {
        storage::quarantine(PROGRESS_KEY, &text);
    }
    Some(p)
}

fn save_progress(p: &Progress) -> Result<(), Reason> {
    storage::set(PROGRESS_KEY, &p.to_json())
}

/// Saves the progress on every change; a failed save is reported (once, by `ctl`).
fn keep_saved(ctl: Ctl, progress: RwSignal<Progress>) {
    Effect::new(move |_| {
        if let Err(why) = progress.with(save_progress) {
            ctl.report_save_failed(why);
        }
    });
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
}

#[derive(Clone, Copy)]
pub struct LessonCtl {
    pub ctl: Ctl,
    pub step: RwSignal<usize>,
    pub progress: RwSignal<Progress>,
    pub tab: RwSignal<Tab>,
    pub presenter: RwSignal<bool>,
    pub predict: RwSignal<Predict>,
    pub hint: RwSignal<bool>,
    /// A workshop's challenge is open: the run is not the course's step, so the course's
    /// goal is not judged and its guesses are not recorded in the course's progress.
    pub away: RwSignal<bool>,
    /// Whether the open step's goal holds in the world now.
    pub reached: Memo<bool>,
}

/// Moves a prediction step along: the run stopped before a kill asks for the guess; a
/// guessed run that ended reveals what happened and records the guess in the progress
/// (a workshop's guess is its own controller's).
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
                if lesson.away.get_untracked() {
                    // A workshop's guess: its own controller records it.
                    return;
                }
                let id = STEPS[lesson.step.get_untracked()].id.to_string();
                lesson.progress.update(|p| {
                    p.predictions.retain(|x| x.step != id);
                    p.predictions.push(Prediction {
                        step: id,
                        guess: outcome_name(guess).into(),
                        actual: outcome_name(actual).into(),
                    });
                });
            }
        }
    });
}

impl LessonCtl {
    /// Makes the controller with the saved progress (a corrupt one is reported and
    /// replaced), without loading a step: the playground keeps the run it opened with.
    pub fn new(ctl: Ctl) -> LessonCtl {
        let progress = match load_progress() {
            Some(Ok(p)) => p,
            Some(Err(why)) => {
                ctl.report_bad_saved(why);
                Progress::default()
            }
            None => Progress::default(),
        };
        let step = RwSignal::new(progress.step.min(STEPS.len() - 1));
        let progress = RwSignal::new(progress);
        let away = RwSignal::new(false);
        let reached = Memo::new(move |_| {
            ctl.summary_beat.track();
            // Someone else's run (a shared link) is not this learner's doing; a
            // workshop's run is not the course's.
            if ctl.shared.get() || away.get() {
                return false;
            }
            let st = &STEPS[step.get()];
            let why = progress.with(|p| p.why);
            ctl.with_world(|w| lesson::step_reached(st.goal, w, why))
        });
        let lesson = LessonCtl {
            ctl,
            step,
            progress,
            tab: RwSignal::new(Tab::Path),
            presenter: RwSignal::new(false),
            predict: RwSignal::new(Predict::Off),
            hint: RwSignal::new(false),
            away,
            reached,
        };
        // Remember a reached goal.
        Effect::new(move |_| {
            if reached.get() {
                let st = &STEPS[step.get_untracked()];
                if st.goal == lesson::Goal::RolledBackTogether {
                    // All zeros is the lesson here: say where the written rows went (#24).
                    ctl.notice
                        .set(Some(Notice::info(Key::NoticeRolledBack, "")));
                }
                let id = st.id;
                if !progress.with_untracked(|p| p.is_done(id)) {
                    progress.update(|p| p.done.push(id.to_string()));
                }
            }
        });
        // Keep the progress saved.
        keep_saved(ctl, progress);
        follow_predictions(lesson);
        lesson
    }

    pub fn current(&self) -> &'static LessonStep {
        &STEPS[self.step.get_untracked()]
    }

    /// Opens step `i` and loads its scenario.
    pub fn go(&self, i: usize) {
        let i = i.min(STEPS.len() - 1);
        self.away.set(false);
        self.step.set(i);
        self.progress.update(|p| p.step = i);
        self.hint.set(false);
        // A step's own notice (the ROLLBACK's) belongs to that step.
        if self
            .ctl
            .notice
            .with_untracked(|n| n.as_ref().is_some_and(|n| n.key == Key::NoticeRolledBack))
        {
            self.ctl.notice.set(None);
        }
        self.ctl.load(lesson::scenario(STEPS[i].goal));
        self.arm_predict();
    }

    fn arm_predict(&self) {
        self.arm_guess(self.current().predict.is_some());
    }

    /// Asks for a guess before the run's first kill (`on`), or asks for none.
    pub fn arm_guess(&self, on: bool) {
        self.predict
            .set(if on { Predict::Open } else { Predict::Off });
        self.ctl.halt_before_kill.set(on);
        self.ctl.halted.set(false);
    }

    pub fn next(&self) {
        let i = self.step.get_untracked();
        if i + 1 < STEPS.len() {
            self.go(i + 1);
        }
    }

    pub fn prev(&self) {
        let i = self.step.get_untracked();
        if i > 0 {
            self.go(i - 1);
        }
    }

    /// Plays the step's solution: its scenario, its actions, then the run to the end.
    pub fn show_me(&self) {
        let (s, actions) = lesson::solution(self.current().goal);
        self.predict.set(Predict::Off);
        self.ctl.halt_before_kill.set(false);
        self.ctl.halted.set(false);
        self.ctl.load(s);
        for a in actions {
            self.ctl.dispatch(a);
        }
        self.ctl.playing.set(true);
    }

    /// Loads one of the step's variant scenarios (a preset).
    pub fn variant(&self, name: &str) {
        self.ctl.load_preset(name);
        self.arm_predict();
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
        self.progress.set(Progress::default());
        self.ctl
            .notice
            .set(Some(Notice::info(Key::ProgressResetDone, "")));
    }
}

pub fn use_lesson() -> LessonCtl {
    expect_context::<LessonCtl>()
}

#[cfg(test)]
mod tests {
    use super::Progress;

    /// #24: the quiz scores the first answer; progress saved before first answers were
    /// kept counts its answers as first.
    #[test]
    fn the_first_answer_is_the_one_that_scores() {
        let p = Progress {
            quiz: vec![Some(1)],
            quiz_first: vec![Some(0)],
            ..Progress::default()
        };
        assert_eq!(p.first_answer(0), Some(0));
        let saved_before: Progress = serde_json::from_str(r#"{"quiz":[2,null]}"#).unwrap();
        assert_eq!(saved_before.first_answer(0), Some(2));
        assert_eq!(saved_before.first_answer(1), None);
    }
}
