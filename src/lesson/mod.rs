//! The lesson (one name for what was also called "the course"): its controller
//! ([`ctl::LessonCtl`]), the panel with its tabs (the guided steps, the schema, the
//! exercises, the quiz, in real work), predict-then-reveal, and presenter mode with its speaker-notes window.

pub mod ctl;
pub mod exercises;
pub mod guided_step;
pub mod panel;
pub mod predict;
pub mod presenter;
pub mod quiz;
pub mod real_work;
pub mod schema_panel;
pub mod speaker_notes;
