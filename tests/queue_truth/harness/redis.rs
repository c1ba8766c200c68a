//! A redis-server of the test's own, for the scenarios that stop or restart Redis (the
//! shared one from `OUTBOX_REDIS_URL` must stay up for the others). Loopback only, on a
//! free port, in a temp folder; dropping the guard kills it and deletes the folder. A
//! Ctrl-C reaches the server with the rest of the process group but skips `Drop`: a start
//! deletes the folders of runs whose process is gone.

use outbox_model::queue::Persistence;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn binary() -> String {
    std::env::var("OUTBOX_REDIS_SERVER").unwrap_or_else(|_| {
        panic!(
            "OUTBOX_REDIS_SERVER is not set: the queue truth suite needs the redis-server \
             binary that `cargo xtask test` finds (it restarts Redis in some scenarios)"
        )
    })
}

pub struct RedisServer {
    child: Option<Child>,
    dir: PathBuf,
    pub port: u16,
    pub persistence: Persistence,
}

impl RedisServer {
    pub fn start(persistence: Persistence) -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir =
            std::env::temp_dir().join(format!("outbox-queue-truth-{}-{port}", std::process::id()));
        sweep_stale();
        std::fs::create_dir_all(&dir).expect("temp folder");
        let mut r = RedisServer {
            child: None,
            dir,
            port,
            persistence,
        };
        r.up();
        r
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Starts the server (again), on the same port and folder.
    pub fn up(&mut self) {
        assert!(self.child.is_none(), "redis-server already runs");
        let aof = match self.persistence {
            Persistence::Off => ["--appendonly", "no"],
            Persistence::AppendOnly => ["--appendonly", "yes"],
        };
        let log = std::fs::File::options()
            .create(true)
            .append(true)
            .open(self.dir.join("redis.log"))
            .expect("redis.log");
        let child = Command::new(binary())
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&self.dir)
            .args(["--save", ""])
            .args(aof)
            .args(["--appendfsync", "always", "--daemonize", "no"])
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("start redis-server");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "redis-server does not listen on {}",
                self.port
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the server (SIGKILL: a crash, nothing saved on the way out); connections to
    /// its port are refused until `up`.
    pub fn down(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// A crash and a start: what survives is what `persistence` kept.
    pub fn restart(&mut self) {
        self.down();
        self.up();
    }
}

/// Deletes `outbox-queue-truth-<pid>-…` folders whose process no longer runs.
fn sweep_stale() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix("outbox-queue-truth-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid {
            if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.down();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
