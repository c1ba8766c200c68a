//! A learner's progress in one course (#41: one shape for the built-in lesson and an
//! instructor's workshop), as saved in localStorage and exported as a file: the step open
//! last, the steps whose goal was reached, the guesses made before a reveal, and, for the
//! lesson, its exercises and questions. Each answer's FIRST pick is kept apart: it is the
//! one that scores ("answers count once"), later picks only show the explanation.
//!
//! The saved shapes of the release before (the lesson's `…/v1/lesson`, a workshop's
//! `…/v1/workshop/<id>/…/progress`) are this shape with fields left out, so both load as
//! they are (`tests/saved_state.rs`, the tests below).

use outbox_model::challenge::{outcome_of_name, Workshop, MAX_CHALLENGES};
use outbox_model::lesson::BLANKS;
use serde::{Deserialize, Serialize};

use crate::i18n::lesson_words::{QUIZ, WHY_INSIDE};
use crate::i18n::{Key, Reason};

/// The lesson's saved progress, under a versioned key.
pub const PROGRESS_KEY: &str = "outbox-playground/v1/lesson";

/// What a learner has done in one course, as saved and exported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Progress {
    /// A workshop's id (another workshop's file is refused on import); empty for the
    /// built-in lesson.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub workshop: String,
    /// The step open last.
    pub step: usize,
    /// Its id (#43: the lesson's steps were reordered, so a place alone can name another
    /// step); saves from before have none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub step_id: String,
    /// Ids of the steps whose goal was reached.
    pub done: Vec<String>,
    /// Exercise 1's answers as typed (the lesson's only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blanks: Vec<String>,
    /// The answer chosen for each quiz question (shown with its explanation).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quiz: Vec<Option<usize>>,
    /// The first answer given to each question: the one the score counts (#24: trying
    /// every option until one turns green is not knowing it). Saved progress from before
    /// this field counts its `quiz` answers as first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quiz_first: Vec<Option<usize>>,
    /// The answer chosen for the "try it yourself" question.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<usize>,
    /// Its first answer, the one that scores (#41); progress saved before counts `why`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why_first: Option<usize>,
    /// The first guess made before a reveal on each step, and what happened then.
    pub predictions: Vec<Prediction>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prediction {
    pub step: String,
    pub guess: String,
    pub actual: String,
}

/// The lesson's step ids in the order they had before #43 moved them: a lesson save
/// without a `step_id` names its open step by its place in this order.
const STEPS_BEFORE_43: [&str; 19] = [
    "lose-dual",
    "queue-first",
    "canon-dual",
    "canon-outbox",
    "outbox-try",
    "pool",
    "rollback",
    "app-role",
    "relay-twice",
    "two-relays",
    "no-skip-locked",
    "why-inside",
    "cdc",
    "cleanup",
    "at-most-once",
    "at-least-once",
    "effectively-once",
    "inbox-three",
    "inbox-own-tx",
];

/// The longest text a saved field may hold.
const MAX_TEXT: usize = 1_000;
/// Options of a question.
const ANSWERS: usize = 3;

impl Progress {
    /// Reads a saved or imported progress and holds it to `course` (the lesson when
    /// `builtin`): its id, its steps, its questions.
    pub fn from_json(text: &str, course: &Workshop, builtin: bool) -> Result<Progress, Reason> {
        let mut p: Progress = serde_json::from_str(text).map_err(|e| Reason::json(&e))?;
        if !builtin && p.workshop != course.id {
            return Err(Reason::new(Key::ReasonOtherWorkshop).arg("id", &course.id));
        }
        p.check(course, builtin)?;
        p.step = p.open_step(course, builtin);
        Ok(p)
    }

    /// The place of the step open last: by its id when the save has one (a step that is
    /// gone keeps the saved place); a lesson save from before #43 by the id its place had.
    fn open_step(&self, course: &Workshop, builtin: bool) -> usize {
        let by_id = |id: &str| course.challenges.iter().position(|c| c.id == id);
        let id = match (self.step_id.as_str(), builtin) {
            ("", true) => STEPS_BEFORE_43.get(self.step).copied(),
            ("", false) => None,
            (id, _) => Some(id),
        };
        id.and_then(by_id).unwrap_or(self.step)
    }

    /// Every index and size checked before the page uses it (an answer index out of range
    /// used to panic on every reload, #26). The refusal names the field.
    pub fn check(&self, course: &Workshop, builtin: bool) -> Result<(), Reason> {
        let key = if builtin {
            Key::ReasonProgressField
        } else {
            Key::ReasonWorkshopProgressField
        };
        let field = |f: &str| Reason::new(key).arg("field", f);
        if self.step >= course.challenges.len() {
            return Err(field("step"));
        }
        if builtin {
            self.check_lesson().map_err(|f| field(&f))?;
        } else if !self.blanks.is_empty() || !self.quiz.is_empty() || !self.quiz_first.is_empty() {
            return Err(field("quiz"));
        } else if self.why.is_some() || self.why_first.is_some() {
            return Err(field("why"));
        }
        self.check_steps(course, builtin).map_err(field)
    }

