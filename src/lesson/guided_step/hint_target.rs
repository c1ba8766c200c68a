//! A hint opens where the eye is (#42): the ☠ it names (the one the step's solution arms
//! first, from the model's `lesson::solution`) is marked and, when it is off the screen or
//! under the hint, scrolled to the middle of it; the hint's text itself, in the lesson's
//! card beside the stage, is scrolled into the card's view. Below 80rem the hint floats over
//! the page (style/lesson/guided_step.css), so opening it moves nothing.

use leptos::prelude::*;
use outbox_model::lesson::{solution, STEPS};
use outbox_model::Action;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{Function, Object, Reflect};
use web_sys::Element;

use crate::lesson::ctl::LessonCtl;

/// The attribute that marks the ☠ a hint names (style/stage/stage_fit.css draws it).
const HINTED: &str = "data-hinted";

/// The selector of the ☠ the open step's solution arms first, if it arms one.
fn named_arm(step: usize) -> Option<String> {
    let (_, actions) = solution(STEPS.get(step)?.goal);
    actions.iter().find_map(|a| match a {
        // A step's test id is its name in the model's JSON (stage's `step_id`, which
        // the lesson may not import: it is a floor beside it).
        Action::ArmKill { process, step, .. } => {
            let id = serde_json::to_string(step).ok()?;
            Some(format!(
                "[data-testid=\"arm-{process}-{}\"]",
                id.trim_matches('"')
            ))
        }
        _ => None,
    })
}

fn query(selector: &str) -> Option<Element> {
    document().query_selector(selector).ok().flatten()
}

/// Calls `el.name(arg)` (web-sys's typed bindings for these need features the page does
/// not otherwise use, and a feature change rebuilds every crate on web-sys).
fn call(el: &Element, name: &str, arg: &JsValue) -> Option<JsValue> {
    let f: Function = Reflect::get(el, &name.into()).ok()?.dyn_into().ok()?;
    f.call1(el, arg).ok()
}

/// Scrolls `el` to the middle of the screen when it is not in the upper 70 % of it (the
/// lower part is under the phone's bar and the floating hint); else leaves the page still.
fn reveal(el: &Element) {
    let height = window()
        .inner_height()
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    let rect = call(el, "getBoundingClientRect", &JsValue::UNDEFINED);
    let side = |k: &str| {
        rect.as_ref()
            .and_then(|r| Reflect::get(r, &k.into()).ok())
            .and_then(|v| v.as_f64())
    };
    let (Some(top), Some(bottom)) = (side("top"), side("bottom")) else {
        return;
    };
    if top < 0.0 || bottom > height * 0.7 {
        let opts = Object::new();
        let _ = Reflect::set(&opts, &"block".into(), &"center".into());
        call(el, "scrollIntoView", &opts);
    }
}

/// Marks and reveals what the open hint names; unmarks it when the hint closes.
fn show(step: usize, variant: bool) {
    if let Some(text) = query("[data-testid=lesson-hint-text]") {
        let opts = Object::new();
        let _ = Reflect::set(&opts, &"block".into(), &"nearest".into());
        call(&text, "scrollIntoView", &opts);
    }
    // A variant armed its own ☠: the hint then says "press ▶", not "press ☠" (hand, #42).
    let arm = named_arm(step).filter(|_| !variant).and_then(|s| query(&s));
    if let Some(arm) = arm.filter(|a| a.get_attribute("aria-pressed").as_deref() != Some("true")) {
        let _ = arm.set_attribute(HINTED, "");
        reveal(&arm);
    }
}

/// Follows the hint's toggle and the open step.
pub fn follow_hint(lesson: LessonCtl, variant: Signal<bool>) {
    Effect::new(move |_| {
        let open = lesson.course.hint.get();
        let step = lesson.course.step.get();
        let variant = variant.get();
        if let Some(old) = query(&format!("[{HINTED}]")) {
            let _ = old.remove_attribute(HINTED);
        }
        if open {
            // After the hint's text is drawn.
            request_animation_frame(move || show(step, variant));
        }
    });
}
