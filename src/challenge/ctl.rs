//! The open workshop, shared through context (a challenge link opens as a workshop of
//! one): which of its challenges is open, whether its goal holds (the model judges:
//! `Goal::holds` on the run's world, and only on a run of the challenge's own scenario),
//! the learner's progress in it (localStorage, one key per workshop id, exported and
//! imported as JSON), the hint, and "show the solution". The open workshop is saved too,
//! so a reload keeps it after its link has left the address.

use std::sync::Arc;

use leptos::prelude::*;
use outbox_model::challenge::{outcome_name, Workshop, MAX_CHALLENGES};
use serde::{Deserialize, Serialize};

use crate::browser::storage;
use crate::challenge::link;
use crate::ctl::{Ctl, Notice};
use crate::i18n::{Key, Reason};
use crate::lesson::ctl::{LessonCtl, Predict, Prediction, Tab};

/// The open workshop's compact JSON.
pub const OPEN_KEY: &str = "outbox-playground/v1/workshop";

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

/// Where progress was kept before it was keyed by the challenges too: read when a
/// workshop has none under [`progress_key`], never set aside from there.
fn old_progress_key(id: &str) -> String {
    format!("{OPEN_KEY}/{id}/progress")
}

/// A learner's progress in one workshop, as saved and exported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WorkshopProgress {
    /// The workshop's id: another workshop's file is refused on import.
    pub workshop: String,
    /// The challenge open last.
    pub step: usize,
    /// Ids of the challenges whose goal was reached.
    pub done: Vec<String>,
    /// Guesses made before a reveal.
    pub predictions: Vec<Prediction>,
}

impl WorkshopProgress {
    /// Reads a saved or imported progress and holds it to `w`: its id, its challenges.
    pub fn from_json(text: &str, w: &Workshop) -> Result<WorkshopProgress, Reason> {
        let p: WorkshopProgress = serde_json::from_str(text).map_err(|e| Reason::json(&e))?;
        if p.workshop != w.id {
            return Err(Reason::new(Key::ReasonOtherWorkshop).arg("id", &w.id));
        }
        p.check(w)?;
        Ok(p)
    }

