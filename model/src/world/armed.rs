//! The kill and delay rules armed in a world (`Fault::Kill`, `Fault::Delay`): which
//! process, at which step, when, and how often they have fired.

use crate::action::{Step, When};
use crate::ids::ProcId;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ArmedKill {
    pub proc: ProcId,
    pub step: Step,
    pub when: When,
    /// Fires left (None: no limit); for a per-task rule, each task's budget.
    pub remaining: Option<u32>,
    pub reached: u32,
    /// A per-task rule (`Fault::Kill { per_task: true }`): how often it fired, as
    /// (task index, fires) sorted by task (a Vec, not a map: the page's wasm is at its cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub per_task: Option<Vec<(u32, u32)>>,
}

/// A delay rule: `proc` stalls `ticks` ticks on reaching `step` when `when` holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct ArmedDelay {
    pub proc: ProcId,
    pub step: Step,
    pub when: When,
    pub ticks: u64,
    pub remaining: Option<u32>,
    pub reached: u32,
}
