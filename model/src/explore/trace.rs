//! Counterexamples as replayable schedules: a [`Trace`] (its JSON is the trace file format
//! and must not change), its text form, and the `#[test]` generated from it.

use super::rust_text;
use crate::scenario::{Scenario, ScenarioError};
use crate::world::{Action, Counters, Step, World};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A schedule that replays: `World::new(&scenario)`, then `apply` each action in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trace {
    pub scenario: Scenario,
    pub actions: Vec<Action>,
    /// The property this trace breaks (or the crash-point outcome it shows).
    pub property: Option<String>,
    pub final_counters: Counters,
}

impl Trace {
    /// Parses and checks a trace: the scenario must validate and every action must name a
    /// process of it. Errors name the field, as [`Scenario::from_json`]'s do.
    pub fn from_json(text: &str) -> Result<Trace, ScenarioError> {
        let t: Trace = crate::scenario::parse_naming_the_field(text)?;
        t.scenario.validate().map_err(|e| ScenarioError {
            field: format!("scenario.{}", e.field),
            message: e.message,
            limit: e.limit,
        })?;
        let session = !t.scenario.script.is_empty();
        for (i, a) in t.actions.iter().enumerate() {
            if let Some(p) = a.process() {
                if crate::world::proc_index(&t.scenario.config, p, session).is_none() {
                    return Err(ScenarioError {
                        field: format!("actions[{i}].process"),
                        message: format!("no process named {p:?} in this configuration"),
                        limit: None,
                    });
                }
            }
        }
        Ok(t)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("trace serialises")
    }

    /// Replays the actions; an action the world refuses is an error naming it.
    pub fn replay(&self) -> Result<World, String> {
        let mut w = World::new(&self.scenario);
        for (i, a) in self.actions.iter().enumerate() {
            w.apply(a)
                .map_err(|e| format!("action {} ({}): {e}", i + 1, action_text(a)))?;
        }
        Ok(w)
    }

    /// Replays and checks that the final counters are the recorded ones.
    pub fn verify(&self) -> Result<World, String> {
        let w = self.replay()?;
        let c = w.counters();
        if c != self.final_counters {
            return Err(format!(
                "replayed counters differ: {c:?} != {:?}",
                self.final_counters
            ));
        }
        Ok(w)
    }

    /// One action per line, each with the step it ran (or the step a kill hit), then the
    /// final counters that matter.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let s = &self.scenario;
        out.push_str(&format!(
            "{} ({} action{}){}\n",
            s.name,
            self.actions.len(),
            if self.actions.len() == 1 { "" } else { "s" },
            self.property
                .as_ref()
                .map(|p| format!(": {p}"))
                .unwrap_or_default()
        ));
        let mut w = World::new(s);
        for (i, a) in self.actions.iter().enumerate() {
            let at = a
                .process()
                .and_then(|p| w.find(p))
                .map(|p| w.procs[p.0 as usize].pc);
            let label = match (a, at) {
                (Action::Step { .. }, Some(step)) => step_name(step),
                (Action::Kill { .. }, Some(step)) => format!("at {}", step_name(step)),
                _ => String::new(),
            };
            out.push_str(&format!("{:>3}. {:<22} {label}\n", i + 1, action_text(a)));
            let _ = w.apply(a);
        }
        let c = &self.final_counters;
        out.push_str(&format!(
            "final: tasks_in_db {} · queue_jobs {} · deliveries {} · effects {} · lost {} · duplicate_deliveries {} · duplicate_effects {} · phantoms {}\n",
            c.tasks_in_db, c.queue_jobs, c.deliveries, c.effects, c.lost,
            c.duplicate_deliveries, c.duplicate_effects, c.phantoms
        ));
        out
    }
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// `step api`, `kill relay-1`, `restart worker-1`, …
pub fn action_text(a: &Action) -> String {
    match a {
        Action::Step { process } => format!("step {process}"),
        Action::Kill { process } => format!("kill {process}"),
        Action::Restart { process } => format!("restart {process}"),
        Action::Tick => "tick".into(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// A step's snake_case name, as the scenario format spells it.
pub fn step_name(s: Step) -> String {
    serde_json::to_value(s)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| format!("{s:?}"))
}

/// The text of a `#[test]` that replays `t` with `outbox_model` and asserts its final
/// counters (every field, so a change to the model that changes the outcome fails it).
pub fn to_rust_test(t: &Trace, test_name: &str) -> String {
    let mut out = String::new();
    out.push_str("// Generated by outbox_model::explore::to_rust_test; do not edit by hand.\n");
    // The scenario's name and the property come from a file or a link: only as comment
    // text with no line break (rust_text::comment_text).
    out.push_str(&format!(
        "// {}: {} action(s){}.\n",
        rust_text::comment_text(&t.scenario.name),
        t.actions.len(),
        t.property
            .as_ref()
            .map(|p| format!(", breaks `{}`", rust_text::comment_text(p)))
            .unwrap_or_default()
    ));
    out.push_str("\nuse outbox_model::{Action, Counters, Scenario, World};\n\n");
    out.push_str("#[test]\n");
    out.push_str(&format!("fn {}() {{\n", rust_text::identifier(test_name)));
    out.push_str(&format!(
        "    let scenario = Scenario::from_json(\n        {},\n    )\n    .expect(\"scenario\");\n",
        rust_text::raw_json_literal(&t.scenario.to_json())
    ));
    out.push_str("    let actions = [\n");
    for a in &t.actions {
        out.push_str(&action_source(a));
    }
    out.push_str("    ];\n");
    out.push_str("    let mut world = World::new(&scenario);\n");
    out.push_str("    for a in &actions {\n");
    out.push_str("        world.apply(a).expect(\"the trace replays\");\n");
    out.push_str("    }\n");
    out.push_str("    let expected = Counters {\n");
    let v = serde_json::to_value(&t.final_counters).expect("counters serialise");
    if let serde_json::Value::Object(m) = v {
        for (k, v) in m {
            out.push_str(&format!("        {k}: {v},\n"));
        }
    }
    out.push_str("    };\n");
    out.push_str("    assert_eq!(world.counters(), expected);\n");
    out.push_str("}\n");
    out
}

/// One element of the generated `actions` array. Process names are user text: they are
/// written as escaped string literals, and any other action as its JSON in a raw string.
fn action_source(a: &Action) -> String {
    let (variant, process) = match a {
        Action::Tick => return "        Action::Tick,\n".to_string(),
        Action::Step { process } => ("Step", process),
        Action::Kill { process } => ("Kill", process),
        Action::Restart { process } => ("Restart", process),
        // Any other action (a playground run's armed kills, faults, operator
        // actions) is written as its JSON, which the model reads back.
        other => {
            let json = serde_json::to_string(other).expect("actions serialise");
            return format!(
                "        serde_json::from_str::<Action>({}).expect(\"action\"),\n",
                rust_text::raw_json_literal(&json)
            );
        }
    };
    format!(
        "        Action::{variant} {{\n            process: {}.into(),\n        }},\n",
        rust_text::str_literal(process)
    )
}