    /// The lesson's own fields: its quiz, its question, its exercise; the field's name.
    fn check_lesson(&self) -> Result<(), String> {
        if !self.workshop.is_empty() {
            return Err("workshop".into());
        }
        for (name, answers) in [("quiz", &self.quiz), ("quiz_first", &self.quiz_first)] {
            if answers.len() > QUIZ.len() {
                return Err(name.into());
            }
            if let Some(n) = answers.iter().position(|a| a.is_some_and(|a| a >= ANSWERS)) {
                return Err(format!("{name}[{n}]"));
            }
        }
        if self.why.is_some_and(|w| w >= ANSWERS) {
            return Err("why".into());
        }
        if self.why_first.is_some_and(|w| w >= ANSWERS) {
            return Err("why_first".into());
        }
        if self.blanks.len() > BLANKS.len() || self.blanks.iter().any(|b| b.len() > MAX_TEXT) {
            return Err("blanks".into());
        }
        Ok(())
    }

    /// `done` and `predictions`: bounded; a workshop's also of its challenges, without
    /// repeats, each guess an outcome's name (the lesson's saved progress was never held
    /// to that, and an old one must still load).
    fn check_steps(&self, course: &Workshop, builtin: bool) -> Result<(), &'static str> {
        let known = |id: &String| course.challenges.iter().any(|c| &c.id == id);
        let repeated = |ids: Vec<&String>| {
            let mut seen = std::collections::BTreeSet::new();
            !ids.into_iter().all(|id| seen.insert(id))
        };
        let max = course.challenges.len().max(MAX_CHALLENGES);
        let long = |p: &Prediction| {
            [&p.step, &p.guess, &p.actual]
                .iter()
                .any(|t| t.len() > MAX_TEXT)
        };
        if self.done.len() > max || self.done.iter().any(|d| d.len() > MAX_TEXT) {
            return Err("done");
        }
        if self.predictions.len() > max || self.predictions.iter().any(long) {
            return Err("predictions");
        }
        if builtin {
            return Ok(());
        }
        if !self.done.iter().all(known) || repeated(self.done.iter().collect()) {
            return Err("done");
        }
        let outcome = |name: &String| outcome_of_name(name).is_some();
        if !self
            .predictions
            .iter()
            .all(|x| known(&x.step) && outcome(&x.guess) && outcome(&x.actual))
            || repeated(self.predictions.iter().map(|x| &x.step).collect())
        {
            return Err("predictions");
        }
        Ok(())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn is_done(&self, id: &str) -> bool {
        self.done.iter().any(|d| d == id)
    }

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

    /// Quiz question `n` answered `i`: shown, and scored if it is the first answer.
    pub fn answer_quiz(&mut self, n: usize, i: usize) {
        if self.quiz.len() <= n {
            self.quiz.resize(n + 1, None);
        }
        if self.quiz_first.iter().all(Option::is_none) {
            // Saved before first answers were kept: its answers were first.
            self.quiz_first = self.quiz.clone();
        }
        if self.first_answer(n).is_none() {
            self.quiz_first
                .resize(self.quiz_first.len().max(n + 1), None);
            self.quiz_first[n] = Some(i);
        }
        self.quiz[n] = Some(i);
    }

    /// Whether a quiz answer shown now is not the first one given (the score says so).
    pub fn quiz_changed(&self) -> bool {
        (0..QUIZ.len()).any(|n| self.quiz.get(n).copied().flatten() != self.first_answer(n))
    }

    /// The why-question's first answer (saved before #41: its one answer).
    pub fn why_first_answer(&self) -> Option<usize> {
        self.why_first.or(self.why)
    }

    /// The why-question answered `i`: shown, and scored if it is the first answer.
    pub fn answer_why(&mut self, i: usize) {
        self.why_first = self.why_first_answer().or(Some(i));
        self.why = Some(i);
    }

    /// A reveal on `step`: the guess is kept if it is the step's first; a later one
    /// changes nothing (it is shown, not scored).
    pub fn record_guess(&mut self, step: &str, guess: &str, actual: &str) {
        if self.first_guess(step).is_none() {
            self.predictions.push(Prediction {
                step: step.into(),
                guess: guess.into(),
                actual: actual.into(),
            });
        }
    }

    pub fn first_guess(&self, step: &str) -> Option<&Prediction> {
        self.predictions.iter().find(|p| p.step == step)
    }

