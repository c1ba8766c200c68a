//! Details on demand: the panels that explain the stage (faults, live SQL, the event log,
//! one event's life, the sequence diagram, the chart, the modes and "Prove it") as tabs
//! under it, so the stage itself fits on one screen. The chosen tab is in the address
//! (`?tab=sql`): a link opens it, and Back returns to the tab before. The chosen panel is
//! built with the tabs, the others one per frame after it; once built, a panel
//! stays mounted (a hidden one keeps its state and its test ids); only the chosen one is
//! shown.

use leptos::ev;
use leptos::prelude::*;

use crate::app::door_view::door_view;
use crate::app::lazy;
use crate::browser::build_in_turns::use_turns;
use crate::browser::first_touch::use_first_touch;
use crate::browser::page_built::announce_built;
use crate::browser::url::{set_url_param, url_param};
use crate::i18n::{tr, Key};

/// The tabs, in order: the name in the address, and the label.
pub const TABS: [(&str, Key); 9] = [
    ("faults", Key::FaultsHeading),
    ("sql", Key::SqlHeading),
    ("log", Key::LogHeading),
    ("life", Key::LifecycleHeading),
    ("sequence", Key::SeqHeading),
    ("chart", Key::DetailsChart),
    ("modes", Key::ModesHeading),
    ("proof", Key::DetailsProof),
    ("builder", Key::DetailsBuilder),
];

/// The panels whose code loads only when they are used (`app/lazy.rs`): built
/// when their tab is first chosen, not in the background after the page, so the first
/// load neither fetches nor compiles their code.
const ON_USE: [&str; 2] = ["proof", "builder"];

/// The tab an address names; an unknown or missing name is the first tab (a hand-edited
/// link loses nothing).
pub fn tab_from(name: Option<&str>) -> &'static str {
    TABS.iter()
        .map(|(n, _)| *n)
        .find(|n| Some(*n) == name)
        .unwrap_or(TABS[0].0)
}

/// Follows Back and Forward: the address's tab becomes the chosen one.
fn follow_history(tab: RwSignal<&'static str>) {
    let handle = window_event_listener(ev::popstate, move |_| {
        tab.set(tab_from(url_param("tab").as_deref()));
    });
    on_cleanup(move || handle.remove());
}

#[component]
pub fn DetailsTabs() -> impl IntoView {
    let tab = RwSignal::new(tab_from(url_param("tab").as_deref()));
    follow_history(tab);
    // The panels' code is fetched once the user shows up (or a link names a tab).
    let awake = use_first_touch(url_param("tab").is_some());
    let choose = move |name: &'static str| {
        if !awake.get_untracked() {
            awake.set(true);
        }
        if tab.get_untracked() != name {
            tab.set(name);
            // Embedded (#45), a tab is not the platform's Back button's: replaced.
            set_url_param("tab", Some(name), !crate::lms::detect::embedded());
        }
    };
    follow_asks(choose);
    let buttons = TABS
        .iter()
        .map(|(name, key)| {
            let name = *name;
            view! {
                <button
                    type="button"
                    role="tab"
                    class="details__tab"
                    id=format!("details-tab-{name}")
                    aria-controls=format!("details-panel-{name}")
                    aria-selected=move || (tab.get() == name).to_string()
                    tabindex=move || if tab.get() == name { "0" } else { "-1" }
                    data-testid=format!("details-tab-{name}")
                    on:click=move |_| choose(name)
                >
                    {tr(*key)}
                </button>
            }
        })
        .collect_view();
    let built = build_order(tab.get_untracked());
    let panel = move |name: &'static str, body: fn(RwSignal<&'static str>) -> AnyView| {
        let built = built(name, tab);
        // A memo: the panel is drawn once, when both first hold, not again at every wake.
        let shown = Memo::new(move |_| awake.get() && built.get());
        view! {
            <div
                role="tabpanel"
                class="details__panel"
                id=format!("details-panel-{name}")
                aria-labelledby=format!("details-tab-{name}")
                data-testid=format!("details-panel-{name}")
                hidden=move || tab.get() != name
            >
                {move || shown.get().then(|| body(tab))}
            </div>
        }
    };
    view! {
        <section class="details" data-testid="details" aria-label=tr(Key::DetailsHeading)>
            <div class="details__tabs" role="tablist" on:keydown=move |e| arrow_keys(e, tab, choose)>
                {buttons}
            </div>
            {panel("faults", |_| door_view(|| lazy::details_panel("faults")).into_any())}
            {panel("sql", |_| door_view(|| lazy::details_panel("sql")).into_any())}
            {panel("log", |_| door_view(|| lazy::details_panel("log")).into_any())}
            {panel("life", |_| door_view(|| lazy::details_panel("life")).into_any())}
            {panel("sequence", |_| door_view(|| lazy::details_panel("sequence")).into_any())}
            {panel("chart", |_| door_view(|| lazy::details_panel("chart")).into_any())}
            {panel("modes", |_| door_view(|| lazy::details_panel("modes")).into_any())}
            {panel("proof", |tab| {
                let shown = Signal::derive(move || tab.get() == "proof");
                door_view(move || lazy::proof(shown)).into_any()
            })}
            {panel("builder", |_| door_view(lazy::builder).into_any())}
        </section>
    }
}

