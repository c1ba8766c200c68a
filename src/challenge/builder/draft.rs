//! The workshop being made: the challenges added from the builder, in order, under a
//! title; shared as a link, a file or a QR code, or opened here. And the way in for a
//! workshop or challenge someone sent as a file. The built-in lesson is a workshop too
//! (#41): it can be downloaded as a file, or taken into the draft, its goals changed in
//! place, and shared.

use leptos::prelude::*;
use outbox_model::challenge::{Goal, Workshop, FORMAT_VERSION};
use std::collections::BTreeMap;

use crate::browser::file::{read_chosen, set_href};
use crate::browser::url::data_url;
use crate::challenge::builder::form::{slug, Form};
use crate::challenge::ctl::words;
use crate::challenge::link::{read_file, workshop_fragment};
use crate::challenge::qr_dialog::QrDialog;
use crate::challenge::reasons::{check_reason, format_reason, goal_reason};
use crate::challenge::start::{open_fresh, open_fresh_from, OpenedFrom};
use crate::ctl::share::{page_url, share_fragment};
use crate::ctl::Notice;
use crate::i18n::{tr, use_i18n, I18n, Key, Reason};
use crate::lesson::course::lesson_workshop;
use crate::lesson::ctl::{use_lesson, LessonCtl};

/// The workshop the draft says, read back through the model's reader.
fn workshop(form: Form, title: &str, lang: &str) -> Result<Workshop, Reason> {
    let w = Workshop {
        v: FORMAT_VERSION,
        id: slug(title),
        title: BTreeMap::from([(lang.to_string(), title.trim().to_string())]),
        challenges: form.workshop.get_untracked(),
    };
    Workshop::from_json(&w.to_compact_json()).map_err(|e| format_reason(&e))
}

/// Challenge `i` of the draft with the goal `text` (#41: an instructor changes a step of
/// the lesson): parsed, then checked by the model on the challenge's start (the goal must
/// not hold there, a solution must reach it); refused with the reason, changing nothing.
fn change_goal(form: Form, i: usize, text: &str) -> Result<(), Reason> {
    let goal = Goal::parse(text).map_err(|e| goal_reason(&e, "goal"))?;
    let Some(mut c) = form.workshop.with_untracked(|cs| cs.get(i).cloned()) else {
        return Ok(());
    };
    c.goal = goal;
    c.check().map_err(|e| check_reason(&e))?;
    form.workshop.update(|cs| cs[i] = c);
    Ok(())
}

/// The challenges added so far, each with its goal (changed in place) and its "remove"
/// button.
fn draft_list(form: Form, i18n: I18n) -> impl IntoView {
    form.workshop.with(|cs| {
        cs.iter()
            .enumerate()
            .map(|(i, c)| {
                let name = words(c, i18n.lang()).title;
                let refused = RwSignal::new(None::<Reason>);
                let change = move |ev: leptos::ev::Event| {
                    refused.set(change_goal(form, i, &event_target_value(&ev)).err());
                };
                view! {
                    <li data-testid=format!("draft-item-{i}")>
                        {name}" "
                        <button type="button" data-testid=format!("draft-remove-{i}")
                            on:click=move |_| form.workshop.update(|cs| { cs.remove(i); })>
                            {tr(Key::BuilderRemove)}
                        </button>
                        <label class="builder__draft-goal">
                            <span>{tr(Key::BuilderDraftGoal)}</span>
                            <input type="text" spellcheck="false" data-testid=format!("draft-goal-{i}")
                                prop:value=c.goal.to_string() on:change=change/>
                        </label>
                        {move || refused.get().map(|why| view! {
                            <p class="builder__refused" data-testid=format!("draft-goal-refused-{i}")>{why.text(i18n.lang())}</p>
                        })}
                    </li>
                }
            })
            .collect_view()
    })
}

/// The built-in lesson as the draft (#41): its steps, in the challenge format, to change,
/// remove from or add to, then share; its title in the page's language.
fn lesson_draft(form: Form, title: RwSignal<String>, lang: &str) {
    let lesson = lesson_workshop();
    let name = lesson
        .title
        .get(lang)
        .or_else(|| lesson.title.values().next());
    title.set(name.cloned().unwrap_or_default());
    form.workshop.set(lesson.challenges);
}

