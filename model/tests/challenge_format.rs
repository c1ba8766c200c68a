//! The challenge and workshop format (issue #23): every lesson step written as a
//! challenge round-trips (full and compact JSON), opens with its goal unreached and is
//! checked by the same run `lesson::reached` judges; a workshop round-trips; each limit
//! and each refusal names its kind and its field's JSON path; `check()` refuses a goal
//! already reached and a solution that misses; and no mangled file panics the reader.

use outbox_model::challenge::{
    Challenge, CheckError, FormatError, FormatErrorKind, GoalErrorKind, SolutionCheck, Texts,
    Workshop, FORMAT_VERSION, MAX_CHALLENGES, MAX_CHECK_STEPS, MAX_JSON_BYTES,
    MAX_SOLUTION_ACTIONS, MAX_TITLE_CHARS,
};
use outbox_model::lesson::lesson_challenges;
use outbox_model::lesson::{self, STEPS};
use outbox_model::{Action, Scenario, Step, World};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

fn challenge(json: &str) -> Challenge {
    Challenge::from_json(json).unwrap_or_else(|e| panic!("{e}\n{json}"))
}

fn refusal(json: &str) -> FormatError {
    match Challenge::from_json(json) {
        Ok(c) => panic!("accepted: {c:?}"),
        Err(e) => e,
    }
}

fn workshop_refusal(json: &str) -> FormatError {
    match Workshop::from_json(json) {
        Ok(w) => panic!("accepted: {} challenges", w.challenges.len()),
        Err(e) => e,
    }
}

/// The lesson's first step as an instructor might write it: a sandbox, English and
/// Uzbek texts, a hint, a solution of one armed kill.
fn typical() -> Challenge {
    let mut c = lesson_challenges().remove(0);
    c.id = "my-lose-dual".into();
    c.lesson = None;
    c.texts.insert(
        "en".into(),
        Texts {
            title: "Lose an event".into(),
            body: "The API writes the task, commits, then adds the job to the queue. \
                   Kill it at the right moment so that a task is saved without its event."
                .into(),
            hint: Some("Arm a kill on the API between COMMIT and queue.add.".into()),
        },
    );
    c.texts.insert(
        "uz".into(),
        Texts {
            title: "Hodisani yo'qot".into(),
            body: "API vazifani yozadi, COMMIT qiladi, keyin navbatga qo'shadi. \
                   Vazifa hodisasiz saqlanadigan paytda uni o'ldiring."
                .into(),
            hint: Some("COMMIT va queue.add orasida API'ni o'ldiring.".into()),
        },
    );
    c
}

/// The challenge as a JSON value, to edit in tests.
fn value(c: &Challenge) -> Value {
    serde_json::from_str(&c.to_json()).unwrap()
}

fn workshop(challenges: Vec<Challenge>) -> Workshop {
    Workshop {
        v: FORMAT_VERSION,
        id: "outbox-basics".into(),
        title: BTreeMap::from([("en".to_string(), "Outbox basics".to_string())]),
        challenges,
    }
}

/// base64url without padding: 4 characters per 3 bytes.
fn base64url_len(bytes: usize) -> usize {
    (bytes * 4).div_ceil(3)
}

// ---- 1. the lesson's steps -------------------------------------------------------------

#[test]
fn every_lesson_step_round_trips_full_and_compact() {
    let all = lesson_challenges();
    assert_eq!(all.len(), STEPS.len());
    for (c, st) in all.iter().zip(STEPS) {
        assert_eq!(c.lesson.as_deref(), Some(st.id));
        assert_eq!(c.predict, st.predict, "{}", st.id);
        let full = c.to_json();
        assert_eq!(&challenge(&full), c, "{}: full JSON", st.id);
        let compact = c.to_compact_json();
        assert_eq!(&challenge(&compact), c, "{}: compact JSON", st.id);
        assert!(compact.len() < full.len(), "{}: compact is shorter", st.id);
        println!(
            "{:<18} full {:>5} B, compact {:>5} B, base64url {:>5} chars",
            st.id,
            full.len(),
            compact.len(),
            base64url_len(compact.len())
        );
    }
}

