//! The variants a step offers: other presets that make the same point.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::i18n::words::preset_text;
use crate::i18n::{tr, use_i18n, Key};
use crate::lesson::ctl::use_lesson;

#[component]
pub fn StepVariants() -> impl IntoView {
    let lesson = use_lesson();
    let i18n = use_i18n();
    move || {
        let st = &STEPS[lesson.course.step.get()];
        (!st.variants.is_empty()).then(|| {
            view! {
                <div class="lesson__variants">
                    <span>{tr(Key::Variants)}</span>
                    {st.variants.iter().map(|v| {
                        let v: &'static str = v;
                        view! {
                            <button type="button" data-testid=format!("variant-{v}") on:click=move |_| lesson.variant(v)>
                                {move || preset_text(v).map(|p| p.title(i18n.lang())).unwrap_or(v)}
                            </button>
                        }
                    }).collect_view()}
                </div>
            }
        })
    }
}
