//! The lesson's three exercises, runnable: the blanks (checked by the model's rules), the
//! relay model and the payment inbox, each run in the model with its output set line by
//! line beside the lesson's expected console.

use leptos::prelude::*;
use outbox_model::lesson;

use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;
use crate::playground::ctl::use_ctl;

const BLANK_KEYS: [Key; 5] = [
    Key::Ex1Blank1,
    Key::Ex1Blank2,
    Key::Ex1Blank3,
    Key::Ex1Blank4,
    Key::Ex1Blank5,
];

/// Expected and actual consoles side by side, a verdict per line.
fn compare(
    id: &'static str,
    expected: &'static [&'static str],
    actual: Vec<String>,
) -> impl IntoView {
    let i18n = use_i18n();
    let all = expected.len() == actual.len() && expected.iter().zip(&actual).all(|(e, a)| e == a);
    let rows = (0..expected.len().max(actual.len()))
        .map(|i| {
            let e = expected.get(i).copied().unwrap_or("");
            let a = actual.get(i).cloned().unwrap_or_default();
            let ok = e == a;
            view! {
                <tr class:exercise__row--bad=!ok>
                    <td><code>{e}</code></td>
                    <td><code data-testid=format!("{id}-line")>{a}</code></td>
                    <td aria-label=move || i18n.t(if ok { Key::AnswerRight } else { Key::AnswerWrong })>{if ok { "✓" } else { "✗" }}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="exercise__compare">
            <thead><tr><th>{tr(Key::ExExpected)}</th><th>{tr(Key::ExActual)}</th><th></th></tr></thead>
            <tbody>{rows}</tbody>
        </table>
        <p class="exercise__verdict" data-testid=format!("{id}-verdict") data-match=all.to_string()>
            {move || i18n.t(if all { Key::ExMatch } else { Key::ExMismatch })}
        </p>
    }
}

/// One blank: its input, and once checked, whether the model's rules accept it.
fn blank_row(i: usize, k: Key, checked: RwSignal<bool>) -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let results = move || lesson.progress.with(|p| lesson::check_blanks(&p.blanks));
    let value = move || {
        lesson
            .progress
            .with(|p| p.blanks.get(i).cloned().unwrap_or_default())
    };
    view! {
        <li class="exercise__blank">
            <label>
                <span>{move || i18n.t(k)}</span>
                <input
                    type="text"
                    autocomplete="off"
                    data-testid=format!("blank-{i}")
                    prop:value=value
                    on:input=move |ev| {
                        let v = event_target_value(&ev);
                        checked.set(false);
                        lesson.progress.update(|p| {
                            if p.blanks.len() < BLANK_KEYS.len() {
                                p.blanks.resize(BLANK_KEYS.len(), String::new());
                            }
                            p.blanks[i] = v;
                        });
                    }
                />
            </label>
            <Show when=move || checked.get()>
                <span class="exercise__mark" data-testid=format!("blank-{i}-result") data-right=move || results()[i].to_string()>
                    {move || i18n.t(if results()[i] { Key::AnswerRight } else { Key::AnswerWrong })}
                </span>
            </Show>
        </li>
    }
}

/// Exercise 1: the blanks, a check button and the score.
fn blanks_exercise() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    let checked = RwSignal::new(false);
    let results = move || lesson.progress.with(|p| lesson::check_blanks(&p.blanks));
    let blanks = BLANK_KEYS
        .iter()
        .enumerate()
        .map(|(i, k)| blank_row(i, *k, checked))
        .collect_view();
    let score = move || {
        i18n.t(Key::Ex1Score)
            .replace("{n}", &results().iter().filter(|r| **r).count().to_string())
    };
    view! {
        <div class="exercise">
            <h2 class="panel__heading">{tr(Key::Ex1Heading)}</h2>
            <ol class="exercise__blanks">{blanks}</ol>
            <button type="button" data-testid="blanks-check" on:click=move |_| checked.set(true)>{tr(Key::Ex1Check)}</button>
            <Show when=move || checked.get()>
                <p data-testid="blanks-score">{score}</p>
            </Show>
        </div>
    }
}

/// Exercise 2: the relay model, run in the model or loaded into the playground.
fn relay_exercise() -> impl IntoView {
    let ctl = use_ctl();
    let ex2 = RwSignal::new(None::<Vec<String>>);
    view! {
        <div class="exercise">
            <h2 class="panel__heading">{tr(Key::Ex2Heading)}</h2>
            <p>{tr(Key::Ex2Intro)}</p>
            <div class="exercise__buttons">
                <button type="button" data-testid="ex2-run" on:click=move |_| ex2.set(Some(lesson::exercise_2_output()))>{tr(Key::ExRun)}</button>
                <button type="button" data-testid="ex2-load" on:click=move |_| ctl.load_preset("exercise-2")>{tr(Key::ExLoad)}</button>
            </div>
            {move || ex2.get().map(|out| compare("ex2", &lesson::EXERCISE_2_EXPECTED, out))}
        </div>
    }
}

/// Exercise 3: the payment inbox, with the balance its last line ends with.
fn inbox_exercise() -> impl IntoView {
    let ctl = use_ctl();
    let ex3 = RwSignal::new(None::<Vec<String>>);
    let balance = move || {
        ex3.get().map(|lines| {
            lines
                .last()
                .and_then(|l| l.rsplit(' ').next().map(str::to_string))
                .unwrap_or_default()
        })
    };
    view! {
        <div class="exercise">
            <h2 class="panel__heading">{tr(Key::Ex3Heading)}</h2>
            <p>{tr(Key::Ex3Intro)}</p>
            <div class="exercise__buttons">
                <button type="button" data-testid="ex3-run" on:click=move |_| ex3.set(Some(lesson::exercise_3_output()))>{tr(Key::ExRun)}</button>
                <button type="button" data-testid="ex3-load" on:click=move |_| ctl.load_preset("exercise-3")>{tr(Key::ExLoad)}</button>
            </div>
            {move || balance().map(|b| view! {
                <p class="exercise__balance">{tr(Key::Balance)}": " <strong data-testid="ex3-balance">{b}</strong></p>
            })}
            {move || ex3.get().map(|out| compare("ex3", &lesson::EXERCISE_3_EXPECTED, out))}
        </div>
    }
}

#[component]
pub fn Exercises() -> impl IntoView {
    view! {
        <section class="exercises" data-testid="exercises">
            {blanks_exercise()}
            {relay_exercise()}
            {inbox_exercise()}
        </section>
    }
}
