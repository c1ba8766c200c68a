//! Challenge and workshop links: `#challenge=…` and `#workshop=…`, the compact JSON in
//! unpadded base64url, as run links are. Opening one reads it through the model's reader
//! (`Challenge::from_json` / `Workshop::from_json`: its limits, its versions, every
//! refusal with the JSON path of its field), so a link from a stranger is refused with a
//! reason, never a panic. A single challenge opens as a workshop of one.
//!
//! Links are made packed (#42: `~` and the packed JSON, `pack.rs`, about a third as long,
//! so a QR code a back row scans); links of plain base64 JSON, made before, still open.

use outbox_model::challenge::{Challenge, ChallengeFile, Workshop, MAX_JSON_BYTES};

use crate::challenge::pack::{pack, unpack};
use crate::challenge::reasons::format_reason;
use crate::i18n::{Key, Reason};
use crate::run::link::{base64url_decode, base64url_encode};

pub const CHALLENGE_PREFIX: &str = "challenge=";
pub const WORKSHOP_PREFIX: &str = "workshop=";
/// Marks a packed link's data (not a base64url character, so never an old link's).
const PACKED: char = '~';
/// Longest fragment read: the model's largest file in base64url (4 characters per 3
/// bytes), and the key. A longer one is refused before it is decoded.
pub const MAX_LINK_CHARS: usize = MAX_JSON_BYTES.div_ceil(3) * 4 + WORKSHOP_PREFIX.len() + 1;

/// The fragment's text after `#`.
fn body(hash: &str) -> &str {
    hash.strip_prefix('#').unwrap_or(hash)
}

/// Whether the address's fragment is a challenge or a workshop link.
pub fn is_challenge_fragment(hash: &str) -> bool {
    let b = body(hash);
    b.starts_with(CHALLENGE_PREFIX) || b.starts_with(WORKSHOP_PREFIX)
}

/// The fragment (with `#`) that opens `c`.
pub fn challenge_fragment(c: &Challenge) -> String {
    format!(
        "#{CHALLENGE_PREFIX}{PACKED}{}",
        base64url_encode(&pack(&c.to_compact_json()))
    )
}

/// The fragment (with `#`) that opens `w`.
pub fn workshop_fragment(w: &Workshop) -> String {
    format!(
        "#{WORKSHOP_PREFIX}{PACKED}{}",
        base64url_encode(&pack(&w.to_compact_json()))
    )
}

/// A challenge on its own, as the workshop of one it opens as (its id and titles). A
/// lesson step's challenge may come without texts: its title is the step's (in Uzbek,
/// the language always in the page), so the workshop saved for a reload is one the
/// reader accepts (#40: a title-less workshop was refused as corrupt on reload).
pub fn workshop_of_one(c: Challenge) -> Workshop {
    let mut title: std::collections::BTreeMap<String, String> = c
        .texts
        .iter()
        .map(|(lang, t)| (lang.clone(), t.title.clone()))
        .collect();
    if title.is_empty() {
        let step = c
            .lesson
            .as_deref()
            .and_then(crate::i18n::lesson_words::step_words);
        let lang = crate::i18n::Lang::Uz;
        let text = step.map_or(c.id.clone(), |s| crate::i18n::t(lang, s.title).to_string());
        title.insert(lang.code().to_string(), text);
    }
    Workshop {
        v: c.v,
        id: c.id.clone(),
        title,
        challenges: vec![c],
    }
}

/// Reads a `#challenge=` or `#workshop=` fragment: its length first, then base64url, then
/// the model's reader.
pub fn open(hash: &str) -> Result<Workshop, Reason> {
    let b = body(hash);
    if b.len() > MAX_LINK_CHARS {
        return Err(Reason::new(Key::ReasonLinkTooLong)
            .arg("n", b.len())
            .arg("max", MAX_LINK_CHARS));
    }
    let (one, data) = match b.strip_prefix(CHALLENGE_PREFIX) {
        Some(data) => (true, data),
        None => match b.strip_prefix(WORKSHOP_PREFIX) {
            Some(data) => (false, data),
            None => return Err(Reason::new(Key::ReasonNotAChallenge)),
        },
    };
    let text = match data.strip_prefix(PACKED) {
        Some(packed) => base64url_decode(packed).and_then(|b| unpack(&b)),
        None => base64url_decode(data).and_then(|b| String::from_utf8(b).ok()),
    };
    read(&text.ok_or_else(|| Reason::new(Key::ReasonNotBase64))?, one)
}

/// A challenge (`one`) or a workshop from its JSON text.
pub fn read(text: &str, one: bool) -> Result<Workshop, Reason> {
    let workshop = if one {
        Challenge::from_json(text).map(workshop_of_one)
    } else {
        Workshop::from_json(text)
    };
    workshop.map_err(|e| format_reason(&e)).and_then(runs_here)
}

