//! The stage: the pipeline, the controls, the counters and the panels that explain them
//! (faults, live SQL, the event log, one event's life, the sequence diagram, the chart,
//! the modes). It reads and drives the run through the controller (`crate::ctl`) and
//! knows nothing of the lesson, the challenges or "Prove it".

pub mod chart;
pub mod controls;
pub mod counters;
pub mod event_log;
pub mod faults;
pub mod help;
pub mod keyboard;
pub mod lifecycle;
pub mod modes;
pub mod notice_bar;
pub mod pipeline;
pub mod relay_locks;
pub mod sequence;
pub mod settings;
pub mod sql_panel;
pub mod trouble_list;
pub mod warm_up;
