//! The builder (a details tab): an instructor makes a challenge from the stage's current
//! run — its scenario is the start, a goal set from a form or written in the goal
//! language, texts in the page's language, a guess to ask for, and the run's own actions
//! recorded as the solution. "Check" asks the model (`Challenge::check`: the goal must be
//! false at the start, the solution must reach it) and the reader (the format's limits)
//! before anything is shared; then the challenge is a link, a file, a QR code, or the
//! next challenge of a workshop (`draft.rs`).

pub mod checking;
pub mod draft;
pub mod form;
pub mod goal_form;
pub mod result;

use leptos::prelude::*;
use outbox_model::challenge::{outcome_of_name, Challenge, Goal, Texts, FORMAT_VERSION};
use outbox_model::Action;
use std::collections::BTreeMap;

use crate::browser::slices::owner_alive;
use crate::challenge::builder::checking::{CheckProgress, Checking};
use crate::challenge::builder::draft::Draft;
use crate::challenge::builder::form::{slug, Form, TEXT_LANGS};
use crate::challenge::builder::goal_form::GoalForm;
use crate::challenge::builder::result::CheckResult;
use crate::challenge::reasons::{format_reason, goal_reason};
use crate::ctl::{use_ctl, Ctl};
use crate::i18n::{tr, use_i18n, Key, Lang, Reason};
use crate::run::sim::Input;

/// The actions of the run, in order (its ticks left out): a solution is its actions
/// applied at the start, then the run played to its end (`Challenge::check`).
fn actions_of(ctl: Ctl) -> Vec<Action> {
    ctl.with_inputs(|inputs| {
        inputs
            .iter()
            .filter_map(|i| match i {
                Input::Act(a) => Some(a.clone()),
                Input::Ticks(_) => None,
            })
            .collect()
    })
}

/// A scenario's name as the stage shows it (#42: "the lesson-lose-dual scenario"): a
/// preset's title, a lesson step's title, else the name as it is (a scenario of one's own).
fn scenario_title(lang: Lang, name: &str) -> String {
    if let Some(p) = crate::i18n::words::preset_text(name) {
        return p.title(lang).to_string();
    }
    name.strip_prefix("lesson-")
        .and_then(crate::i18n::lesson_words::step_words)
        .map_or_else(
            || name.to_string(),
            |w| crate::i18n::t(lang, w.title).to_string(),
        )
}

/// The challenge the form says, read back through the model's reader (so a shared one
/// is known to open); the model checks it next (`checking.rs`).
fn prepare(form: Form, ctl: Ctl, lang: Lang) -> Result<Challenge, Reason> {
    let goal = form
        .goal
        .with_untracked(|g| Goal::parse(g))
        .map_err(|e| goal_reason(&e, "goal"))?;
    let title = form.title.get_untracked();
    // Said in words before the reader would say "texts.en.title: must not be empty" (#42).
    if title.trim().is_empty() {
        return Err(Reason::new(Key::BuilderNeedTitle));
    }
    let texts = texts_of(form, lang);
    let challenge = Challenge {
        v: FORMAT_VERSION,
        id: slug(&title),
        lesson: None,
        texts,
        predict: form.predict.with_untracked(|p| outcome_of_name(p)),
        goal,
        scenario: ctl.scenario(),
        solution: form.solution.get_untracked(),
    };
    Challenge::from_json(&challenge.to_compact_json()).map_err(|mut e| {
        e.field = field_words(lang, &e.field);
        format_reason(&e)
    })
}

/// The form's texts by language: the page's language from the main fields (Uzbek in
/// Cyrillic is kept as Uzbek), the others from their fields when their title is given.
fn texts_of(form: Form, lang: Lang) -> BTreeMap<String, Texts> {
    let own = if lang == Lang::UzCyrl {
        "uz"
    } else {
        lang.code()
    };
    let text = |t: RwSignal<String>, b: RwSignal<String>, h: RwSignal<String>| Texts {
        title: t.get_untracked().trim().to_string(),
        body: b.get_untracked(),
        hint: Some(h.get_untracked()).filter(|h| !h.trim().is_empty()),
    };
    let mut texts = BTreeMap::from([(own.to_string(), text(form.title, form.body, form.hint))]);
    for (code, [t, b, h]) in TEXT_LANGS.iter().zip(form.others) {
        if *code != own && !t.with_untracked(|t| t.trim().is_empty()) {
            texts.insert(code.to_string(), text(t, b, h));
        }
    }
    texts
}

/// A refused field's JSON path in words: "texts.en.title" → "Title (EN)".
fn field_words(lang: Lang, field: &str) -> String {
    let mut parts = field.split('.');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("texts"), Some(code), Some(what)) => {
            let key = match what {
                "title" => Key::BuilderTitle,
                "body" => Key::BuilderBody,
                _ => Key::BuilderHint,
            };
            format!("{} ({})", crate::i18n::t(lang, key), code.to_uppercase())
        }
        (Some("goal"), None, None) => crate::i18n::t(lang, Key::BuilderGoal).to_string(),
        _ => field.to_string(),
    }
}

