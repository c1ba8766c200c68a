//! `cargo xtask serve-release`: a classroom without internet. Builds the release page and
//! serves dist/ with its precompressed `.br` / `.gz` files on every interface (0.0.0.0),
//! then prints the addresses to give the students. Ctrl-C stops it.

use std::net::{IpAddr, UdpSocket};
use std::process::{Command, ExitCode};

use static_server::{Options, StaticServer};

use crate::proc::run_visible;
use crate::setup::{self, Scope};
use crate::Ctx;

pub fn run(ctx: &Ctx, args: &[String]) -> ExitCode {
    let (port, prefix, build) = match parse(args) {
        Ok(parsed) => parsed,
        Err(err) => {
            eprintln!("serve-release: {err}");
            return ExitCode::from(2);
        }
    };
    if build && !build_release(ctx) {
        return ExitCode::FAILURE;
    }
    let options = Options {
        bind: format!("0.0.0.0:{port}"),
        prefix: prefix.clone(),
        precompressed: true,
    };
    let server = match StaticServer::start_with(ctx.root.join("dist"), options) {
        Ok(server) => server,
        Err(err) => {
            eprintln!("serve-release: cannot listen on port {port}: {err}");
            return ExitCode::FAILURE;
        }
    };
    println!("serving dist/ (brotli/gzip) on every interface, port {port}. Ctrl-C stops.");
    println!("  on this computer: http://127.0.0.1:{port}{prefix}");
    for ip in lan_addresses() {
        println!("  for the students: http://{ip}:{port}{prefix}");
    }
    let _keep = server;
    loop {
        std::thread::park();
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

/// `--port N` (8080), `--prefix /path/` (`/`) and `--no-build` (serve dist/ as it is).
fn parse(args: &[String]) -> Result<(u16, String, bool), String> {
    let (mut port, mut prefix, mut build) = (8080u16, "/".to_string(), true);
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--no-build" {
            build = false;
            continue;
        }
        let value = it.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--port" => port = value.parse().map_err(|_| format!("bad port {value:?}"))?,
            "--prefix" => prefix = format!("/{}/", value.trim_matches('/')).replace("//", "/"),
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    Ok((port, prefix, build))
}

/// This machine's address on its local network: the source address the OS would use to
/// reach an outside address (a UDP "connect" sends nothing), plus `hostname -I`'s list
/// where that command exists. Std has no interface list.
fn lan_addresses() -> Vec<IpAddr> {
    let mut out = Vec::new();
    if let Ok(sock) = UdpSocket::bind("0.0.0.0:0") {
        if sock.connect("192.0.2.1:9").is_ok() {
            if let Ok(addr) = sock.local_addr() {
                out.push(addr.ip());
            }
        }
    }
    if let Ok(o) = Command::new("hostname").arg("-I").output() {
        for word in String::from_utf8_lossy(&o.stdout).split_whitespace() {
            if let Ok(ip) = word.parse::<IpAddr>() {
                if ip.is_ipv4() && !out.contains(&ip) {
                    out.push(ip);
                }
            }
        }
    }
    out.retain(|ip| !ip.is_loopback() && !ip.is_unspecified());
    out
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
    fn reads_port_and_prefix() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(parse(&[]).unwrap(), (8080, "/".into(), true));
        let custom = parse(&args(&[
            "--prefix",
            "outbox",
            "--no-build",
            "--port",
            "9000",
        ]));
        assert_eq!(custom.unwrap(), (9000, "/outbox/".into(), false));
        assert!(parse(&args(&["--port"])).is_err());
        assert!(parse(&args(&["--port", "x"])).is_err());
    }
}