/// Opens a workshop file chosen on disk in place of the run; a bad one is refused with
/// its reason.
fn open_file(w: LessonCtl, ev: &leptos::ev::Event) {
    read_chosen(ev, move |text| match text.and_then(|t| read_file(&t)) {
        Ok(workshop) => open_fresh_from(w, workshop, OpenedFrom::File),
        Err(why) => {
            let _ = w
                .ctl
                .notice
                .try_set(Some(Notice::error(Key::NoticeBadChallenge, why)));
        }
    })
}

#[component]
pub fn Draft(form: Form) -> impl IntoView {
    let w = use_lesson();
    let i18n = use_i18n();
    let title = RwSignal::new(String::new());
    let qr = RwSignal::new(false);
    let made = Memo::new(move |_| {
        form.workshop.track();
        workshop(form, &title.get(), i18n.lang().code())
    });
    let url = Signal::derive(move || {
        made.with(|m| {
            m.as_ref()
                .map(|w| page_url(&workshop_fragment(w)[1..], true))
                .unwrap_or_default()
        })
    });
    let list = move || draft_list(form, i18n);
    let open_file = move |ev: leptos::ev::Event| open_file(w, &ev);
    let lesson_json = move |ev: leptos::ev::MouseEvent| {
        set_href(&ev, data_url(&lesson_workshop().to_json()));
    };
    let json = move |ev: leptos::ev::MouseEvent| {
        if let Ok(made) = made.get_untracked() {
            set_href(&ev, data_url(&made.to_json()));
        }
    };
    view! {
        <fieldset class="builder__draft" data-testid="builder-draft">
            <legend>{tr(Key::BuilderWorkshop)}</legend>
            <label class="builder__field">
                <span>{tr(Key::BuilderWorkshopTitle)}</span>
                <input type="text" data-testid="draft-title" prop:value=title on:input=move |ev| title.set(event_target_value(&ev))/>
            </label>
            <ol class="builder__list">{list}</ol>
            // Nothing to refuse before the first challenge is added.
            {move || (!form.workshop.with(Vec::is_empty))
                .then(|| made.with(|m| m.as_ref().err().map(|why| why.text(i18n.lang()))))
                .flatten()
                .map(|why| view! {
                <p class="builder__refused" data-testid="draft-refused">{why}</p>
            })}
            <div class="builder__row">
                <button type="button" data-testid="draft-copy" disabled=move || made.with(Result::is_err)
                    on:click=move |_| { if let Ok(m) = made.get_untracked() { share_fragment(w.ctl, &workshop_fragment(&m)[1..], true) } }>
                    {tr(Key::ChallengeShare)}
                </button>
                <a class="button" href="#" download="outbox-workshop.json" data-testid="draft-json" on:click=json>{tr(Key::BuilderJson)}</a>
                <button type="button" data-testid="draft-qr" disabled=move || made.with(Result::is_err) on:click=move |_| qr.set(true)>
                    {tr(Key::QrShow)}
                </button>
                <button type="button" data-testid="draft-open" disabled=move || made.with(Result::is_err)
                    on:click=move |_| { if let Ok(m) = made.get_untracked() { open_fresh(w, m) } }>
                    {tr(Key::BuilderOpenHere)}
                </button>
            </div>
            <div class="builder__row">
                <button type="button" data-testid="draft-lesson"
                    on:click=move |_| lesson_draft(form, title, i18n.lang_untracked().code())>
                    {tr(Key::BuilderLessonDraft)}
                </button>
                <a class="button" href="#" download="outbox-lesson-workshop.json" data-testid="builder-lesson-json" on:click=lesson_json>
                    {tr(Key::BuilderLessonJson)}
                </a>
            </div>
            <label class="button builder__import">
                {tr(Key::BuilderOpenFile)}
                <input type="file" accept=".json,application/json" data-testid="builder-open-file" on:change=open_file/>
            </label>
        </fieldset>
        <QrDialog open=qr url=url/>
    }
}
