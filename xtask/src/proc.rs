//! Processes: PATH, running commands quietly into a log, guards that stop what we started.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::Ctx;

pub type Result<T> = std::result::Result<T, String>;

/// Puts the project's tools first on PATH, for us and every child (trunk finds
/// `wasm-opt` and `wasm-bindgen` there): `.tools/node_modules/.bin`, then `tool_dirs` (the
/// set-up's cache of trunk and wasm-bindgen-cli), then cargo's bin.
pub fn prepare_path(ctx: &Ctx, tool_dirs: Vec<PathBuf>) {
    // First the project's own pinned tools (npm's, then the cached trunk and
    // wasm-bindgen-cli, #44), then cargo's bin folder, then the rest.
    let mut dirs = vec![ctx.tools.join("node_modules/.bin")];
    dirs.extend(tool_dirs);
    dirs.push(cargo_bin_dir());
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    let joined = std::env::join_paths(dirs).expect("PATH entries");
    // Single-threaded at this point: nothing else reads the environment concurrently.
    std::env::set_var("PATH", joined);
}

fn cargo_bin_dir() -> PathBuf {
    match std::env::var_os("CARGO_HOME") {
        Some(home) => PathBuf::from(home).join("bin"),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| OsString::from("/root")))
            .join(".cargo/bin"),
    }
}

/// Looks a program up on PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Runs a command and returns its trimmed stdout, or None when it can't run or fails.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs a command with its output going to `log` (appended). On failure, the error
/// carries the log's last lines.
pub fn run_logged(cmd: &mut Command, log: &Path) -> Result<()> {
    if let Some(dir) = log.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("create {}: {e}", dir.display()))?;
    }
    let file = File::options()
        .create(true)
        .append(true)
        .open(log)
        .map_err(|e| format!("open {}: {e}", log.display()))?;
    let err_file = file.try_clone().map_err(|e| e.to_string())?;
    let shown = describe(cmd);
    let status = cmd
        .stdin(Stdio::null())
        .stdout(file)
        .stderr(err_file)
        .status()
        .map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`{shown}` failed ({status}); last lines of {}:\n{}",
            log.display(),
            tail(log, 30)
        ))
    }
}

/// Runs a command with inherited output; Ok(true) when it succeeded.
pub fn run_visible(cmd: &mut Command) -> Result<bool> {
    let shown = describe(cmd);
    println!("$ {shown}");
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run `{shown}`: {e}"))?;
    Ok(status.success())
}

pub fn describe(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|s| s.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last `lines` lines of a text file.
pub fn tail(path: &Path, lines: usize) -> String {
    let mut text = String::new();
    if let Ok(mut f) = File::open(path) {
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let _ = f.seek(SeekFrom::Start(len.saturating_sub(64 * 1024)));
        let mut bytes = Vec::new();
        let _ = f.read_to_end(&mut bytes);
        text = String::from_utf8_lossy(&bytes).into_owned();
    }
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// A port on 127.0.0.1 that was free a moment ago.
pub fn free_port() -> Result<u16> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// Waits until something accepts TCP connections on 127.0.0.1:port.
pub fn wait_for_port(port: u16, timeout: Duration, child: Option<&mut Child>) -> Result<()> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + timeout;
    let mut child = child;
    loop {
        if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        if let Some(child) = child.as_deref_mut() {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "the process exited ({status}) before listening on {addr}"
                ));
            }
        }
        if Instant::now() > deadline {
            return Err(format!("nothing listens on {addr} after {timeout:?}"));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether we run as root.
pub fn is_root() -> bool {
    output(Command::new("id").arg("-u")).as_deref() == Some("0")
}

/// A child process that is stopped when the guard drops: SIGTERM, then SIGKILL after a
/// grace period. Only the child we started, by its pid.
pub struct ChildGuard {
    name: &'static str,
    child: Child,
}

impl ChildGuard {
    pub fn spawn(name: &'static str, cmd: &mut Command, log: &Path) -> Result<ChildGuard> {
        if let Some(dir) = log.parent() {
            std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        }
        let file = File::create(log).map_err(|e| format!("create {}: {e}", log.display()))?;
        let err_file = file.try_clone().map_err(|e| e.to_string())?;
        let shown = describe(cmd);
        let child = cmd
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err_file)
            .spawn()
            .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
        Ok(ChildGuard { name, child })
    }

    pub fn child(&mut self) -> &mut Child {
        &mut self.child
    }
}

/// The pids of every live descendant of `pid`, read from /proc (children first-level first).
pub fn descendants(pid: u32) -> Vec<u32> {
    let mut parent_of: Vec<(u32, u32)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(child) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            // /proc/PID/stat: "PID (COMM) STATE PPID ..."; COMM may hold spaces and parens.
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            if let Some(ppid) = ppid {
                parent_of.push((child, ppid));
            }
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parent_of
                .iter()
                .filter(|(_, ppid)| *ppid == parent)
                .map(|(child, _)| *child),
        );
        i += 1;
    }
    found.remove(0);
    found
}

fn signal(pids: &[u32], sig: &str) {
    if pids.is_empty() {
        return;
    }
    let _ = Command::new("kill")
        .arg(sig)
        .args(pids.iter().map(u32::to_string))
        .stderr(Stdio::null())
        .status();
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let id = self.child.id();
        let pid = id.to_string();
        // What the child started (a browser left open by a failed test, say) goes first,
        // while it can still be found through its parent.
        let orphans = descendants(id);
        signal(&orphans, "-TERM");
        signal(&[id], "-TERM");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                let left = orphans
                    .iter()
                    .filter(|p| Path::new(&format!("/proc/{p}")).exists());
                signal(&left.copied().collect::<Vec<_>>(), "-KILL");
                println!("stopped {} (pid {pid})", self.name);
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        signal(&orphans, "-KILL");
        let _ = self.child.kill();
        let _ = self.child.wait();
        println!("killed {} (pid {pid})", self.name);
    }
}

/// Appends io context to errors.
pub fn io_ctx(what: impl std::fmt::Display) -> impl FnOnce(io::Error) -> String {
    move |e| format!("{what}: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_a_guard_stops_the_child_and_what_it_started() {
        let log = std::env::temp_dir().join(format!("xtask-guard-{}.log", std::process::id()));
        let mut guard = ChildGuard::spawn(
            "sh",
            Command::new("sh").args(["-c", "sleep 300 & echo started; wait"]),
            &log,
        )
        .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        let grandchildren = loop {
            let found = descendants(guard.child().id());
            if !found.is_empty() || Instant::now() > deadline {
                break found;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(grandchildren.len(), 1, "expected the background sleep");
        drop(guard);
        std::thread::sleep(Duration::from_millis(100));
        for pid in grandchildren {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Gone, or a zombie waiting for init to reap it.
            assert!(
                stat.is_empty() || stat.contains(") Z "),
                "pid {pid} still runs: {stat}"
            );
        }
        let _ = std::fs::remove_file(log);
    }
}
