//! `cargo xtask serve-release`: a classroom without internet. Builds the release page,
//! then runs the classroom server (`classroom/`, binary `outbox-classroom`, the same one a
//! release ships) on that dist/: every interface, the `.br`/`.gz` copies, the addresses and
//! a QR code for the students. Ctrl-C stops it. `--no-build` serves the dist/ there is;
//! every other argument (`--port`, `--prefix`) goes to `outbox-classroom`.

use std::process::{Command, ExitCode};

use crate::proc::run_visible;
use crate::setup::{self, Scope};
use crate::Ctx;

pub fn run(ctx: &Ctx, args: &[String]) -> ExitCode {
    let (build, rest) = split_args(args);
    if build && !build_release(ctx) {
        return ExitCode::FAILURE;
    }
    let status = ctx
        .cargo()
        .args(["run", "-q", "-p", "outbox-classroom", "--", "--dir"])
        .arg(ctx.root.join("dist"))
        .args(rest)
        .status();
    match status {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(err) => {
            eprintln!("serve-release: cannot run cargo: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Sets up the build tools and runs `trunk build --release` (the post-build hook adds the
/// service worker and the .br/.gz files); false, with a message, when it fails.
pub fn build_release(ctx: &Ctx) -> bool {
    if let Err(err) = setup::run(ctx, Scope::Build) {
        eprintln!("set-up failed: {err}");
        return false;
    }
    let built = Command::new("trunk")
        .current_dir(&ctx.root)
        .args(["build", "--release", "--offline"])
        .status_ok();
    if !built {
        eprintln!("serve-release: `trunk build --release` failed");
    }
    built
}

/// Whether to build first (no `--no-build`), and the arguments for `outbox-classroom`.
fn split_args(args: &[String]) -> (bool, Vec<String>) {
    let rest: Vec<String> = args
        .iter()
        .filter(|a| *a != "--no-build")
        .cloned()
        .collect();
    (rest.len() == args.len(), rest)
}

trait StatusOk {
    fn status_ok(&mut self) -> bool;
}

impl StatusOk for Command {
    fn status_ok(&mut self) -> bool {
        run_visible(self).unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_build_stays_here_and_the_rest_goes_to_the_server() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(split_args(&[]), (true, vec![]));
        let (build, rest) = split_args(&args(&["--port", "9000", "--no-build", "--prefix", "x"]));
        assert!(!build);
        assert_eq!(rest, args(&["--port", "9000", "--prefix", "x"]));
    }
}
