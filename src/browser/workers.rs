//! Web Workers and the worker's wasm on the page's own thread (issue #22): what only a
//! browser has, for `proof::pool`. The worker's files are Trunk's for a worker crate
//! (`prove/`): named after its binary, not hashed, beside index.html, so relative URLs
//! find them at a domain's root and under any path.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys;

use crate::i18n::{Key, Reason};

/// The worker's entry (web/prove-loader.js): imports the glue, then instantiates the wasm.
const LOADER: &str = "./prove-loader.js";
/// The glue (wasm-bindgen's `no-modules` target: it defines the global `wasm_bindgen`).
const GLUE: &str = "./prove-worker.js";
const WASM: &str = "./prove-worker_bg.wasm";
/// Hands the glue's `wasm_bindgen` (a script's top-level `let`) to the page as
/// `window.__outboxProve` (web/prove-here.js).
const HAND_OVER: &str = "./prove-here.js";
const GLOBAL: &str = "__outboxProve";

/// How many workers this device gets: one core is left to the page (and the browser),
/// and more than four buys little for the matrix's ~115 short searches.
pub fn pool_size() -> usize {
    let cores = web_sys::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    ((cores as usize).saturating_sub(1)).clamp(1, 4)
}

/// A started worker and the handlers that must live as long as it.
pub struct Spawned {
    pub worker: web_sys::Worker,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        // A dropped slot's worker stops at once, whatever it is running (cancel).
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// Starts a worker; `on_text` gets each message (its text), `on_error` the reason when
/// its script fails to load or its code throws. Err: this browser refused to make one.
pub fn spawn(on_text: Rc<dyn Fn(String)>, on_error: Rc<dyn Fn(Reason)>) -> Result<Spawned, Reason> {
    let worker = web_sys::Worker::new(LOADER).map_err(js_text)?;
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
            if let Some(text) = ev.data().as_string() {
                on_text(text);
            }
        });
    // A script that fails to load fires a plain `Event`; code that throws, an `ErrorEvent`
    // (reading `message` of the former throws, so the handler must not assume it).
    let on_err = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        let msg = ev
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(web_sys::ErrorEvent::message)
            .unwrap_or_default();
        on_error(if msg.is_empty() {
            not_loaded(LOADER)
        } else {
            Reason::data(msg)
        });
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_err.as_ref().unchecked_ref()));
    Ok(Spawned {
        worker,
        _on_message: on_message,
        _on_error: on_err,
    })
}

/// Loads the worker's glue and wasm on the page's thread (once), for the search without
/// workers. Err: the reason it could not load.
pub async fn load_here() -> Result<(), Reason> {
    let global = js_sys::global();
    if glue(&global).is_err() {
        add_script(GLUE).await?;
        add_script(HAND_OVER).await?;
    }
    let init: js_sys::Function = glue(&global)?.dyn_into().map_err(js_text)?;
    let arg = js_sys::Object::new();
    js_sys::Reflect::set(&arg, &"module_or_path".into(), &WASM.into()).map_err(js_text)?;
    let promise: js_sys::Promise = init.call1(&JsValue::NULL, &arg).map_err(js_text)?.into();
    JsFuture::from(promise).await.map_err(js_text)?;
    Ok(())
}

fn glue(global: &js_sys::Object) -> Result<JsValue, Reason> {
    let g = js_sys::Reflect::get(global, &GLOBAL.into()).map_err(js_text)?;
    if g.is_undefined() {
        return Err(not_loaded(GLUE));
    }
    Ok(g)
}

/// Adds `<script src>` and waits for it to load (or fail).
async fn add_script(src: &str) -> Result<(), Reason> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| not_loaded(src))?;
    let script: web_sys::HtmlScriptElement = doc
        .create_element("script")
        .map_err(js_text)?
        .dyn_into()
        .map_err(js_text)?;
    script.set_src(src);
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        script.set_onload(Some(&resolve));
        script.set_onerror(Some(&reject));
    });
    doc.body()
        .ok_or_else(|| not_loaded(src))?
        .append_child(&script)
        .map_err(js_text)?;
    JsFuture::from(loaded)
        .await
        .map(|_| ())
        .map_err(|_| not_loaded(src))
}

/// One search on the page's thread: the worker crate's exported `Runner`.
pub struct HereRunner(JsValue);

impl HereRunner {
    /// Starts the search a `ToWorker` message names (the glue must be loaded).
    pub fn new(message: &str) -> Result<HereRunner, Reason> {
        let ctor = js_sys::Reflect::get(&glue(&js_sys::global())?, &"Runner".into())
            .map_err(js_text)?
            .dyn_into::<js_sys::Function>()
            .map_err(js_text)?;
        let args = js_sys::Array::of1(&message.into());
        js_sys::Reflect::construct(&ctor, &args)
            .map(HereRunner)
            .map_err(js_text)
    }

    /// Runs up to `max_states` states: the reply (its text) and whether it was the last.
    pub fn step(&self, max_states: u32) -> Result<(String, bool), Reason> {
        let reply = self.call("step", Some(max_states.into()))?;
        let over = self.call("over", None)?.as_bool().unwrap_or(true);
        Ok((reply.as_string().unwrap_or_default(), over))
    }

    fn call(&self, name: &str, arg: Option<JsValue>) -> Result<JsValue, Reason> {
        let f: js_sys::Function = js_sys::Reflect::get(&self.0, &name.into())
            .map_err(js_text)?
            .dyn_into()
            .map_err(js_text)?;
        match arg {
            Some(a) => f.call1(&self.0, &a),
            None => f.call0(&self.0),
        }
        .map_err(js_text)
    }
}

impl Drop for HereRunner {
    fn drop(&mut self) {
        // The Rust side of the runner lives in the worker crate's wasm memory: free it.
        let _ = self.call("free", None);
    }
}

/// The browser's own words for an exception (its message, as it is: data).
fn js_text(v: impl Into<JsValue>) -> Reason {
    let v: JsValue = v.into();
    Reason::data(
        v.as_string()
            .or_else(|| {
                v.dyn_ref::<js_sys::Error>()
                    .map(|e| String::from(e.message()))
            })
            .unwrap_or_else(|| format!("{v:?}")),
    )
}

/// A file of the worker that did not load (named without its `./`).
fn not_loaded(file: &str) -> Reason {
    Reason::new(Key::ReasonWorkerScript).arg("file", file.strip_prefix("./").unwrap_or(file))
}
