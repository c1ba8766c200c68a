//! The lesson (one name for what was also called "the course"): its controller
//! ([`ctl::LessonCtl`], holding one [`course::Course`] for the built-in lesson and one for
//! the open workshop), the progress in either (`progress.rs`), the order of a question's
//! options (`shuffle.rs`), the panel with its tabs (the guided steps, the schema, the
//! exercises, the quiz, in real work), predict-then-reveal, and presenter mode with its speaker-notes window.

pub mod course;
pub mod ctl;
pub mod exercises;
pub mod guided_step;
pub mod panel;
pub mod predict;
pub mod presenter;
pub mod progress;
pub mod quiz;
pub mod real_work;
pub mod schema_panel;
pub mod shuffle;
pub mod speaker_notes;
