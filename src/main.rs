use outbox_playground::{error_panel, App};

fn main() {
    error_panel::install();
    leptos::mount::mount_to_body(App);
}