#[test]
fn every_lesson_step_opens_unreached_and_checks_as_the_lesson_judges() {
    let mut reached = 0;
    for (c, st) in lesson_challenges().iter().zip(STEPS) {
        assert!(!c.goal.holds(&World::new(&c.scenario)), "{}", st.id);
        assert!(
            !lesson::reached(st.goal, &World::new(&c.scenario)),
            "{}",
            st.id
        );
        let report = c.check().unwrap_or_else(|e| panic!("{}: {e}", st.id));
        let Some(run) = c.run_solution().unwrap() else {
            assert_eq!(report.solution, SolutionCheck::Unchecked, "{}", st.id);
            continue;
        };
        // The same run, judged by the lesson: the same verdict where the check stopped.
        assert!(run.reached, "{}", st.id);
        assert!(lesson::reached(st.goal, &run.world), "{}", st.id);
        let SolutionCheck::Reached { steps, tick } = report.solution else {
            panic!("{}: {:?}", st.id, report.solution)
        };
        assert_eq!((steps, tick), (run.world.steps(), run.world.tick()));
        assert!(steps * 100 < MAX_CHECK_STEPS, "{}: {steps} steps", st.id);
        // The lesson's own "show me", run to its end as the page plays it, agrees.
        let (s, actions) = lesson::solution(st.goal);
        assert_eq!(s, c.scenario, "{}", st.id);
        assert_eq!(c.solution.as_ref(), Some(&actions), "{}", st.id);
        let mut w = World::new(&s);
        for a in &actions {
            w.apply(a).unwrap();
        }
        w.run(s.max_ticks);
        assert!(lesson::reached(st.goal, &w), "{}", st.id);
        assert!(c.goal.holds(&w), "{}", st.id);
        reached += 1;
    }
    assert_eq!(
        reached,
        STEPS.len() - 4,
        "all but the four that reconfigure"
    );
}

#[test]
fn the_four_steps_that_reconfigure_have_no_solution_on_their_start() {
    let unchecked: Vec<String> = lesson_challenges()
        .into_iter()
        .filter(|c| c.solution.is_none())
        .map(|c| c.id)
        .collect();
    // pool-load (#43): its solution raises the API instances past the pool.
    assert_eq!(
        unchecked,
        ["pool-load", "no-skip-locked", "inbox-own-tx", "cleanup"]
    );
    for st in STEPS.iter().filter(|s| unchecked.iter().any(|u| u == s.id)) {
        // "Show me" loads another scenario, on which the goal is reached.
        let (s, _) = lesson::solution(st.goal);
        assert_ne!(s, lesson::scenario(st.goal), "{}", st.id);
    }
}

// ---- 2. sizes of links -----------------------------------------------------------------

#[test]
fn a_typical_challenge_link_is_short() {
    // Issue #23: "a typical single challenge link ≤ 1 500 characters" (the compact JSON,
    // base64url-encoded into the link).
    const MAX_LINK_CHARS: usize = 1_500;
    let c = typical();
    let compact = c.to_compact_json();
    assert_eq!(challenge(&compact), c);
    let link = base64url_len(compact.len());
    println!(
        "typical (two languages, hint, solution): full {} B, compact {} B, base64url {link}",
        c.to_json().len(),
        compact.len()
    );
    assert!(link <= MAX_LINK_CHARS, "{link} chars: {compact}");
    // Every lesson step on a sandbox (the scenario differs from the default only in the
    // few fields `lesson::sandbox` sets) fits too, as a lesson step and with texts.
    let mut sandboxes = 0;
    for c in lesson_challenges() {
        if !c.scenario.name.starts_with("lesson-") {
            continue;
        }
        let link = base64url_len(c.to_compact_json().len());
        assert!(link <= MAX_LINK_CHARS, "{}: {link} chars", c.id);
        sandboxes += 1;
    }
    assert!(sandboxes >= 5, "{sandboxes}");
}

