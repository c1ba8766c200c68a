//! The lesson's three exercises: exercise 1's blanks and how a typed answer is read, and
//! exercises 2 and 3 run in the model, printed in the lesson's own console format so the
//! page can set them beside the lesson's expected lines.

use super::steps::from_preset;
use crate::world::{ProcKind, Step, World};
use crate::EventId;

/// One of exercise 1's blanks: the answers it accepts in each language, compared after
/// [`normalise`]. The first of each list is the word that language's texts use, shown
/// after an attempt (#42). A learner may answer in any of the three.
#[derive(Clone, Copy, Debug)]
pub struct Blank {
    /// The lesson's own terms (the seed's Uzbek, with its English loanwords).
    pub uz: &'static [&'static str],
    pub en: &'static [&'static str],
    /// The page's Russian texts say «релей» (and «воркер»); «ретранслятор» is accepted.
    pub ru: &'static [&'static str],
}

impl Blank {
    /// The word shown as the expected answer to a reader of `lang` ("uz", "en", "ru";
    /// any other code reads the Uzbek list, as Uzbek in Cyrillic does).
    pub fn expected(&self, lang: &str) -> &'static str {
        let list = match lang {
            "en" => self.en,
            "ru" => self.ru,
            _ => self.uz,
        };
        list.first().copied().unwrap_or("")
    }

    /// Every accepted answer, in any language.
    pub fn accepts(&self, normalised: &str) -> bool {
        self.all().any(|w| w == normalised)
    }

    fn all(&self) -> impl Iterator<Item = &'static str> {
        self.uz.iter().chain(self.en).chain(self.ru).copied()
    }
}

/// Exercise 1's blanks, in the lesson's order (§9).
pub const BLANKS: [Blank; 5] = [
    Blank {
        uz: &["dual"],
        en: &["dual"],
        ru: &["dual", "двойной", "двойная"],
    },
    Blank {
        uz: &["tranzaksiya", "tranzaksiyada"],
        en: &["transaction"],
        ru: &["транзакции", "транзакция", "транзакцией"],
    },
    Blank {
        uz: &["relay", "relay jarayoni"],
        en: &["relay", "the relay", "relay process"],
        ru: &["релей", "ретранслятор"],
    },
    Blank {
        uz: &["skip locked"],
        en: &["skip locked"],
        ru: &["skip locked"],
    },
    Blank {
        uz: &["inbox", "inbox jadvali"],
        en: &["inbox", "inbox table"],
        ru: &["inbox", "таблица inbox"],
    },
];

/// How a learner's answer compares with the accepted ones, as a patient teacher reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Right,
    /// One or two letters off an accepted answer: "check the spelling".
    Close,
    Wrong,
}

/// The spellings a learner types for the same word made one: lower case, apostrophes
/// (' ’ ʻ ʼ `) dropped, `_` and `-` read as spaces, white space collapsed, and the older
/// Uzbek spelling «kts» read as «ks» (tranzaktsiya → tranzaksiya).
pub fn normalise(answer: &str) -> String {
    let lower = answer.to_lowercase();
    let plain: String = lower
        .chars()
        .filter(|c| !matches!(c, '\'' | '’' | 'ʻ' | 'ʼ' | '`' | '‘'))
        .map(|c| if c == '_' || c == '-' { ' ' } else { c })
        .collect();
    plain
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("kts", "ks")
}

/// The verdict on each of exercise 1's blanks (an empty blank is wrong, never close).
pub fn blank_verdicts(answers: &[String]) -> Vec<Verdict> {
    BLANKS
        .iter()
        .enumerate()
        .map(|(i, ok)| {
            let a = normalise(answers.get(i).map_or("", String::as_str));
            if ok.accepts(&a) {
                Verdict::Right
            } else if a.chars().count() >= 3 && ok.all().any(|w| edit_distance(&a, w) <= 2) {
                Verdict::Close
            } else {
                Verdict::Wrong
            }
        })
        .collect()
}

/// Which of exercise 1's blanks are filled right.
pub fn check_blanks(answers: &[String]) -> Vec<bool> {
    blank_verdicts(answers)
        .into_iter()
        .map(|v| v == Verdict::Right)
        .collect()
}

/// Levenshtein distance in characters (answers are a few words: the quadratic table is
/// tiny).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1)
                .min(row[j] + 1)
                .min(diag + (ca != cb) as usize);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Exercise 2's expected console, as the lesson prints it.