/// When each panel is built: the tab chosen at start at once, the others one per frame
/// after it (in the tabs' order; the `ON_USE` ones not), and any tab as soon as it is
/// chosen. Building all
/// eight in the task that mounts the page made it the longest task of the first load
/// (Lighthouse's total blocking time, #18). A built panel stays built (hidden when not
/// chosen), so it keeps its state and its test ids.
fn build_order(
    first: &'static str,
) -> impl Fn(&'static str, RwSignal<&'static str>) -> Memo<bool> + Copy {
    // The panels built in the background, in order: not the first, not the `ON_USE` ones.
    let later = move || {
        TABS.iter()
            .map(|(n, _)| *n)
            .filter(move |n| *n != first && !ON_USE.contains(n))
    };
    let count = later().count();
    let turns = use_turns(count);
    // The last background panel is the end of the page's first build.
    Effect::new(move |_| {
        if turns.get() == count {
            announce_built();
        }
    });
    move |name, tab| {
        // This panel's place among the ones built later; `None` for the others.
        let place = later().position(|n| n == name);
        Memo::new(move |before: Option<&bool>| {
            before.copied().unwrap_or(false)
                || tab.get() == name
                || place.is_some_and(|p| turns.get() > p)
        })
    }
}

/// Left / Right / Home / End move between the tabs (the ARIA tabs pattern), and the
/// focus follows the chosen tab.
fn arrow_keys(
    e: web_sys::KeyboardEvent,
    tab: RwSignal<&'static str>,
    choose: impl Fn(&'static str),
) {
    let at = TABS
        .iter()
        .position(|(n, _)| *n == tab.get_untracked())
        .unwrap_or(0);
    let next = match e.key().as_str() {
        "ArrowRight" => (at + 1) % TABS.len(),
        "ArrowLeft" => (at + TABS.len() - 1) % TABS.len(),
        "Home" => 0,
        "End" => TABS.len() - 1,
        _ => return,
    };
    // The page's own arrow keys (choosing a process) must not see this one.
    e.prevent_default();
    e.stop_propagation();
    let name = TABS[next].0;
    choose(name);
    if let Some(el) = document().get_element_by_id(&format!("details-tab-{name}")) {
        use wasm_bindgen::JsCast;
        if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = el.focus();
        }
    }
}

/// A panel asked for a tab (an event's life, #42): show it and bring it into view.
fn follow_asks(choose: impl Fn(&'static str) + 'static) {
    let ctl = crate::ctl::use_ctl();
    Effect::new(move |_| {
        if let Some(name) = ctl.show_tab.get() {
            ctl.show_tab.set(None);
            choose(tab_from(Some(name)));
            scroll_to_details();
        }
    });
}

/// Scrolls the details' tabs into view (a chosen tab below the stage is otherwise unseen).
fn scroll_to_details() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=details]").ok().flatten())
    {
        el.scroll_into_view();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_names_a_tab_or_gets_the_first() {
        for (name, _) in TABS {
            assert_eq!(tab_from(Some(name)), name);
        }
        for junk in [
            None,
            Some(""),
            Some("SQL"),
            Some("sql "),
            Some("<script>"),
            Some("proof/.."),
        ] {
            assert_eq!(tab_from(junk), TABS[0].0, "{junk:?}");
        }
    }
}
