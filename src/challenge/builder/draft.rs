//! The workshop being made: the challenges added from the builder, in order, under a
//! title; shared as a link, a file or a QR code, or opened here. And the way in for a
//! workshop or challenge someone sent as a file.

use leptos::prelude::*;
use outbox_model::challenge::{Workshop, FORMAT_VERSION};
use std::collections::BTreeMap;

use crate::browser::file::{read_chosen, set_href};
use crate::browser::url::data_url;
use crate::challenge::builder::form::{slug, Form};
use crate::challenge::ctl::{use_workshop, words, WorkshopCtl};
use crate::challenge::link::{read_file, workshop_fragment};
use crate::challenge::qr_dialog::QrDialog;
use crate::challenge::reasons::format_reason;
use crate::challenge::start::{open_fresh, open_fresh_from, OpenedFrom};
use crate::ctl::share::{page_url, share_fragment};
use crate::ctl::Notice;
use crate::i18n::{tr, use_i18n, I18n, Key, Reason};

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

/// The challenges added so far, each with its "remove" button.
fn draft_list(form: Form, i18n: I18n) -> impl IntoView {
    form.workshop.with(|cs| {
        cs.iter()
            .enumerate()
            .map(|(i, c)| {
                let name = words(c, i18n.lang()).title;
                view! {
                    <li data-testid=format!("draft-item-{i}")>
                        {name}" "
                        <button type="button" data-testid=format!("draft-remove-{i}")
                            on:click=move |_| form.workshop.update(|cs| { cs.remove(i); })>
                            {tr(Key::BuilderRemove)}
                        </button>
                    </li>
                }
            })
            .collect_view()
    })
}

/// Opens a workshop file chosen on disk in place of the run; a bad one is refused with
/// its reason.
fn open_file(w: WorkshopCtl, ev: &leptos::ev::Event) {
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
    let w = use_workshop();
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
            <label class="button builder__import">
                {tr(Key::BuilderOpenFile)}
                <input type="file" accept=".json,application/json" data-testid="builder-open-file" on:change=open_file/>
            </label>
        </fieldset>
        <QrDialog open=qr url=url/>
    }
}