/// The fields of the texts in the page's other languages, folded away.
fn other_texts(form: Form) -> impl IntoView {
    let i18n = use_i18n();
    move || {
        let own = match i18n.lang() {
            Lang::UzCyrl => "uz",
            l => l.code(),
        };
        let fields = TEXT_LANGS
            .iter()
            .zip(form.others)
            .filter(|(code, _)| **code != own)
            .map(|(code, [t, b, h])| {
                let code: &'static str = code;
                view! {
                    <fieldset class="builder__lang" data-testid=format!("builder-texts-{code}")>
                        <legend>{code.to_uppercase()}</legend>
                        {text_field(Key::BuilderTitle, t, "builder-title-other", false)}
                        {text_field(Key::BuilderBody, b, "builder-body-other", true)}
                        {text_field(Key::BuilderHint, h, "builder-hint-other", false)}
                    </fieldset>
                }
            })
            .collect_view();
        view! {
            <details class="builder__others" data-testid="builder-other-languages">
                <summary>{i18n.t(Key::BuilderOtherLanguages)}</summary>
                {fields}
            </details>
        }
    }
}

/// A labelled text field bound to `value` (a textarea when `long`).
fn text_field(label: Key, value: RwSignal<String>, id: &'static str, long: bool) -> impl IntoView {
    let input = move |ev| value.set(event_target_value(&ev));
    view! {
        <label class="builder__field">
            <span>{tr(label)}</span>
            {if long {
                view! { <textarea rows="3" data-testid=id prop:value=value on:input=input></textarea> }.into_any()
            } else {
                view! { <input type="text" data-testid=id prop:value=value on:input=input/> }.into_any()
            }}
        </label>
    }
}

#[component]
pub fn Builder() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let form = Form::new(ctl);
    let checking = Checking::default();
    let alive = owner_alive();
    let check = move |_| match prepare(form, ctl, i18n.lang_untracked()) {
        Err(why) => form.checked.set(Some(Err(why))),
        Ok(challenge) => checking.start(form, alive.clone(), challenge),
    };
    let scenario = move || {
        ctl.scenario_version.track();
        let name = ctl.with_scenario(|s| s.name.clone());
        i18n.t(Key::BuilderStart)
            .replace("{name}", &scenario_title(i18n.lang(), &name))
    };
    let solution = move || match form.solution.get() {
        None => i18n.t(Key::BuilderNoSolution).to_string(),
        Some(a) => i18n.tn(Key::BuilderSolution, a.len() as u64),
    };
    view! {
        <section class="builder" data-testid="builder" aria-labelledby="builder-heading">
            <h2 id="builder-heading" class="panel__heading">{tr(Key::BuilderHeading)}</h2>
            <p class="builder__intro">{tr(Key::BuilderIntro)}</p>
            <p data-testid="builder-start">{scenario}</p>
            {text_field(Key::BuilderTitle, form.title, "builder-title", false)}
            {text_field(Key::BuilderBody, form.body, "builder-body", true)}
            {text_field(Key::BuilderHint, form.hint, "builder-hint", false)}
            {other_texts(form)}
            <GoalForm goal=form.goal/>
            <label class="builder__field">
                <span>{tr(Key::BuilderPredict)}</span>
                <select data-testid="builder-predict" on:change=move |ev| form.predict.set(event_target_value(&ev))>
                    <option value="">{tr(Key::BuilderPredictNone)}</option>
                    <option value="lost">{tr(Key::OutcomeLost)}</option>
                    <option value="duplicate">{tr(Key::OutcomeDuplicate)}</option>
                    <option value="fine">{tr(Key::OutcomeFine)}</option>
                </select>
            </label>
            <div class="builder__row">
                <span data-testid="builder-solution">{solution}</span>
                <button type="button" data-testid="builder-record" on:click=move |_| form.solution.set(Some(actions_of(ctl)))>
                    {tr(Key::BuilderRecord)}
                </button>
                <button type="button" data-testid="builder-no-solution" on:click=move |_| form.solution.set(None)>
                    {tr(Key::BuilderClearSolution)}
                </button>
            </div>
            <button type="button" class="builder__check" data-testid="builder-check"
                prop:disabled=move || checking.progress.get().is_some() on:click=check>
                {tr(Key::BuilderCheck)}
            </button>
            <CheckProgress checking=checking/>
            <CheckResult form=form/>
            <Draft form=form/>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use crate::challenge::builder::form::slug;
    use outbox_model::challenge::{Challenge, MAX_ID_CHARS};

    /// Every id the builder makes is one the reader takes (a slug of a–z, 0–9 and `-`,
    /// 1 to 40 long), from Latin, Uzbek, Cyrillic, empty and very long titles.
    #[test]
    fn a_title_becomes_an_id_the_reader_takes() {
        assert_eq!(slug("Relay o'lsin!"), "relay-o-lsin");
        assert_eq!(slug("  --Two  relays--  "), "two-relays");
        let long = "a".repeat(39) + "-b";
        assert_eq!(slug(&long), "a".repeat(39));
        let c = &outbox_model::lesson::lesson_challenges()[0];
        for title in [
            "Relay o'lsin!",
            "Дубль в очереди",
            "",
            "ё",
            &"x-".repeat(60),
            &long,
        ] {
            let id = slug(title);
            assert!(
                !id.is_empty() && id.len() <= MAX_ID_CHARS,
                "{title:?} -> {id:?}"
            );
            let mut c = c.clone();
            c.id = id.clone();
            Challenge::from_json(&c.to_compact_json()).unwrap_or_else(|e| panic!("{id}: {e}"));
        }
        assert_ne!(slug("Дубль"), slug("Потеря"));
    }
}
