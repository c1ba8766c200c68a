//! Shows a view that comes from behind a door of `app/lazy.rs`: a line while the challenge
//! code loads (the first time only: a loaded chunk stays), then the view, or a message
//! that it could not be loaded — the rest of the page keeps working.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::future::Future;

use crate::app::lazy::Unloaded;
use crate::i18n::{tr, Key};

pub fn door_view<Fut>(door: impl Fn() -> Fut + Copy + Send + Sync + 'static) -> impl IntoView
where
    Fut: Future<Output = Result<AnyView, Unloaded>> + 'static,
{
    let loading = || view! { <p class="door__loading" data-testid="challenge-loading">{tr(Key::ChallengeLoading)}</p> };
    view! {
        <Suspense fallback=loading>
            {move || Suspend::new(SendWrapper::new(async move {
                match door().await {
                    Ok(v) => v,
                    Err(Unloaded) => view! {
                        <p class="door__failed" role="alert" data-testid="challenge-unloaded">{tr(Key::ChallengeUnloaded)}</p>
                    }
                    .into_any(),
                }
            }))}
        </Suspense>
    }
}
