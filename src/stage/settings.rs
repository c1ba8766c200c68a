//! The saved settings (language and speed): restored at start, saved on every change.

use leptos::prelude::*;

use crate::browser::storage;
use crate::browser::url::url_param;
use crate::ctl::{Ctl, SPEEDS};
use crate::i18n::{I18n, Key, Lang, Reason};

/// Brings back the saved language and speed, and keeps them saved from now on. A corrupt
/// entry is reported (unless a worse notice is already up) and kept under
/// `…/settings/corrupt`.
pub fn restore_settings(ctl: Ctl, i18n: I18n) {
    let url_lang = url_param("lang").is_some();
    match storage::load_settings() {
        // A speed the page does not have is corrupt like unreadable JSON.
        Some(Ok(s)) if s.speed >= SPEEDS.len() => {
            let text = storage::get(storage::SETTINGS_KEY).unwrap_or_default();
            storage::quarantine(storage::SETTINGS_KEY, &text);
            ctl.report_bad_saved(Reason::new(Key::ReasonSpeedUnknown).arg("n", s.speed));
        }
        Some(Ok(s)) => {
            if let Some(lang) = Lang::from_code(&s.lang).filter(|_| !url_lang) {
                i18n.set_lang(lang);
            }
            ctl.speed.set(s.speed);
        }
        Some(Err(why)) => ctl.report_bad_saved(why),
        None => {}
    }
    Effect::new(move |_| {
        let saved = storage::save_settings(&storage::Settings {
            lang: i18n.lang().code().to_string(),
            speed: ctl.speed.get(),
        });
        if let Err(why) = saved {
            ctl.report_save_failed(why);
        }
    });
}
