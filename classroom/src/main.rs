//! `outbox-classroom`: Outbox Playground for a classroom's network, as one file a teacher
//! downloads from a release and runs; no Rust, Node or internet needed.
//!
//! It serves the release page built into it (`build.rs`; or a built dist/ with `--dir`)
//! on every interface, sending the `.br`/`.gz` copies the build wrote beside each file when
//! the browser accepts them, and prints the addresses to give the students with a QR code
//! of the first. Ctrl-C stops it (the default signal handling ends the process; the
//! server holds nothing that needs closing).

mod embedded;
mod lan;
mod qr;

use std::path::PathBuf;
use std::process::ExitCode;

use static_server::{Options, StaticServer};

const USAGE: &str = "outbox-classroom: Outbox Playground on this computer's network

usage: outbox-classroom [--port N] [--prefix /outbox/] [--dir PATH/TO/dist]
  --port N        the port to listen on (8080)
  --prefix PATH   serve under a path, e.g. /outbox/ (/)
  --dir DIST      serve this built page instead of the one inside this program
  --version       print the version and the page inside
Ctrl-C stops it.";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Args {
    port: u16,
    prefix: String,
    dir: Option<PathBuf>,
}

#[derive(Debug, PartialEq)]
enum Command {
    Serve(Args),
    Help,
    Version,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match parse(&args) {
        Ok(Command::Serve(args)) => serve(&args),
        Ok(Command::Help) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Command::Version) => {
            let page = embedded::VERSION.unwrap_or("none: use --dir");
            println!(
                "outbox-classroom {} (page {page})",
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("outbox-classroom: {err}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut out = Args {
        port: 8080,
        prefix: "/".into(),
        dir: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            _ => {}
        }
        let value = it.next().ok_or(format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--port" => out.port = value.parse().map_err(|_| format!("bad port {value:?}"))?,
            "--prefix" => out.prefix = format!("/{}/", value.trim_matches('/')).replace("//", "/"),
            "--dir" => out.dir = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {arg}")),
        }
    }
    Ok(Command::Serve(out))
}

fn serve(args: &Args) -> ExitCode {
    let root = match &args.dir {
        Some(dir) if dir.join("index.html").is_file() => dir.clone(),
        Some(dir) => {
            eprintln!("outbox-classroom: {} has no index.html", dir.display());
            return ExitCode::FAILURE;
        }
        None => match embedded::unpack() {
            Ok(root) => root,
            Err(err) => {
                eprintln!("outbox-classroom: {err}");
                return ExitCode::FAILURE;
            }
        },
    };
    let options = Options {
        bind: format!("0.0.0.0:{}", args.port),
        prefix: args.prefix.clone(),
        precompressed: true,
    };
    let _server = match StaticServer::start_with(root.clone(), options) {
        Ok(server) => server,
        Err(err) => {
            eprintln!(
                "outbox-classroom: cannot listen on port {}: {err}\n\
                 (another program has it? try --port {})",
                args.port,
                args.port.wrapping_add(1)
            );
            return ExitCode::FAILURE;
        }
    };
    announce(args, &root);
    loop {
        std::thread::park();
    }
}

/// The lines a teacher reads: what is served, the addresses, the QR code of the first.
fn announce(args: &Args, root: &std::path::Path) {
    let what = match &args.dir {
        Some(_) => format!("the page in {}", root.display()),
        None => {
            let (files, bytes) = embedded::size();
            format!(
                "the page inside this program ({files} files, {:.1} MB)",
                bytes as f64 / 1e6
            )
        }
    };
    let (port, prefix) = (args.port, &args.prefix);
    println!("Outbox Playground: serving {what}");
    println!("on every network interface, port {port}. Ctrl-C stops it.\n");
    println!("  on this computer:  http://127.0.0.1:{port}{prefix}");
    let addresses = lan::addresses();
    for ip in &addresses {
        println!("  for the students:  http://{ip}:{port}{prefix}");
    }
    let Some(first) = addresses.first() else {
        println!("\n(no network address found: is this computer on the classroom's network?)");
        return;
    };
    let url = format!("http://{first}:{port}{prefix}");
    if let Some(lines) = qr::lines(&url) {
        println!("\n{url} as a QR code:\n");
        for line in lines {
            println!("  {line}");
        }
    }
    println!(
        "\nStudents' browsers get no offline copy over plain http (the README says why);\n\
         if they cannot connect, let port {port} through this computer's firewall."
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_port_prefix_and_dir() {
        let default = Args {
            port: 8080,
            prefix: "/".into(),
            dir: None,
        };
        assert_eq!(parse(&[]), Ok(Command::Serve(default)));
        let custom = parse(&args(&[
            "--prefix", "outbox", "--port", "9000", "--dir", "d",
        ]));
        let want = Args {
            port: 9000,
            prefix: "/outbox/".into(),
            dir: Some(PathBuf::from("d")),
        };
        assert_eq!(custom, Ok(Command::Serve(want)));
        assert_eq!(parse(&args(&["--help"])), Ok(Command::Help));
        assert!(parse(&args(&["--port"])).is_err());
        assert!(parse(&args(&["--port", "x"])).is_err());
        assert!(parse(&args(&["--colour", "red"])).is_err());
    }
}
