//! A small chart of the counters over the run: delivered, lost and the duplicates, drawn
//! from the samples the run keeps (so it follows the timeline when you scrub); with two
//! relays or more, also their lock waits and the events published per 100 ticks (#43:
//! SKIP LOCKED's reason).

use leptos::prelude::*;

use crate::ctl::use_ctl;
use crate::i18n::{tr, use_i18n, Key};
use crate::run::sim::Sample;

const W: u64 = 300;
const H: u64 = 120;

struct Series {
    label: Key,
    class: &'static str,
    get: fn(&Sample) -> u64,
}

const SERIES: [Series; 4] = [
    Series {
        label: Key::CDelivered,
        class: "chart__line--ok",
        get: |s| s.deliveries,
    },
    Series {
        label: Key::CLost,
        class: "chart__line--lost",
        get: |s| s.lost,
    },
    Series {
        label: Key::CDupDeliveries,
        class: "chart__line--dup",
        get: |s| s.duplicate_deliveries,
    },
    Series {
        label: Key::CDupEffects,
        class: "chart__line--dupe",
        get: |s| s.duplicate_effects,
    },
];

/// Drawn only when a run has two relays or more (one relay never waits on another).
const RELAY_SERIES: [Series; 2] = [
    Series {
        label: Key::CLockWaits,
        class: "chart__line--wait",
        get: |s| s.lock_wait_ticks,
    },
    Series {
        label: Key::CThroughput,
        class: "chart__line--rate",
        get: |s| s.published_per_100_ticks,
    },
];

/// The series a run draws.
fn series(relays: bool) -> impl Iterator<Item = &'static Series> + Clone {
    let extra: &'static [Series] = if relays { &RELAY_SERIES } else { &[] };
    SERIES.iter().chain(extra)
}

/// SVG polyline points for one series, scaled to the chart (integer maths: the page
/// carries no float formatting code for this).
fn points(samples: &[Sample], get: fn(&Sample) -> u64, max_y: u64) -> String {
    let max_x = samples.last().map_or(1, |s| s.pos.max(1));
    let max_y = max_y.max(1);
    let mut out = String::new();
    for s in samples {
        let x = s.pos * W / max_x;
        let y = H - 2 - get(s).min(max_y) * (H - 4) / max_y;
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&x.to_string());
        out.push(',');
        out.push_str(&y.to_string());
    }
    out
}

#[component]
pub fn Chart() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    let relays = move || {
        ctl.scenario_version.track();
        ctl.with_scenario(|s| s.config.relays >= 2)
    };
    let lines = move || {
        ctl.summary_beat.track();
        let relays = relays();
        ctl.with_samples(|samples| {
            let max_y = samples
                .iter()
                .flat_map(|s| series(relays).map(move |r| (r.get)(s)))
                .max()
                .unwrap_or(1);
            series(relays)
                .map(|r| {
                    view! { <polyline class=format!("chart__line {}", r.class) points=points(samples, r.get, max_y)/> }
                })
                .collect_view()
        })
    };
    let legend = move || {
        series(relays())
            .map(|r| {
                view! {
                    <li class="chart__key">
                        <svg class="chart__swatch" viewBox="0 0 24 8" aria-hidden="true">
                            <line class=format!("chart__line {}", r.class) x1="0" y1="4" x2="24" y2="4"/>
                        </svg>
                        {move || i18n.t(r.label)}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <figure class="chart" data-testid="chart">
            <svg
                class="chart__plot"
                viewBox=format!("0 0 {W} {H}")
                preserveAspectRatio="none"
                role="img"
                aria-label=tr(Key::ChartLabel)
            >
                {lines}
            </svg>
            <figcaption>
                <ul class="chart__legend">{legend}</ul>
            </figcaption>
        </figure>
    }
}
