//! The run as a sequence diagram: one lane per process plus PostgreSQL and the queue, one
//! row per logged step (the newest rows the world keeps), kills marked, and the arrows of
//! a lost or duplicated event drawn in its colour. Drawn as an SVG string, so the same
//! text is shown and downloaded.
//!
//! The string goes into the page through `inner_html`, so every text in it is escaped for
//! XML text and attribute values ([`esc`]). Its colours are presentation attributes, not
//! an inline `<style>` element: a strict Content-Security-Policy blocks inline styles,
//! the download looks the same on its own, and a `<style>` inside inline SVG would style
//! the whole page (`.lost`, `text`) besides.

use leptos::prelude::*;
use outbox_model::action::Reach;
use outbox_model::view::{self, Trouble};
use outbox_model::world::{LogEntry, Note};
use outbox_model::{EventId, Step, World};

use crate::browser::url::data_url;
use crate::ctl::{use_ctl, SPEEDS};
use crate::i18n::words::{proc_name, step_name};
use crate::i18n::{t, tr, use_i18n, Key, Lang};

/// Rows drawn at most (the newest ones).
pub const MAX_ROWS: usize = 80;
const LANE_W: usize = 130;
const ROW_H: usize = 22;
const TOP: usize = 40;

/// Where a step's arrow goes: the database, the queue, or another process.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Target {
    Db,
    Queue,
    Api,
    Client,
    Own,
}

fn target(step: Step) -> Target {
    match step.reaches() {
        Reach::Queue => Target::Queue,
        Reach::Api => Target::Api,
        Reach::Client => Target::Client,
        Reach::Own => Target::Own,
        Reach::Db => Target::Db,
    }
}

fn note_event(n: &Note) -> Option<EventId> {
    outbox_model::view::note_event(n)
}

/// An event's colour (a CSS class of the drawing), from how the model says it ended.
fn event_class(w: &World, e: EventId) -> Option<&'static str> {
    view::event_trouble(w, e).map(|t| match t {
        Trouble::Lost => "lost",
        Trouble::Phantom => "phantom",
        Trouble::DuplicateEffect => "dup-effect",
        Trouble::Duplicate => "dup",
    })
}

/// `s` as XML text or a quoted attribute value: the five markup characters as entities,
/// and the characters XML 1.0 forbids even as entities (NUL and the other C0 controls
/// but tab and newline, U+FFFE, U+FFFF) as U+FFFD, so the document always parses.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A lane heading at most this many characters (a name is a label, not a document).
const MAX_HEAD_CHARS: usize = 40;

/// The presentation attributes of a drawing class (what an inline `<style>` held).
fn paint(class: &str) -> &'static str {
    match class {
        "lost" => "stroke=\"#D55E00\" fill=\"#D55E00\"",
        "dup" | "dup-effect" => "stroke=\"#E69F00\" fill=\"#E69F00\"",
        "phantom" => "stroke=\"#CC79A7\" fill=\"#CC79A7\"",
        "kill" => "stroke=\"#D55E00\" stroke-width=\"3\" fill=\"none\"",
        "lane" => "stroke=\"#888\" stroke-dasharray=\"4 3\"",
        _ => "stroke=\"#444\" fill=\"none\"",
    }
}

/// A text's fill: its class's colour, else near-black.
fn text_fill(class: &str) -> &'static str {
    match class {
        "lost" => "#D55E00",
        "dup" | "dup-effect" => "#E69F00",
        "phantom" => "#CC79A7",
        _ => "#111",
    }
}

/// The diagram of the world's kept log, as SVG text.
pub fn svg(lang: Lang, w: &World) -> String {
    let names: Vec<String> = w.procs().iter().map(|p| p.name.clone()).collect();
    let lanes = names.len() + 2;
    let entries: Vec<&LogEntry> = {
        let skip = w.log_entries().len().saturating_sub(MAX_ROWS);
        w.log_entries()
            .iter()
            .skip(skip)
            .filter(|e| e.proc.is_some())
            .collect()
    };
    // The events that went wrong, listed under the rows (a lost event may have no arrow
    // at all: under dual write it never reached the queue).
    let bad: Vec<(EventId, &'static str)> = w
        .auditor()
        .events()
        .filter_map(|(e, _)| event_class(w, e).map(|c| (e, c)))
        .take(12)
        .collect();
    let width = lanes * LANE_W;
    let height = TOP + (entries.len() + 1 + bad.len()) * ROW_H;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"{}\">",
        esc(t(lang, Key::SeqHeading))
    );
    out.push_str(&format!(
        "<rect width=\"{width}\" height=\"{height}\" fill=\"#fff\"/>"
    ));
    push_heads(&mut out, lang, &names, height);
    for (row, e) in entries.iter().enumerate() {
        push_entry(&mut out, lang, w, &names, row, e);
    }
    push_bad(&mut out, lang, &bad, entries.len());
    out.push_str("</svg>");
    out
}

