//! The SCORM run-time client: the page as a SCO. Loaded only when `detect.rs` found a
//! run-time's API object (`src/app/lazy.rs`'s `scorm` door), so a page outside a
//! learning platform never fetches it.
//!
//! At start it initializes, restores the course's progress from `suspend_data` (and the
//! step from the location) when the platform has one, else starts the attempt afresh;
//! then, on every change of the progress, it sets the status, the score, the location
//! and the suspend data (`report.rs` says what they are), commits when a goal was reached
//! or the status or score changed, and finishes when the page goes away. The API's
//! functions are called by reflection (`Reflect`), the run-time being plain JavaScript:
//! no crate beyond js-sys. A run-time that answers "false" is logged; the page goes on.

use leptos::prelude::*;
use outbox_model::lesson::STEPS;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{Function, Reflect};

use crate::lesson::ctl::{LessonCtl, Progress};
use crate::lms::detect::Scorm;
use crate::lms::report::{self, Report, Status};

/// The run-time's API object and the names its version uses.
#[derive(Clone)]
pub struct Runtime {
    api: JsValue,
    version: Scorm,
}

/// The data model elements the page reads and writes, per version.
struct Names {
    init: &'static str,
    finish: &'static str,
    get: &'static str,
    set: &'static str,
    commit: &'static str,
    error: &'static str,
    location: &'static str,
    exit: &'static str,
    score: &'static str,
}

const V12: Names = Names {
    init: "LMSInitialize",
    finish: "LMSFinish",
    get: "LMSGetValue",
    set: "LMSSetValue",
    commit: "LMSCommit",
    error: "LMSGetLastError",
    location: "cmi.core.lesson_location",
    exit: "cmi.core.exit",
    score: "cmi.core.score",
};

const V2004: Names = Names {
    init: "Initialize",
    finish: "Terminate",
    get: "GetValue",
    set: "SetValue",
    commit: "Commit",
    error: "GetLastError",
    location: "cmi.location",
    exit: "cmi.exit",
    score: "cmi.score",
};

impl Runtime {
    pub fn new(api: JsValue, version: Scorm) -> Runtime {
        Runtime { api, version }
    }

    fn names(&self) -> &'static Names {
        match self.version {
            Scorm::V12 => &V12,
            Scorm::V2004 => &V2004,
        }
    }

    /// Calls the API's `method` with text arguments; its answer as text ("" when the
    /// method is missing or threw: a broken run-time must not break the page).
    fn call(&self, method: &str, args: &[&str]) -> String {
        let Some(f) = Reflect::get(&self.api, &JsValue::from_str(method))
            .ok()
            .and_then(|f| f.dyn_into::<Function>().ok())
        else {
            return String::new();
        };
        let args: web_sys::js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
        f.apply(&self.api, &args)
            .ok()
            .and_then(|v| v.as_string().or_else(|| v.as_bool().map(|b| b.to_string())))
            .unwrap_or_default()
    }

    fn ok(&self, method: &str, args: &[&str]) -> bool {
        let answer = self.call(method, args);
        if answer != "true" {
            let code = self.call(self.names().error, &[]);
            leptos::logging::warn!("SCORM {method}{args:?}: {answer:?}, error {code}");
        }
        answer == "true"
    }

    pub fn get(&self, element: &str) -> String {
        self.call(self.names().get, &[element])
    }

    fn set(&self, element: &str, value: &str) -> bool {
        self.ok(self.names().set, &[element, value])
    }

    fn commit(&self) {
        self.ok(self.names().commit, &[""]);
    }

    /// The mastery score in % the platform gives (SCORM 1.2 `mastery_score`, 0–100;
    /// 2004 `scaled_passing_score`, −1–1), else [`report::DEFAULT_MASTERY`].
    fn mastery(&self) -> u32 {
        let (element, scale) = match self.version {
            Scorm::V12 => ("cmi.student_data.mastery_score", 1.0),
            Scorm::V2004 => ("cmi.scaled_passing_score", 100.0),
        };
        self.get(element)
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|m| m.is_finite())
            .map_or(report::DEFAULT_MASTERY, |m| {
                (m * scale).clamp(0.0, 100.0).round() as u32
            })
    }

    /// Writes what changed between `before` and `now`; commits when `commit_now`.
    fn write(&self, before: Option<&Report>, now: &Report, commit_now: bool) {
        let n = self.names();
        let changed = |f: fn(&Report) -> String| before.is_none_or(|b| f(b) != f(now));
        if changed(|r| r.status.word().into()) {
            self.write_status(now);
        }
        if let (Some(score), true) = (now.score, changed(|r| format!("{:?}", r.score))) {
            self.set(&format!("{}.raw", n.score), &score.to_string());
            if self.version == Scorm::V2004 {
                self.set("cmi.score.scaled", &format!("{}", f64::from(score) / 100.0));
            }
        }
        if changed(|r| r.location.into()) {
            self.set(n.location, now.location);
        }
        if changed(|r| r.suspend.clone()) {
            self.set("cmi.suspend_data", &now.suspend);
        }
        if commit_now {
            self.commit();
        }
    }

    fn write_status(&self, r: &Report) {
        match self.version {
            Scorm::V12 => {
                self.set("cmi.core.lesson_status", r.status.word());
            }
            Scorm::V2004 => {
                let done = r.all_steps || r.score.is_some();
                self.set(
                    "cmi.completion_status",
                    if done { "completed" } else { "incomplete" },
                );
                let success = match r.status {
                    Status::Passed => "passed",
                    Status::Failed => "failed",
                    _ => "unknown",
                };
                self.set("cmi.success_status", success);
            }
        }
    }
}

