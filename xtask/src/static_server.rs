//! A tiny static file server for `dist/` on 127.0.0.1 (GET and HEAD, one request per
//! connection). Dropping it stops it.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub struct StaticServer {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StaticServer {
    pub fn start(root: PathBuf) -> std::io::Result<StaticServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = root.clone();
                // A thread per connection: a browser may open a connection and send nothing.
                std::thread::spawn(move || {
                    let _ = handle(stream, &root);
                });
            }
        });
        Ok(StaticServer {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        println!("stopped the static server on {}", self.addr);
    }
}

pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The file a request path names inside `root`; None for anything that leaves it.
pub fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next().unwrap_or("/");
    let mut file = root.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(name) => file.push(name),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    Some(file)
}

fn handle(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Skip the headers.
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut parts = request_line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let mut out = stream;
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut out,
            "405 Method Not Allowed",
            "text/plain",
            b"method not allowed",
            true,
        );
    }
    match resolve(root, target).and_then(|file| Some((std::fs::read(&file).ok()?, file))) {
        Some((body, file)) => respond(
            &mut out,
            "200 OK",
            content_type(&file),
            &body,
            method == "GET",
        ),
        None => respond(
            &mut out,
            "404 Not Found",
            "text/plain",
            b"not found",
            method == "GET",
        ),
    }
}

fn respond(
    out: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if with_body {
        out.write_all(body)?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn resolves_inside_root_only() {
        let root = Path::new("/srv/dist");
        assert_eq!(resolve(root, "/app.wasm?v=1"), Some(root.join("app.wasm")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(content_type(Path::new("x_bg.wasm")), "application/wasm");
    }

    #[test]
    fn serves_files_with_their_type() {
        let dir = std::env::temp_dir().join(format!("xtask-static-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("a.wasm"), [0u8, 97, 115, 109]).unwrap();
        let server = StaticServer::start(dir.clone()).unwrap();
        let get = |path: &str| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut text = Vec::new();
            s.read_to_end(&mut text).unwrap();
            String::from_utf8_lossy(&text).into_owned()
        };
        let index = get("/");
        assert!(index.starts_with("HTTP/1.1 200 OK"), "{index}");
        assert!(index.contains("text/html") && index.ends_with("<p>hi</p>"));
        assert!(get("/a.wasm").contains("Content-Type: application/wasm"));
        assert!(get("/missing.js").starts_with("HTTP/1.1 404"));
        drop(server);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
