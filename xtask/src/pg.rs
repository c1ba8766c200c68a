//! A throwaway PostgreSQL server for one test run: `initdb` in a temp folder, listening only
//! on 127.0.0.1 on a free port, its socket in that folder. As root, the server runs as the
//! user `postgres` (created if missing). Dropping the guard stops it and deletes the folder.

use std::io::Write;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::proc::{self, output, run_logged, Result};

const RUN_AS: &str = "postgres";

/// A folder holding `initdb`, `pg_ctl` and `postgres`: first on PATH, then the newest
/// /usr/lib/postgresql/*/bin.
pub fn find_bin_dir() -> Option<PathBuf> {
    let complete = |dir: &Path| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|tool| proc::is_executable(&dir.join(tool)))
    };
    if let Some(initdb) = proc::which("initdb") {
        // Follow a symlink (/usr/local/bin/initdb -> /usr/lib/postgresql/15/bin/initdb).
        let real = std::fs::canonicalize(&initdb).unwrap_or(initdb.clone());
        for dir in [initdb.parent(), real.parent()].into_iter().flatten() {
            if complete(dir) {
                return Some(dir.to_path_buf());
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let major = entry.file_name().to_str()?.parse::<u32>().ok()?;
            Some((major, entry.path().join("bin")))
        })
        .filter(|(_, bin)| complete(bin))
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

pub struct TempPostgres {
    dir: PathBuf,
    bin: PathBuf,
    /// `Some(user)` when we are root and run the server as that user.
    user: Option<String>,
    pub port: u16,
}

impl TempPostgres {
    pub fn start() -> Result<TempPostgres> {
        let bin = find_bin_dir().ok_or("no PostgreSQL binaries (initdb, pg_ctl, postgres)")?;
        let user = if proc::is_root() {
            ensure_user()?;
            Some(RUN_AS.to_string())
        } else {
            None
        };
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("outbox-pg-{}-{stamp}", std::process::id()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map_err(proc::io_ctx(format!("create {}", dir.display())))?;
        // From here on, dropping the guard cleans up.
        let mut pg = TempPostgres {
            dir,
            bin,
            user,
            port: 0,
        };
        if pg.user.is_some() {
            let uid = id_of("-u")?;
            let gid = id_of("-g")?;
            std::os::unix::fs::chown(&pg.dir, Some(uid), Some(gid))
                .map_err(proc::io_ctx("chown the temp folder"))?;
        }
        pg.init()?;
        pg.port = proc::free_port()?;
        pg.configure()?;
        let log = pg.dir.join("server.log");
        let started = run_logged(
            pg.command("pg_ctl")
                .arg("-D")
                .arg(pg.data())
                .arg("-l")
                .arg(&log)
                .args(["-w", "-t", "60", "start"]),
            &pg.dir.join("pg_ctl.log"),
        );
        if let Err(err) = started {
            return Err(format!("{err}\nserver log:\n{}", proc::tail(&log, 20)));
        }
        Ok(pg)
    }

    pub fn url(&self) -> String {
        format!("postgresql://{RUN_AS}@127.0.0.1:{}/postgres", self.port)
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    /// A command for a PostgreSQL tool, run as the server's user when we are root.
    fn command(&self, tool: &str) -> Command {
        let program = self.bin.join(tool);
        let mut cmd = match &self.user {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", user, "--"]).arg(program);
                cmd
            }
            None => Command::new(program),
        };
        // The repo may not be readable by that user: work from the temp folder.
        cmd.current_dir(&self.dir);
        cmd
    }

    fn init(&self) -> Result<()> {
        run_logged(
            self.command("initdb").arg("-D").arg(self.data()).args([
                "-A",
                "trust",
                "-U",
                RUN_AS,
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ]),
            &self.dir.join("initdb.log"),
        )
    }

    fn configure(&self) -> Result<()> {
        let conf = self.data().join("postgresql.conf");
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&conf)
            .map_err(proc::io_ctx(format!("open {}", conf.display())))?;
        // A test server: loopback only, its socket in the temp folder, no durability.
        write!(
            file,
            "\n# cargo xtask test\nlisten_addresses = '127.0.0.1'\nport = {}\n\
             unix_socket_directories = '{}'\nfsync = off\nsynchronous_commit = off\n\
             full_page_writes = off\nmax_connections = 100\n",
            self.port,
            self.dir.display()
        )
        .map_err(proc::io_ctx("write postgresql.conf"))
    }
}

impl Drop for TempPostgres {
    fn drop(&mut self) {
        if self.data().join("postmaster.pid").exists() {
            let stopped = run_logged(
                self.command("pg_ctl")
                    .arg("-D")
                    .arg(self.data())
                    .args(["-m", "fast", "-w", "stop"]),
                &self.dir.join("pg_ctl.log"),
            );
            match stopped {
                Ok(()) => println!("stopped postgresql (port {})", self.port),
                Err(err) => eprintln!("could not stop postgresql: {err}"),
            }
        }
        match std::fs::remove_dir_all(&self.dir) {
            Ok(()) => println!("removed {}", self.dir.display()),
            Err(err) => eprintln!("could not remove {}: {err}", self.dir.display()),
        }
    }
}

fn id_of(flag: &str) -> Result<u32> {
    output(Command::new("id").args([flag, RUN_AS]))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("`id {flag} {RUN_AS}` failed"))
}

/// Creates the system user `postgres` when it doesn't exist (Debian's package makes it).
fn ensure_user() -> Result<()> {
    if output(Command::new("id").args(["-u", RUN_AS])).is_some() {
        return Ok(());
    }
    let status = Command::new("useradd")
        .args([
            "--system",
            "--user-group",
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            RUN_AS,
        ])
        .status()
        .map_err(proc::io_ctx("run useradd"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("useradd {RUN_AS} failed ({status})"))
    }
}