    /// "Predicted right N of M": first guesses that matched what happened, and the
    /// why-question's first answer, out of those given.
    pub fn predicted_right(&self) -> (usize, usize) {
        let guesses = self.predictions.iter().map(|p| p.guess == p.actual);
        let why = self.why_first_answer().map(|a| a == WHY_INSIDE.right);
        let all: Vec<bool> = guesses.chain(why).collect();
        (all.iter().filter(|r| **r).count(), all.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::lesson::lesson_challenges;

    fn lesson() -> Workshop {
        Workshop {
            v: 1,
            id: String::new(),
            title: Default::default(),
            challenges: lesson_challenges(),
        }
    }

    /// #24: the quiz scores the first answer; progress saved before first answers were
    /// kept counts its answers as first.
    #[test]
    fn the_first_answer_is_the_one_that_scores() {
        let mut p = Progress {
            quiz: vec![Some(1)],
            quiz_first: vec![Some(0)],
            ..Progress::default()
        };
        assert_eq!(p.first_answer(0), Some(0));
        p.answer_quiz(0, 2);
        assert_eq!((p.first_answer(0), p.quiz[0]), (Some(0), Some(2)));
        assert!(p.quiz_changed());
        let saved_before: Progress = serde_json::from_str(r#"{"quiz":[2,null]}"#).unwrap();
        assert_eq!(saved_before.first_answer(0), Some(2));
        assert_eq!(saved_before.first_answer(1), None);
    }

    /// #41: the why-question and every guess count once; later picks are shown only.
    #[test]
    fn a_why_answer_and_a_guess_count_once() {
        let mut p = Progress::default();
        let wrong = (WHY_INSIDE.right + 1) % 3;
        p.answer_why(wrong);
        p.answer_why(WHY_INSIDE.right);
        assert_eq!((p.why, p.why_first), (Some(WHY_INSIDE.right), Some(wrong)));
        p.record_guess("at-most-once", "fine", "lost");
        p.record_guess("at-most-once", "lost", "lost");
        p.record_guess("inbox-three", "fine", "fine");
        assert_eq!(p.first_guess("at-most-once").unwrap().guess, "fine");
        assert_eq!(p.predicted_right(), (1, 3));
        // Saved before #41: the one why-answer is the first.
        let old: Progress = serde_json::from_str(r#"{"why":1}"#).unwrap();
        assert_eq!(old.why_first_answer(), Some(1));
    }

    /// The release before's saved shapes load as they are: the lesson's, and a
    /// workshop's (held to its workshop).
    #[test]
    fn saved_progress_of_the_release_before_loads() {
        let lesson_saved = r#"{"step":3,"done":["lose-dual"],"blanks":["x"],"quiz":[1,null],
            "quiz_first":[0,null],"why":1,"predictions":[{"step":"at-most-once","guess":"lost","actual":"lost"}]}"#;
        let p = Progress::from_json(lesson_saved, &lesson(), true).unwrap();
        assert_eq!((p.step, p.why_first_answer()), (3, Some(1)));
        let back = Progress::from_json(&p.to_json(), &lesson(), true).unwrap();
        assert_eq!(back, p);
        let w = Workshop {
            id: "juma".into(),
            challenges: lesson_challenges()[..3].to_vec(),
            ..lesson()
        };
        // #43: a save from before the reorder names its step by its old place: 5 was
        // "pool", now after rollback, app-role and outbox-try; a new save names its id.
        let p = Progress::from_json(r#"{"step":5}"#, &lesson(), true).unwrap();
        assert_eq!(lesson().challenges[p.step].id, "pool");
        let moved = Progress {
            step: 4,
            step_id: "rollback".into(),
            ..Progress::default()
        };
        let back = Progress::from_json(&moved.to_json(), &lesson(), true).unwrap();
        assert_eq!(lesson().challenges[back.step].id, "rollback");
        let workshop_saved =
            r#"{"workshop":"juma","step":2,"done":["lose-dual"],"predictions":[]}"#;
        let p = Progress::from_json(workshop_saved, &w, false).unwrap();
        assert_eq!(p.step, 2);
        assert!(!p.to_json().contains("quiz"), "{}", p.to_json());
        let the_lesson = lesson();
        let out = |text: &str, builtin| {
            let course = if builtin { &the_lesson } else { &w };
            Progress::from_json(text, course, builtin).unwrap_err().key
        };
        assert_eq!(out(r#"{"why":3}"#, true), Key::ReasonProgressField);
        assert_eq!(out(r#"{"why_first":7}"#, true), Key::ReasonProgressField);
        assert_eq!(
            out(r#"{"workshop":"juma","why":1}"#, false),
            Key::ReasonWorkshopProgressField
        );
        assert_eq!(
            out(r#"{"workshop":"other"}"#, false),
            Key::ReasonOtherWorkshop
        );
    }
}
