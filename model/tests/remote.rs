//! A search as a message (issue #22): what the page posts to a Web Worker and what comes
//! back, as text (`explore::wire`). The answer that crosses must be the answer the explorer
//! gives in place.

use outbox_model::explore::{
    crash_cell, explore, matrix_rows, matrix_searches, Answer, Bounds, Design, FromWorker,
    Property, Search, Searching, ToWorker, Verdict,
};

/// Runs `search` as the worker does: from its message's text, in slices, the reply as text
/// read back as the page reads it.
fn through_the_wire(search: Search, slice_states: usize) -> Answer {
    let got = ToWorker::decode(&ToWorker { n: 7, search }.encode()).unwrap();
    assert_eq!(got, ToWorker { n: 7, search });
    let mut s = Searching::start(got.search).expect("a search of this build");
    let answer = loop {
        if let Some(a) = s.run_slice(slice_states) {
            break a;
        }
    };
    let reply = FromWorker::Done {
        n: got.n,
        states: s.states(),
        search_ms: 0,
        answer,
    };
    match FromWorker::decode(&reply.encode()).unwrap() {
        FromWorker::Done {
            n: 7,
            answer,
            states,
            ..
        } => {
            assert_eq!(states, s.states());
            answer
        }
        other => panic!("not the reply sent: {other:?}"),
    }
}

#[test]
fn a_claim_answered_through_the_wire_is_the_explorers_verdicts() {
    let b = Bounds::default();
    let design = Design::DualWriteDbFirst;
    let direct = explore(&design.scenario(&b), &b);
    let Answer::Claim(verdicts) = through_the_wire(Search::Claim { design }, 64) else {
        panic!("a claim answers with its verdicts");
    };
    assert_eq!(verdicts, direct.properties, "verdicts and their traces");
    // Dual write breaks (the lesson's point): a counterexample's trace came across, and a
    // property that holds came with its schedule count (a u128, beyond JSON's doubles).
    let broken = |p| {
        matches!(
            verdicts.iter().find(|(q, _)| *q == p),
            Some((_, Verdict::Counterexample { .. }))
        )
    };
    assert!(broken(Property::Lost));
    assert!(verdicts.iter().any(|(_, v)| matches!(
        v,
        Verdict::Holds {
            schedules: Some(_),
            ..
        }
    )));
}

#[test]
fn the_other_messages_cross_as_written() {
    for m in [
        FromWorker::Ready,
        FromWorker::Progress { n: 1, states: 4096 },
        FromWorker::Refused {
            n: 2,
            why: "row 99\tis past\nthe matrix".into(),
        },
        FromWorker::Broken {
            why: "no wasm: 404".into(),
        },
    ] {
        assert_eq!(FromWorker::decode(&m.encode()), Ok(m.clone()), "{m:?}");
    }
    let cell = ToWorker {
        n: 9,
        search: Search::Cell {
            row: 22,
            design: Design::OutboxInbox,
        },
    };
    assert_eq!(ToWorker::decode(&cell.encode()), Ok(cell));
}

#[test]
fn a_message_that_is_not_one_is_refused_with_a_reason() {
    for junk in [
        "",
        "ready!",
        "progress\t1",
        "progress\tx\t2",
        "done\t1\t2\t3\tclaim\nlost\tholds\t1",
        "done\t1\t2\t3\tcell\tlost\t4\t{\"not\": \"a trace\"}",
        "done\t1\t2\t3\tcell\tworse\t4\t-",
        "done\t1\t2\t3\tclaim\nliveness\tholds\t1\t-",
        "{\"done\":{}}",
    ] {
        let why = FromWorker::decode(junk).expect_err(junk);
        assert!(!why.is_empty(), "{junk:?}");
    }
    for junk in [
        "",
        "1\tclaim",
        "1\tclaim\tnope",
        "x\tclaim\toutbox",
        "1\tcell\t-1\toutbox",
    ] {
        assert!(ToWorker::decode(junk).is_err(), "{junk:?}");
    }
}

#[test]
fn every_matrix_cell_is_one_search_and_answers_as_in_place() {
    let searches = matrix_searches();
    let rows = matrix_rows();
    assert_eq!(searches.len(), rows.len() * Design::all().len());
    // A few cells across the table (each in place is crash_cell, the native matrix's own).
    for at in [0, searches.len() / 3, searches.len() - 1] {
        let Search::Cell { row, design } = searches[at] else {
            panic!("the matrix is made of cells");
        };
        let Answer::Cell(c) = through_the_wire(searches[at], 500) else {
            panic!("a cell answers with a cell");
        };
        assert_eq!(*c, crash_cell(design, rows[usize::from(row)]), "cell {at}");
    }
}

#[test]
fn a_row_past_the_matrix_is_refused_with_its_number() {
    let past = matrix_rows().len() as u16;
    let why = Searching::start(Search::Cell {
        row: past,
        design: Design::Outbox,
    })
    .err()
    .expect("refused");
    assert!(why.contains(&past.to_string()), "{why}");
}
