//! The crash-point matrix: for each design and each labelled step of each process, the
//! worst outcome of killing that process exactly there, over every interleaving.

use super::choice::{OBS_DUP_DELIVERY, OBS_DUP_EFFECT, OBS_LOST, OBS_PHANTOM, OBS_TERMINAL};
use super::design::{Bounds, Design};
use super::explorer::Explorer;
use super::trace::Trace;
use crate::world::{program, ProcKind, Step};
use serde::{Deserialize, Serialize};

/// A crash point's worst outcome, worst first: a lost event outranks a duplicated
/// effect (data that never arrives cannot be repaired by the consumer), which outranks
/// a phantom (an event for a task that does not exist: wrong, but detectable by the
/// consumer looking for the row), which outranks a duplicate delivery (harmless behind
/// an idempotent consumer); `Fine` means no schedule after the kill shows any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CellOutcome {
    Lost,
    DuplicateEffect,
    Phantom,
    DuplicateDelivery,
    Fine,
    /// The process never reaches that step in this design (or there is no such process).
    NotApplicable,
}

impl CellOutcome {
    /// Every outcome, worst first (the order of [`Explorer::cell`]'s search).
    pub fn all() -> [CellOutcome; 6] {
        [
            CellOutcome::Lost,
            CellOutcome::DuplicateEffect,
            CellOutcome::Phantom,
            CellOutcome::DuplicateDelivery,
            CellOutcome::Fine,
            CellOutcome::NotApplicable,
        ]
    }

    pub fn name(self) -> &'static str {
        match self {
            CellOutcome::Lost => "lost",
            CellOutcome::DuplicateEffect => "duplicate_effect",
            CellOutcome::Phantom => "phantom",
            CellOutcome::DuplicateDelivery => "duplicate_delivery",
            CellOutcome::Fine => "fine",
            CellOutcome::NotApplicable => "not_applicable",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    pub outcome: CellOutcome,
    /// The shortest schedule showing the outcome (for `Fine`: the shortest one that ends
    /// after the kill).
    pub trace: Option<Trace>,
    /// States the cell's search reached.
    pub states: u64,
}

/// The process a matrix row kills: the first of its kind.
pub fn row_process(kind: ProcKind) -> &'static str {
    match kind {
        ProcKind::Client => "client",
        ProcKind::Api => "api",
        ProcKind::Relay => "relay-1",
        ProcKind::Worker => "worker-1",
        ProcKind::Session => "psql",
        ProcKind::Cdc => "cdc",
        ProcKind::Cleaner => "cleaner",
    }
}

/// Every labelled step of every process of the five designs: client, API, relay and
/// worker rows, each kind's steps in program order (the designs' programs merged).
pub fn matrix_rows() -> Vec<(ProcKind, Step)> {
    let b = Bounds::matrix();
    let mut rows = Vec::new();
    for kind in [
        ProcKind::Client,
        ProcKind::Api,
        ProcKind::Relay,
        ProcKind::Worker,
    ] {
        let mut steps: Vec<Step> = Vec::new();
        for d in Design::all() {
            let s = d.scenario(&b);
            let prog = program(kind, &s.config, 0);
            let mut after: Option<usize> = None;
            for st in prog {
                match steps.iter().position(|&x| x == st) {
                    Some(p) => after = Some(p),
                    None => {
                        let at = after.map_or(0, |p| p + 1);
                        steps.insert(at, st);
                        after = Some(at);
                    }
                }
            }
        }
        rows.extend(steps.into_iter().map(|s| (kind, s)));
    }
    rows
}

/// A crash-point explorer for one cell (None: the design has no such process), for a
/// page that runs cells in slices.
pub fn crash_explorer(design: Design, row: (ProcKind, Step)) -> Option<Explorer> {
    let b = Bounds::matrix();
    let s = design.scenario(&b);
    if !program(row.0, &s.config, 0).contains(&row.1) {
        return None;
    }
    Explorer::crash_point(&s, &b, row_process(row.0), row.1)
}

/// The outcome of killing the row's process exactly when its next step is the row's step,
/// over every interleaving of [`Bounds::matrix`]'s world.
pub fn crash_cell(design: Design, row: (ProcKind, Step)) -> Cell {
    match crash_explorer(design, row) {
        None => Cell {
            outcome: CellOutcome::NotApplicable,
            trace: None,
            states: 0,
        },
        Some(mut e) => {
            e.run();
            e.cell()
        }
    }
}

impl Explorer {
    /// The crash-point answer: the worst outcome seen after the kill, with its shortest
    /// trace (see [`CellOutcome`] for the order).
    pub fn cell(&self) -> Cell {
        let states = self.states();
        for (obs, outcome) in [
            (OBS_LOST, CellOutcome::Lost),
            (OBS_DUP_EFFECT, CellOutcome::DuplicateEffect),
            (OBS_PHANTOM, CellOutcome::Phantom),
            (OBS_DUP_DELIVERY, CellOutcome::DuplicateDelivery),
            (OBS_TERMINAL, CellOutcome::Fine),
        ] {
            if let Some(t) = self.trace(obs, outcome.name()) {
                return Cell {
                    outcome,
                    trace: Some(t),
                    states,
                };
            }
        }
        Cell {
            outcome: CellOutcome::NotApplicable,
            trace: None,
            states,
        }
    }
}
