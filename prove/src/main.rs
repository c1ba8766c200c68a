//! The "Prove it" Web Worker (issue #22): runs the explorer's searches — the claims and the
//! crash-point matrix's cells — off the page's thread, built at opt-level 3 as its own
//! wasm so the page's wasm carries none of the search code.
//!
//! The worker takes one [`ToWorker`] message (text, `outbox_model::explore`'s `wire.rs`) at a time, runs that search to its end
//! in one go and posts [`FromWorker`] replies: progress every [`PROGRESS_EVERY_STATES`]
//! states, then the answer. It never yields between slices: the page cancels a search by
//! terminating the worker (at once, whatever it is doing), and a worker with nothing to
//! check between slices is as fast as the search itself.
//!
//! Without workers (an old browser, a policy that forbids them) the page loads this same
//! wasm on its own thread and drives [`Runner`] in short slices: `main` then sees no
//! worker scope and does nothing.

use outbox_model::explore::{Design, FromWorker, Search, Searching, ToWorker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// States between two progress messages: a few milliseconds of search, so the page's
/// count moves smoothly without a message per state.
const PROGRESS_EVERY_STATES: usize = 2048;

fn main() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let post_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let text = ev.data().as_string().unwrap_or_default();
        let mut runner = Runner::new(&text);
        loop {
            let reply = runner.next(PROGRESS_EVERY_STATES);
            let _ = post_to.post_message(&JsValue::from_str(&reply));
            if runner.over {
                break;
            }
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker: the page terminates the worker, not it.
    on_message.forget();
    warm_up();
    let ready = FromWorker::Ready.encode();
    let _ = scope.post_message(&JsValue::from_str(&ready));
}

/// States of the outbox + inbox claim run (and thrown away) before the worker says Ready.
const WARM_UP_STATES: usize = 8192;

/// Runs the start of the outbox + inbox claim before the worker says Ready. V8 first runs
/// wasm from its baseline compiler and moves a function to its optimizing one once it has
/// run hot, so the first search of a fresh worker ran slower than the next: in the page,
/// the claim's search took 360–494 ms on a first click and 250–335 ms on the second.
/// A learner's first click should not pay that.
fn warm_up() {
    let claim = Search::Claim {
        design: Design::OutboxInbox,
    };
    if let Ok(mut s) = Searching::start(claim) {
        let _ = s.run_slice(WARM_UP_STATES);
    }
}

/// One search, run a slice at a time; each slice gives the reply to post.
#[wasm_bindgen]
pub struct Runner {
    n: u32,
    searching: Result<Searching, String>,
    started_ms: f64,
    over: bool,
}

#[wasm_bindgen]
impl Runner {
    /// Starts the search a [`ToWorker`] message names; a message this build cannot read
    /// is answered by the first slice with `Refused` and the reason.
    #[wasm_bindgen(constructor)]
    pub fn new(message: &str) -> Runner {
        let parsed = ToWorker::decode(message);
        let n = parsed.as_ref().map_or(0, |m| m.n);
        Runner {
            n,
            searching: parsed.and_then(|m| Searching::start(m.search)),
            started_ms: js_sys::Date::now(),
            over: false,
        }
    }

    /// Runs up to `max_states` states; the reply (JSON): progress, or the answer.
    pub fn step(&mut self, max_states: u32) -> String {
        self.next(max_states as usize)
    }

    /// Whether the last reply was the last (an answer or a refusal).
    pub fn over(&self) -> bool {
        self.over
    }
}

impl Runner {
    fn next(&mut self, max_states: usize) -> String {
        let n = self.n;
        let reply = match &mut self.searching {
            Err(why) => FromWorker::Refused {
                n,
                why: why.clone(),
            },
            Ok(s) => match s.run_slice(max_states) {
                None => FromWorker::Progress {
                    n,
                    states: s.states(),
                },
                Some(answer) => FromWorker::Done {
                    n,
                    states: s.states(),
                    // Whole milliseconds: the page shows no fraction.
                    search_ms: (js_sys::Date::now() - self.started_ms).max(0.0) as u32,
                    answer,
                },
            },
        };
        self.over = !matches!(reply, FromWorker::Progress { .. });
        reply.encode()
    }
}