    /// Every field held to `w`, as the course's progress is (`Progress::check`): the step
    /// in range, `done` of its challenges without repeats, each guess and actual an
    /// outcome's name (which also bounds its length) for one of its challenges. The
    /// refusal names the workshop progress's field.
    fn check(&self, w: &Workshop) -> Result<(), Reason> {
        let field = |f: &str| Reason::new(Key::ReasonWorkshopProgressField).arg("field", f);
        if self.step >= w.challenges.len() {
            return Err(field("step"));
        }
        let known = |id: &String| w.challenges.iter().any(|c| &c.id == id);
        let repeated = |ids: Vec<&String>| {
            let mut seen = std::collections::BTreeSet::new();
            !ids.into_iter().all(|id| seen.insert(id))
        };
        if self.done.len() > MAX_CHALLENGES
            || !self.done.iter().all(known)
            || repeated(self.done.iter().collect())
        {
            return Err(field("done"));
        }
        let outcome = |name: &String| outbox_model::challenge::outcome_of_name(name).is_some();
        if self.predictions.len() > MAX_CHALLENGES
            || !self
                .predictions
                .iter()
                .all(|x| known(&x.step) && outcome(&x.guess) && outcome(&x.actual))
            || repeated(self.predictions.iter().map(|x| &x.step).collect())
        {
            return Err(field("predictions"));
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

#[derive(Clone, Copy)]
pub struct WorkshopCtl {
    pub ctl: Ctl,
    pub lesson: LessonCtl,
    pub open: RwSignal<Option<Arc<Workshop>>>,
    pub step: RwSignal<usize>,
    pub progress: RwSignal<WorkshopProgress>,
    pub hint: RwSignal<bool>,
    /// The open challenge's goal holds in the run's world.
    pub reached: Memo<bool>,
    /// The run of the open challenge ended without its goal.
    pub failed: Memo<bool>,
}

impl WorkshopCtl {
    pub fn new(ctl: Ctl, lesson: LessonCtl) -> WorkshopCtl {
        let open: RwSignal<Option<Arc<Workshop>>> = RwSignal::new(None);
        let step = RwSignal::new(0);
        // Judged on the challenge's own scenario only: a preset picked on the stage is
        // not this challenge's run, whatever its counters say.
        let judged = move |finished: bool| {
            ctl.summary_beat.track();
            let w = open.get()?;
            let c = w.challenges.get(step.get())?;
            if ctl.shared.get() {
                return None;
            }
            let same = ctl.with_scenario(|s| *s == c.scenario);
            (same && (!finished || ctl.finished())).then(|| ctl.with_world(|w| c.goal.holds(w)))
        };
        let reached = Memo::new(move |_| judged(false) == Some(true));
        let failed = Memo::new(move |_| judged(true) == Some(false));
        let w = WorkshopCtl {
            ctl,
            lesson,
            open,
            step,
            progress: RwSignal::new(WorkshopProgress::default()),
            hint: RwSignal::new(false),
            reached,
            failed,
        };
        w.remember();
        w
    }

    /// Marks reached goals, records guesses, and keeps the progress saved.
    fn remember(self) {
        Effect::new(move |_| {
            if self.reached.get() {
                if let Some(id) = self.current_id() {
                    if !self.progress.with_untracked(|p| p.is_done(&id)) {
                        self.progress.update(|p| p.done.push(id));
                    }
                }
            }
        });
        Effect::new(move |_| {
            if let Predict::Revealed { guess, actual } = self.lesson.predict.get() {
                if !self.lesson.away.get_untracked() {
                    return;
                }
                let Some(id) = self.current_id() else { return };
                self.progress.update(|p| {
                    p.predictions.retain(|x| x.step != id);
                    p.predictions.push(Prediction {
                        step: id,
                        guess: outcome_name(guess).into(),
                        actual: outcome_name(actual).into(),
                    });
                });
            }
        });
        Effect::new(move |_| {
            let p = self.progress.get();
            let key = self.open.with_untracked(|w| {
                w.as_ref()
                    .filter(|w| w.id == p.workshop)
                    .map(|w| progress_key(w))
            });
            let Some(key) = key else { return };
            if let Err(why) = storage::set(&key, &p.to_json()) {
                self.ctl.report_save_failed(why);
            }
        });
    }

    fn current_id(&self) -> Option<String> {
        let i = self.step.get_untracked();
        self.open
            .with_untracked(|w| Some(w.as_ref()?.challenges.get(i)?.id.clone()))
    }

    /// Opens `w` at the challenge its saved progress was on (a fresh start else), keeps it
    /// saved, and loads that challenge's scenario unless `keep_run` (a reload: the run
    /// saved with it is the learner's own).
    pub fn open_workshop(&self, w: Workshop, keep_run: bool) {
        let progress = saved_progress(&w, self.ctl);
        if let Err(why) = storage::set(OPEN_KEY, &w.to_compact_json()) {
            self.ctl.report_save_failed(why);
        }
        let at = progress.step;
        self.progress.set(progress);
        self.open.set(Some(Arc::new(w)));
        self.lesson.tab.set(Tab::Workshop);
        if keep_run {
            self.step.set(at);
            self.lesson.away.set(true);
        } else {
            self.go(at);
        }
    }

    /// Opens challenge `i`: its scenario, its guess if it asks for one, no hint yet.
    pub fn go(&self, i: usize) {
        let Some(c) = self
            .open
            .with_untracked(|w| w.as_ref().and_then(|w| w.challenges.get(i).cloned()))
        else {
            return;
        };
        self.step.set(i);
        self.progress.update(|p| p.step = i);
        self.hint.set(false);
        self.lesson.away.set(true);
        self.ctl.load(c.scenario);
        self.lesson.arm_guess(c.predict.is_some());
    }

    /// Loads the open challenge again, from its start.
    pub fn retry(&self) {
        self.go(self.step.get_untracked());
    }

    /// Plays the open challenge's solution: its scenario, its actions, then the run.
    pub fn show_solution(&self) {
        let i = self.step.get_untracked();
        let Some(c) = self
            .open
            .with_untracked(|w| w.as_ref().and_then(|w| w.challenges.get(i).cloned()))
        else {
            return;
        };
        let Some(actions) = c.solution else { return };
        self.lesson.arm_guess(false);
        self.ctl.load(c.scenario.clone());
        // A scenario the page refused to load (said in a notice) left another run on the
        // stage: the solution's actions are not played on it (#40).
        let other_run = self.ctl.with_scenario(|s| *s != c.scenario);
        if other_run || self.ctl.with_inputs(|inputs| !inputs.is_empty()) {
            return;
        }
        for a in actions {
            self.ctl.dispatch(a);
        }
        self.ctl.playing.set(true);
    }

    /// Closes the workshop (its progress stays saved) and goes back to the course's step.
    pub fn leave(&self) {
        self.open.set(None);
        storage::remove(OPEN_KEY);
        self.lesson.tab.set(Tab::Path);
        self.lesson.go(self.lesson.step.get_untracked());
    }

    /// Replaces the workshop's progress with an imported one (refused with a reason if it
    /// is another workshop's or does not fit this one).
    pub fn import_progress(&self, text: &str) -> Result<(), Reason> {
        let p = self.open.with_untracked(|w| match w {
            Some(w) => WorkshopProgress::from_json(text, w),
            None => Err(Reason::new(Key::ReasonNotAChallenge)),
        })?;
        let at = p.step;
        self.progress.set(p);
        self.go(at);
        Ok(())
    }

    /// The open workshop's link (the whole fragment, with `#`).
    pub fn fragment(&self) -> Option<String> {
        self.open.with(|w| {
            w.as_ref().map(|w| match w.challenges.as_slice() {
                [one] if w.id == one.id => link::challenge_fragment(one),
                _ => link::workshop_fragment(w),
            })
        })
    }
}

/// The saved progress of `w` (its start if there is none); an unreadable one is set
/// aside (`…/corrupt`, older copies kept) and reported, never half-read. Progress saved
/// under the id alone (before #40) is taken when it fits `w`, and left where it is when it
/// does not (it may be another workshop's of the same id).
fn saved_progress(w: &Workshop, ctl: Ctl) -> WorkshopProgress {
    let key = progress_key(w);
    let fresh = WorkshopProgress {
        workshop: w.id.clone(),
        ..WorkshopProgress::default()
    };
    let Some(text) = storage::get(&key) else {
        return storage::get(&old_progress_key(&w.id))
            .and_then(|old| WorkshopProgress::from_json(&old, w).ok())
            .unwrap_or(fresh);
    };
    match WorkshopProgress::from_json(&text, w) {
        Ok(p) => p,
        Err(why) => {
            storage::quarantine(&key, &text);
            ctl.notice
                .set(Some(Notice::error(Key::NoticeBadSaved, why)));
            fresh
        }
    }
}

pub fn use_workshop() -> WorkshopCtl {
    expect_context::<WorkshopCtl>()
}

/// A challenge's words in `lang`: its own texts in that language, else in the first of
/// the page's languages it has; a built-in step's (`lesson`) from the page's i18n.
pub struct Words {
    pub title: String,
    pub body: String,
    pub hint: Option<String>,
}

/// The entry of a by-language map in `lang`, else in the first language it has in the
/// page's order (Uzbek, English, Russian: the reader admits no other; a page in Uzbek
/// Cyrillic takes the Uzbek one, see [`in_script`]).
fn in_page_order<T>(
    by_lang: &std::collections::BTreeMap<String, T>,
    lang: crate::i18n::Lang,
) -> Option<&T> {
    by_lang.get(lang.code()).or_else(|| {
        crate::i18n::Lang::ALL
            .iter()
            .find_map(|l| by_lang.get(l.code()))
    })
}

/// How a text picked by [`in_page_order`] is shown in `lang`: an instructor writes Uzbek
/// in Latin, so a page in Uzbek Cyrillic writes it in Cyrillic (a file has no `uz-Cyrl`).
fn in_script<T>(
    lang: crate::i18n::Lang,
    by_lang: &std::collections::BTreeMap<String, T>,
) -> impl Fn(&str) -> String {
    let uzbek = lang == crate::i18n::Lang::UzCyrl
        && !by_lang.contains_key(lang.code())
        && by_lang.contains_key(crate::i18n::Lang::Uz.code());
    move |text: &str| {
        if uzbek {
            crate::i18n::cyrillic::to_cyrillic(text)
        } else {
            text.to_string()
        }
    }
}

pub fn words(c: &outbox_model::challenge::Challenge, lang: crate::i18n::Lang) -> Words {
    let own = in_page_order(&c.texts, lang);
    if let Some(t) = own {
        let script = in_script(lang, &c.texts);
        return Words {
            title: script(&t.title),
            body: script(&t.body),
            hint: t.hint.as_deref().map(script),
        };
    }
    let step = c
        .lesson
        .as_deref()
        .and_then(crate::i18n::lesson_words::step_words);
    let t = |k| crate::i18n::t(lang, k).to_string();
    match step {
        Some(s) => Words {
            title: t(s.title),
            body: t(s.body),
            hint: Some(t(s.hint)),
        },
        // The reader refuses a challenge with neither; this is never shown.
        None => Words {
            title: c.id.clone(),
            body: String::new(),
            hint: None,
        },
    }
}

/// The workshop's title in `lang`, else in the first language it has in the page's order
/// (Uzbek, English, Russian), else its first challenge's. A challenge opened on its own
/// (a workshop of one, of the same id) is titled as the challenge is, in `lang`: a lesson
/// step's title is kept in Uzbek only so that the saved workshop reads back.
pub fn title(w: &Workshop, lang: crate::i18n::Lang) -> String {
    if let [one] = w.challenges.as_slice() {
        if one.id == w.id && one.texts.is_empty() {
            return words(one, lang).title;
        }
    }
    in_page_order(&w.title, lang)
        .map(|text| in_script(lang, &w.title)(text))
        .or_else(|| w.challenges.first().map(|c| words(c, lang).title))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::challenge::lesson_challenges;

    fn workshop() -> Workshop {
        Workshop {
            v: 1,
            id: "friday".into(),
            title: [("en".to_string(), "Friday".to_string())].into(),
            challenges: lesson_challenges()[..3].to_vec(),
        }
    }

    /// A progress file is held to its workshop: its id, its challenges, its step.
    #[test]
    fn progress_is_read_back_and_held_to_its_workshop() {
        let w = workshop();
        let p = WorkshopProgress {
            workshop: "friday".into(),
            step: 2,
            done: vec![w.challenges[0].id.clone()],
            predictions: Vec::new(),
        };
        assert_eq!(WorkshopProgress::from_json(&p.to_json(), &w), Ok(p.clone()));
        let refused = |p: WorkshopProgress| {
            WorkshopProgress::from_json(&p.to_json(), &w)
                .unwrap_err()
                .key
        };
        let other = WorkshopProgress {
            workshop: "monday".into(),
            ..p.clone()
        };
        assert_eq!(refused(other), Key::ReasonOtherWorkshop);
        let past = WorkshopProgress {
            step: 3,
            ..p.clone()
        };
        assert_eq!(refused(past), Key::ReasonWorkshopProgressField);
        let unknown = WorkshopProgress {
            done: vec!["nope".into()],
            ..p.clone()
        };
        assert_eq!(refused(unknown), Key::ReasonWorkshopProgressField);
        // Checked like the course's progress (#40): no repeats, outcomes by name only.
        let repeated = WorkshopProgress {
            done: vec![w.challenges[0].id.clone(), w.challenges[0].id.clone()],
            ..p.clone()
        };
        assert_eq!(refused(repeated), Key::ReasonWorkshopProgressField);
        let guess = |guess: String| WorkshopProgress {
            predictions: vec![Prediction {
                step: w.challenges[1].id.clone(),
                guess,
                actual: "lost".into(),
            }],
            ..p.clone()
        };
        assert!(WorkshopProgress::from_json(&guess("fine".into()).to_json(), &w).is_ok());
        for bad in ["x".repeat(100_000), "<img src=x>".into(), String::new()] {
            assert_eq!(refused(guess(bad)), Key::ReasonWorkshopProgressField);
        }
        let why = WorkshopProgress::from_json(&guess("maybe".into()).to_json(), &w).unwrap_err();
        let said = why.text(crate::i18n::Lang::En);
        assert!(
            said.contains("workshop progress") && said.contains("predictions"),
            "{said}"
        );
        let bad = WorkshopProgress::from_json("{\"workshop\":\"friday\",\"x\":1}", &w);
        assert_eq!(bad.unwrap_err().key, Key::ReasonJsonShape);
    }

    /// A lesson step's words come from the page's i18n; an own text in the page's
    /// language first, else in another.
    #[test]
    fn words_come_in_the_page_language_else_in_another() {
        let c = &lesson_challenges()[0];
        let uz = words(c, crate::i18n::Lang::Uz).title;
        assert!(!uz.is_empty());
        let mut own = c.clone();
        own.texts.insert(
            "ru".into(),
            outbox_model::challenge::Texts {
                title: "Задание".into(),
                body: String::new(),
                hint: None,
            },
        );
        assert_eq!(words(&own, crate::i18n::Lang::En).title, "Задание");
        assert_eq!(title(&workshop(), crate::i18n::Lang::Uz), "Friday");
        // A title missing in the page's language comes in the page's order of languages
        // (Uzbek first), not in the file's alphabetical one (ru before uz).
        let mut w = workshop();
        w.title = [("ru", "Пятница"), ("uz", "Juma")]
            .map(|(l, t)| (l.to_string(), t.to_string()))
            .into();
        assert_eq!(title(&w, crate::i18n::Lang::En), "Juma");
        assert_eq!(title(&w, crate::i18n::Lang::Ru), "Пятница");
        // A page in Uzbek Cyrillic writes an instructor's Uzbek in Cyrillic.
        assert_eq!(title(&w, crate::i18n::Lang::UzCyrl), "Жума");
    }
}