/// The x of a lane's line: the processes' lanes, then PostgreSQL's, then the queue's.
fn lane_x(lane: usize) -> usize {
    lane * LANE_W + LANE_W / 2
}

/// Each lane's heading and dashed line.
fn push_heads(out: &mut String, lang: Lang, names: &[String], height: usize) {
    let mut heads: Vec<String> = names
        .iter()
        .map(|n| proc_name(lang, n).chars().take(MAX_HEAD_CHARS).collect())
        .collect();
    heads.push(t(lang, Key::SeqPostgres).to_string());
    heads.push(t(lang, Key::SeqQueue).to_string());
    for (i, h) in heads.iter().enumerate() {
        out.push_str(&format!(
            "<text class=\"hd\" x=\"{}\" y=\"20\" text-anchor=\"middle\" fill=\"#111\" font-weight=\"bold\" font-size=\"12\">{}</text><line class=\"lane\" {} x1=\"{0}\" y1=\"28\" x2=\"{0}\" y2=\"{height}\"/>",
            lane_x(i),
            esc(h),
            paint("lane")
        ));
    }
}

/// One log entry's row: a cross for a kill, else an arrow (or a dot, for a step on its
/// own lane) with the step's name, coloured when its event went wrong.
fn push_entry(out: &mut String, lang: Lang, w: &World, names: &[String], row: usize, e: &LogEntry) {
    let y = TOP + row * ROW_H + ROW_H / 2;
    let Some(p) = e.proc else { return };
    let from = p.0 as usize;
    let step = e.step.unwrap_or(Step::Begin);
    let label = e.step.map(|s| step_name(lang, s)).unwrap_or_default();
    if matches!(e.note, Note::Killed) {
        let cx = lane_x(from);
        out.push_str(&format!(
            "<path class=\"kill\" {} d=\"M{} {} l12 12 M{} {} l-12 12\"/><text x=\"{}\" y=\"{}\" class=\"lost\" fill=\"{}\" stroke=\"none\">✕ {}</text>",
            paint("kill"), cx - 6, y - 6, cx + 6, y - 6, cx + 10, y + 4, text_fill("lost"), esc(&format!("{} {label}", t(lang, Key::SeqKilled)))
        ));
        return;
    }
    let lane_of = |name: &str| names.iter().position(|n| n == name);
    let to = match target(step) {
        Target::Db => names.len(),
        Target::Queue => names.len() + 1,
        Target::Api => lane_of("api").unwrap_or(from),
        Target::Client => lane_of("client").unwrap_or(from),
        Target::Own => from,
    };
    let event = note_event(&e.note);
    let class = event.and_then(|ev| event_class(w, ev)).unwrap_or("a");
    let text = match event {
        Some(ev) => format!("{label} h-{}", ev.0),
        None => label,
    };
    let (x1, x2) = (lane_x(from), lane_x(to));
    if x1 == x2 {
        out.push_str(&format!(
            "<circle cx=\"{x1}\" cy=\"{y}\" r=\"3\" class=\"{class}\" {}/>",
            paint(class)
        ));
    } else {
        let dir: i64 = if x2 > x1 { -1 } else { 1 };
        let tip = x2 as i64;
        out.push_str(&format!(
            "<line class=\"a {class}\" {paint} x1=\"{x1}\" y1=\"{y}\" x2=\"{x2}\" y2=\"{y}\"/><path class=\"{class}\" {paint} d=\"M{tip} {y} l{} -4 v8 z\"/>",
            dir * 7,
            paint = paint(class)
        ));
    }
    let tx = (x1 + x2) / 2;
    out.push_str(&format!(
        "<text x=\"{tx}\" y=\"{}\" text-anchor=\"middle\" class=\"{}\" fill=\"{}\" stroke=\"none\">{}</text>",
        y - 3,
        if class == "a" { "" } else { class },
        text_fill(class),
        esc(&text)
    ));
}

