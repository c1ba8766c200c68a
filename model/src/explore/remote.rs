//! The explorer as a unit of work another thread can run (issue #22: "Prove it" searches in
//! Web Workers). A [`Search`] names one search — a claim's design, or one cell of the
//! crash-point matrix — small enough to post as a message; [`Searching`] runs it in
//! slices; [`ToWorker`] and [`FromWorker`] are the messages between the page and a worker
//! (or the page's own thread when it has no workers), as text (`wire.rs`).
//!
//! Why here and not in the worker: the protocol is shared by the page (which only sends
//! searches and reads answers, so the search code stays out of its wasm) and the worker
//! (which runs them); and a search's run is plain model code, tested natively like the
//! rest (`tests/explore.rs`). Clocks stay out: the worker times a search and says so in
//! [`FromWorker::Done`].

use super::design::{Bounds, Design};
use super::explorer::Explorer;
use super::matrix::{crash_explorer, matrix_rows, Cell, CellOutcome};
use super::property::{Property, Verdict};

/// One search: the whole bounded space of a design (the claims), or the crash-point
/// matrix's cell at a row (an index into [`matrix_rows`]) and a design.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    Claim { design: Design },
    Cell { row: u16, design: Design },
}

/// What a search found: a claim's verdict for each property (the report's other figures
/// are the page's to leave out; [`FromWorker::Done`] has the states), or a matrix cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Claim(Vec<(Property, Verdict)>),
    /// Boxed: a cell holds its trace in place, ten times a claim's size.
    Cell(Box<Cell>),
}

/// A message to a worker: search `search`, and tag every reply with `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToWorker {
    pub n: u32,
    pub search: Search,
}

/// A message from a worker.
#[derive(Clone, Debug, PartialEq)]
pub enum FromWorker {
    /// The worker's wasm is loaded: it takes searches from now on.
    Ready,
    /// Search `n` has reached `states` states so far.
    Progress { n: u32, states: u64 },
    /// Search `n` is over: its answer, and how long the search itself took in the worker
    /// (from its first to its last state, without the message's way there and back).
    Done {
        n: u32,
        states: u64,
        search_ms: u32,
        answer: Answer,
    },
    /// Search `n` could not start (a message this build does not understand).
    Refused { n: u32, why: String },
    /// The worker's wasm did not load (web/prove-loader.js says so): no search can run.
    Broken { why: String },
}

/// A search under way: call [`Searching::run_slice`] until it returns the answer.
pub struct Searching {
    search: Search,
    /// None: a matrix cell whose design has no such step (answered at once).
    explorer: Option<Explorer>,
}

impl Searching {
    /// Starts `search`; Err names what is wrong with it (a row past the matrix).
    pub fn start(search: Search) -> Result<Searching, String> {
        let explorer = match search {
            Search::Claim { design } => {
                let b = Bounds::default();
                Some(Explorer::new(&design.scenario(&b), &b))
            }
            Search::Cell { row, design } => {
                let rows = matrix_rows();
                let at = *rows
                    .get(usize::from(row))
                    .ok_or_else(|| format!("row {row} is past the matrix's {} rows", rows.len()))?;
                crash_explorer(design, at)
            }
        };
        Ok(Searching { search, explorer })
    }

    /// States reached so far.
    pub fn states(&self) -> u64 {
        self.explorer.as_ref().map_or(0, Explorer::states)
    }

    /// Expands up to `max_states` states; the answer once the search is over.
    pub fn run_slice(&mut self, max_states: usize) -> Option<Answer> {
        let Some(e) = self.explorer.as_mut() else {
            return Some(Answer::Cell(Box::new(Cell {
                outcome: CellOutcome::NotApplicable,
                trace: None,
                states: 0,
            })));
        };
        if !e.run_slice(max_states) {
            return None;
        }
        Some(match self.search {
            Search::Claim { .. } => Answer::Claim(e.report().properties),
            Search::Cell { .. } => Answer::Cell(Box::new(e.cell())),
        })
    }
}

/// Every search of the crash-point matrix, row by row (the page's cell order).
pub fn matrix_searches() -> Vec<Search> {
    (0..matrix_rows().len())
        .flat_map(|row| {
            Design::all().into_iter().map(move |design| Search::Cell {
                row: row as u16,
                design,
            })
        })
        .collect()
}
