//! The goal, as text in the model's goal language (`lost >= 1 && killed(relay,
//! publish)`), read by the model as it is typed: its canonical form, or the reason and
//! the place it stops. A form adds conditions to it: a counter, a comparison and a
//! number; "the run has settled"; a kill at a step of one of the stage's process cards.

use leptos::prelude::*;
use outbox_model::challenge::Goal;
use outbox_model::Counters;
use serde::Serialize;

use crate::challenge::reasons::goal_reason;
use crate::ctl::{use_ctl, Ctl};
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{t, tr, use_i18n, Key, Lang};
use crate::stage::counters::counter_label;

const OPS: [&str; 6] = [">=", "==", "<=", ">", "<", "!="];

/// A value's name in the model's JSON (and so in the goal language).
fn json_name<T: Serialize>(v: &T) -> String {
    // Through the text, not `to_value` (a second set of writers in the wasm).
    let text = serde_json::to_string(v).unwrap_or_default();
    text.trim_matches('"').to_string()
}

/// The counters' names, from the model's own JSON of them (never a list kept by hand).
fn counter_names() -> Vec<String> {
    let text = serde_json::to_string(&Counters::default()).unwrap_or_default();
    match serde_json::from_str(&text) {
        Ok(serde_json::Value::Object(m)) => m.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// `goal` with `cond` joined on by `&&`.
fn and(goal: RwSignal<String>, cond: String) {
    goal.update(|g| {
        if g.trim().is_empty() {
            *g = cond;
        } else {
            *g = format!("{} && {cond}", g.trim());
        }
    });
}

/// Every `killed(kind, step)` a goal can name on this stage (each program step of each
/// process kind), with its words as the cards say them: "☠ API · queue.add" (#42).
fn kill_goals(ctl: Ctl, lang: Lang) -> std::collections::BTreeMap<String, String> {
    ctl.procs.with(|ps| {
        ps.iter()
            .flat_map(|p| {
                let kind = json_name(&p.kind);
                // The goal names a kind (every relay), not one numbered process.
                let who = if p.name.contains('-') {
                    kind.clone()
                } else {
                    proc_name(lang, &p.name)
                };
                p.program.iter().map(move |s| {
                    (
                        format!("killed({kind}, {})", json_name(s)),
                        format!("☠ {who} · {}", step_name(lang, *s)),
                    )
                })
            })
            .collect()
    })
}

/// A counter's name in the select: its label on the stage, then its name in the goal.
fn counter_option(lang: Lang, name: &str) -> String {
    match counter_label(name) {
        Some(k) => format!("{} ({name})", t(lang, k)),
        None => name.to_string(),
    }
}

/// A goal's canonical text said in words beside it (#42: students saw only
/// `lost >= 2 && settled`): counters by their stage labels, operators and joins in words,
/// a kill by its card's words. Read token by token from the model's canonical text.
pub fn goal_words(lang: Lang, canonical: &str) -> String {
    let mut out = Vec::new();
    let mut rest = canonical;
    while !rest.is_empty() {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("killed(") {
            let (inner, after) = r.split_once(')').unwrap_or((r, ""));
            let (kind, step) = inner.split_once(',').unwrap_or((inner, ""));
            let step = step.trim();
            let step_words = serde_json::from_str::<outbox_model::Step>(&format!("\"{step}\""))
                .map_or_else(|_| step.to_string(), |s| step_name(lang, s));
            out.push(
                t(lang, Key::GoalWordKilled)
                    .replace("{who}", &proc_name(lang, kind.trim()))
                    .replace("{step}", &step_words),
            );
            rest = after;
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let (tok, after) = rest.split_at(end);
        rest = after;
        let word = match tok {
            "&&" => t(lang, Key::GoalWordAnd).to_string(),
            "||" => t(lang, Key::GoalWordOr).to_string(),
            "settled" => t(lang, Key::BuilderSettled).to_lowercase(),
            ">=" => "≥".to_string(),
            "<=" => "≤".to_string(),
            "!=" => "≠".to_string(),
            "==" => "=".to_string(),
            other => counter_label(other.trim_matches(|c| c == '(' || c == ')')).map_or_else(
                || other.to_string(),
                |k| tok.replace(other.trim_matches(|c| c == '(' || c == ')'), t(lang, k)),
            ),
        };
        out.push(word);
    }
    out.join(" ")
}

/// The row that adds a `killed(…)` term to the goal.
fn kill_row(ctl: Ctl, goal: RwSignal<String>) -> impl IntoView {
    let i18n = use_i18n();
    let kill = RwSignal::new(String::new());
    view! {
        <div class="builder__row">
            <select aria-label=tr(Key::BuilderKill) data-testid="builder-kill" on:change=move |ev| kill.set(event_target_value(&ev))>
                <option value="">{tr(Key::BuilderKill)}</option>
                {move || kill_goals(ctl, i18n.lang()).into_iter().map(|(v, words)| view! { <option value=v>{words}</option> }).collect_view()}
            </select>
            <button type="button" data-testid="builder-add-kill"
                on:click=move |_| { let k = kill.get_untracked(); if !k.is_empty() { and(goal, k) } }>
                {tr(Key::BuilderAdd)}
            </button>
        </div>
    }
}

#[component]
pub fn GoalForm(goal: RwSignal<String>) -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let counter = RwSignal::new("lost".to_string());
    let op = RwSignal::new(OPS[0].to_string());
    let value = RwSignal::new("1".to_string());
    let add_count = move |_| {
        let v = value.get_untracked();
        and(
            goal,
            format!(
                "{} {} {}",
                counter.get_untracked(),
                op.get_untracked(),
                v.trim()
            ),
        );
    };
    let verdict = move || {
        goal.with(|g| match Goal::parse(g) {
            _ if g.trim().is_empty() => None,
            Ok(parsed) => Some((true, parsed.to_string())),
            Err(e) => Some((false, goal_reason(&e, "goal").text(i18n.lang()))),
        })
    };
    view! {
        <fieldset class="builder__goal" data-testid="builder-goal-form">
            <legend>{tr(Key::BuilderGoal)}</legend>
            <div class="builder__row">
                <select aria-label=tr(Key::BuilderCounter) data-testid="builder-counter" on:change=move |ev| counter.set(event_target_value(&ev))>
                    {counter_names().into_iter().map(|n| {
                        let (selected, value) = (n == "lost", n.clone());
                        view! { <option value=value selected=selected>{move || counter_option(i18n.lang(), &n)}</option> }
                    }).collect_view()}
                </select>
                <select aria-label=tr(Key::BuilderOp) data-testid="builder-op" on:change=move |ev| op.set(event_target_value(&ev))>
                    {OPS.map(|o| view! { <option value=o>{o}</option> }).collect_view()}
                </select>
                <input type="number" min="0" aria-label=tr(Key::BuilderValue) data-testid="builder-value"
                    prop:value=value on:input=move |ev| value.set(event_target_value(&ev))/>
                <button type="button" data-testid="builder-add" on:click=add_count>{tr(Key::BuilderAdd)}</button>
                <button type="button" data-testid="builder-add-settled" on:click=move |_| and(goal, "settled".into())>
                    {tr(Key::BuilderSettled)}
                </button>
            </div>
            {kill_row(ctl, goal)}
            <label class="builder__field">
                <span>{tr(Key::BuilderGoalText)}</span>
                <textarea rows="2" spellcheck="false" data-testid="builder-goal" prop:value=goal
                    on:input=move |ev| goal.set(event_target_value(&ev))></textarea>
            </label>
            {move || verdict().map(|(ok, text)| view! {
                <p class="builder__verdict" class:builder__verdict--bad=!ok data-testid="builder-goal-verdict" data-ok=ok.to_string()>
                    {if ok { view! { <code>{text}</code> }.into_any() } else { text.into_any() }}
                </p>
            })}
            // The goal in words beside its expression (#42).
            {move || verdict().filter(|(ok, _)| *ok).map(|(_, text)| view! {
                <p class="builder__goal-words" data-testid="builder-goal-words">{goal_words(i18n.lang(), &text)}</p>
            })}
        </fieldset>
    }
}
