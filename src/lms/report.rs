//! What the page tells a learning platform about a learner's progress, in the platform's
//! terms, and the course's progress kept in SCORM's `suspend_data`. Pure, so the status,
//! the score and the suspend data's size are tested natively.
//!
//! - the status: `passed` / `failed` once every quiz question has a first answer (its
//!   score against the mastery score; the first answer counts, as in the page, #24),
//!   else `completed` once every guided step's goal was reached, else `incomplete`;
//! - the score: the quiz's first answers right, in % (min 0, max 100), once all are in;
//! - the location: the open step's id;
//! - the suspend data: the progress as its compact JSON (the export's fields), fitted
//!   into SCORM 1.2's 4 096 characters.

use outbox_model::lesson::{blank_verdicts, Verdict, STEPS};

use crate::i18n::lesson_words::QUIZ;
use crate::i18n::Reason;
use crate::lesson::ctl::Progress;

/// SCORM 1.2's `cmi.suspend_data` is a CMIString4096: at most 4 096 characters.
pub const SUSPEND_MAX_CHARS: usize = 4096;

/// The mastery score when the platform gives none (`cmi.student_data.mastery_score`,
/// from the manifest's `adlcp:masteryscore`): 3 of the 4 questions.
pub const DEFAULT_MASTERY: u32 = 75;

/// A learner's standing, SCORM 1.2's `cmi.core.lesson_status` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Incomplete,
    Completed,
    Passed,
    Failed,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Incomplete => "incomplete",
            Status::Completed => "completed",
            Status::Passed => "passed",
            Status::Failed => "failed",
        }
    }
}

/// Everything a platform is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub status: Status,
    /// The quiz's score in %, once every question has a first answer.
    pub score: Option<u32>,
    /// Every guided step's goal reached.
    pub all_steps: bool,
    /// The open step's id.
    pub location: &'static str,
    pub suspend: String,
}

/// The quiz's first answers: how many are given, how many are right.
pub fn quiz_counts(p: &Progress) -> (usize, usize) {
    let answered = (0..QUIZ.len())
        .filter(|n| p.first_answer(*n).is_some())
        .count();
    let right = QUIZ
        .iter()
        .enumerate()
        .filter(|(n, q)| p.first_answer(*n) == Some(q.right))
        .count();
    (answered, right)
}

/// Exercise 1's blanks answered right.
pub fn blanks_right(p: &Progress) -> usize {
    blank_verdicts(&p.blanks)
        .iter()
        .filter(|v| **v == Verdict::Right)
        .count()
}

/// The steps whose goal was reached (ids the course has; a stale id is not counted).
pub fn steps_done(p: &Progress) -> usize {
    STEPS.iter().filter(|s| p.is_done(s.id)).count()
}

/// The report for progress `p` against `mastery` (in %).
pub fn report(p: &Progress, mastery: u32) -> Report {
    let (answered, right) = quiz_counts(p);
    let score = (answered == QUIZ.len()).then(|| (right * 100 / QUIZ.len()) as u32);
    let all_steps = steps_done(p) == STEPS.len();
    let status = match score {
        Some(s) if s >= mastery => Status::Passed,
        Some(_) => Status::Failed,
        None if all_steps => Status::Completed,
        None => Status::Incomplete,
    };
    Report {
        status,
        score,
        all_steps,
        location: STEPS[p.step.min(STEPS.len() - 1)].id,
        suspend: suspend_data(p),
    }
}

/// The longest a typed blank is kept when the whole would not fit (an accepted answer is
/// a word or two).
const BLANK_KEPT_CHARS: usize = 64;

