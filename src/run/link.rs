//! Share links and saved state: a [`Run`] as JSON, carried in the URL's fragment as
//! unpadded base64url (`#run=…`). Decoding never panics: every way a link can be broken
//! has its own error, which the page shows before starting a fresh default run.

use crate::i18n::{Key, Lang, Reason};
use crate::run::sim::{Run, RunError, Sim};

/// The fragment's key.
pub const PREFIX: &str = "run=";
/// Longest link text accepted (a run's log is short: ticks are run-length coded).
pub const MAX_LINK: usize = 200_000;
/// Share links longer than this are opened but warned about when made: some chat apps
/// and mail clients cut longer links, and a cut link opens nothing.
pub const LONG_LINK: usize = 2_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Not `#run=…`.
    NotARun,
    TooLong(usize),
    /// Not base64url.
    Encoding,
    /// Not the JSON of a run.
    Json(Reason),
    /// A run the page refuses (bad scenario, replay failure, …).
    Run(RunError),
}

impl LinkError {
    /// Why, in the reader's language.
    pub fn reason(&self) -> Reason {
        match self {
            LinkError::NotARun => Reason::new(Key::ReasonNotARun),
            LinkError::TooLong(n) => Reason::new(Key::ReasonLinkTooLong)
                .arg("n", n)
                .arg("max", MAX_LINK),
            LinkError::Encoding => Reason::new(Key::ReasonNotBase64),
            LinkError::Json(why) => why.clone(),
            LinkError::Run(e) => e.reason(),
        }
    }
}

/// In English, for logs and tests.
impl std::fmt::Display for LinkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LinkError::Run(e) => write!(f, "{e}"),
            _ => f.write_str(&self.reason().text(Lang::En)),
        }
    }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        let chars = chunk.len() + 1;
        for k in 0..chars {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

pub fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    fn val(c: u8) -> Option<u32> {
        ALPHABET.iter().position(|&a| a == c).map(|v| v as u32)
    }
    let bytes = text.trim_end_matches('=').as_bytes();
    if bytes.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            n |= val(c)? << (18 - 6 * k);
        }
        for k in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * k)) as u8);
        }
    }
    Some(out)
}

/// The run as JSON text (what localStorage keeps).
pub fn to_json(run: &Run) -> String {
    serde_json::to_string(run).expect("a run always serialises")
}

/// Parses and rebuilds a run from its JSON text.
pub fn from_json(text: &str) -> Result<Sim, LinkError> {
    let run: Run = serde_json::from_str(text).map_err(|e| LinkError::Json(Reason::json(&e)))?;
    Sim::from_run(&run).map_err(LinkError::Run)
}

/// The fragment (without `#`) that opens this run.
pub fn fragment(run: &Run) -> String {
    format!("{PREFIX}{}", base64url_encode(to_json(run).as_bytes()))
}

/// Whether a fragment claims to be a run (anything else in the address is left alone).
pub fn is_run_fragment(fragment: &str) -> bool {
    fragment.trim_start_matches('#').starts_with(PREFIX)
}

/// Rebuilds the run a fragment (with or without `#`) holds.
pub fn open(fragment: &str) -> Result<Sim, LinkError> {
    let f = fragment.trim_start_matches('#');
    let body = f.strip_prefix(PREFIX).ok_or(LinkError::NotARun)?;
    if body.len() > MAX_LINK {
        return Err(LinkError::TooLong(body.len()));
    }
    let bytes = base64url_decode(body).ok_or(LinkError::Encoding)?;
    let text = String::from_utf8(bytes).map_err(|_| LinkError::Encoding)?;
    from_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::{preset, Action};

    #[test]
    fn base64url_round_trips_every_length() {
        let data: Vec<u8> = (0..=255u8).collect();
        for len in 0..40 {
            let enc = base64url_encode(&data[..len]);
            assert!(!enc.contains(['+', '/', '=']));
            assert_eq!(base64url_decode(&enc).as_deref(), Some(&data[..len]));
        }
        // RFC 4648's test vector, in the url alphabet.
        assert_eq!(base64url_encode(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url_decode("Zm9vYg"), Some(b"foob".to_vec()));
    }

    #[test]
    fn a_link_reopens_the_same_run() {
        let mut sim = Sim::new(preset("canon-outbox").unwrap());
        sim.ticks(200);
        sim.act(Action::Kill {
            process: "relay-1".into(),
        })
        .unwrap();
        sim.ticks(50);
        let link = fragment(&sim.to_run());
        let again = open(&format!("#{link}")).unwrap();
        assert_eq!(again.world(), sim.world());
        assert_eq!(again.to_run(), sim.to_run());
    }

    /// #39: links made before the scenario's English names (`partiya` → `batch_size`,
    /// `summa` → `amount`) open the same run.
    #[test]
    fn a_link_with_the_old_names_opens_the_same_run() {
        let mut sim = Sim::new(preset("exercise-3").unwrap());
        sim.ticks(40);
        let run = sim.to_run();
        let new = to_json(&run);
        assert!(new.contains("\"batch_size\":") && new.contains("\"amount\":50000"));
        let old = new
            .replace("\"batch_size\":", "\"partiya\":")
            .replace("\"amount\":", "\"summa\":");
        let link = format!("#{PREFIX}{}", base64url_encode(old.as_bytes()));
        let again = open(&link).unwrap();
        assert_eq!(again.to_run(), run);
        assert_eq!(again.world(), sim.world());
    }

    #[test]
    fn broken_links_say_what_is_wrong() {
        assert_eq!(open("#lesson-3").unwrap_err(), LinkError::NotARun);
        assert_eq!(open("#run=a").unwrap_err(), LinkError::Encoding);
        assert_eq!(open("#run=!!!!").unwrap_err(), LinkError::Encoding);
        assert!(matches!(
            open(&format!("#run={}", base64url_encode(b"{\"v\":1"))),
            Err(LinkError::Json(_))
        ));
        // A tampered scenario: a field the model refuses.
        let mut run = Sim::new(preset("canon-outbox").unwrap()).to_run();
        run.scenario.config.relays = 9;
        match open(&fragment(&run)) {
            Err(LinkError::Run(RunError::Scenario(e))) => {
                assert!(e.field.contains("relays"), "{e}")
            }
            other => panic!("expected a scenario error, got {other:?}"),
        }
        let long = format!("#run={}", "A".repeat(MAX_LINK + 4));
        assert!(matches!(open(&long), Err(LinkError::TooLong(_))));
    }
}
