//! Opening one event's life from wherever the page names it (#42): the "what just
//! happened" lines and the LOST, duplicate and phantom counters choose the event and ask
//! the details tabs (`app/details.rs`) to show "One event's life", instead of the learner
//! typing its number.

use leptos::prelude::*;
use outbox_model::happened::happened;
use outbox_model::view::Trouble;

use crate::ctl::Ctl;

/// The details tab of one event's life (its name in `app/details.rs`'s `TABS`).
pub const LIFE_TAB: &str = "life";

impl Ctl {
    /// Shows event `h-e`'s life in its tab.
    pub fn open_event(&self, e: u32) {
        self.selected_event.set(Some(e));
        self.show_tab.set(Some(LIFE_TAB));
    }

    /// Shows the life of the first event with this trouble (a counter's click); false
    /// when there is none.
    pub fn open_trouble(&self, t: Trouble) -> bool {
        let first = self.with_world(|w| happened(w).events(t).first().copied());
        if let Some(e) = first {
            self.open_event(e.0);
        }
        first.is_some()
    }
}
