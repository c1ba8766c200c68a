use outbox_playground::{error_panel, App};

fn main() {
    error_panel::install();
    // Before anything saved is read: the panic panel's "reset saved state" asks for it.
    error_panel::reset_if_asked();
    // The static shell from index.html has done its job: the app draws its own header.
    if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
        boot.remove();
    }
    leptos::mount::mount_to_body(App);
}
