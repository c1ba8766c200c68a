//! Instructors' own challenges and workshops (#23) in the page: their links
//! (`#challenge=`, `#workshop=`), the open workshop's controller and its card, the builder
//! that makes and checks a challenge from the current run, and the QR code a room opens
//! it from. The format, the goal language and the checks are the model's
//! (`outbox_model::challenge`); this only shows and shares.
//!
//! Not mounted yet: linked into the page, these parts made its wasm 78 KB gzip larger
//! (454 → 533 KB; measured 2026-12-06) against the 480 KB cap of the whole first load
//! (#18). They wait for code that loads on demand (a split wasm: Leptos' `#[lazy]` with a
//! wasm-split step before wasm-bindgen, which Trunk does not have). Until then they are
//! built and unit-tested natively, and nothing in the page reaches them; their end-to-end
//! tests come with the mounting.

pub mod builder;
pub mod ctl;
pub mod link;
pub mod qr;
pub mod qr_dialog;
pub mod reasons;
pub mod start;
pub mod workshop_step;
