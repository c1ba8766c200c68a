//! A challenge's or a workshop's JSON packed for a link a room scans (#42): base64 of the
//! JSON made a 1 655-character link, a QR code of version 30-odd whose modules a back row
//! cannot resolve. The same text, packed by matching it against a fixed dictionary of the
//! format's own words and against itself (LZ77, no entropy coding: a few dozen lines and
//! no crate), is about a third of that.
//!
//! Packed bytes: a version byte ([`DICT_V1`]'s `1`), then tokens. A byte `b < 0x80` is a
//! run of `b + 1` literal bytes that follow it; a byte `b >= 0x80` copies `(b & 0x7F) + 3`
//! bytes from a distance (an unsigned LEB128 number after it) back into the dictionary
//! followed by the text so far. The dictionary never changes once a link used it: a new
//! one takes a new version byte, and the old keeps opening.
//!
//! Unpacking is bounded (the model's [`MAX_JSON_BYTES`] of text, a distance inside what is
//! there) and returns `None` for anything else: a link is hostile input.

use outbox_model::challenge::MAX_JSON_BYTES;

/// The version byte of [`DICT_V1`].
const V1: u8 = 1;

/// Words a challenge or a workshop in compact JSON is made of (keys, the scenario's
/// usual values, actions, goals): the text a packed link matches against. Frozen: links
/// in the wild unpack with it.
const DICT_V1: &str = concat!(
    r#"{"challenges":["#,
    r#"{"goal":"settled && api == dual_write_db_first && lost >= 1 && lost == 0 && tasks_in_db == 100 && queue_jobs == 90 && phantoms >= 1 && duplicate_effects >= 1 && duplicate_deliveries >= 1 && effects == 10 && killed(api)","#,
    r#""id":"","lesson":"","predict":"duplicate","predict":"fine","predict":"lost","#,
    r#""scenario":{"config":{"api":"dual_write_queue_first","api":"outbox_pool","api_app_role":false,"relays":2,"relays":0,"relay":{"batch_size":1,"lock":"none","job_id":false},"workers":2,"worker":"inbox_own_tx","worker":"no_inbox"},"#,
    r#""faults":[{"fault":"kill","process":"worker","step":"complete","times":null,"when":"always"},{"fault":"kill","process":"api","step":"queue_add","times":null,"when":{"task_index_mod":{"modulus":10,"remainder":3}}}],"#,
    r#""measurement":true,"name":"custom","name":"lesson-","summary":"Dual write, DB first, 10 tasks and no kills yet: the API dies after COMMIT for every i % 10 == 3 → DB 100, queue 90, lost 10","#,
    r#""workload":{"tasks":100}},"#,
    r#""solution":[{"action":"restart","process":"api"},{"action":"step","process":"relay-1"},{"action":"kill","process":"worker-1"},{"action":"disarm","process":"api","step":"insert_event"},"#,
    r#"{"action":"arm_kill","process":"api","step":"commit","times":1,"when":{"nth":{"n":1}}},{"action":"tick"},{"action":"tick"}],"#,
    r#""texts":{"en":{"body":"","hint":"","title":""},"ru":{"body":"","hint":"","title":""},"uz":{"body":"","hint":"","title":""}},"v":1}"#,
    r#"],"id":"","title":{"en":"","ru":"","uz":""},"v":1}"#,
);

/// Longest copy one token makes.
const MAX_COPY: usize = 0x7F + 3;
/// Shortest copy worth a token (a copy of two would cost as much as the literals).
const MIN_COPY: usize = 3;

/// `text` packed (see the module's doc).
pub fn pack(text: &str) -> Vec<u8> {
    let dict = DICT_V1.as_bytes();
    let all: Vec<u8> = dict.iter().chain(text.as_bytes()).copied().collect();
    let mut seen = Seen::default();
    for i in 0..dict.len() {
        seen.note(&all, i);
    }
    let mut out = vec![V1];
    let mut literals: Vec<u8> = Vec::new();
    let mut at = dict.len();
    while at < all.len() {
        let (len, dist) = seen.longest_match(&all, at);
        let step = if len >= MIN_COPY {
            flush_literals(&mut out, &mut literals);
            out.push(0x80 | (len - MIN_COPY) as u8);
            push_leb128(&mut out, dist);
            len
        } else {
            literals.push(all[at]);
            if literals.len() == 0x80 {
                flush_literals(&mut out, &mut literals);
            }
            1
        };
        for i in at..at + step {
            seen.note(&all, i);
        }
        at += step;
    }
    flush_literals(&mut out, &mut literals);
    out
}

/// Where each three bytes were seen, newest last: the places a copy may start.
#[derive(Default)]
struct Seen(std::collections::HashMap<[u8; 3], Vec<usize>>);

/// How many earlier places of the same three bytes are tried (the newest): enough for a
/// link's few kilobytes, and a bound on the work for the model's largest file.
const MAX_TRIES: usize = 64;

impl Seen {
    fn note(&mut self, all: &[u8], i: usize) {
        if let Some(k) = all.get(i..i + 3) {
            self.0.entry([k[0], k[1], k[2]]).or_default().push(i);
        }
    }

