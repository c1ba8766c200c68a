//! A worker's message, read for the page (issue #22): `outbox_model::explore::FromWorker`
//! from its text (the model's `wire.rs`), kept to what the page shows (a claim's verdicts,
//! a matrix cell, the states).

use outbox_model::explore::{Answer, Cell, FromWorker, Property, Verdict};

/// What a message says, as the page uses it.
#[derive(Debug, PartialEq)]
pub enum Reply {
    Ready,
    Progress {
        states: u64,
    },
    Done {
        states: u64,
        search_ms: u64,
        answer: Found,
    },
    /// The search could not run: why (a refused message, or a worker whose wasm is broken).
    Failed {
        why: String,
        broken: bool,
    },
}

/// A search's answer: a claim's verdicts, or a matrix cell.
#[derive(Debug, PartialEq)]
pub enum Found {
    Claim(Vec<(Property, Verdict)>),
    /// Boxed, as the model's answer has it (a cell holds its trace in place).
    Cell(Box<Cell>),
}

/// Reads a worker's message; Err: not one this page knows, and why.
pub fn read(text: &str) -> Result<Reply, String> {
    Ok(match FromWorker::decode(text)? {
        FromWorker::Ready => Reply::Ready,
        FromWorker::Progress { states, .. } => Reply::Progress { states },
        FromWorker::Done {
            states,
            search_ms,
            answer,
            ..
        } => Reply::Done {
            states,
            search_ms: u64::from(search_ms),
            answer: match answer {
                Answer::Claim(verdicts) => Found::Claim(verdicts),
                Answer::Cell(c) => Found::Cell(c),
            },
        },
        FromWorker::Refused { why, .. } => Reply::Failed { why, broken: false },
        FromWorker::Broken { why } => Reply::Failed { why, broken: true },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use outbox_model::explore::{matrix_searches, Design, Search, Searching};

    fn through(search: Search) -> (Reply, Answer) {
        let mut s = Searching::start(search).unwrap();
        let answer = loop {
            if let Some(a) = s.run_slice(4096) {
                break a;
            }
        };
        let msg = FromWorker::Done {
            n: 3,
            states: s.states(),
            search_ms: 12,
            answer: answer.clone(),
        };
        (read(&msg.encode()).expect("read"), answer)
    }

    #[test]
    fn a_claim_reads_as_the_worker_wrote_it() {
        let (reply, answer) = through(Search::Claim {
            design: Design::DualWriteDbFirst,
        });
        let Answer::Claim(verdicts) = answer else {
            panic!("a claim")
        };
        let Reply::Done {
            search_ms: 12,
            answer: Found::Claim(got),
            ..
        } = reply
        else {
            panic!("{reply:?}")
        };
        assert_eq!(got, verdicts);
        // Dual write breaks: a counterexample with its trace came across.
        assert!(got
            .iter()
            .any(|(_, v)| matches!(v, Verdict::Counterexample { .. })));
    }

    #[test]
    fn cells_with_and_without_a_trace_read_as_written() {
        let searches = matrix_searches();
        for at in [0, 7, searches.len() - 1] {
            let (reply, answer) = through(searches[at]);
            let Answer::Cell(cell) = answer else {
                panic!("a cell")
            };
            let Reply::Done {
                answer: Found::Cell(got),
                ..
            } = reply
            else {
                panic!("cell {at}: {reply:?}")
            };
            assert_eq!(got, cell, "cell {at}");
        }
    }

    #[test]
    fn the_other_messages_and_junk() {
        let text = |m: &FromWorker| m.encode();
        assert_eq!(read(&text(&FromWorker::Ready)), Ok(Reply::Ready));
        let p = FromWorker::Progress { n: 1, states: 4096 };
        assert_eq!(read(&text(&p)), Ok(Reply::Progress { states: 4096 }));
        let r = FromWorker::Refused {
            n: 1,
            why: "row 99".into(),
        };
        let b = FromWorker::Broken {
            why: "no wasm".into(),
        };
        assert_eq!(
            read(&text(&r)),
            Ok(Reply::Failed {
                why: "row 99".into(),
                broken: false
            })
        );
        assert_eq!(
            read(&text(&b)),
            Ok(Reply::Failed {
                why: "no wasm".into(),
                broken: true
            })
        );
        for junk in [
            "",
            "null",
            "{}",
            "[1]",
            "{\"done\":{}}",
            "done\t1",
            "\"ready!\"",
        ] {
            assert!(read(junk).is_err(), "{junk:?}");
        }
    }
}
