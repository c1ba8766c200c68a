//! A run out of the page and back in: download it as a trace (JSON), as its scenario, or
//! as the text of a Rust `#[test]` that replays it with `outbox-model`; import a trace, a
//! saved run or a scenario from a file. A bad file gets a message and changes nothing.

use leptos::prelude::*;
use outbox_model::explore::{to_rust_test, Trace};
use outbox_model::{Action, Scenario};

use crate::browser::file::{read_chosen, set_href};
use crate::browser::url::data_url;
use crate::ctl::{use_ctl, Ctl, Notice};
use crate::i18n::{tr, Key, Reason};
use crate::run::sim::{Input, Run, Sim, MAX_ATOMS};

/// Longest run offered as a trace (each tick is one action in it).
pub const MAX_TRACE_ACTIONS: u64 = 20_000;

/// The run as a replayable trace, if it is short enough.
pub fn trace_of(sim: &Sim) -> Option<Trace> {
    let mut actions = Vec::new();
    for i in sim.inputs() {
        match i {
            Input::Ticks(n) => {
                if actions.len() as u64 + n > MAX_TRACE_ACTIONS {
                    return None;
                }
                actions.extend(std::iter::repeat_n(Action::Tick, *n as usize));
            }
            Input::Act(a) => actions.push(a.clone()),
        }
    }
    Some(Trace {
        scenario: sim.scenario().clone(),
        actions,
        property: None,
        final_counters: sim.world().counters(),
    })
}

/// Reads a file's text as a trace, a saved run, or a bare scenario; the run it holds.
pub fn import(text: &str) -> Result<Sim, Reason> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| Reason::json(&e))?;
    let obj = value
        .as_object()
        .ok_or_else(|| Reason::new(Key::ReasonNotAnObject))?;
    if obj.contains_key("actions") {
        let trace = Trace::from_json(text).map_err(|e| Reason::scenario(&e))?;
        Sim::check(&trace.scenario).map_err(|e| e.reason())?;
        if trace.actions.len() as u64 > MAX_ATOMS {
            return Err(Reason::new(Key::ReasonTraceTooLong)
                .arg("n", trace.actions.len())
                .arg("max", MAX_ATOMS));
        }
        let mut sim = Sim::new(trace.scenario.clone());
        for (i, a) in trace.actions.iter().enumerate() {
            sim.act(a.clone()).map_err(|e| {
                leptos::logging::warn!("trace action {}: {e}", i + 1);
                Reason::new(Key::ReasonTraceAction).arg("n", i + 1)
            })?;
        }
        if sim.world().counters() != trace.final_counters {
            return Err(Reason::new(Key::ReasonTraceCounters));
        }
        Ok(sim)
    } else if obj.contains_key("v") {
        let run: Run = serde_json::from_str(text).map_err(|e| Reason::json(&e))?;
        Sim::from_run(&run).map_err(|e| e.reason())
    } else {
        let s = Scenario::from_json(text).map_err(|e| Reason::scenario(&e))?;
        Sim::check(&s).map_err(|e| e.reason())?;
        Ok(Sim::new(s))
    }
}

/// The file chosen in the import field: opened and reported ("loaded" only once it is
/// saved, too); a file too big or unreadable changes nothing.
fn import_file(ctl: Ctl, ev: &leptos::ev::Event) {
    read_chosen(ev, move |text| {
        let notice = match text {
            Err(why) if why.key == Key::ReasonFileTooBig => {
                Notice::error(Key::NoticeFileTooBig, why)
            }
            text => match text.and_then(|t| import(&t)) {
                Ok(sim) => match ctl.replace(sim) {
                    Ok(()) => Notice::info(Key::NoticeImported, ""),
                    Err(why) => Notice::error(Key::NoticeImportedNotSaved, why),
                },
                Err(why) => Notice::error(Key::NoticeBadTrace, why),
            },
        };
        let _ = ctl.notice.try_set(Some(notice));
    });
}

