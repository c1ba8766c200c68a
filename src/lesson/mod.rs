//! The lesson (one name for what was also called "the course"): its controller
//! ([`ctl::LessonCtl`]), the panel with its three tabs (the guided steps, the exercises,
//! the quiz), predict-then-reveal, and presenter mode with its speaker-notes window.

pub mod ctl;
pub mod exercises;
pub mod guided_step;
pub mod panel;
pub mod predict;
pub mod presenter;
pub mod quiz;
pub mod speaker_notes;
