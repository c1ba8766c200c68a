//! Hostile input, end to end (issues #25 and #26): crafted share links, files, saved state
//! and speaker-notes messages against the release build in a real Chromium. Whatever they
//! carry, no script of theirs runs (a payload would set `window.__pwned`; dialogs are
//! watched), the page never shows its panic panel, and each is opened or refused with a
//! notice naming the reason; limits are enforced at once, long replays stay bounded, and
//! what the page exports from such a run carries the texts only as data.
//!
//! Same services as `e2e` (`cargo xtask test`). The tests here run one at a time: several
//! of them measure time, and two Chromiums on two cores would measure each other.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../common/mod.rs"]
mod common;

/// Returns an error (not a panic) when `cond` does not hold.
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+).into());
        }
    };
}

mod channel;
mod exports;
mod files;
mod harness;
mod limits;
mod links;
mod payloads;
mod saved_state;
mod self_check;
mod workshops;