/// Starts reporting to `rt` (under `owner`, so its effects and listeners live as long as
/// the page). False when the run-time refused to initialize: then nothing is reported.
pub fn start(lesson: LessonCtl, rt: Runtime, owner: Owner) -> bool {
    let n = rt.names();
    if !rt.ok(n.init, &[""]) {
        return false;
    }
    restore(lesson, &rt);
    let mastery = rt.mastery();
    rt.set(&format!("{}.min", n.score), "0");
    rt.set(&format!("{}.max", n.score), "100");
    // Resumable: the next launch gets the suspend data and the location back.
    rt.set(n.exit, "suspend");
    let last = StoredValue::new_local(None::<(Report, usize)>);
    let rt = StoredValue::new_local(rt);
    owner.with(|| {
        Effect::new(move |_| {
            let now = lesson
                .course
                .progress
                .with(|p| (report::report(p, mastery), report::steps_done(p)));
            // A goal reached, a status or a score changed: commit, so the platform's
            // gradebook has it even if the page is closed without unloading.
            let commit_now = last.with_value(|l| {
                l.as_ref().is_none_or(|(r, done)| {
                    *done != now.1 || r.status != now.0.status || r.score != now.0.score
                })
            });
            last.with_value(|l| {
                rt.with_value(|rt| rt.write(l.as_ref().map(|l| &l.0), &now.0, commit_now));
            });
            last.set_value(Some(now));
        });
        finish_on_unload(rt);
    });
    true
}

/// The platform's saved progress, if it has any, replaces the page's; none is a new
/// attempt, which starts from nothing (the platform's record is the learner's, not what
/// this browser kept from another visit). A suspend data the page cannot read is
/// reported like bad saved progress, and the attempt starts afresh.
fn restore(lesson: LessonCtl, rt: &Runtime) {
    let saved = rt.get("cmi.suspend_data");
    let progress = if saved.trim().is_empty() {
        Progress::default()
    } else {
        match report::restore(&saved) {
            Ok(p) => p,
            Err(why) => {
                lesson.ctl.report_bad_saved(why);
                Progress::default()
            }
        }
    };
    let location = rt.get(rt.names().location);
    let step = STEPS
        .iter()
        .position(|s| s.id == location)
        .unwrap_or(progress.step);
    lesson.course.progress.set(progress);
    lesson.go(step);
}

/// Finishes the session once, when the page goes away (`pagehide`; `beforeunload` too,
/// which some platforms' frames see when `pagehide` comes too late).
fn finish_on_unload(rt: StoredValue<Runtime, LocalStorage>) {
    let done = StoredValue::new_local(false);
    let finish = move || {
        if done.get_value() {
            return;
        }
        done.set_value(true);
        rt.with_value(|rt| {
            rt.commit();
            rt.ok(rt.names().finish, &[""]);
        });
    };
    let a = window_event_listener(leptos::ev::pagehide, move |_| finish());
    let b = window_event_listener(leptos::ev::beforeunload, move |_| finish());
    on_cleanup(move || {
        a.remove();
        b.remove();
    });
}
