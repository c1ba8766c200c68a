//! The BullMQ side: `harness.js` in a node process, one JSON request and answer per line.
//! Dropping the handle closes node's stdin (it exits) and kills it if it lingers.

use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an answer (and Node's start with bullmq loaded) may take before the test calls
/// it lost (a hang is asked for with `wait` and a shorter timeout): generous, since a
/// loaded 2-core machine took over 10 s to start the harness.
pub const ANSWER: Duration = Duration::from_secs(30);

fn modules() -> String {
    std::env::var("OUTBOX_BULLMQ_MODULES").unwrap_or_else(|_| {
        panic!(
            "OUTBOX_BULLMQ_MODULES is not set: the queue truth suite needs the node_modules \
             folder with bullmq and ioredis that `cargo xtask setup` installs into .tools/"
        )
    })
}

pub struct Bull {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Value>,
    early: HashMap<u64, Value>,
    next: u64,
}

impl Bull {
    pub fn start() -> Bull {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/queue_truth/harness.js");
        let mut child = Command::new("node")
            .arg(script)
            .env("NODE_PATH", modules())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start node (the BullMQ harness)");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("node's stdout");
        let (tx, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                match serde_json::from_str::<Value>(&line) {
                    Ok(v) => {
                        if tx.send(v).is_err() {
                            break;
                        }
                    }
                    Err(e) => eprintln!("harness.js said something that is not JSON ({e}): {line}"),
                }
            }
        });
        let mut b = Bull {
            child,
            stdin,
            answers,
            early: HashMap::new(),
            next: 1,
        };
        let ready = b.wait(0, ANSWER).expect("harness.js did not start");
        assert_eq!(ready["ready"], true, "harness.js: {ready}");
        b
    }

    /// Sends a request; its answer is collected by `wait`.
    pub fn send(&mut self, op: &str, q: &str, mut fields: Value) -> u64 {
        let id = self.next;
        self.next += 1;
        fields["id"] = json!(id);
        fields["op"] = json!(op);
        fields["q"] = json!(q);
        let stdin = self.stdin.as_mut().expect("harness.js stdin");
        writeln!(stdin, "{fields}").expect("write to harness.js");
        stdin.flush().expect("flush harness.js");
        id
    }

    /// The answer to request `id`, or None if none comes within `timeout`.
    pub fn wait(&mut self, id: u64, timeout: Duration) -> Option<Value> {
        if let Some(v) = self.early.remove(&id) {
            return Some(v);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.answers.recv_timeout(left) {
                Ok(v) if v["id"] == json!(id) => return Some(v),
                Ok(v) => {
                    let other = v["id"].as_u64().unwrap_or(u64::MAX);
                    self.early.insert(other, v);
                }
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => panic!("harness.js exited"),
            }
        }
    }

    /// A request that must answer, and answer ok.
    pub fn call(&mut self, op: &str, q: &str, fields: Value) -> Value {
        let id = self.send(op, q, fields);
        let v = self
            .wait(id, ANSWER)
            .unwrap_or_else(|| panic!("harness.js: no answer to {op} on {q} in {ANSWER:?}"));
        assert_eq!(v["ok"], true, "harness.js: {op} on {q} failed: {v}");
        v
    }
}

impl Drop for Bull {
    fn drop(&mut self) {
        // EOF on stdin: harness.js exits by itself; kill it if it does not.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
