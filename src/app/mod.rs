//! The composition root: the only floor where the features meet. It lays out the page
//! (`page.rs`: the stage, the lesson's card, the details tabs), builds the controllers and
//! hands each feature what it needs from another (the workshop's card to the lesson panel,
//! the doors to the challenge code and "Prove it"), and listens for links pasted into the
//! open tab. Nothing below imports it (see ARCHITECTURE.md, "Floors").

pub mod details;
pub mod door_view;
pub mod embed;
pub mod header;
pub mod lang_switch;
pub mod lazy;
pub mod links;
pub mod page;