/// The progress as compact JSON of at most [`SUSPEND_MAX_CHARS`] characters. The whole
/// course done (every step, every guess, the blanks and the quiz answered) needs 1 607
/// (measured by the test below, 2026-12-07); only typed text can grow it (a blank, or an
/// imported file's long fields), so when it is too long the blanks are cut, then the
/// guesses dropped, then the blanks: the steps and the quiz always fit.
pub fn suspend_data(p: &Progress) -> String {
    let fits = |s: &String| s.chars().count() <= SUSPEND_MAX_CHARS;
    let compact = |p: &Progress| serde_json::to_string(p).unwrap_or_default();
    let mut p = p.clone();
    let mut text = compact(&p);
    if fits(&text) {
        return text;
    }
    for b in &mut p.blanks {
        *b = b.chars().take(BLANK_KEPT_CHARS).collect();
    }
    text = compact(&p);
    if fits(&text) {
        return text;
    }
    p.predictions.clear();
    text = compact(&p);
    if fits(&text) {
        return text;
    }
    p.blanks.clear();
    compact(&p)
}

/// The progress kept in `suspend_data`, read back with the checks of saved progress.
pub fn restore(text: &str) -> Result<Progress, Reason> {
    if text.chars().count() > SUSPEND_MAX_CHARS * 16 {
        return Err(Reason::new(crate::i18n::Key::ReasonProgressField).arg("field", "suspend_data"));
    }
    Progress::from_json(text, &crate::lesson::course::lesson_workshop(), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson::ctl::Prediction;

    /// Every step done, every guess made, every answer given: what a learner who did all
    /// of the course leaves, with the lesson's own answers typed in the blanks.
    fn everything() -> Progress {
        Progress {
            step: STEPS.len() - 1,
            step_id: STEPS[STEPS.len() - 1].id.to_string(),
            done: STEPS.iter().map(|s| s.id.to_string()).collect(),
            blanks: outbox_model::lesson::BLANKS
                .iter()
                .map(|b| b.uz.iter().max_by_key(|a| a.len()).unwrap().to_string())
                .collect(),
            quiz: QUIZ.iter().map(|q| Some(q.right)).collect(),
            quiz_first: QUIZ.iter().map(|q| Some(q.right)).collect(),
            why: Some(1),
            why_first: Some(1),
            workshop: String::new(),
            predictions: STEPS
                .iter()
                .map(|s| Prediction {
                    step: s.id.into(),
                    guess: "duplicate".into(),
                    actual: "duplicate".into(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_whole_course_fits_scorm_12s_suspend_data() {
        let all = everything();
        let text = suspend_data(&all);
        let n = text.chars().count();
        println!("suspend_data for the whole course: {n} characters");
        assert!(n <= SUSPEND_MAX_CHARS, "{n}");
        assert_eq!(restore(&text), Ok(all), "nothing is lost when it fits");
        // The worst an import can hold: every text field at its 1 000-character limit.
        let mut worst = everything();
        worst.blanks = vec!["ʻ".repeat(1000); outbox_model::lesson::BLANKS.len()];
        for p in &mut worst.predictions {
            p.guess = "x".repeat(1000);
        }
        let text = suspend_data(&worst);
        assert!(text.chars().count() <= SUSPEND_MAX_CHARS, "{}", text.len());
        let back = restore(&text).unwrap();
        assert_eq!(back.done, worst.done, "the steps are always kept");
        assert_eq!(back.quiz_first, worst.quiz_first, "and the quiz");
    }

    #[test]
    fn the_status_follows_the_steps_and_the_quizs_first_answers() {
        let mut p = Progress::default();
        assert_eq!(report(&p, 75).status, Status::Incomplete);
        assert_eq!(report(&p, 75).score, None);
        p.done = STEPS.iter().map(|s| s.id.to_string()).collect();
        assert_eq!(report(&p, 75).status, Status::Completed);
        // Three of four first answers right: 75 %, passed at 75, failed at 80.
        p.quiz_first = QUIZ.iter().map(|q| Some(q.right)).collect();
        p.quiz_first[0] = Some((QUIZ[0].right + 1) % 3);
        p.quiz = QUIZ.iter().map(|q| Some(q.right)).collect();
        let r = report(&p, 75);
        assert_eq!((r.status, r.score), (Status::Passed, Some(75)));
        assert_eq!(report(&p, 80).status, Status::Failed);
        p.step = 3;
        assert_eq!(report(&p, 75).location, STEPS[3].id);
    }
}
