//! "Check" played in slices (#40): a shared run can be big (100 000 tasks and 100 000
//! preloaded events are within the page's cap), and a check of a goal that reads the
//! rows' ages may then do its whole work budget (`MAX_CHECK_WORK`). Run in one call it
//! would hold the tab for its whole length; here it runs in short tasks
//! (`browser::slices::run_in_tasks`), so the page keeps drawing, the builder shows how far
//! it is, and "Stop" ends it. It stops too when the builder goes.

use std::cell::Cell;
use std::rc::Rc;

use leptos::prelude::*;
use outbox_model::challenge::{Challenge, CheckReport, SolutionCheck, SolutionRunner};

use crate::browser::slices::{now_ms, run_in_tasks};
use crate::challenge::builder::form::Form;
use crate::challenge::reasons::check_reason;
use crate::i18n::{tr, use_i18n, Key};

/// Units of work between two looks at the clock: a few hundred microseconds of the
/// page's wasm at worst (one unit is a step or one unpublished row read to judge the
/// goal), so a task overruns its deadline by little.
const WORK_PER_LOOK: u64 = 20_000;

/// A check in progress: how far it is in per mille (None: none runs), and whether the
/// instructor asked it to stop.
#[derive(Clone, Copy)]
pub struct Checking {
    pub progress: RwSignal<Option<u64>>,
    stop: RwSignal<bool>,
}

impl Default for Checking {
    fn default() -> Checking {
        Checking {
            progress: RwSignal::new(None),
            stop: RwSignal::new(false),
        }
    }
}

impl Checking {
    /// Checks `challenge` (already read back through the model's reader) into
    /// `form.checked`: the start at once, the solution's run in slices while `owner` lives.
    pub fn start(self, form: Form, owner: Rc<Cell<bool>>, challenge: Challenge) {
        let mut runner = match challenge.start_check() {
            Err(why) => return form.checked.set(Some(Err(check_reason(&why)))),
            Ok(None) => {
                let report = CheckReport {
                    solution: SolutionCheck::Unchecked,
                };
                return form.checked.set(Some(Ok((challenge, report))));
            }
            Ok(Some(runner)) => Some(runner),
        };
        form.checked.set(None);
        self.stop.set(false);
        self.progress.set(Some(0));
        run_in_tasks(owner, move |deadline_ms| {
            let Some(r) = runner.as_mut() else {
                return false;
            };
            if self.stop.get_untracked() {
                self.progress.set(None);
                return false;
            }
            let mut ended = false;
            while !ended && now_ms() < deadline_ms {
                ended = r.advance(WORK_PER_LOOK);
            }
            if !ended {
                self.progress.set(Some(r.progress_per_mille()));
                return true;
            }
            let report = runner.take().map(SolutionRunner::report);
            self.progress.set(None);
            if let Some(report) = report {
                let checked = report
                    .map(|rep| (challenge.clone(), rep))
                    .map_err(|why| check_reason(&why));
                form.checked.set(Some(checked));
            }
            false
        });
    }
}

/// The running check's bar, its percentage and "Stop"; nothing when none runs.
#[component]
pub fn CheckProgress(checking: Checking) -> impl IntoView {
    let i18n = use_i18n();
    let per_mille = move || checking.progress.get().unwrap_or(0);
    let label = move || {
        i18n.t(Key::BuilderChecking)
            .replace("{pct}", &(per_mille() / 10).to_string())
    };
    view! {
        <Show when=move || checking.progress.get().is_some()>
            <div class="builder__checking" data-testid="builder-checking" role="status">
                <progress max="1000" prop:value=move || per_mille() as f64></progress>
                <span data-testid="builder-checking-label">{label}</span>
                <button type="button" data-testid="builder-check-stop"
                    on:click=move |_| checking.stop.set(true)>
                    {tr(Key::BuilderCheckStop)}
                </button>
            </div>
        </Show>
    }
}
