//! The run the page shows: [`sim::Sim`] wraps the model's world with its inputs, history
//! and checkpoints; [`link`] turns a run into a share link or saved JSON and back.

pub mod link;
mod record;
mod sample;
pub mod sim;