#[test]
fn compact_json_leaves_out_exactly_the_default_fields() {
    let c = typical();
    let v: Value = serde_json::from_str(&c.to_compact_json()).unwrap();
    let s = &v["scenario"];
    assert_eq!(s["name"], "lesson-lose-dual");
    assert_eq!(s["config"]["api"], "dual_write_db_first");
    assert_eq!(s["config"]["relays"], 0);
    for gone in ["seed", "max_ticks", "faults", "workload"] {
        assert!(s.get(gone).is_none(), "{gone}: {s}");
    }
    assert!(s["config"].get("relay").is_none(), "{s}");
    // A default scenario keeps only its name, and still reads back.
    let mut d = c.clone();
    d.scenario = Scenario::default();
    let v: Value = serde_json::from_str(&d.to_compact_json()).unwrap();
    assert_eq!(v["scenario"], json!({"name": "custom"}));
    assert_eq!(challenge(&d.to_compact_json()), d);
}

// ---- 3. workshops and limits -----------------------------------------------------------

#[test]
fn a_workshop_of_three_round_trips() {
    let mut cs = lesson_challenges();
    cs.truncate(2);
    cs.push(typical());
    let w = workshop(cs);
    let back = Workshop::from_json(&w.to_json()).unwrap();
    assert_eq!(back, w);
    assert_eq!(Workshop::from_json(&w.to_compact_json()).unwrap(), w);
    let all = workshop(lesson_challenges());
    let compact = all.to_compact_json().len();
    println!(
        "workshop of all {} lesson steps: full {} B, compact {compact} B",
        all.challenges.len(),
        all.to_json().len()
    );
    assert!(compact <= MAX_JSON_BYTES);
}

