//! A process card: the labelled steps of its program with the one it runs next lit, a kill
//! control on every step (arm it under a rule: every time, next time, or the canon's
//! `i % 10 == 3`), and kill now / restart / one step of this process. Which buttons are
//! enabled comes from the model's `enabled()`. A death is shown for [`DIED_MS`] (a ☠ over
//! the dimmed card) even when the run plays too fast to see the dead state itself.

pub mod card_actions;
pub mod kill_rule;
pub mod program_step;
pub mod step_id;

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use outbox_model::view::ProcView;

use crate::browser::slices::now_ms;
use crate::ctl::use_ctl;
use crate::i18n::words::proc_name;
use crate::i18n::{t, tr, use_i18n, Key, Lang};
use crate::stage::pipeline::process_card::card_actions::CardActions;
use crate::stage::pipeline::process_card::program_step::ProgramStep;

/// How long a card shows a death: long enough to see at full speed, where a process can
/// die and restart within one frame.
pub const DIED_MS: u64 = 1200;

/// Flashes `died` for [`DIED_MS`] whenever the process's kill count grows (a death since
/// the last frame, even one already followed by a restart). At full speed a process can
/// die every frame: a later death moves the deadline, and the one pending timer, when it
/// fires, waits out the rest (a timer cleared and set again every frame would cost a
/// callback each time). The timer is dropped, so cancelled, when the card goes away.
fn watch_deaths(me: Memo<Option<ProcView>>, died: RwSignal<bool>) {
    let until_ms = StoredValue::new(0.0f64);
    let timer = StoredValue::new_local(None::<Timeout>);
    let mut last = me.with_untracked(|p| p.as_ref().map_or(0, |p| p.kills));
    Effect::new(move |_| {
        let kills = me.with(|p| p.as_ref().map_or(0, |p| p.kills));
        // Fewer kills: the timeline went back; nothing died.
        let grew = kills > last;
        last = kills;
        if !grew {
            return;
        }
        until_ms.set_value(now_ms() + DIED_MS as f64);
        if !died.get_untracked() {
            died.set(true);
        }
        if timer.with_value(Option::is_none) {
            arm_death_timer(DIED_MS as u32, until_ms, timer, died);
        }
    });
    on_cleanup(move || drop(timer.try_update_value(Option::take)));
}

/// Clears the death mark at its deadline, or waits again if a later death moved it.
fn arm_death_timer(
    after_ms: u32,
    until_ms: StoredValue<f64>,
    timer: StoredValue<Option<Timeout>, LocalStorage>,
    died: RwSignal<bool>,
) {
    let fire = move || {
        timer.try_set_value(None);
        let left_ms = until_ms.try_get_value().unwrap_or(0.0) - now_ms();
        if left_ms > 1.0 {
            arm_death_timer(left_ms.ceil() as u32, until_ms, timer, died);
        } else {
            died.try_set(false);
        }
    };
    timer.try_set_value(Some(Timeout::new(after_ms, fire)));
}

/// The card's steps, each with its kill control.
fn program_steps(name: String, me: Memo<Option<ProcView>>) -> impl IntoView {
    // The step list is drawn anew only when the program changes, not whenever the
    // process moves or the world is reset: redrawn, the steps cost a rebuild and held
    // ~7 KB more per reset of the world (tests/memory.rs). The memo keeps a hash.
    let program_key = Memo::new(move |_| {
        me.with(|p| crate::stage::pipeline::fnv::fnv_hash(&p.as_ref().map(|p| &p.program)))
    });
    let program = move || {
        let _ = program_key.get(); // read, not only tracked (see ProcCards)
        me.with_untracked(|p| p.as_ref().map(|p| p.program.clone()).unwrap_or_default())
    };
    move || {
        let name = name.clone();
        let steps = program();
        steps
            .iter()
            .map(|&step| {
                let prev = outbox_model::world::step_before(&steps, step);
                view! { <ProgramStep name=name.clone() step prev me/> }
            })
            .collect_view()
    }
}

#[component]
pub fn ProcessCard(name: String) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let n = name.clone();
    let me = Memo::new(move |_| {
        ctl.procs
            .with(|ps| ps.iter().find(|p| p.name == n).cloned())
    });
    let title = {
        let n = name.clone();
        move || proc_name(i18n.lang(), &n)
    };
    let selected = {
        let n = name.clone();
        Memo::new(move |_| ctl.selected_proc.with(|s| *s == n))
    };
    let status = move || me.with(|p| p.as_ref().map(|p| status_text(i18n.lang(), p)));
    let state_class = move || {
        me.with(|p| match p {
            Some(p) if !p.alive => "proc proc--dead",
            Some(p) if p.waiting_for.is_some() => "proc proc--waiting",
            _ => "proc",
        })
    };
    let died = RwSignal::new(false);
    watch_deaths(me, died);
    let kills = move || me.with(|p| p.as_ref().and_then(|p| kills_text(i18n.lang(), p)));
    let holding = move || me.with(|p| p.as_ref().and_then(|p| holding_text(i18n.lang(), p)));
    let steps = program_steps(name.clone(), me);
    let n_sel = name.clone();
    let n_err = name.clone();
    view! {
        <article
            class=state_class
            class:proc--selected=selected
            class:proc--died=move || died.get()
            data-testid=format!("proc-{name}")
            data-died=move || died.get().to_string()
        >
            <span class="proc__skull" aria-hidden="true">"☠"</span>
            <header class="proc__head">
                <h4 class="proc__name">
                    <button
                        type="button"
                        class="proc__select"
                        aria-pressed=move || if selected.get() { "true" } else { "false" }
                        title=tr(Key::Select)
                        on:click=move |_| ctl.selected_proc.set(n_sel.clone())
                    >
                        {title}
                    </button>
                </h4>
                <span class="proc__status" data-testid=format!("status-{name}")>{status}</span>
            </header>
            <ol class="proc__steps">{steps}</ol>
            <p class="proc__holding">{holding}</p>
            <p class="proc__kills">{kills}</p>
            {move || me.with(|p| p.as_ref().and_then(|p| p.error)).map(|(code, sql)| view! {
                <p class="proc__error" data-testid=format!("error-{n_err}") title=sql>
                    {i18n.t(Key::ProcError).replace("{code}", code)} <code>{sql}</code>
                </p>
            })}
            <CardActions name=name.clone()/>
        </article>
    }
}

/// Dead, waiting for someone, or alive.
fn status_text(lang: Lang, p: &ProcView) -> String {
    if !p.alive {
        t(lang, Key::ProcDead).to_string()
    } else if let Some(w) = &p.waiting_for {
        t(lang, Key::ProcWaiting).replace("{who}", &proc_name(lang, w))
    } else {
        t(lang, Key::ProcAlive).to_string()
    }
}

/// How many times the process was killed (nothing when never).
fn kills_text(lang: Lang, p: &ProcView) -> Option<String> {
    (p.kills > 0).then(|| t(lang, Key::ProcKills).replace("{n}", &p.kills.to_string()))
}

/// The events the process holds (the first six, then how many more; nothing when none).
fn holding_text(lang: Lang, p: &ProcView) -> Option<String> {
    if p.holding.is_empty() {
        return None;
    }
    let mut list: Vec<String> = p.holding.iter().take(6).map(|e| e.to_string()).collect();
    if p.holding.len() > 6 {
        list.push(format!("… +{}", p.holding.len() - 6));
    }
    Some(t(lang, Key::ProcHolding).replace("{list}", &list.join(", ")))
}