#[component]
pub fn TraceIo() -> impl IntoView {
    let ctl = use_ctl();
    // The run's length is cheap to follow; the files themselves are made only when a
    // link is clicked (a big JSON string 4 times a second would cost frames).
    let too_long = Memo::new(move |_| {
        ctl.history_beat.track();
        ctl.with_inputs(|inputs| {
            inputs
                .iter()
                .map(|i| match i {
                    Input::Ticks(n) => *n,
                    Input::Act(_) => 1,
                })
                .sum::<u64>()
                > MAX_TRACE_ACTIONS
        })
    });
    let trace_click = move |ev: leptos::ev::MouseEvent| match ctl.with_sim(trace_of) {
        Some(t) => set_href(&ev, data_url(&t.to_json())),
        None => ev.prevent_default(),
    };
    let test_click = move |ev: leptos::ev::MouseEvent| match ctl.with_sim(trace_of) {
        Some(t) => set_href(
            &ev,
            data_url(&to_rust_test(&t, "replays_the_playground_run")).replacen(
                "application/json",
                "text/x-rust",
                1,
            ),
        ),
        None => ev.prevent_default(),
    };
    let scenario_click = move |ev: leptos::ev::MouseEvent| {
        set_href(&ev, data_url(&ctl.with_scenario(|s| s.to_json())))
    };
    let on_file = move |ev: leptos::ev::Event| import_file(ctl, &ev);
    view! {
        <div class="trace-io" data-testid="trace-io">
            <h3 class="proof__subheading">{tr(Key::IoHeading)}</h3>
            <div class="trace-io__row">
                <a class="button" download="outbox-trace.json" data-testid="export-trace" href="#" on:click=trace_click>{tr(Key::IoTrace)}</a>
                <a class="button" download="outbox_trace_test.rs" data-testid="export-test" href="#" on:click=test_click>{tr(Key::IoRustTest)}</a>
                <a class="button" download="outbox-scenario.json" data-testid="export-scenario" href="#" on:click=scenario_click>{tr(Key::IoScenario)}</a>
                <label class="trace-io__import">
                    {tr(Key::IoImport)}
                    <input type="file" accept=".json,application/json" data-testid="import-file" on:change=on_file/>
                </label>
            </div>
            <Show when=move || too_long.get()>
                <p>{tr(Key::IoTooLong)}</p>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_goes_out_as_a_trace_and_comes_back_the_same() {
        let mut s = outbox_model::preset("canon-dual-write").unwrap();
        s.workload.tasks = 5;
        let mut sim = Sim::new(s);
        sim.ticks(40);
        let t = trace_of(&sim).expect("a short run is a trace");
        let back = import(&t.to_json()).expect("imports");
        assert_eq!(back.world().counters(), sim.world().counters());
        // A saved run and a bare scenario import too.
        assert!(import(&crate::run::link::to_json(&sim.to_run())).is_ok());
        assert!(import(&sim.scenario().to_json()).is_ok());
    }

    #[test]
    fn a_playground_run_becomes_a_rust_test_text() {
        // The page's runs hold armed kills and scheduler ticks, not only steps and kills:
        // the generator writes those as JSON actions (it once panicked on them).
        let mut s = outbox_model::preset("canon-dual-write").unwrap();
        s.workload.tasks = 4;
        let mut sim = Sim::new(s);
        sim.act(Action::ArmKill {
            process: "api".into(),
            step: outbox_model::Step::QueueAdd,
            when: outbox_model::scenario::When::Nth { n: 1 },
            times: Some(1),
        })
        .unwrap();
        sim.ticks(30);
        let text = to_rust_test(&trace_of(&sim).unwrap(), "replays");
        assert!(text.contains("fn replays()"));
        assert!(text.contains("Action::Tick"));
        assert!(text.contains("\"action\":\"arm_kill\""), "{text}");
    }

    #[test]
    fn bad_files_say_why() {
        assert_eq!(import("not json").unwrap_err().key, Key::ReasonJsonSyntax);
        assert_eq!(import("[1, 2]").unwrap_err().key, Key::ReasonNotAnObject);
        let mut s = outbox_model::preset("canon-dual-write").unwrap();
        s.workload.tasks = 2;
        let mut t = trace_of(&Sim::new(s)).unwrap();
        t.actions.push(Action::Kill {
            process: "nobody".into(),
        });
        assert!(import(&t.to_json()).is_err());
        t.actions.clear();
        t.final_counters.lost = 7;
        assert_eq!(
            import(&t.to_json()).unwrap_err().key,
            Key::ReasonTraceCounters
        );
    }
}

#[cfg(test)]
mod limits {
    use super::*;

    #[test]
    fn hostile_files_are_refused_with_a_reason_never_a_panic() {
        let scenario = outbox_model::preset("canon-dual-write").unwrap().to_json();
        let ticks = vec!["\"tick\""; (MAX_ATOMS + 1) as usize].join(",");
        for text in [
            String::new(),
            "\u{0}".into(),
            "[]".into(),
            "{\"v\":99}".into(),
            format!("{{\"v\":1,\"scenario\":{scenario},\"inputs\":[{{\"ticks\":8000}}]}}"),
            format!("{{\"scenario\":{scenario},\"actions\":[{ticks}],\"final_counters\":{{}}}}"),
        ] {
            assert!(import(&text).is_err(), "{}", &text[..text.len().min(80)]);
        }
    }
}