/// A file is a workshop when its top-level object has `challenges`, whatever its texts
/// say: a challenge whose body is the word `challenges` is a challenge (#40).
#[test]
fn a_file_is_a_workshop_by_its_top_level_key_only() {
    use outbox_model::challenge::ChallengeFile;
    let mut c = typical();
    // A text that is just the word is the JSON text `"challenges"`.
    c.texts.get_mut("en").unwrap().body = "challenges".into();
    for text in [c.to_json(), c.to_compact_json()] {
        assert!(text.contains("\"challenges\""));
        assert_eq!(
            ChallengeFile::from_json(&text),
            Ok(ChallengeFile::Challenge(Box::new(c.clone())))
        );
    }
    let w = workshop(vec![c.clone()]);
    assert_eq!(
        ChallengeFile::from_json(&w.to_compact_json()),
        Ok(ChallengeFile::Workshop(w))
    );
    // A workshop's own refusal names the workshop's field.
    let e = ChallengeFile::from_json(r#"{"v":1,"id":"w","title":{"en":"W"},"challenges":[]}"#)
        .unwrap_err();
    assert_eq!(e.field, "challenges");
}

#[test]
fn a_workshop_holds_at_most_thirty_two_challenges() {
    let one = typical();
    let many = |n: usize| {
        let cs = (0..n)
            .map(|i| {
                let mut c = one.clone();
                c.id = format!("c-{i}");
                c
            })
            .collect();
        workshop(cs).to_compact_json()
    };
    assert_eq!(
        Workshop::from_json(&many(MAX_CHALLENGES))
            .unwrap()
            .challenges
            .len(),
        32
    );
    let e = workshop_refusal(&many(MAX_CHALLENGES + 1));
    assert_eq!(e.field, "challenges");
    assert_eq!(
        e.kind,
        FormatErrorKind::TooMany {
            what: "challenges",
            max: MAX_CHALLENGES
        }
    );
    assert_eq!(e.kind.code(), "too_many");
    let e = workshop_refusal(&workshop(vec![one.clone(), one]).to_json());
    assert_eq!(e.field, "challenges[1].id");
    assert_eq!(e.kind.code(), "duplicate_id");
    let e = workshop_refusal(&workshop(vec![]).to_json());
    assert_eq!(
        (e.field.as_str(), e.kind),
        ("challenges", FormatErrorKind::NoChallenges)
    );
}

#[test]
fn texts_are_held_to_their_lengths_and_languages() {
    let mut c = typical();
    c.texts.get_mut("en").unwrap().title = "x".repeat(MAX_TITLE_CHARS);
    assert_eq!(challenge(&c.to_json()), c, "the limit itself is accepted");
    // Characters, not bytes: 120 Cyrillic letters are 240 bytes and fit.
    c.texts.get_mut("en").unwrap().title = "ж".repeat(MAX_TITLE_CHARS);
    assert_eq!(challenge(&c.to_json()), c);
    c.texts.get_mut("en").unwrap().title = "x".repeat(MAX_TITLE_CHARS + 1);
    let e = refusal(&c.to_json());
    assert_eq!(e.field, "texts.en.title");
    assert_eq!(e.kind, FormatErrorKind::TextTooLong { max_chars: 120 });
    let mut c = typical();
    c.texts.get_mut("uz").unwrap().body = "x".repeat(2_001);
    assert_eq!(refusal(&c.to_json()).field, "texts.uz.body");
    c.texts.get_mut("uz").unwrap().body = String::new();
    c.texts.get_mut("uz").unwrap().hint = Some("x".repeat(501));
    let e = refusal(&c.to_json());
    assert_eq!(
        (e.field.as_str(), e.kind.code()),
        ("texts.uz.hint", "text_too_long")
    );
    let mut v = value(&typical());
    v["texts"]["xx"] = json!({"title": "?"});
    let e = refusal(&v.to_string());
    assert_eq!(e.field, "texts");
    assert_eq!(e.kind, FormatErrorKind::BadLanguage { lang: "xx".into() });
    v["texts"] = json!({});
    let e = refusal(&v.to_string());
    assert_eq!(
        (e.field.as_str(), e.kind),
        ("texts", FormatErrorKind::NoTexts)
    );
    v["texts"] = json!({"ru": {"title": "  "}});
    assert_eq!(refusal(&v.to_string()).kind, FormatErrorKind::EmptyText);
}

#[test]
fn a_workshop_title_is_held_to_its_length_and_languages() {
    let mut w = workshop(vec![typical()]);
    w.title.insert("ru".into(), "т".repeat(121));
    let e = workshop_refusal(&w.to_json());
    assert_eq!(e.field, "title.ru");
    assert_eq!(e.kind, FormatErrorKind::TextTooLong { max_chars: 120 });
    w.title = BTreeMap::new();
    assert_eq!(
        workshop_refusal(&w.to_json()).kind,
        FormatErrorKind::NoTexts
    );
    w.title = BTreeMap::from([("de".to_string(), "Titel".to_string())]);
    assert_eq!(workshop_refusal(&w.to_json()).kind.code(), "bad_language");
}

#[test]
fn a_file_over_64_kib_is_refused_before_it_is_read() {
    let c = typical().to_json();
    // Padded with white space (valid JSON) to the limit, then one byte more.
    let at_limit = format!("{c}{}", " ".repeat(MAX_JSON_BYTES - c.len()));
    assert_eq!(challenge(&at_limit), typical());
    let e = refusal(&format!("{at_limit} "));
    assert_eq!(e.field, "");
    assert_eq!(e.kind, FormatErrorKind::TooLarge { max_bytes: 65_536 });
    let e = workshop_refusal(&format!("{at_limit} "));
    assert_eq!(e.kind.code(), "too_large");
}

#[test]
fn versions_are_read_before_the_shape() {
    let mut v = value(&typical());
    v["v"] = json!(2);
    v["new_field_of_v2"] = json!({"anything": [1, 2]});
    v["goal"] = json!({"v2 goals": "are objects"});
    let e = refusal(&v.to_string());
    assert_eq!(e.field, "v");
    assert_eq!(
        e.kind,
        FormatErrorKind::FutureVersion {
            found: 2,
            supported: 1
        }
    );
    assert_eq!(e.kind.code(), "future_version");
    v.as_object_mut().unwrap().remove("v");
    assert_eq!(refusal(&v.to_string()).kind, FormatErrorKind::BadVersion);
    for bad in [json!(0), json!("1"), json!(-1), json!(1.5)] {
        v["v"] = bad.clone();
        assert_eq!(
            refusal(&v.to_string()).kind,
            FormatErrorKind::BadVersion,
            "{bad}"
        );
    }
    // As version 1, the same file is refused for its shape: first the unknown field,
    // then the goal that is not a string.
    v["v"] = json!(1);
    let e = refusal(&v.to_string());
    assert_eq!(
        (e.field.as_str(), e.kind.code()),
        ("new_field_of_v2", "shape")
    );
    v.as_object_mut().unwrap().remove("new_field_of_v2");
    let e = refusal(&v.to_string());
    assert_eq!((e.field.as_str(), e.kind.code()), ("goal", "shape"));
    // A workshop's version is read first too.
    let mut w: Value = serde_json::from_str(&workshop(vec![typical()]).to_json()).unwrap();
    w["v"] = json!(7);
    w["sections"] = json!([]);
    assert_eq!(
        workshop_refusal(&w.to_string()).kind.code(),
        "future_version"
    );
    w["v"] = json!(1);
    let e = workshop_refusal(&w.to_string());
    assert_eq!((e.field.as_str(), e.kind.code()), ("sections", "shape"));
}

#[test]
fn a_goal_error_keeps_its_kind_and_its_field() {
    let mut w: Value =
        serde_json::from_str(&workshop(vec![typical(), lesson_challenges().remove(1)]).to_json())
            .unwrap();
    w["challenges"][1]["goal"] = json!("lost >= 1 && apii == outbox");
    let e = workshop_refusal(&w.to_string());
    assert_eq!(e.field, "challenges[1].goal");
    let FormatErrorKind::Goal(g) = &e.kind else {
        panic!("{e}")
    };
    assert_eq!(g.at, 13);
    assert_eq!(
        g.kind,
        GoalErrorKind::UnknownName {
            name: "apii".into()
        }
    );
    assert_eq!(e.kind.code(), "goal");
}

#[test]
fn a_solution_action_must_name_a_process_of_the_scenario() {
    let mut c = typical();
    let arm = |process: &str| Action::ArmKill {
        process: process.into(),
        step: Step::QueueAdd,
        when: outbox_model::action::When::Always,
        times: None,
    };
    c.solution = Some(vec![Action::QueueUp, arm("api"), arm("relay-9")]);
    let e = refusal(&c.to_json());
    assert_eq!(e.field, "solution[2].process");
    assert_eq!(
        e.kind,
        FormatErrorKind::ActionProcess {
            index: 2,
            process: "relay-9".into()
        }
    );
    c.solution = Some(vec![Action::QueueUp; MAX_SOLUTION_ACTIONS + 1]);
    let e = refusal(&c.to_json());
    assert_eq!(e.field, "solution");
    assert_eq!(
        e.kind,
        FormatErrorKind::TooMany {
            what: "solution",
            max: 200
        }
    );
    c.solution = Some(vec![Action::QueueUp; MAX_SOLUTION_ACTIONS]);
    assert_eq!(challenge(&c.to_json()), c);
}

#[test]
fn other_refusals_name_their_field() {
    let base = value(&typical());
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        ("id", json!("Not A Slug"), "id", "bad_id"),
        ("id", json!("x".repeat(41)), "id", "bad_id"),
        ("id", json!(""), "id", "bad_id"),
        ("lesson", json!("no-such-step"), "lesson", "unknown_lesson"),
        ("predict", json!("maybe"), "predict", "shape"),
        (
            "solution",
            json!([{"action": "explode"}]),
            "solution[0]",
            "shape",
        ),
        (
            "scenario",
            json!({"name": "x", "config": {"relays": 9}}),
            "scenario.config.relays",
            "scenario",
        ),
        (
            "scenario",
            json!({"name": "x", "config": {"relayz": 1}}),
            "scenario.config.relayz",
            "shape",
        ),
        (
            "scenario",
            json!({"name": "x", "config": {"relay": {"lock": "none!"}}}),
            "scenario.config.relay.lock",
            "shape",
        ),
        (
            "scenario",
            json!({"name": "x", "workload": {"tasks": -1}}),
            "scenario.workload.tasks",
            "shape",
        ),
        (
            "scenario",
            json!({"name": "x", "faults": [{"fault": "api_error", "when": "always"}, {"fault": "boom"}]}),
            "scenario.faults[1]",
            "shape",
        ),
        ("scenario", json!({"config": {}}), "scenario.name", "shape"),
        ("scenario", json!([]), "scenario", "shape"),
        ("texts", json!([]), "texts", "shape"),
    ];
    for (key, bad, field, code) in cases {
        let mut v = base.clone();
        v[key] = bad.clone();
        let e = refusal(&v.to_string());
        assert_eq!(
            (e.field.as_str(), e.kind.code()),
            (field, code),
            "{key}: {bad}: {e}"
        );
    }
    let e = refusal("{\"v\": 1,\n  \"id\": }");
    assert_eq!(
        (e.field.as_str(), e.kind),
        ("", FormatErrorKind::NotJson { line: 2, col: 9 })
    );
    assert_eq!(refusal("[1]").kind.code(), "shape");
}

