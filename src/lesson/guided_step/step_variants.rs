//! The variants a step offers: other presets that make the same point. A loaded variant
//! says which ☠ it armed (#42): the step's hint asks for a ☠ the variant may already have
//! armed, and pressing an armed ☠ disarms it.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;

use crate::ctl::Ctl;
use crate::i18n::words::{preset_text, standing_kills};
use crate::i18n::{tr, use_i18n, I18n, Key};
use crate::lesson::ctl::use_lesson;

/// The kills the loaded variant of this step armed, in words; empty when the run is not
/// one of the step's variants or it arms none (tracked: follows the scenario and the
/// language).
pub fn variant_kills(ctl: Ctl, i18n: I18n, variants: &[&str]) -> Vec<String> {
    ctl.scenario_version.track();
    let lang = i18n.lang();
    ctl.with_scenario(|s| {
        if variants.contains(&s.name.as_str()) {
            standing_kills(lang, s)
        } else {
            Vec::new()
        }
    })
}

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
                    {move || {
                        let kills = variant_kills(lesson.ctl, i18n, st.variants);
                        (!kills.is_empty()).then(|| view! {
                            <p class="lesson__variant-armed" data-testid="variant-armed">
                                {i18n.t(Key::VariantArmed).replace("{kills}", &kills.join("; "))}
                            </p>
                        })
                    }}
                </div>
            }
        })
    }
}
