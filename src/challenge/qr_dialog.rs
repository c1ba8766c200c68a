//! A link as a QR code, in a dialog over the page: a room opens a challenge on their
//! phones from the projector. The code fills most of the screen (more in presenter mode,
//! `style/challenge/qr_dialog.css`); the link is under it as text, and Escape, the
//! backdrop or the button closes it. A link too long for any QR code says so instead.

use leptos::prelude::*;

use crate::challenge::qr;
use crate::i18n::{tr, use_i18n, Key};

/// White modules around the code: the four the standard asks for.
const QUIET_MODULES: usize = 4;
/// The most bytes a QR code holds (version 40, level L, byte mode).
const MAX_QR_BYTES: usize = 2_953;

#[component]
pub fn QrDialog(open: RwSignal<bool>, #[prop(into)] url: Signal<String>) -> impl IntoView {
    let i18n = use_i18n();
    let close = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if open.get() {
            if let Some(b) = close.get() {
                let _ = b.focus();
            }
        }
    });
    let code = Memo::new(move |_| {
        if !open.get() {
            return None;
        }
        url.with(|u| qr::Qr::encode(u.as_bytes()))
            .map(|q| (q.size() + 2 * QUIET_MODULES, q.svg_path(QUIET_MODULES)))
    });
    let too_long = move || {
        i18n.t(Key::QrTooLong)
            .replace("{n}", &url.with(|u| u.len()).to_string())
            .replace("{max}", &MAX_QR_BYTES.to_string())
    };
    view! {
        <Show when=move || open.get()>
            <div class="help__backdrop" on:click=move |_| open.set(false)></div>
            <div
                class="qr-dialog"
                role="dialog"
                aria-modal="true"
                aria-labelledby="qr-heading"
                data-testid="qr-dialog"
                on:keydown=move |e| if e.key() == "Escape" { open.set(false) }
            >
                <h2 id="qr-heading" class="panel__heading">{tr(Key::QrHeading)}</h2>
                {move || match code.get() {
                    Some((side, path)) => view! {
                        <svg class="qr-dialog__code" data-testid="qr-code" role="img"
                            aria-label=i18n.t(Key::QrHeading)
                            viewBox=format!("0 0 {side} {side}") shape-rendering="crispEdges">
                            <rect width=side height=side fill="#fff"/>
                            <path d=path fill="#000"/>
                        </svg>
                    }.into_any(),
                    None => view! { <p data-testid="qr-too-long">{too_long}</p> }.into_any(),
                }}
                <p class="qr-dialog__url" data-testid="qr-url">{move || url.get()}</p>
                <button type="button" node_ref=close data-testid="qr-close" on:click=move |_| open.set(false)>
                    {tr(Key::Close)}
                </button>
            </div>
        </Show>
    }
}