#[test]
fn every_kind_has_its_own_code() {
    use FormatErrorKind::*;
    let goal_error = outbox_model::challenge::Goal::parse("").unwrap_err();
    let kinds = [
        TooLarge { max_bytes: 1 },
        NotJson { line: 1, col: 1 },
        Shape {
            message: String::new(),
        },
        FutureVersion {
            found: 2,
            supported: 1,
        },
        BadVersion,
        TooMany { what: "x", max: 1 },
        TextTooLong { max_chars: 1 },
        EmptyText,
        BadLanguage {
            lang: String::new(),
        },
        NoTexts,
        BadId,
        DuplicateId { id: String::new() },
        NoChallenges,
        UnknownLesson { id: String::new() },
        Goal(goal_error),
        Scenario {
            message: String::new(),
        },
        ActionProcess {
            index: 0,
            process: String::new(),
        },
    ];
    let mut codes: Vec<&str> = kinds.iter().map(FormatErrorKind::code).collect();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), kinds.len());
}

// ---- 4. checks before sharing ----------------------------------------------------------

#[test]
fn a_goal_that_holds_at_the_start_is_refused() {
    let mut c = typical();
    c.goal = outbox_model::challenge::Goal::parse("lost == 0").unwrap();
    assert_eq!(c.check(), Err(CheckError::GoalAtStart));
    assert_eq!(CheckError::GoalAtStart.code(), "goal_at_start");
}