pub const EXERCISE_2_EXPECTED: [&str; 5] = [
    "{ tarqatildi: 4, xato: 1 }",
    "{ tarqatildi: 1, xato: 0 }",
    "{ tarqatildi: 0, xato: 0 }",
    "navbat: 1, 2, 4, 5, 3",
    "3-hodisa urinishlari: 2",
];

/// Exercise 2 run in the model: three polls of the relay over five events, publishing
/// event 3 failing once; the lines its console would print.
pub fn exercise_2_output() -> Vec<String> {
    let s = from_preset("exercise-2");
    let mut w = World::new(&s);
    let relay = w
        .procs
        .iter()
        .position(|p| p.kind == ProcKind::Relay)
        .expect("exercise 2 has a relay");
    while w.polls[relay].len() < 3 && w.tick < s.max_ticks {
        if !w.step() {
            break;
        }
    }
    let mut out: Vec<String> = w.polls[relay]
        .iter()
        .take(3)
        .map(|p| format!("{{ tarqatildi: {}, xato: {} }}", p.published, p.failed))
        .collect();
    let order: Vec<String> = w
        .queue
        .created_order
        .iter()
        .map(|e| e.0.to_string())
        .collect();
    out.push(format!("navbat: {}", order.join(", ")));
    let tries = w.db.event_row(EventId(3)).map_or(0, |r| r.data.urinishlar);
    out.push(format!("3-hodisa urinishlari: {tries}"));
    out
}

/// Exercise 3's expected console, as the lesson prints it.
pub const EXERCISE_3_EXPECTED: [&str; 3] = [
    "t-1: jarayon o'ldi — ROLLBACK, balans 0",
    "t-1: balans 50000",
    "t-1: balans 50000",
];

/// The digits of an answer, in order: "1, 2, 4, 5, 3" and "12453" say the same, and so
/// do "50 000" and "50000" (exercises 2 and 3 ask for a queue order and a balance).
fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Whether a learner's answer to exercise 2 or 3 has been given (it holds a number).
pub fn is_answered(answer: &str) -> bool {
    !digits(answer).is_empty()
}

/// Whether a learner's answer says what the model's line says (its numbers, in order).
pub fn answer_matches(answer: &str, model: &str) -> bool {
    let m = digits(model);
    !m.is_empty() && digits(answer) == m
}

/// Exercise 3's third delivery, as the model ran it: how many deliveries the inbox turned
/// away (`INSERT … ON CONFLICT DO NOTHING` inserted nothing, so the action did not run).
/// The lesson's console prints the same balance twice; this is why.
pub fn exercise_3_skipped() -> u64 {
    let s = from_preset("exercise-3");
    let mut w = World::new(&s);
    w.run(s.max_ticks);
    w.tally().inbox_conflicts
}

/// Exercise 3 run in the model: one payment delivered until it is done; a line per
/// delivery, with the balance as the database has it when that delivery ends.
pub fn exercise_3_output() -> Vec<String> {
    let s = from_preset("exercise-3");
    let mut w = World::new(&s);
    let worker = w
        .procs
        .iter()
        .position(|p| p.kind == ProcKind::Worker)
        .expect("exercise 3 has a worker");
    let mut out = Vec::new();
    let mut in_delivery = false;
    let mut kills = w.procs[worker].kills;
    let mut deliveries = 0;
    while !w.settled() && w.tick < s.max_ticks {
        if !w.step() {
            break;
        }
        let c = w.counters();
        if c.deliveries > deliveries {
            deliveries = c.deliveries;
            in_delivery = true;
        }
        let p = &w.procs[worker];
        if in_delivery && p.kills > kills {
            // Killed after its COMMIT (before the ack) the delivery's work is done;
            // killed before it, the transaction rolled back.
            let committed = w.kills.last().is_some_and(|(_, s, _)| *s == Step::Complete);
            out.push(if committed {
                format!("t-1: balans {}", c.balance)
            } else {
                format!("t-1: jarayon o'ldi — ROLLBACK, balans {}", c.balance)
            });
            in_delivery = false;
        } else if in_delivery && p.alive && p.pc == Step::Fetch {
            out.push(format!("t-1: balans {}", c.balance));
            in_delivery = false;
        }
        kills = p.kills;
    }
    out
}
