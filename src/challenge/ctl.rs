//! Opening and leaving a workshop (a challenge link opens as a workshop of one). The open
//! workshop is the lesson controller's second course (`lesson/course.rs`, #41: one
//! controller for the lesson and workshops: its step, its goal judged by the model on
//! the challenge's own scenario, its progress); what is a workshop's own is here: its
//! progress found under its id (localStorage, one key per workshop, imported as JSON),
//! its link, and the open workshop saved so a reload keeps it after its link has left
//! the address. Also a challenge's words and a workshop's title in the page's language.

use std::sync::Arc;

use leptos::prelude::*;
use outbox_model::challenge::Workshop;

use crate::browser::storage;
use crate::challenge::link;
use crate::ctl::{Ctl, Notice};
use crate::i18n::{Key, Reason};
pub use crate::lesson::course::{progress_key, OPEN_KEY};
use crate::lesson::ctl::{use_lesson, Course, LessonCtl, Progress, Tab};

/// Where progress was kept before it was keyed by the challenges too: read when a
/// workshop has none under [`progress_key`], never set aside from there.
fn old_progress_key(id: &str) -> String {
    format!("{OPEN_KEY}/{id}/progress")
}

/// Opens `w` at the challenge its saved progress was on (a fresh start else), keeps it
/// saved, and loads that challenge's scenario unless `keep_run` (a reload: the run saved
/// with it is the learner's own).
pub fn open_workshop(lesson: LessonCtl, w: Workshop, keep_run: bool) {
    let course = lesson.workshop;
    let progress = saved_progress(&w, lesson.ctl);
    if let Err(why) = storage::set(OPEN_KEY, &w.to_compact_json()) {
        lesson.ctl.report_save_failed(why);
    }
    let at = progress.step;
    course.progress.set(progress);
    course.open.set(Some(Arc::new(w)));
    lesson.tab.set(Tab::Workshop);
    if keep_run {
        course.step.set(at);
        lesson.away.set(true);
    } else {
        course.go(at);
    }
}

/// Closes the workshop (its progress stays saved) and goes back to the lesson's step.
pub fn leave(lesson: LessonCtl) {
    lesson.workshop.open.set(None);
    storage::remove(OPEN_KEY);
    lesson.tab.set(Tab::Path);
    lesson.go(lesson.course.step.get_untracked());
}

/// Replaces the workshop's progress with an imported one (refused with a reason if it
/// is another workshop's or does not fit this one).
pub fn import_progress(course: Course, text: &str) -> Result<(), Reason> {
    let p = course.open.with_untracked(|w| match w {
        Some(w) => Progress::from_json(text, w, false),
        None => Err(Reason::new(Key::ReasonNotAChallenge)),
    })?;
    let at = p.step;
    course.progress.set(p);
    course.go(at);
    Ok(())
}

/// The open workshop's link (the whole fragment, with `#`).
pub fn fragment(course: &Course) -> Option<String> {
    course.open.with(|w| {
        w.as_ref().map(|w| match w.challenges.as_slice() {
            [one] if w.id == one.id => link::challenge_fragment(one),
            _ => link::workshop_fragment(w),
        })
    })
}

/// The saved progress of `w` (its start if there is none); an unreadable one is set
/// aside (`…/corrupt`, older copies kept) and reported, never half-read. Progress saved
/// under the id alone (before #40) is taken when it fits `w`, and left where it is when it
/// does not (it may be another workshop's of the same id).
fn saved_progress(w: &Workshop, ctl: Ctl) -> Progress {
    let key = progress_key(w);
    let fresh = Progress {
        workshop: w.id.clone(),
        ..Progress::default()
    };
    let Some(text) = storage::get(&key) else {
        return storage::get(&old_progress_key(&w.id))
            .and_then(|old| Progress::from_json(&old, w, false).ok())
            .unwrap_or(fresh);
    };
    match Progress::from_json(&text, w, false) {
        Ok(p) => p,
        Err(why) => {
            storage::quarantine(&key, &text);
            ctl.notice
                .set(Some(Notice::error(Key::NoticeBadSaved, why)));
            fresh
        }
    }
}

/// The open workshop's course (the lesson controller's second [`Course`]).
pub fn use_workshop() -> Course {
    use_lesson().workshop
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
    use crate::lesson::ctl::Prediction;
    use outbox_model::lesson::lesson_challenges;

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
        let p = Progress {
            workshop: "friday".into(),
            step: 2,
            done: vec![w.challenges[0].id.clone()],
            ..Progress::default()
        };
        assert_eq!(Progress::from_json(&p.to_json(), &w, false), Ok(p.clone()));
        let refused = |p: Progress| {
            Progress::from_json(&p.to_json(), &w, false)
                .unwrap_err()
                .key
        };
        let other = Progress {
            workshop: "monday".into(),
            ..p.clone()
        };
        assert_eq!(refused(other), Key::ReasonOtherWorkshop);
        let past = Progress {
            step: 3,
            ..p.clone()
        };
        assert_eq!(refused(past), Key::ReasonWorkshopProgressField);
        let unknown = Progress {
            done: vec!["nope".into()],
            ..p.clone()
        };
        assert_eq!(refused(unknown), Key::ReasonWorkshopProgressField);
        // Checked like the course's progress (#40): no repeats, outcomes by name only.
        let repeated = Progress {
            done: vec![w.challenges[0].id.clone(), w.challenges[0].id.clone()],
            ..p.clone()
        };
        assert_eq!(refused(repeated), Key::ReasonWorkshopProgressField);
        let guess = |guess: String| Progress {
            predictions: vec![Prediction {
                step: w.challenges[1].id.clone(),
                guess,
                actual: "lost".into(),
            }],
            ..p.clone()
        };
        assert!(Progress::from_json(&guess("fine".into()).to_json(), &w, false).is_ok());
        for bad in ["x".repeat(100_000), "<img src=x>".into(), String::new()] {
            assert_eq!(refused(guess(bad)), Key::ReasonWorkshopProgressField);
        }
        let why = Progress::from_json(&guess("maybe".into()).to_json(), &w, false).unwrap_err();
        let said = why.text(crate::i18n::Lang::En);
        assert!(
            said.contains("workshop progress") && said.contains("predictions"),
            "{said}"
        );
        let bad = Progress::from_json("{\"workshop\":\"friday\",\"x\":1}", &w, false);
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
