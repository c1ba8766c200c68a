//! What the builder's check found: why the challenge is not ready (the model's or the
//! reader's reason), or that it is — with what the solution did — and then its link
//! (copied, shown with its length), its JSON file, its QR code, "open it here" and "add
//! it to the workshop".

use leptos::prelude::*;
use outbox_model::challenge::{SolutionCheck, MAX_CHALLENGES};

use crate::browser::file::set_href;
use crate::browser::url::data_url;
use crate::challenge::builder::form::Form;
use crate::challenge::link::{challenge_fragment, workshop_of_one};
use crate::challenge::qr_dialog::QrDialog;
use crate::challenge::start::open_fresh;
use crate::ctl::share::{page_url, share_fragment};
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;

/// Adds the checked challenge to the workshop being made (up to its limit), with a
/// number after its id when the id is taken.
fn add_to_workshop(form: Form) {
    if let Some(Ok((mut c, _))) = form.checked.get_untracked() {
        form.workshop.update(|list| {
            // Ids differ within a workshop: a repeated title gets a number.
            let base = c.id.clone();
            let mut n = 2;
            while list.iter().any(|x| x.id == c.id) {
                c.id = format!("{}-{n}", base.chars().take(36).collect::<String>());
                n += 1;
            }
            if list.len() < MAX_CHALLENGES {
                list.push(c);
            }
        });
    }
}

#[component]
pub fn CheckResult(form: Form) -> impl IntoView {
    let w = use_lesson();
    let i18n = use_i18n();
    let qr = RwSignal::new(false);
    let ready = move || form.checked.get().and_then(Result::ok);
    let url = Signal::derive(move || {
        ready()
            .map(|(c, _)| page_url(&challenge_fragment(&c)[1..], true))
            .unwrap_or_default()
    });
    let found = move || {
        let (_, report) = ready()?;
        Some(match report.solution {
            SolutionCheck::Unchecked => i18n.t(Key::BuilderReadyNoSolution).to_string(),
            SolutionCheck::Reached { steps, tick } => i18n
                .t(Key::BuilderReady)
                .replace("{steps}", &steps.to_string())
                .replace("{tick}", &tick.to_string()),
        })
    };
    let refused = move || match form.checked.get() {
        Some(Err(why)) => Some(why.text(i18n.lang())),
        _ => None,
    };
    let json = move |ev: leptos::ev::MouseEvent| {
        if let Some((c, _)) = ready() {
            set_href(&ev, data_url(&c.to_json()));
        }
    };
    let add = move |_| add_to_workshop(form);
    view! {
        {move || refused().map(|why| view! {
            <p class="builder__refused" role="alert" data-testid="builder-refused">{tr(Key::BuilderNotReady)} " " {why}</p>
        })}
        <Show when=move || ready().is_some()>
            <div class="builder__ready" data-testid="builder-ready">
                <p role="status" data-testid="builder-found">{found}</p>
                <label class="builder__field">
                    <span>{move || i18n.t(Key::BuilderLink).replace("{n}", &url.with(|u| u.chars().count()).to_string())}</span>
                    <input type="text" readonly=true data-testid="builder-link" prop:value=url/>
                </label>
                <div class="builder__row">
                    <button type="button" data-testid="builder-copy"
                        on:click=move |_| { if let Some((c, _)) = ready() { share_fragment(w.ctl, &challenge_fragment(&c)[1..], true) } }>
                        {tr(Key::ChallengeShare)}
                    </button>
                    <a class="button" href="#" download="outbox-challenge.json" data-testid="builder-json" on:click=json>{tr(Key::BuilderJson)}</a>
                    <button type="button" data-testid="builder-qr" on:click=move |_| qr.set(true)>{tr(Key::QrShow)}</button>
                    <button type="button" data-testid="builder-open"
                        on:click=move |_| { if let Some((c, _)) = ready() { open_fresh(w, workshop_of_one(c)) } }>
                        {tr(Key::BuilderOpenHere)}
                    </button>
                    <button type="button" data-testid="builder-add-to-workshop" on:click=add>{tr(Key::BuilderAddToWorkshop)}</button>
                </div>
            </div>
        </Show>
        <QrDialog open=qr url=url/>
    }
}