#[test]
fn a_solution_that_misses_is_refused() {
    let mut c = typical();
    assert!(matches!(
        c.check().unwrap().solution,
        SolutionCheck::Reached { .. }
    ));
    // Killing the API at COMMIT rolls the task back with its event: nothing is lost.
    let Some(Action::ArmKill { step, .. }) = c.solution.as_mut().and_then(|s| s.first_mut()) else {
        panic!("the typical solution arms a kill")
    };
    *step = Step::Commit;
    let Err(CheckError::SolutionMisses { steps }) = c.check() else {
        panic!("{:?}", c.check())
    };
    assert!(steps > 0);
    // Pressing play alone misses too; no solution checks only the start.
    c.solution = Some(vec![]);
    assert!(matches!(c.check(), Err(CheckError::SolutionMisses { .. })));
    c.solution = None;
    assert_eq!(c.check().unwrap().solution, SolutionCheck::Unchecked);
}

#[test]
fn a_refused_action_and_a_long_run_are_refused() {
    let mut c = typical();
    // The worker waits for a job: it cannot take a step before the queue has one.
    let worker_step = Action::Step {
        process: "worker-1".into(),
    };
    c.solution = Some(vec![Action::QueueUp, worker_step]);
    let Err(CheckError::SolutionAction { index, why }) = c.check() else {
        panic!("{:?}", c.check())
    };
    assert_eq!(index, 1, "{why}");
    let process = "worker-1".to_string();
    assert_eq!(why, outbox_model::world::Refusal::CannotStep { process });
    // A goal no run of this scenario reaches, on a run longer than the cap.
    c.scenario.workload.tasks = 1_000_000;
    c.goal = outbox_model::challenge::Goal::parse("lost >= 2000000").unwrap();
    c.solution = Some(vec![]);
    assert_eq!(
        c.check(),
        Err(CheckError::TooLong {
            max_steps: MAX_CHECK_STEPS
        })
    );
}

