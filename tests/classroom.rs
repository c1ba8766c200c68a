//! The classroom server (#44) end to end: the built `outbox-classroom` binary, with the
//! release page embedded from this build's dist/, started on a free port as a teacher
//! starts it (no `--dir`). Headless Chromium loads the page through it and plays the
//! lesson's canon; the server sent each file as the `.br` or `.gz` copy the request
//! accepted. Needs `OUTBOX_CLASSROOM` (the binary) and `OUTBOX_DIST`, which
//! `cargo xtask test-layer e2e` sets.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::*;

/// The running binary, killed when dropped (a failed test must not leave it listening).
struct Classroom {
    child: Child,
    port: u16,
    /// What it printed before serving: the addresses and the QR code.
    said: String,
}

impl Drop for Classroom {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

/// Starts the binary and reads its announcement up to the firewall line it ends with.
fn start() -> Classroom {
    let binary = PathBuf::from(env_url("OUTBOX_CLASSROOM"));
    let port = free_port();
    let mut child = Command::new(&binary)
        .args(["--port", &port.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", binary.display()));
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut server = Classroom {
        child,
        port,
        said: String::new(),
    };
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(30)) {
        server.said.push_str(&line);
        server.said.push('\n');
        if line.contains("firewall") {
            return server;
        }
    }
    panic!(
        "outbox-classroom did not announce itself: {:?}",
        server.said
    );
}

/// A raw GET with this `Accept-Encoding`: the response's head and body.
fn get(port: u16, path: &str, accept: &str) -> (String, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {accept}\r\n\r\n"
    )
    .expect("send");
    let mut all = Vec::new();
    stream.read_to_end(&mut all).expect("read");
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&all[..split]).into_owned();
    (head, all[split + 4..].to_vec())
}

/// The release build's main wasm (Trunk's hashed `…_bg.wasm`).
fn page_wasm(dist: &Path) -> String {
    std::fs::read_dir(dist)
        .expect("read dist/")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .find(|n| n.starts_with("outbox-playground-") && n.ends_with("_bg.wasm"))
        .expect("dist/ has the page's wasm")
}

#[test]
fn sends_the_copy_each_request_accepts() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let server = start();
    assert!(server.said.contains("for the students"), "{}", server.said);
    assert!(server.said.contains('█'), "a QR code: {}", server.said);
    let wasm = page_wasm(&dist);
    for (name, path) in [
        ("index.html", "/".to_string()),
        (wasm.as_str(), format!("/{wasm}")),
    ] {
        let plain = std::fs::read(dist.join(name)).expect("read the file");
        for (accept, suffix, encoding) in [
            ("gzip, deflate, br", ".br", Some("br")),
            ("gzip", ".gz", Some("gzip")),
            ("", "", None),
        ] {
            let (head, body) = get(server.port, &path, accept);
            assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
            let sent = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Encoding: "))
                .map(str::to_owned);
            assert_eq!(sent.as_deref(), encoding, "{path} for {accept:?}: {head}");
            let want = match suffix {
                "" => plain.clone(),
                _ => std::fs::read(dist.join(format!("{name}{suffix}"))).expect("the copy"),
            };
            assert!(
                body == want,
                "{path} for {accept:?}: not the {suffix:?} copy"
            );
        }
    }
}

#[tokio::test]
async fn a_browser_plays_the_canon_through_it() {
    let dist = PathBuf::from(env_url("OUTBOX_DIST"));
    let server = start();
    let page = format!("http://127.0.0.1:{}/", server.port);
    let wasm = page_wasm(&dist);
    let sizes: Vec<u64> = [".br", ".gz"]
        .iter()
        .map(|s| {
            std::fs::metadata(dist.join(format!("{wasm}{s}")))
                .expect("the copy")
                .len()
        })
        .collect();
    let client = connect(&env_url("OUTBOX_WEBDRIVER_URL"), 1920, 1080, &[]).await;
    with_session(client, move |client| async move {
        open(&client, &page).await?;
        // The lesson's §2 through the classroom server: "bazada 100, navbatda 90".
        run_preset(&client, "canon-dual-write").await?;
        assert_eq!(counter(&client, "tasks_in_db").await?, "100");
        assert_eq!(counter(&client, "queue_jobs").await?, "90");
        assert_eq!(counter(&client, "lost").await?, "10");
        // What came over the wire for the wasm: the size of its .br or .gz copy.
        let script = format!(
            "return performance.getEntriesByType('resource')\
             .filter((e) => e.name.endsWith('/{wasm}')).map((e) => e.encodedBodySize)"
        );
        let seen = client.execute(&script, vec![]).await?;
        let encoded = seen.get(0).and_then(|v| v.as_u64());
        eprintln!(
            "wasm over the wire: {encoded:?} bytes (.br {}, .gz {})",
            sizes[0], sizes[1]
        );
        assert!(
            encoded.is_some_and(|n| sizes.contains(&n)),
            "the browser got the wasm as its .br or .gz copy: {seen} vs {sizes:?}"
        );
        drop(server);
        Ok(())
    })
    .await;
}
