//! Instructors' own challenges and workshops (#23) in the page: their links
//! (`#challenge=`, `#workshop=`), the open workshop's controller and its card, the builder
//! that makes and checks a challenge from the current run, and the QR code a room opens
//! it from. The format, the goal language and the checks are the model's
//! (`outbox_model::challenge`); this only shows and shares.
//!
//! Linked into the first load, these parts made the page's wasm 76 KB gzip larger
//! (457 → 534 KB; measured 2026-12-06) against the 480 KB cap of #18: the page reaches
//! them only through the doors of `app/lazy.rs`, so their code is fetched when first used.

pub mod builder;
pub mod ctl;
pub mod link;
pub mod pack;
pub mod qr;
pub mod qr_dialog;
pub mod reasons;
pub mod start;
pub mod workshop_step;