    /// The longest earlier copy of the bytes at `at`: its length and how far back it
    /// starts.
    fn longest_match(&self, all: &[u8], at: usize) -> (usize, usize) {
        let limit = MAX_COPY.min(all.len() - at);
        let Some(places) = all
            .get(at..at + 3)
            .and_then(|k| self.0.get(&[k[0], k[1], k[2]]))
        else {
            return (0, 0);
        };
        let mut best = (0, 0);
        for &start in places.iter().rev().take(MAX_TRIES) {
            let len = all[start..]
                .iter()
                .zip(&all[at..at + limit])
                .take_while(|(a, b)| a == b)
                .count();
            if len > best.0 {
                best = (len, at - start);
                if len == limit {
                    break;
                }
            }
        }
        best
    }
}

fn flush_literals(out: &mut Vec<u8>, literals: &mut Vec<u8>) {
    if let Some(n) = literals.len().checked_sub(1) {
        out.push(n as u8);
        out.append(literals);
    }
}

fn push_leb128(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let low = (n & 0x7F) as u8;
        n >>= 7;
        if n == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// An unsigned LEB128 number at `*at` (at most three bytes: a distance inside the
/// dictionary and [`MAX_JSON_BYTES`]).
fn read_leb128(bytes: &[u8], at: &mut usize) -> Option<usize> {
    let mut n = 0usize;
    for shift in [0, 7, 14] {
        let b = *bytes.get(*at)?;
        *at += 1;
        n |= usize::from(b & 0x7F) << shift;
        if b & 0x80 == 0 {
            return Some(n);
        }
    }
    None
}

/// The text `bytes` packs, or `None` when they are not a packing this page reads: an
/// unknown version, a token cut short, a distance before the start, more than
/// [`MAX_JSON_BYTES`] of text, or text that is not UTF-8.
pub fn unpack(bytes: &[u8]) -> Option<String> {
    let (&version, body) = bytes.split_first()?;
    if version != V1 {
        return None;
    }
    let dict = DICT_V1.as_bytes();
    let mut all = dict.to_vec();
    let mut at = 0;
    while at < body.len() {
        let b = body[at];
        at += 1;
        if b < 0x80 {
            let n = usize::from(b) + 1;
            all.extend_from_slice(body.get(at..at + n)?);
            at += n;
        } else {
            let len = usize::from(b & 0x7F) + MIN_COPY;
            let dist = read_leb128(body, &mut at)?;
            let start = all.len().checked_sub(dist).filter(|_| dist > 0)?;
            // A copy may overlap what it writes (a run), so byte by byte.
            for k in 0..len {
                all.push(all[start + k]);
            }
        }
        if all.len() - dict.len() > MAX_JSON_BYTES {
            return None;
        }
    }
    String::from_utf8(all.split_off(dict.len())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::lesson::lesson_challenges;
    use outbox_model::rng::Rng;

    #[test]
    fn every_lesson_challenge_packs_and_unpacks_to_its_text_and_is_shorter() {
        let (mut texts, mut packs) = (0, 0);
        for c in lesson_challenges() {
            let text = c.to_compact_json();
            let packed = pack(&text);
            assert_eq!(unpack(&packed).as_deref(), Some(text.as_str()), "{}", c.id);
            assert!(packed.len() < text.len(), "{}", c.id);
            texts += text.len();
            packs += packed.len();
        }
        // Their English summaries are most of what is left (measured: 3 533 bytes of 9 178).
        eprintln!("lesson challenges: {packs} bytes packed of {texts}");
        assert!(packs * 5 < texts * 2, "{packs} of {texts}");
    }

    #[test]
    fn texts_of_any_bytes_round_trip() {
        let mut rng = Rng::new(42);
        for n in [0usize, 1, 2, 3, 127, 128, 129, 300, 5000] {
            let text: String = (0..n)
                .map(|_| ['a', 'b', '{', '"', 'ё', '☠', ' ', '1'][rng.below(8) as usize])
                .collect();
            assert_eq!(unpack(&pack(&text)).as_deref(), Some(text.as_str()), "{n}");
        }
    }

    #[test]
    fn broken_packings_are_refused_never_a_panic() {
        let mut rng = Rng::new(7);
        let good = pack(&lesson_challenges()[0].to_compact_json());
        assert_eq!(unpack(&[]), None);
        assert_eq!(unpack(&[2, 0, b'x']), None, "an unknown version");
        assert_eq!(
            unpack(&[V1, 0x80, 0xFF, 0xFF, 0xFF, 0x7F]),
            None,
            "a distance too far"
        );
        assert_eq!(unpack(&[V1, 0x80, 0]), None, "a distance of 0");
        assert_eq!(unpack(&[V1, 5, b'a']), None, "literals cut short");
        // A run copied over and over grows past the cap: refused, not allocated forever.
        let mut bomb = vec![V1, 0, b'x'];
        for _ in 0..1000 {
            bomb.extend([0xFF, 1]);
        }
        assert_eq!(unpack(&bomb), None);
        for _ in 0..2000 {
            let mut b = good.clone();
            let i = rng.below(b.len() as u64) as usize;
            b[i] = rng.below(256) as u8;
            let _ = unpack(&b);
            b.truncate(i);
            let _ = unpack(&b);
        }
    }
}
