//! "The user has arrived": true at the first touch, click, key or scroll, or after a
//! while. Code below the first screen (the details tabs' panels, loaded through a door)
//! waits for it, so the first load fetches only what draws the first screen: Lighthouse
//! counted 17 requests instead of at most 8 when the details loaded right after the
//! stage (#41's size work put them in a chunk of their own).

use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// How long the page waits without any sign of the user before it wakes anyway: past
/// the first load's quiet network, well within a reader's first look at the stage.
pub const WAKE_AFTER_MS: u32 = 6_000;

/// A signal that turns true at the first sign of the user (or after
/// [`WAKE_AFTER_MS`]); its listeners and timer go with the calling component.
pub fn use_first_touch(already: bool) -> RwSignal<bool> {
    let awake = RwSignal::new(already);
    if already {
        return awake;
    }
    // Only the first sign counts: setting it again would wake every reader again (a
    // panel drawn from it would be drawn anew, its elements replaced).
    let wake = move || {
        if awake.try_get_untracked() == Some(false) {
            let _ = awake.try_set(true);
        }
    };
    let handles = [
        window_event_listener(leptos::ev::pointerdown, move |_| wake()),
        window_event_listener(leptos::ev::keydown, move |_| wake()),
        window_event_listener(leptos::ev::scroll, move |_| wake()),
        window_event_listener(leptos::ev::touchstart, move |_| wake()),
    ];
    let timer = Timeout::new(WAKE_AFTER_MS, wake);
    let kept = StoredValue::new_local(Some((handles, timer)));
    on_cleanup(move || {
        kept.update_value(|k| {
            if let Some((handles, timer)) = k.take() {
                handles.into_iter().for_each(|h| h.remove());
                timer.cancel();
            }
        })
    });
    awake
}