/// "Check" on a big shared run is bounded by work, not only by steps (#40: 100 000 tasks
/// and 100 000 preloaded events held the page 243 s, the goal judged before every step
/// walking every unpublished row): a goal that reads the rows' ages stops at the work
/// limit; one that does not is judged without the walk.
#[test]
fn checking_a_big_world_is_bounded_by_work() {
    use outbox_model::challenge::{Goal, MAX_CHECK_WORK};
    let mut c = typical();
    c.scenario.workload.tasks = 20_000;
    c.scenario.workload.preloaded_events = 20_000;
    c.solution = Some(vec![]);
    c.goal = Goal::parse("stuck >= 1000000000").unwrap();
    assert!(c.goal.reads_ages());
    let started = std::time::Instant::now();
    let Err(CheckError::TooMuchWork { steps }) = c.check() else {
        panic!("{:?}", c.check())
    };
    println!(
        "ages goal: stopped after {steps} steps in {:?}",
        started.elapsed()
    );
    assert!(steps > 0 && steps < MAX_CHECK_WORK / 20_000, "{steps}");
    assert_eq!(CheckError::TooMuchWork { steps }.code(), "too_much_work");
    // The same world and a goal of kept counters: no walk, the step cap decides.
    c.goal = Goal::parse("lost >= 1000000000").unwrap();
    assert!(!c.goal.reads_ages());
    let started = std::time::Instant::now();
    let result = c.check();
    println!("lost goal: {result:?} in {:?}", started.elapsed());
    assert!(
        matches!(
            result,
            Err(CheckError::TooLong { .. } | CheckError::SolutionMisses { .. })
        ),
        "{result:?}"
    );
}

/// The check played in slices (as the page does, to show its progress and stay
/// responsive) ends where the one-call check ends, with the same verdict, and its
/// progress only grows, up to 1000 per mille at the work limit.
#[test]
fn a_check_in_slices_agrees_with_the_check_in_one_call() {
    use outbox_model::challenge::Goal;
    let mut c = typical();
    c.scenario.workload.tasks = 2_000;
    c.scenario.workload.preloaded_events = 2_000;
    c.solution = Some(vec![]);
    for goal in [
        "stuck >= 1000000000",
        "settled && lost == 0",
        "lost >= 1000000000",
    ] {
        c.goal = Goal::parse(goal).unwrap();
        let whole = c.check();
        let mut runner = c.start_check().unwrap().expect("a solution");
        let (mut slices, mut last) = (0, 0);
        while !runner.advance(50_000) {
            let now = runner.progress_per_mille();
            assert!(now >= last, "{goal}: progress fell from {last} to {now}");
            last = now;
            slices += 1;
        }
        let out_of_work = matches!(whole, Err(CheckError::TooMuchWork { .. }));
        assert!(
            !out_of_work || runner.progress_per_mille() == 1000,
            "{goal}"
        );
        assert_eq!(runner.report(), whole, "{goal} after {slices} slices");
    }
}

/// A goal judged without the rows' walk sees the same counters as one with it.
#[test]
fn counters_without_ages_are_the_counters_but_the_ages() {
    let mut w = World::new(&lesson::scenario(STEPS[0].goal));
    for _ in 0..500 {
        let all = w.counters();
        let cheap = w.counters_without_ages();
        assert_eq!(
            outbox_model::Counters {
                stuck: all.stuck,
                oldest_unpublished_age_ticks: all.oldest_unpublished_age_ticks,
                ..cheap
            },
            all
        );
        if !w.step() {
            break;
        }
    }
}

