//! What the builder's form holds, and the id a challenge gets from its title: shared by
//! the builder (`mod.rs`) and its parts (`draft.rs`, `result.rs`).

use leptos::prelude::*;
use outbox_model::challenge::{Challenge, CheckReport};
use outbox_model::Action;

use crate::ctl::Ctl;
use crate::i18n::Reason;

/// What the form holds.
#[derive(Clone, Copy)]
pub struct Form {
    pub title: RwSignal<String>,
    pub body: RwSignal<String>,
    pub hint: RwSignal<String>,
    /// The texts in the other languages (#42: a challenge in uz, ru and en): title, body
    /// and hint for each of [`TEXT_LANGS`]; the page's own language uses the fields above.
    pub others: [[RwSignal<String>; 3]; 3],
    pub goal: RwSignal<String>,
    /// `lost`, `duplicate`, `fine`, or empty for no guess.
    pub predict: RwSignal<String>,
    pub solution: RwSignal<Option<Vec<Action>>>,
    /// The last check: the challenge and what the model found, or why not.
    pub checked: RwSignal<Option<Result<(Challenge, CheckReport), Reason>>>,
    /// Challenges added to the workshop being made.
    pub workshop: RwSignal<Vec<Challenge>>,
}

impl Form {
    /// An empty form whose check is dropped when anything it spoke for changes: the
    /// form's fields, or the run's scenario.
    pub fn new(ctl: Ctl) -> Form {
        let form = Form {
            title: RwSignal::new(String::new()),
            body: RwSignal::new(String::new()),
            hint: RwSignal::new(String::new()),
            others: std::array::from_fn(|_| std::array::from_fn(|_| RwSignal::new(String::new()))),
            goal: RwSignal::new(String::new()),
            predict: RwSignal::new(String::new()),
            solution: RwSignal::new(None),
            checked: RwSignal::new(None),
            workshop: RwSignal::new(Vec::new()),
        };
        Effect::new(move |_| {
            form.title.track();
            form.body.track();
            form.hint.track();
            form.others.iter().flatten().for_each(|f| f.track());
            form.goal.track();
            form.predict.track();
            form.solution.track();
            ctl.scenario_version.track();
            form.checked.set(None);
        });
        form
    }
}

/// The languages a challenge's texts may be in (the challenge format's).
pub const TEXT_LANGS: [&str; 3] = ["uz", "en", "ru"];

/// An id from a title: its ASCII letters and digits, lower-cased, the rest as `-`;
/// a title with none (Cyrillic) gets one from its hash. At most 40 characters.
pub fn slug(title: &str) -> String {
    let mut s = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    if s.is_empty() {
        let h = title
            .bytes()
            .fold(5381u32, |h, b| h.wrapping_mul(33) ^ b as u32);
        return format!("c-{h:08x}");
    }
    s.chars()
        .take(40)
        .collect::<String>()
        .trim_end_matches('-')
        .to_string()
}