/// The events that went wrong, one line each under the rows.
fn push_bad(out: &mut String, lang: Lang, bad: &[(EventId, &'static str)], rows: usize) {
    for (i, (e, class)) in bad.iter().enumerate() {
        let y = TOP + (rows + 1 + i) * ROW_H;
        let key = match *class {
            "lost" => Key::SeqLost,
            "phantom" => Key::SeqPhantom,
            "dup-effect" => Key::SeqDupEffect,
            _ => Key::SeqDup,
        };
        out.push_str(&format!(
            "<text x=\"8\" y=\"{y}\" class=\"{class}\" fill=\"{}\" stroke=\"none\">h-{}: {}</text>",
            text_fill(class),
            e.0,
            esc(t(lang, key))
        ));
    }
}

#[component]
pub fn Sequence() -> impl IntoView {
    let ctl = use_ctl();
    let i18n = use_i18n();
    // Redrawn on every change when stepping, and not while the model runs faster than a
    // reader could follow (the diagram would only cost frames).
    let drawing = Memo::new(move |prev: Option<&String>| {
        ctl.history_beat.track();
        let lang = i18n.lang();
        let fast = ctl.playing.get() && SPEEDS[ctl.speed.get().min(SPEEDS.len() - 1)] > 30;
        match prev {
            Some(p) if fast => p.clone(),
            _ => ctl.with_world(|w| svg(lang, w)),
        }
    });
    view! {
        <section class="sequence" data-testid="sequence" aria-labelledby="sequence-heading">
            <div class="sequence__bar">
                <h2 id="sequence-heading" class="panel__heading">{tr(Key::SeqHeading)}</h2>
                <a class="button" download="outbox-trace.svg" data-testid="sequence-export"
                    href=move || drawing.with(|d| data_url(d).replacen("application/json", "image/svg+xml", 1))>
                    {tr(Key::SeqExport)}
                </a>
            </div>
            <div class="sequence__scroll" tabindex="0" role="region" aria-labelledby="sequence-heading" data-testid="sequence-svg" inner_html=move || drawing.get()></div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_event_is_drawn_in_its_colour_and_the_kill_is_marked() {
        let mut s = outbox_model::preset("canon-dual-write").unwrap();
        s.workload.tasks = 5;
        let w = outbox_model::run(&s);
        assert_eq!(
            w.counters().lost,
            1,
            "task 3 of 5 is the canon's i % 10 == 3"
        );
        let text = svg(Lang::En, &w);
        assert!(text.starts_with("<svg") && text.ends_with("</svg>"));
        assert!(text.contains("class=\"kill\""), "the kill is marked");
        assert!(
            text.contains("class=\"a lost\"") || text.contains("class=\"lost\""),
            "the lost event is coloured"
        );
        assert!(text.contains("PostgreSQL"));
    }

    /// Whatever a run's texts hold, the SVG string carries no markup of theirs: every
    /// `<` is one of the drawing's own tags, every `&` starts an entity, quotes never
    /// end an attribute early, and no character XML forbids is left.
    #[test]
    fn hostile_texts_reach_the_svg_only_escaped() {
        let hostile = "<script>alert(1)</script>\"' onload=\"x\" & ]]> \u{0}\u{1b}\u{202e}\u{FFFF} javascript:alert(1)";
        let mut s = outbox_model::preset("canon-dual-write").unwrap();
        s.workload.tasks = 5;
        s.name = hostile.into();
        s.summary = hostile.repeat(1_000);
        let w = outbox_model::run(&s);
        let mut texts = vec![svg(Lang::Uz, &w), svg(Lang::En, &w)];
        // Lane headings from hostile process names, drawn as the diagram draws them.
        let mut heads = String::new();
        let names = vec![
            hostile.to_string(),
            format!("relay-{hostile}"),
            "x".repeat(100_000),
        ];
        push_heads(&mut heads, Lang::En, &names, 100);
        assert!(
            heads.len() < 10_000,
            "a 100 000-character name is cut: {}",
            heads.len()
        );
        texts.push(heads);
        for text in &texts {
            assert!(
                !text.contains("<script") && !text.contains("<style"),
                "{text}"
            );
            assert!(!text.contains("]]>") && !text.contains('\u{0}') && !text.contains('\u{1b}'));
            assert!(!text.contains('\'') && !text.contains('\u{FFFF}'));
            assert!(!text.contains("onload=\""));
            for (i, _) in text.match_indices('&') {
                let rest = &text[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                        .iter()
                        .any(|e| rest.starts_with(e)),
                    "a bare & at {i}"
                );
            }
            // Every tag is one the drawing writes.
            for tag in text.split('<').skip(1) {
                let name: String = tag
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '/')
                    .collect();
                assert!(
                    ["svg", "/svg", "rect", "text", "/text", "line", "path", "circle"]
                        .contains(&name.as_str()),
                    "unexpected tag {name:?}"
                );
            }
        }
        assert_eq!(esc(hostile).matches("&lt;").count(), 2);
        assert!(esc("a\tb\nc").contains('\t'));
    }
}
