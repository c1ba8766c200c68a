//! The text of the messages between the page and a "Prove it" worker (issue #22): lines of
//! tab-separated fields, a counterexample's trace as its JSON (the trace file format).
//!
//! Why not JSON for the whole message: the page reads every answer, and serde's readers for
//! a whole report (its scenario, bounds, verdicts and traces as one typed tree) cost the
//! page's wasm ~30 KB before compression, more than the explorer code the workers took out
//! of it. Read by hand, a message is a few splits; a trace is read by `Trace::from_json`,
//! the reader the page already has for trace files, which also checks it.
//!
//! ```text
//! page → worker   {n}\tclaim\t{design}            {n}\tcell\t{row}\t{design}
//! worker → page   ready
//!                 progress\t{n}\t{states}
//!                 done\t{n}\t{states}\t{search_ms}\tclaim
//!                   then a line a property: {property}\tholds\t{states}\t{schedules or -}
//!                                       or: {property}\tbroken\t{choices}\t{trace JSON}
//!                 done\t{n}\t{states}\t{search_ms}\tcell\t{outcome}\t{states}\t{trace JSON or -}
//!                 refused\t{n}\t{why}              broken\t{why}   (why: the rest of the text)
//! ```
//! A trace's JSON has no raw tab or line break (serde_json writes them escaped), so it can
//! be a line's last field.

use super::remote::{Answer, FromWorker, Search, ToWorker};
use super::{Cell, CellOutcome, Design, Property, Trace, Verdict};

impl ToWorker {
    pub fn encode(&self) -> String {
        match self.search {
            Search::Claim { design } => format!("{}\tclaim\t{}", self.n, design.name()),
            Search::Cell { row, design } => format!("{}\tcell\t{row}\t{}", self.n, design.name()),
        }
    }

    /// Reads a message; Err says what is wrong with it.
    pub fn decode(text: &str) -> Result<ToWorker, String> {
        let f: Vec<&str> = text.split('\t').collect();
        let design = |s: &str| Design::from_name(s).ok_or_else(|| format!("no design {s:?}"));
        let search = match f.as_slice() {
            [_, "claim", d] => Search::Claim { design: design(d)? },
            [_, "cell", row, d] => Search::Cell {
                row: number(row, "row")?,
                design: design(d)?,
            },
            _ => return Err(format!("not a search: {}", short(text))),
        };
        Ok(ToWorker {
            n: number(f[0], "n")?,
            search,
        })
    }
}

impl FromWorker {
    pub fn encode(&self) -> String {
        match self {
            FromWorker::Ready => "ready".into(),
            FromWorker::Progress { n, states } => format!("progress\t{n}\t{states}"),
            FromWorker::Done {
                n,
                states,
                search_ms,
                answer,
            } => format!(
                "done\t{n}\t{states}\t{search_ms}\t{}",
                encode_answer(answer)
            ),
            FromWorker::Refused { n, why } => format!("refused\t{n}\t{why}"),
            FromWorker::Broken { why } => format!("broken\t{why}"),
        }
    }

    /// Reads a message; Err says what is wrong with it.
    pub fn decode(text: &str) -> Result<FromWorker, String> {
        let (head, rest) = text.split_once('\n').unwrap_or((text, ""));
        let f: Vec<&str> = head.splitn(5, '\t').collect();
        Ok(match f.as_slice() {
            ["ready"] => FromWorker::Ready,
            ["progress", n, states] => FromWorker::Progress {
                n: number(n, "n")?,
                states: number(states, "states")?,
            },
            ["done", n, states, ms, answer] => FromWorker::Done {
                n: number(n, "n")?,
                states: number(states, "states")?,
                search_ms: number(ms, "search_ms")?,
                answer: decode_answer(answer, rest)?,
            },
            ["refused", ..] => {
                let (n, why) = text["refused\t".len()..]
                    .split_once('\t')
                    .unwrap_or(("", ""));
                FromWorker::Refused {
                    n: number(n, "n")?,
                    why: why.to_string(),
                }
            }
            ["broken", ..] => FromWorker::Broken {
                why: text["broken\t".len()..].to_string(),
            },
            _ => return Err(format!("not a reply: {}", short(text))),
        })
    }
}

fn encode_answer(answer: &Answer) -> String {
    match answer {
        Answer::Claim(verdicts) => {
            let mut out = String::from("claim");
            for (p, v) in verdicts {
                out.push('\n');
                out.push_str(&encode_verdict(*p, v));
            }
            out
        }
        Answer::Cell(c) => format!(
            "cell\t{}\t{}\t{}",
            c.outcome.name(),
            c.states,
            c.trace.as_ref().map_or("-".into(), trace_json)
        ),
    }
}

fn encode_verdict(p: Property, v: &Verdict) -> String {
    match v {
        Verdict::Holds { states, schedules } => {
            let schedules = schedules.map_or("-".into(), |s| s.to_string());
            format!("{}\tholds\t{states}\t{schedules}", p.name())
        }
        Verdict::Counterexample { trace, choices } => {
            format!("{}\tbroken\t{choices}\t{}", p.name(), trace_json(trace))
        }
    }
}

fn trace_json(t: &Trace) -> String {
    // A trace is plain data (no map with non-string keys): writing it cannot fail.
    serde_json::to_string(t).unwrap_or_default()
}

/// The answer after `done`'s numbers: `head` is the rest of its first line, `lines` the
/// lines after it.
fn decode_answer(head: &str, lines: &str) -> Result<Answer, String> {
    let f: Vec<&str> = head.splitn(4, '\t').collect();
    match f.as_slice() {
        ["claim"] => {
            // A loop, not `collect::<Result<..>>()`: its adapter cost the page's wasm ~2 KB.
            let mut verdicts = Vec::new();
            for line in lines.split('\n').filter(|l| !l.is_empty()) {
                verdicts.push(decode_verdict(line)?);
            }
            Ok(Answer::Claim(verdicts))
        }
        ["cell", outcome, states, trace] => Ok(Answer::Cell(Box::new(Cell {
            outcome: CellOutcome::all()
                .into_iter()
                .find(|o| o.name() == *outcome)
                .ok_or_else(|| format!("no outcome {outcome:?}"))?,
            states: number(states, "states")?,
            trace: match *trace {
                "-" => None,
                json => Some(decode_trace(json)?),
            },
        }))),
        _ => Err(format!("not an answer: {}", short(head))),
    }
}

fn decode_verdict(line: &str) -> Result<(Property, Verdict), String> {
    let f: Vec<&str> = line.splitn(4, '\t').collect();
    let [name, kind, a, b] = f.as_slice() else {
        return Err(format!("not a verdict: {}", short(line)));
    };
    let p = Property::all()
        .into_iter()
        .find(|p| p.name() == *name)
        .ok_or_else(|| format!("no property {name:?}"))?;
    let v = match *kind {
        "holds" => Verdict::Holds {
            states: number(a, "states")?,
            schedules: match *b {
                "-" => None,
                s => Some(number(s, "schedules")?),
            },
        },
        "broken" => Verdict::Counterexample {
            choices: number(a, "choices")?,
            trace: Box::new(decode_trace(b)?),
        },
        _ => return Err(format!("no verdict {kind:?}")),
    };
    Ok((p, v))
}

fn decode_trace(json: &str) -> Result<Trace, String> {
    Trace::from_json(json).map_err(|e| format!("trace: {}: {}", e.field, e.message))
}

fn number<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{what} is not a number: {}", short(s)))
}

/// The start of a message, for an error (a bad message may be long).
fn short(text: &str) -> String {
    text.chars().take(60).collect()
}
