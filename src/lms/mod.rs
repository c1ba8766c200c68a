//! The page inside a school's learning platform (#45): embed mode, the postMessage API a
//! host page talks to, and the SCORM run-time client.
//!
//! What the first load carries is small on purpose (`detect.rs`'s `embedded`: is the
//! page framed or asked to embed). The rest loads through `src/app/lazy.rs`'s doors only
//! when it is needed: the host API (`host_api.rs`), the notes bridge
//! (`notes_bridge.rs`) and the search for a SCORM run-time when the page is embedded (or
//! is an embedded page's notes window), the SCORM client (`scorm.rs`) when a run-time
//! was found. `messages.rs` (the
//! protocol) and `report.rs` (what SCORM is told, the suspend data) are pure, tested
//! natively.
//!
//! On the features' floor: it reads the lesson's progress and opens its steps; opening a
//! workshop is handed in by `app/` (the challenge code is another feature).

pub mod detect;
pub mod host_api;
pub mod messages;
pub mod notes_bridge;
pub mod report;
pub mod scorm;
