//! The run the page opens with: a share link in the address (opened once, then dropped
//! from the address so a reload shows the saved state), else the saved run, else the
//! default preset; a broken link or save is reported, never fatal.

use crate::browser::storage;
use crate::browser::url::clear_fragment;
use crate::i18n::Key;
use crate::playground::ctl::{Notice, DEFAULT_PRESET};
use crate::run::link;
use crate::run::sim::Sim;

fn default_sim() -> Sim {
    Sim::new(outbox_model::preset(DEFAULT_PRESET).expect("the default preset exists"))
}

/// The run the page opens with, and what to tell the user about how it got it.
pub fn startup() -> (Sim, Option<Notice>) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    if link::is_run_fragment(&hash) {
        // The link has done its job once opened: a reload shows the saved state.
        clear_fragment();
        return match link::open(&hash) {
            Ok(sim) => (sim, None),
            Err(e) => (
                default_sim(),
                Some(Notice {
                    key: Key::NoticeBadLink,
                    why: e.to_string(),
                    error: true,
                }),
            ),
        };
    }
    match storage::load() {
        Some(json) => match link::from_json(&json) {
            Ok(sim) => (sim, None),
            Err(e) => {
                storage::clear();
                (
                    default_sim(),
                    Some(Notice {
                        key: Key::NoticeBadSaved,
                        why: e.to_string(),
                        error: true,
                    }),
                )
            }
        },
        None => (default_sim(), None),
    }
}
