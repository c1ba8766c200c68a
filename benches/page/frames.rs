//! Frame time at full speed: the recorder installed in the page, the intervals read back,
//! and their statistics and histogram.

#[allow(unused_imports)]
use super::*;

pub(super) struct Frames {
    /// Between consecutive frame starts, while the model ran.
    pub(super) intervals: Vec<f64>,
    pub(super) dom_max: u64,
    pub(super) ticks: u64,
}

/// Records every animation frame's start, the tick shown in it and (every tenth frame)
/// the page's element count, until the run finishes or `window.__bench.stop` is set.
pub(super) async fn install_recorder(client: &fantoccini::Client) -> TestResult {
    client
        .execute(
            "window.__bench = { frames: [], ticks: [], dom: 0, stop: false };
             const done = () => document.querySelector('[data-testid=finished]').hidden === false;
             (function f(t) {
                 const b = window.__bench;
                 if (b.stop || (b.frames.length > 0 && done())) { b.stop = true; return; }
                 b.frames.push(t);
                 const tick = document.querySelector('[data-testid=count-tick]');
                 b.ticks.push(tick ? tick.textContent : '');
                 if (b.frames.length % 10 === 0) {
                     b.dom = Math.max(b.dom, document.getElementsByTagName('*').length);
                 }
                 requestAnimationFrame(f);
             })(performance.now());",
            vec![],
        )
        .await?;
    Ok(())
}

pub(super) async fn wait_for_the_end(client: &fantoccini::Client) -> TestResult {
    // The recorder stops itself when the run ends; WINDOW bounds a run that does not.
    let deadline = std::time::Instant::now() + WINDOW;
    while std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
        if client
            .execute("return window.__bench.stop;", vec![])
            .await?
            .as_bool()
            == Some(true)
        {
            break;
        }
    }
    Ok(())
}

/// Stops the recorder and reads its frames, from the run's first frame on.
pub(super) async fn read_frames(
    client: &fantoccini::Client,
) -> Result<Frames, Box<dyn std::error::Error + Send + Sync>> {
    let v = client
        .execute(
            "const b = window.__bench; b.stop = true;
             b.dom = Math.max(b.dom, document.getElementsByTagName('*').length);
             return JSON.stringify({ frames: b.frames, ticks: b.ticks, dom: b.dom });",
            vec![],
        )
        .await?;
    let ticks: u64 = counter(client, "tick").await?.parse()?;
    let v: serde_json::Value = serde_json::from_str(v.as_str().unwrap_or("{}"))?;
    let frames: Vec<f64> = v["frames"]
        .as_array()
        .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
        .unwrap_or_default();
    // WebDriver's click reaches the page a few frames after recording starts: those
    // frames (the tick still at its first value) are idle ones, each waiting for the
    // display's tick, not frames of the run. The page's play loop asked for its frames
    // before this recorder did, so it runs first in a frame: the first frame that
    // shows the tick moved is the run's first frame.
    let shown: Vec<String> = v["ticks"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let moved = shown
        .iter()
        .position(|t| Some(t) != shown.first())
        .unwrap_or(0);
    let frames = &frames[moved.min(frames.len())..];
    let intervals: Vec<f64> = frames.windows(2).map(|w| w[1] - w[0]).collect();
    Ok(Frames {
        intervals,
        dom_max: v["dom"].as_u64().unwrap_or(0),
        ticks,
    })
}

pub(super) async fn frames_at_full_speed(page: &str, webdriver: &str) -> Frames {
    let mut scenario = outbox_model::preset("canon-outbox").expect("the canon preset");
    scenario.workload.tasks = TASKS;
    scenario.max_ticks = u64::MAX / 2;
    let url = format!("{page}#{}", link::fragment(&Sim::new(scenario).to_run()));
    let client = connect(webdriver, 1920, 1080, &UNLIMITED_FRAMES).await;
    let result = std::sync::Arc::new(std::sync::Mutex::new(None));
    let out = result.clone();
    with_session(client, move |client| async move {
        open(&client, &url).await?;
        set_value(&client, "speed", "7").await?;
        install_recorder(&client).await?;
        click(&client, "play").await?;
        wait_for_the_end(&client).await?;
        *out.lock().unwrap() = Some(read_frames(&client).await?);
        Ok(())
    })
    .await;
    let frames = result.lock().unwrap().take().expect("the run was measured");
    assert!(!frames.intervals.is_empty(), "no frame was measured");
    frames
}

/// p50, p95 and the longest of the intervals.
pub(super) fn stats(intervals: &[f64]) -> (f64, f64, f64) {
    let mut sorted = intervals.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    assert!(sorted.len() > 20, "only {} frames measured", sorted.len());
    (
        percentile(&sorted, 0.5),
        percentile(&sorted, 0.95),
        sorted[sorted.len() - 1],
    )
}

/// Where the frames fall: a budget miss reads differently when it is a few long frames
/// (a heavy redraw) than when every frame sits at the display's 16.7 ms pace.
pub(super) fn histogram(intervals: &[f64]) -> String {
    let edges = [8.0, 12.0, 16.0, 17.0, 20.0, 33.0, f64::INFINITY];
    let mut from = 0.0;
    let bins: Vec<String> = edges
        .iter()
        .map(|&to| {
            let n = intervals.iter().filter(|&&d| d >= from && d < to).count();
            let label = if to.is_finite() {
                format!("{from:.0}–{to:.0}")
            } else {
                format!("≥{from:.0}")
            };
            from = to;
            format!("{label} ms: {n}")
        })
        .collect();
    bins.join(", ")
}