/// A file's text (or a saved workshop's), read once by the model: a top-level
/// `challenges` key makes it a workshop, else it is a challenge.
pub fn read_file(text: &str) -> Result<Workshop, Reason> {
    let workshop = match ChallengeFile::from_json(text) {
        Ok(ChallengeFile::Challenge(c)) => workshop_of_one(*c),
        Ok(ChallengeFile::Workshop(w)) => w,
        Err(e) => return Err(format_reason(&e)),
    };
    runs_here(workshop)
}

/// `w` when the page can run every challenge of it (its cap on tasks and preloaded
/// events, #40: a bigger one opened, then failed to load, and "Show me" acted on the run
/// left on the stage); else the first refusal.
fn runs_here(w: Workshop) -> Result<Workshop, Reason> {
    for c in &w.challenges {
        crate::run::sim::Sim::check(&c.scenario).map_err(|e| e.reason())?;
    }
    Ok(w)
}

#[cfg(test)]
mod tampered {
    use super::*;
    use crate::i18n::Lang;
    use outbox_model::json_edit::edit;
    use outbox_model::lesson::lesson_challenges;
    use outbox_model::rng::Rng;
    use serde_json::Value;

    /// The lesson's steps as challenges, and a workshop of the first three.
    fn originals() -> Vec<(Value, bool)> {
        let cs = lesson_challenges();
        let w = Workshop {
            v: 1,
            id: "friday".into(),
            title: [("uz".to_string(), "Juma".to_string())].into(),
            challenges: cs[..3].to_vec(),
        };
        let mut all: Vec<(Value, bool)> = cs
            .iter()
            .map(|c| (serde_json::from_str(&c.to_compact_json()).unwrap(), true))
            .collect();
        all.push((serde_json::from_str(&w.to_compact_json()).unwrap(), false));
        all
    }

    /// The link's own text mangled: a character dropped, doubled or replaced, or the
    /// link cut short.
    fn mangle(link: &str, rng: &mut Rng) -> String {
        let mut b: Vec<char> = link.chars().collect();
        let i = rng.below(b.len() as u64) as usize;
        match rng.below(4) {
            0 => {
                b.remove(i);
            }
            1 => b.insert(i, b[i]),
            2 => b[i] = ['%', '=', 'A', '_', 'é', ' '][rng.below(6) as usize],
            _ => b.truncate(i),
        }
        b.into_iter().collect()
    }

    fn fragment(v: &Value, one: bool) -> String {
        let prefix = if one {
            CHALLENGE_PREFIX
        } else {
            WORKSHOP_PREFIX
        };
        format!("#{prefix}{}", base64url_encode(v.to_string().as_bytes()))
    }

