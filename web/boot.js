// The boot shell's script: Trunk's `data-initializer` (index.html) for the wasm download.
// Trunk calls these hooks around fetching and starting the wasm; this module also picks
// the shell's language, registers the service worker and carries the "update" offer
// between the worker and the app (the app's UpdateOffer component).
//
// No inline script and no eval: the page's Content-Security-Policy allows neither.

// The page's language, chosen as the app chooses it (src/lib.rs `start_lang`): `?lang=`,
// else the saved choice, else the first of the browser's languages the page speaks.
const CODES = ["uz", "uz-Cyrl", "en", "ru"];
// A code as the page writes it (`Lang::from_code`: exactly, `uz-Cyrl`).
function known(code) {
  return CODES.find((c) => c === code);
}
function pageLang() {
  const asked = known(new URLSearchParams(location.search).get("lang"));
  if (asked) return asked;
  try {
    const saved = JSON.parse(localStorage.getItem("outbox-playground/v1/settings") || "null");
    if (saved && known(saved.lang)) return known(saved.lang);
  } catch (_) {
    // Unreadable settings: the app reports them; the shell just speaks Uzbek.
  }
  for (const tag of navigator.languages || []) {
    const parts = String(tag).toLowerCase().split(/[-_]/);
    if (parts[0] === "uz" && parts[1] === "cyrl") return "uz-Cyrl";
    if (known(parts[0])) return known(parts[0]);
  }
  return "uz";
}

// The shell and the head speak the page's language before the app does: Uzbek is written
// in index.html, another language in each element's data-<code> (data-<code>-label for
// the progress bar's name).
function localize() {
  const lang = pageLang();
  if (lang === "uz") return;
  document.documentElement.lang = lang;
  // data-uz-cyrl is dataset.uzCyrl.
  const attr = lang.toLowerCase();
  const key = attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  for (const el of document.querySelectorAll(`[data-${attr}]`)) {
    if (el.tagName === "META") el.content = el.dataset[key];
    else el.textContent = el.dataset[key];
  }
  const bar = document.getElementById("boot-progress");
  if (bar) bar.setAttribute("aria-label", bar.dataset[`${key}Label`]);
}

function showFailure(reason) {
  console.warn("outbox playground: the page could not start", reason);
  const failed = document.getElementById("boot-failed");
  const bar = document.getElementById("boot-progress");
  if (failed) failed.hidden = false;
  if (bar) bar.hidden = true;
}

// The service worker (sw.js, generated from the build: `cargo xtask post-build`). A new
// deployment installs a new worker that waits; the app offers «Yangilash» / "Update"
// (event `outbox-update-ready`) and answers with `outbox-update-apply`; the worker then
// takes over and the page reloads once, and every other open tab is told to reload
// (`outbox-updated`). Closing every tab takes it on the next load.
function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  // Reload only when the user asked for the update: on a first visit the new worker also
  // takes control (clients.claim), and that must not reload the page under the user.
  let asked = false;
  // A tab that was controlled when it loaded and sees another worker take over without
  // having asked is a tab of the older build: the update was taken in another tab, and
  // the old build's cache (its lazily loaded files) is gone. It says so and offers a
  // reload (event `outbox-updated`, attribute value "updated"), never reloading itself.
  let controlled = !!navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (asked) {
      asked = false;
      location.reload();
      return;
    }
    if (!controlled) {
      controlled = true;
      return;
    }
    document.documentElement.setAttribute("data-outbox-update", "updated");
    window.dispatchEvent(new Event("outbox-updated"));
  });
  navigator.serviceWorker.register("sw.js").then((reg) => {
    const offer = () => {
      document.documentElement.setAttribute("data-outbox-update", "ready");
      window.dispatchEvent(new Event("outbox-update-ready"));
    };
    window.addEventListener("outbox-update-apply", () => {
      if (!reg.waiting) return;
      asked = true;
      reg.waiting.postMessage("skip-waiting");
    });
    // An update may already be installing or waiting when this runs (the browser checks
    // on navigation, before the wasm has started): follow those too, not only new ones.
    const follow = (worker) => {
      if (!worker) return;
      const check = () => {
        // "installed" with a controller: an update waits (without one: a first install).
        if (worker.state === "installed" && navigator.serviceWorker.controller) offer();
      };
      check();
      worker.addEventListener("statechange", check);
    };
    follow(reg.waiting);
    follow(reg.installing);
    reg.addEventListener("updatefound", () => follow(reg.installing));
  }, (err) => console.warn("outbox playground: no service worker", err));
}

// The worker is registered when the app has built all its parts (the window event
// `outbox-built`, src/browser/page_built.rs says why), in the browser's next idle time;
// if the app never says so (it failed to start), 10 s after the wasm has started. The
// event is listened for from the start, so no order of events can miss it.
const BUILT_WAIT_MS = 10000;
let workerStarted = false;

function registerWorkerWhenIdle() {
  if (workerStarted) return;
  workerStarted = true;
  if ("requestIdleCallback" in window) {
    requestIdleCallback(registerWorker, { timeout: 2000 });
  } else {
    setTimeout(registerWorker, 0);
  }
}

window.addEventListener("outbox-built", registerWorkerWhenIdle, { once: true });

// A download that breaks half way rejects inside Trunk's loader without reaching
// onFailure (its stream reader has no catch): any unhandled rejection before the app has
// mounted (the shell is still there) means the page will not start.
window.addEventListener("unhandledrejection", (event) => {
  if (document.getElementById("boot")) showFailure(event.reason);
});

// Trunk's loader imports this module and runs only after it has been evaluated, so this
// top-level wait holds the wasm download back until the shell has been painted once.
// Why: a download in flight before the first paint is counted into the largest paint by
// Lighthouse's simulation (its LCP was 2.85 s with the shell painted at 0.09 s); the
// shell is the first thing a learner reads anyway. A tab that paints no frames (opened in
// the background) goes on after 100 ms instead of waiting to be shown.
localize();
await new Promise((painted) => {
  const go = () => setTimeout(painted, 0);
  requestAnimationFrame(go);
  setTimeout(painted, 100);
});

export default function initializer() {
  const bar = document.getElementById("boot-progress");
  return {
    onStart() {
      if (bar) bar.removeAttribute("value");
    },
    onProgress({ current, total }) {
      if (bar && total > 0) bar.value = Math.min(current / total, 1);
    },
    onSuccess() {
      setTimeout(registerWorkerWhenIdle, BUILT_WAIT_MS);
    },
    onFailure(reason) {
      showFailure(reason);
    },
  };
}
