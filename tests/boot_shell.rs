//! index.html's head and boot shell are painted before the wasm runs, so their texts are
//! written there by hand; this test holds them equal to src/i18n (both languages), so the
//! shell says what the app says (#18).

use outbox_model::lesson::STEPS;
use outbox_playground::i18n::lesson_words::step_words;
use outbox_playground::i18n::{t, Key, Lang};

fn index_html() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/index.html"))
        .expect("read index.html")
}

/// `'` as index.html may write it inside a double-quoted attribute or as text.
fn contains(html: &str, text: &str) -> bool {
    html.contains(text) || html.contains(&text.replace('\'', "&#39;"))
}

#[test]
fn the_shell_shows_the_first_lesson_steps_title_and_text_in_both_languages() {
    let html = index_html();
    let first = STEPS.first().expect("the lesson has steps");
    let words = step_words(first.id).expect("the first step has words");
    for lang in Lang::ALL {
        let title = t(lang, words.title);
        assert!(
            contains(&html, title),
            "index.html lacks the first step's title {title:?}"
        );
    }
}

#[test]
fn head_failure_and_noscript_texts_match_the_i18n_table() {
    let html = index_html();
    for key in [
        Key::HeadDescription,
        Key::BootFailed,
        Key::BootNoscript,
        Key::BootLoading,
    ] {
        for lang in Lang::ALL {
            let text = t(lang, key);
            assert!(
                contains(&html, text),
                "index.html lacks {key:?} in {lang:?}: {text:?}"
            );
        }
    }
    assert!(html.contains("<noscript>") && html.contains("data-initializer="));
}
