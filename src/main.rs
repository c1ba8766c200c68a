//! The entry point: the panic panel, a reset when asked, the start language's texts, then
//! the app.

use outbox_playground::i18n::lang_file;
use outbox_playground::{error_panel, start_lang, App};

/// The page's allocator counts what it holds, for the page bench's soak (`peak_bytes`).
#[global_allocator]
static ALLOCATOR: outbox_playground::browser::peak_bytes::Counting =
    outbox_playground::browser::peak_bytes::Counting;

/// Longest wait for the boot shell's first frame before mounting anyway (a hidden tab draws
/// no frames; a visible one draws within a frame, ~16 ms).
const BOOT_PAINT_LIMIT_MS: u32 = 100;

fn main() {
    error_panel::install();
    // Before anything saved is read: the panic panel's "reset saved state" asks for it.
    outbox_playground::browser::saved_reset::reset_if_asked();
    // English or Russian is a file of its own: fetch it first (the shell from index.html
    // stays up meanwhile), so the first paint is in the page's language. A failure mounts
    // the page in Uzbek, which says so (`provide_i18n`).
    wasm_bindgen_futures::spawn_local(async {
        if let Err(why) = lang_file::load(start_lang()).await {
            leptos::logging::warn!("language file: {why}");
        }
        // The shell is the first paint, also when the wasm arrives before any frame.
        outbox_playground::browser::frame_loop::after_next_paint(BOOT_PAINT_LIMIT_MS).await;
        // The static shell has done its job: the app draws its own header.
        if let Some(boot) = leptos::prelude::document().get_element_by_id("boot") {
            boot.remove();
        }
        outbox_playground::browser::expose_wasm_memory();
        outbox_playground::browser::expose_test_panic();
        leptos::mount::mount_to_body(App);
    });
}
