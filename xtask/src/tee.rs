//! Why a layer failed, said again in the summary. CI keeps only the end of a run's
//! output, and a failed test's panic message sits hundreds of lines above it; so each
//! command's output is passed through as it comes and the lines that say *what* failed
//! (a failed test's name, its panic and message, a broken budget, a compile error) are
//! kept for the summary.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use crate::proc::{describe, Result};

/// At most this many kept lines a layer, each at most `LINE_MAX_CHARS`: the summary must
/// stay the end of the output.
const KEPT_MAX: usize = 24;
const LINE_MAX_CHARS: usize = 400;
/// How long a command's output may stay open after the command has ended.
const READERS_GRACE: Duration = Duration::from_secs(3);
/// A panic's message follows its `panicked at` line; this many lines of it are kept.
const PANIC_MESSAGE_LINES: usize = 3;

/// The lines kept since the last `take_notes`: one list for the process, since the layers
/// run one after another and a layer's commands one at a time.
static NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Keeps a line for the summary (up to `KEPT_MAX` a layer).
pub fn note(line: &str) {
    let mut kept = NOTES.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() < KEPT_MAX {
        kept.push(line.chars().take(LINE_MAX_CHARS).collect());
    }
}

/// The lines kept since the last call, leaving none.
pub fn take_notes() -> Vec<String> {
    std::mem::take(&mut *NOTES.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Runs a command, its stdout and stderr passed through to ours line by line, and keeps
/// the lines `Watch` finds telling for `take_notes`. Ok(true) when the command succeeded.
pub fn run_visible_noting(cmd: &mut Command) -> Result<bool> {
    let shown = describe(cmd);
    println!("$ {shown}");
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    let (done, finished) = mpsc::channel();
    let readers = [
        child.stdout.take().map(|s| pass(s, false, done.clone())),
        child.stderr.take().map(|s| pass(s, true, done)),
    ];
    let status = child.wait().map_err(|e| format!("`{shown}`: {e}"))?;
    // The readers end when every holder of the pipes has closed them: the command, and
    // whatever it started that inherited them (a server a failed test left running).
    // Those are not waited for past a grace period; their readers go on printing.
    let deadline = Instant::now() + READERS_GRACE;
    for _ in readers.iter().flatten() {
        let left = deadline.saturating_duration_since(Instant::now());
        if finished.recv_timeout(left).is_err() {
            println!("(`{shown}` has ended, but something it started still holds its output; not waiting for it)");
            break;
        }
    }
    Ok(status.success())
}

/// A thread copying `stream` to our stdout (or stderr), keeping what `Watch` flags, and
/// saying on `done` when the stream has closed.
fn pass(stream: impl Read + Send + 'static, to_stderr: bool, done: mpsc::Sender<()>) {
    std::thread::spawn(move || {
        let mut watch = Watch::default();
        for line in BufReader::new(stream).split(b'\n').map_while(|l| l.ok()) {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches('\r');
            echo(text, to_stderr);
            if watch.telling(text) {
                note(text.trim());
            }
        }
        let _ = done.send(());
    });
}

/// One line of a command's output, on to ours. A write error is ignored: the reading must
/// go on (`cargo xtask test | head` closes our stdout early), or the command would block
/// on a full pipe and never end.
#[cfg(not(test))]
fn echo(text: &str, to_stderr: bool) {
    use std::io::Write;
    let _ = if to_stderr {
        writeln!(std::io::stderr().lock(), "{text}")
    } else {
        writeln!(std::io::stdout().lock(), "{text}")
    };
}

/// In the unit tests, through the print macros, which the test harness captures: the
/// tests' made-up failure lines stay out of the native layer's own output.
#[cfg(test)]
fn echo(text: &str, to_stderr: bool) {
    if to_stderr {
        eprintln!("{text}");
    } else {
        println!("{text}");
    }
}

/// Decides, line by line, which lines say what failed.
#[derive(Default)]
struct Watch {
    /// Lines of a panic's message still to keep.
    message_left: usize,
}

impl Watch {
    fn telling(&mut self, line: &str) -> bool {
        if self.message_left > 0 {
            // The message ends at a blank line or the next test's section.
            if line.trim().is_empty() || line.starts_with("---- ") || line.starts_with("note:") {
                self.message_left = 0;
                return false;
            }
            self.message_left -= 1;
            return true;
        }
        if line.contains(" panicked at ") {
            self.message_left = PANIC_MESSAGE_LINES;
            return true;
        }
        let failed_test = line.starts_with("test ") && line.ends_with(" FAILED");
        failed_test
            || line.contains("budget broken")
            || line.starts_with("Diff in ")
            || (line.starts_with("error") && !line.starts_with("error: aborting"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn kept(lines: &[&str]) -> Vec<String> {
        let mut watch = Watch::default();
        lines
            .iter()
            .filter(|l| watch.telling(l))
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn keeps_the_failed_test_its_panic_and_message_and_nothing_else() {
        let out = [
            "running 2 tests",
            "test passes ... ok",
            "test breaks ... FAILED",
            "",
            "failures:",
            "",
            "---- breaks stdout ----",
            "thread 'breaks' panicked at tests/stage.rs:10:5:",
            "the stage showed 89 in the queue, the lesson says 90",
            "",
            "page bench: budget broken: frame time p95 17.0 ms > 16",
            "test result: FAILED. 1 passed; 1 failed",
            "error: test failed, to rerun pass `--test stage`",
            "error: aborting due to 1 previous error",
        ];
        assert_eq!(
            kept(&out),
            [
                "test breaks ... FAILED",
                "thread 'breaks' panicked at tests/stage.rs:10:5:",
                "the stage showed 89 in the queue, the lesson says 90",
                "page bench: budget broken: frame time p95 17.0 ms > 16",
                "error: test failed, to rerun pass `--test stage`",
            ]
        );
    }

    #[test]
    fn a_command_s_output_passes_and_its_telling_lines_are_kept_up_to_the_cap() {
        take_notes();
        let script = "echo 'test a ... FAILED'; for i in $(seq 1 40); do echo \"test t$i ... FAILED\" >&2; done; echo fine; exit 3";
        let ok = run_visible_noting(Command::new("sh").args(["-c", script])).unwrap();
        assert!(!ok, "the script exits 3");
        let kept = take_notes();
        assert_eq!(kept.len(), KEPT_MAX);
        assert!(kept.iter().all(|l| l.ends_with("FAILED")), "{kept:?}");
        assert!(take_notes().is_empty(), "taking leaves none");
    }

    #[test]
    fn a_process_left_holding_the_output_is_not_waited_for() {
        let dir = std::env::temp_dir().join(format!("xtask-tee-left-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (release, pid_file) = (dir.join("release"), dir.join("pid"));
        // The shell ends at once; the loop it leaves behind holds its stdout until the test
        // releases it (or a minute has passed, should the test die first).
        let script = format!(
            "(n=0; while [ ! -e '{}' ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done) & \
             echo $! > '{}'; echo left",
            release.display(),
            pid_file.display()
        );
        let started = Instant::now();
        let ok = run_visible_noting(Command::new("sh").args(["-c", &script])).unwrap();
        let took = started.elapsed();
        assert!(ok);
        let pid = std::fs::read_to_string(&pid_file).unwrap();
        let proc_dir = Path::new("/proc").join(pid.trim());
        let running = || {
            std::fs::read_to_string(proc_dir.join("stat")).is_ok_and(|stat| {
                stat.rsplit(") ")
                    .next()
                    .is_some_and(|s| !s.starts_with('Z'))
            })
        };
        assert!(
            running(),
            "the call returned while the left process still held the output"
        );
        assert!(
            took >= READERS_GRACE,
            "returned after {took:?}, before the grace"
        );
        std::fs::write(&release, "").unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while running() {
            assert!(Instant::now() < deadline, "the left process did not end");
            std::thread::sleep(Duration::from_millis(20));
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
