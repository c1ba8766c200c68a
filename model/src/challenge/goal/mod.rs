//! The goal of an instructor's own challenge (issue #23), as a small text language the
//! model parses and judges: `(api == dual_write_db_first || api == dual_write_queue_first)
//! && lost >= 1`.
//!
//! Why a language and not a list of built-in goals: an instructor writes a scenario and a
//! goal without touching Rust, and the page must judge it from the world exactly as it
//! judges the lesson's own steps (`lesson::reached`), never from what the page thinks
//! happened. Every built-in lesson goal can be written in it ([`super::lesson_goal_text`]).
//!
//! The names are the model's own JSON names (counters, config keys, enum values, process
//! kinds, steps, script statements), the same in every page language. Errors carry a
//! byte offset and a kind with a stable [`GoalErrorKind::code`] the page translates; their
//! `Display` (English) is for logs and tests only.
//!
//! The text comes from a file or a link, so parsing is bounded: at most
//! [`MAX_TEXT_BYTES`] bytes, [`MAX_CONDITIONS`] conditions and [`MAX_DEPTH`] nested
//! parentheses (the recursion's bound), and no input panics.
//!
//! ```text
//! goal    = any
//! any     = all ("||" all)*
//! all     = atom ("&&" atom)*
//! atom    = "(" any ")" | "settled" | subject op value
//!         | "killed" "(" kind "," step ")" | "refused" "(" stmt "," sqlstate ")"
//!         | "refused_by_hand" "(" stmt "," sqlstate ")" | symptom "(" cause ")"
//! subject = counter | "tasks_total" | "kill_steps" "(" kind ")" | config key
//! symptom = "lost_by" | "phantom_by" | "aborted_by"
//!         | "duplicate_effect_by" | "redelivered_by" | "republished_by"
//! cause   = ("kill" | "ran") "(" kind ["," step] ")"
//!         | "redis_flush" | "redis_restart" | "stalled" | "operator"
//! ```
//!
//! Goals by cause (#41): `lost_by(kill(api, queue_add))` holds when an event is lost and
//! the act that made it lost was a kill of the API at its `queue_add` step (after COMMIT,
//! before `queue.add`) — not when the API was merely killed there and something else was
//! lost. `lost_by`, `phantom_by` and `aborted_by` name the act that changed the event's
//! class; `duplicate_effect_by`, `redelivered_by` and `republished_by` name the first blow
//! (a kill or a fault that touched the event) after its previous effect, delivery or
//! `queue.add`, when another one followed. `ran(kind, step)` is a process's own step, no
//! fault. `refused_by_hand` counts only a statement the learner stepped by hand.
//!
//! The parts: the syntax tree and the names it reads (`ast.rs`), the lexer and parser
//! (`parse.rs`), judging against a world (`eval.rs`) and the canonical text (`text.rs`).

mod ast;
mod error;
mod eval;
mod parse;
mod text;

pub use error::{GoalError, GoalErrorKind, MAX_CONDITIONS, MAX_DEPTH, MAX_TEXT_BYTES};

use crate::world::World;
use ast::Expr;
use error::err;

use std::str::FromStr;

/// A parsed goal. Two goals are equal when their canonical texts are: whitespace,
/// redundant parentheses and the grouping of `a && b && c` do not count.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    expr: Expr,
}

impl Goal {
    /// Parses a goal (see the module's grammar).
    pub fn parse(text: &str) -> Result<Goal, GoalError> {
        if text.len() > MAX_TEXT_BYTES {
            return Err(err(
                MAX_TEXT_BYTES,
                GoalErrorKind::TooLong {
                    max: MAX_TEXT_BYTES,
                },
            ));
        }
        if text.bytes().all(|b| b.is_ascii_whitespace()) {
            return Err(err(0, GoalErrorKind::Empty));
        }
        let goal = Goal {
            expr: parse::expr(text)?,
        };
        // Spaces around operators can make the canonical text longer than the input: it
        // must parse again (round trip), so it is held to the same limit.
        if goal.to_string().len() > MAX_TEXT_BYTES {
            let max = MAX_TEXT_BYTES;
            return Err(err(text.len(), GoalErrorKind::TooLong { max }));
        }
        Ok(goal)
    }

    /// Whether the world shows the goal reached. The counters that walk every unpublished
    /// row are read only by a goal that names them ([`Goal::reads_ages`]).
    pub fn holds(&self, w: &World) -> bool {
        let c = if self.reads_ages() {
            w.counters()
        } else {
            w.counters_without_ages()
        };
        eval::eval(&self.expr, w, &c)
    }

    /// Whether the goal reads `stuck` or `oldest_unpublished_age_ticks`: judging it walks
    /// every unpublished row (`World::counters`), the others cost the same at any size.
    pub fn reads_ages(&self) -> bool {
        eval::reads_ages(&self.expr)
    }

    /// How many conditions the goal has.
    pub fn conditions(&self) -> usize {
        ast::count_conditions(&self.expr)
    }
}

impl FromStr for Goal {
    type Err = GoalError;
    fn from_str(s: &str) -> Result<Goal, GoalError> {
        Goal::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::ast::{from_name, name_of, Cond, COUNTERS};
    use super::parse::joined;
    use super::*;
    use crate::action::{ProcKind, Step};
    use crate::db::LockMode;
    use crate::scenario::{ApiMode, ScriptStmt};
    use crate::world::Counters;

    #[test]
    fn counters_are_every_field_by_its_json_name() {
        // Each field gets a different value, read back through the table.
        let names: Vec<&str> = COUNTERS.iter().map(|(n, _)| *n).collect();
        let json: serde_json::Map<String, serde_json::Value> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.to_string(), serde_json::Value::from(i as u64 + 1)))
            .collect();
        let c: Counters = serde_json::from_value(serde_json::Value::Object(json)).unwrap();
        for (i, (n, read)) in COUNTERS.iter().enumerate() {
            assert_eq!(read(&c), i as u64 + 1, "{n}");
        }
        let keys: Vec<String> = match serde_json::to_value(&c).unwrap() {
            serde_json::Value::Object(m) => m.keys().cloned().collect(),
            other => panic!("{other:?}"),
        };
        let mut sorted = names.clone();
        sorted.sort();
        let mut keys_sorted = keys.clone();
        keys_sorted.sort();
        assert_eq!(sorted, keys_sorted, "every counter, no other name");
    }

    #[test]
    fn names_are_the_serde_names_both_ways() {
        assert_eq!(name_of(&ApiMode::DualWriteDbFirst), "dual_write_db_first");
        assert_eq!(
            from_name::<LockMode>("skip_locked"),
            Some(LockMode::SkipLocked)
        );
        assert_eq!(from_name::<Step>("save_offset"), Some(Step::SaveOffset));
        assert_eq!(from_name::<Step>("script"), None);
        assert_eq!(from_name::<ProcKind>("Api"), None);
        assert_eq!(
            name_of(&ScriptStmt::SelectCountOutbox),
            "select_count_outbox"
        );
    }

    #[test]
    fn joined_flattens_only_its_own_kind() {
        let a = Expr::Cond(Cond::Settled);
        let inner = Expr::Any(vec![a.clone(), a.clone()]);
        assert_eq!(joined(vec![inner.clone()], false), inner);
        let e = joined(vec![a.clone(), inner.clone()], true);
        assert_eq!(e, Expr::Any(vec![a.clone(), a.clone(), a.clone()]));
        let e = joined(vec![a.clone(), inner.clone()], false);
        assert_eq!(e, Expr::All(vec![a, inner]));
    }
}
