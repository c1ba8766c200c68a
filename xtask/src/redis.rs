//! A throwaway redis-server for one test run: loopback only, on a free port, in a temp
//! folder, with no persistence (`--save '' --appendonly no`). It runs as a child of ours;
//! dropping the guard kills it (by its pid) and deletes the folder. A Ctrl-C reaches the
//! server with the rest of the process group, but skips our `Drop`: the next start
//! deletes the folders left by runs whose process is gone.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use crate::proc::{self, ChildGuard, Result};

/// `redis-server` on PATH, else Debian's /usr/bin/redis-server.
pub fn find_server() -> Option<PathBuf> {
    proc::which("redis-server").or_else(|| {
        let debian = PathBuf::from("/usr/bin/redis-server");
        proc::is_executable(&debian).then_some(debian)
    })
}

/// `redis-server --version`'s `v=…`.
pub fn version(server: &std::path::Path) -> Option<String> {
    let out = proc::output(Command::new(server).arg("--version"))?;
    out.split_whitespace()
        .find_map(|w| w.strip_prefix("v="))
        .map(str::to_string)
}

pub struct TempRedis {
    dir: PathBuf,
    pub port: u16,
    pub server: PathBuf,
    /// The server; `Drop` stops it before it deletes `dir`.
    guard: Option<ChildGuard>,
}

impl TempRedis {
    pub fn start() -> Result<TempRedis> {
        let server = find_server().ok_or("no redis-server (the set-up installs it)")?;
        sweep_stale("outbox-redis-");
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("outbox-redis-{}-{stamp}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(proc::io_ctx(format!("create {}", dir.display())))?;
        let port = proc::free_port()?;
        // From here on, dropping the guard cleans up.
        let mut redis = TempRedis {
            dir,
            port,
            server,
            guard: None,
        };
        let log = redis.dir.join("redis.log");
        let mut cmd = Command::new(&redis.server);
        cmd.current_dir(&redis.dir)
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .arg("--dir")
            .arg(&redis.dir)
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"]);
        let mut guard = ChildGuard::spawn("redis-server", &mut cmd, &log)?;
        let up = proc::wait_for_port(port, Duration::from_secs(20), Some(guard.child()));
        redis.guard = Some(guard);
        if let Err(err) = up {
            return Err(format!("{err}\nredis log:\n{}", proc::tail(&log, 20)));
        }
        Ok(redis)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

/// Deletes temp folders named `PREFIX<pid>-…` whose process no longer runs.
fn sweep_stale(prefix: &str) {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !std::path::Path::new(&format!("/proc/{pid}")).exists()
            && std::fs::remove_dir_all(entry.path()).is_ok()
        {
            println!("removed {} (left by a stopped run)", entry.path().display());
        }
    }
}

impl Drop for TempRedis {
    fn drop(&mut self) {
        // Stops the server first (SIGTERM, then SIGKILL), then removes its folder.
        drop(self.guard.take());
        match std::fs::remove_dir_all(&self.dir) {
            Ok(()) => println!("removed {}", self.dir.display()),
            Err(err) => eprintln!("could not remove {}: {err}", self.dir.display()),
        }
    }
}
