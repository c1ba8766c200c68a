//! The "export as a Rust test" of a trace whose texts came from someone else (a share link,
//! a trace file): whatever the scenario's name, summary or property says, the generated
//! file parses, holds exactly one `#[test]` function, and gives the texts back unchanged
//! as data. Issue #25's report: a name with a newline ended the `//` comment and the rest
//! ran as code; a `"#` in the JSON could end the raw string early.
use outbox_model::explore::{to_rust_test, Bounds, Design, Explorer, Property, Trace};
use syn::visit::Visit;

/// Names an attacker or a careless user could give a scenario.
const HOSTILE: [&str; 10] = [
    "lesson\n#[test] fn injected() { std::fs::write(\"INJECTED\", \"x\").unwrap(); }\n//",
    "ends the raw string \"# early \"## and \"###",
    "*/ fn closed_a_block_comment() {} /*",
    "quotes \" and backslashes \\ and \\\" both",
    "nul \0 and bell \x07 and tab \t",
    "rtl \u{202e}gnirts\u{202c} and isolate \u{2066}x\u{2069}",
    "line separator \u{2028} paragraph \u{2029} next line \u{85}",
    "carriage return \r#[test] fn cr() {}",
    "o‘zbekcha va русский 😀",
    "\"#]; } #[test] fn escaped_the_array() { let _ = [r#\"",
];

fn trace_named(name: &str) -> Trace {
    // One task, no relay, one worker, one kill: the smallest world that loses an event.
    let b = Bounds {
        tasks: 1,
        relays: 0,
        workers: 1,
        max_kills: 1,
        max_depth: 200,
    };
    let s = Design::DualWriteDbFirst.scenario(&b);
    let mut e = Explorer::unreduced(&s, &b);
    e.run();
    let mut t = e
        .report()
        .counterexample(Property::Lost)
        .expect("dual write loses events")
        .clone();
    t.scenario.name = name.to_string();
    t.scenario.summary = name.to_string();
    t.property = Some(name.to_string());
    t
}

/// What the generated file holds: its `#[test]` functions and its string literals' values.
#[derive(Default)]
struct Found {
    tests: Vec<String>,
    strings: Vec<String>,
}

impl<'a> Visit<'a> for Found {
    fn visit_item_fn(&mut self, f: &'a syn::ItemFn) {
        if f.attrs.iter().any(|a| a.path().is_ident("test")) {
            self.tests.push(f.sig.ident.to_string());
        }
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_lit_str(&mut self, s: &'a syn::LitStr) {
        self.strings.push(s.value());
    }
}

#[test]
fn hostile_names_stay_data_in_the_exported_test() {
    for name in HOSTILE {
        let text = to_rust_test(&trace_named(name), "replays_the_playground_run");
        let file = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{name:?}: the export does not parse: {e}\n{text}"));
        let mut found = Found::default();
        found.visit_file(&file);
        assert_eq!(
            found.tests,
            ["replays_the_playground_run"],
            "{name:?}\n{text}"
        );
        assert_eq!(
            file.items.len(),
            2,
            "{name:?}: a use and the test only\n{text}"
        );
        // The scenario comes back from its literal exactly as it went in.
        let scenario = found
            .strings
            .iter()
            .find_map(|s| outbox_model::Scenario::from_json(s).ok())
            .unwrap_or_else(|| panic!("{name:?}: no literal holds the scenario\n{text}"));
        assert_eq!(scenario.name, name);
        assert_eq!(scenario.summary, name);
        // Comment lines carry no control or bidi characters (rustc refuses those).
        for line in text.lines().filter(|l| l.trim_start().starts_with("//")) {
            assert!(
                line.chars().all(|c| matches!(c, ' '..='~' | '…')),
                "{line:?}"
            );
        }
        assert!(!text.contains('\0') && !text.contains('\u{202e}'));
    }
}

#[test]
fn a_hostile_test_name_becomes_an_identifier() {
    let text = to_rust_test(&trace_named("x"), "a() {} fn b");
    let file = syn::parse_file(&text).expect("parses");
    let mut found = Found::default();
    found.visit_file(&file);
    // `(`, `)`, ` `, `{`, `}`, ` ` and the space before `b`: seven underscores in all.
    assert_eq!(found.tests, ["a______fn_b"]);
}