    /// Challenge and workshop links edited at random (as `run::link`'s tampered test does
    /// for runs): in their JSON (a place set to a value of another kind or at an edge, or
    /// removed) or in the link's text (a character dropped, doubled, replaced, the link
    /// cut short). Each opens or is refused with a reason filled in every language; none
    /// panics.
    #[test]
    fn edited_challenge_links_open_or_are_refused_never_panic() {
        let mut rng = Rng::new(23);
        let originals = originals();
        let edges: Vec<Value> = serde_json::from_str(
            r#"[0, 1, 2, 9, 4294967295, 18446744073709551615, -1, 1.5, "", "x", "lost >= 1",
                "lost >=", "((", "relay-1", "uz", "xx", null, true, [], {}]"#,
        )
        .expect("edge values");
        let (mut opened, mut refused) = (0, 0);
        for k in 0..3000 {
            let (v, one) = &originals[rng.below(originals.len() as u64) as usize];
            let link = if k % 2 == 0 {
                let mut v = v.clone();
                edit(&mut v, &mut rng, &edges);
                fragment(&v, *one)
            } else {
                mangle(&fragment(v, *one), &mut rng)
            };
            match std::panic::catch_unwind(|| open(&link)) {
                Ok(Ok(_)) => opened += 1,
                Ok(Err(why)) => {
                    for lang in Lang::ALL {
                        let text = why.text(lang);
                        assert!(!text.trim().is_empty(), "an empty reason for {link}");
                        assert!(!text.contains('{'), "an unfilled reason {text} for {link}");
                    }
                    refused += 1;
                }
                Err(_) => panic!("opening this link panicked: {link}"),
            }
        }
        // Both ways are taken (measured: 92 opened, 2 908 refused).
        assert!(
            opened > 50 && refused > 1000,
            "opened {opened}, refused {refused}"
        );
    }

    /// A link made before links were packed (plain base64 of the JSON) still opens, and
    /// opens the same challenge as the packed link; packed, the lesson's links are less
    /// than half as long (measured: 4 945 characters of 12 453 for the lesson's steps).
    #[test]
    fn old_plain_links_still_open_and_packed_ones_are_shorter() {
        let (mut plain_chars, mut packed_chars) = (0, 0);
        for c in lesson_challenges() {
            let plain = format!(
                "#{CHALLENGE_PREFIX}{}",
                base64url_encode(c.to_compact_json().as_bytes())
            );
            let packed = challenge_fragment(&c);
            assert!(open(&plain).is_ok(), "{}", c.id);
            assert_eq!(open(&plain), open(&packed), "{}", c.id);
            assert!(packed.len() < plain.len(), "{}", c.id);
            plain_chars += plain.len();
            packed_chars += packed.len();
        }
        eprintln!("lesson links: {packed_chars} characters packed, {plain_chars} plain");
        assert!(
            packed_chars * 2 < plain_chars,
            "{packed_chars} of {plain_chars}"
        );
    }

    #[test]
    fn every_lesson_step_opens_from_its_link_as_a_workshop_of_one() {
        for c in lesson_challenges() {
            let w = open(&challenge_fragment(&c)).expect("a lesson step's link opens");
            assert_eq!(w.challenges, vec![c.clone()]);
            assert_eq!(w.id, c.id);
        }
    }

    /// A lesson step's challenge (no texts of its own) opened from its link is saved
    /// for a reload as a workshop of one, and that reads back (#40: it was refused as
    /// corrupt, its title empty).
    #[test]
    fn a_lesson_steps_workshop_of_one_reads_back_after_a_reload() {
        for c in lesson_challenges() {
            assert!(c.texts.is_empty() && c.lesson.is_some(), "{}", c.id);
            let w = open(&challenge_fragment(&c)).expect("a lesson step's link opens");
            let saved = w.to_compact_json();
            assert_eq!(read_file(&saved), Ok(w.clone()), "{}", c.id);
            assert!(
                w.title.values().all(|t| !t.trim().is_empty()),
                "{:?}",
                w.title
            );
        }
    }

    /// A challenge whose title is the word `challenges` (the JSON text `"challenges"`) is
    /// still a challenge (#40: the file reader looked for that text anywhere and read it
    /// as a workshop).
    #[test]
    fn a_challenge_quoting_challenges_opens_from_a_file() {
        let mut c = lesson_challenges().remove(0);
        c.texts.insert(
            "en".into(),
            outbox_model::challenge::Texts {
                title: "challenges".into(),
                body: "challenges".into(),
                hint: None,
            },
        );
        let w = read_file(&c.to_json()).expect("a challenge file opens");
        assert_eq!(w.challenges, vec![c]);
    }

    /// A challenge over the page's cap (tasks and preloaded events) is refused when it is
    /// opened, naming the cap, not accepted and then failing to load (#40).
    #[test]
    fn a_challenge_over_the_pages_cap_is_refused_at_once() {
        let mut c = lesson_challenges().remove(0);
        c.scenario.workload.tasks = 100_000;
        c.scenario.workload.preloaded_events = 100_001;
        let why = open(&challenge_fragment(&c)).unwrap_err();
        assert_eq!(why.key, Key::ReasonTooBig);
        assert!(
            why.text(Lang::En).contains("200000"),
            "{}",
            why.text(Lang::En)
        );
        let w = Workshop {
            v: 1,
            id: "big".into(),
            title: [("en".to_string(), "Big".to_string())].into(),
            challenges: vec![lesson_challenges().remove(1), c],
        };
        assert_eq!(read_file(&w.to_json()).unwrap_err().key, Key::ReasonTooBig);
    }

    #[test]
    fn a_link_from_a_newer_page_an_oversized_one_and_a_foreign_one_say_so() {
        let mut v: Value = serde_json::from_str(&lesson_challenges()[0].to_compact_json()).unwrap();
        v["v"] = 2.into();
        let why = open(&fragment(&v, true)).unwrap_err();
        assert_eq!(why.key, Key::ReasonChFutureVersion);
        assert!(why.text(Lang::En).contains('2'), "{}", why.text(Lang::En));
        let long = format!("#{CHALLENGE_PREFIX}{}", "A".repeat(MAX_LINK_CHARS));
        assert_eq!(open(&long).unwrap_err().key, Key::ReasonLinkTooLong);
        assert_eq!(open("#run=abc").unwrap_err().key, Key::ReasonNotAChallenge);
        assert_eq!(
            open("#challenge=***").unwrap_err().key,
            Key::ReasonNotBase64
        );
        assert!(is_challenge_fragment("#workshop=x") && !is_challenge_fragment("#run=x"));
    }
}