// ---- 5. tampering ----------------------------------------------------------------------

/// Whether `field` is a JSON path as the reader writes them: empty, or keys of
/// `[A-Za-z0-9_-]` joined by `.`, each followed by any number of `[n]`.
fn is_json_path(field: &str) -> bool {
    field.is_empty()
        || field.split('.').all(|seg| {
            let (key, rest) = seg.split_at(seg.find('[').unwrap_or(seg.len()));
            let key_ok = !key.is_empty()
                && key
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            let idx_ok = rest.is_empty()
                || rest
                    .strip_prefix('[')
                    .and_then(|r| r.strip_suffix(']'))
                    .is_some_and(|r| {
                        r.split("][")
                            .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    });
            key_ok && idx_ok
        })
}

fn documents() -> Vec<String> {
    let mut docs: Vec<String> = lesson_challenges()
        .iter()
        .flat_map(|c| [c.to_json(), c.to_compact_json()])
        .collect();
    docs.push(typical().to_compact_json());
    let mut cs = lesson_challenges();
    cs.truncate(3);
    docs.push(workshop(cs).to_compact_json());
    docs
}

fn either(text: &str) {
    for r in [
        Challenge::from_json(text).map(|_| ()),
        Workshop::from_json(text).map(|_| ()),
    ] {
        if let Err(e) = r {
            assert!(is_json_path(&e.field), "{:?} from {text}", e.field);
            let _ = (e.to_string(), e.kind.code());
        }
    }
}

/// Removes the `n`-th key (in a walk of the whole document) wherever it is.
fn delete_key(v: &mut Value, n: &mut usize) -> bool {
    match v {
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if *n == 0 {
                    m.remove(&k);
                    return true;
                }
                *n -= 1;
                if delete_key(m.get_mut(&k).unwrap(), n) {
                    return true;
                }
            }
            false
        }
        Value::Array(items) => items.iter_mut().any(|x| delete_key(x, n)),
        _ => false,
    }
}

const ALPHABET: &[char] = &[
    '{', '}', '[', ']', '"', ':', ',', '0', '9', '-', 'x', ' ', 'ж', '\\', 'e',
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn edited_files_never_panic(
        doc in 0usize..64,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0usize..3, 0usize..ALPHABET.len()), 1..6),
    ) {
        let docs = documents();
        let mut chars: Vec<char> = docs[doc % docs.len()].chars().collect();
        for (at, op, c) in edits {
            let i = at.index(chars.len() + 1);
            match op {
                0 if i < chars.len() => { chars.remove(i); }
                1 if i < chars.len() => chars[i] = ALPHABET[c],
                _ => chars.insert(i, ALPHABET[c]),
            }
        }
        either(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn truncated_files_never_panic(doc in 0usize..64, at in any::<prop::sample::Index>()) {
        let docs = documents();
        let text = &docs[doc % docs.len()];
        let mut end = at.index(text.len() + 1);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        either(&text[..end]);
    }

    #[test]
    fn files_with_a_field_deleted_never_panic(doc in 0usize..64, key in 0usize..400) {
        let docs = documents();
        let mut v: Value = serde_json::from_str(&docs[doc % docs.len()]).unwrap();
        let mut n = key;
        delete_key(&mut v, &mut n);
        either(&v.to_string());
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        either(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn paths_are_checked_by_a_checker_that_can_refuse() {
    for good in [
        "",
        "v",
        "challenges[2].goal",
        "scenario.faults[1]",
        "texts.en.title",
    ] {
        assert!(is_json_path(good), "{good}");
    }
    for bad in [".", "a..b", "a[", "a[]", "a[x]", "texts.e n", "[0]"] {
        assert!(!is_json_path(bad), "{bad}");
    }
}
