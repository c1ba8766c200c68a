//! A tiny static file server for `dist/` (GET and HEAD, one request per connection).
//! Dropping it stops it. Std only, and a crate of its own so that xtask (`serve-release`,
//! the end-to-end layer), tests/ship.rs (its offline test stops and restarts a server of
//! its own, so the browser really loses the network) and benches/lighthouse.rs (dist/ with
//! its brotli files) all serve with the same code.
//!
//! Options, for what a school's host does: serve under a path prefix (`/outbox/`, as on
//! GitHub Pages), send the `.br` / `.gz` file written beside an asset when the browser
//! accepts it, and listen on every interface (`cargo xtask serve-release`).

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub struct StaticServer {
    pub addr: SocketAddr,
    prefix: String,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// How to serve.
#[derive(Clone)]
pub struct Options {
    /// Where to listen, e.g. `127.0.0.1:0` (any free port) or `0.0.0.0:8080`.
    pub bind: String,
    /// The path the site lives under: `/` or `/outbox/` (leading and trailing slash).
    pub prefix: String,
    /// Send `NAME.br` / `NAME.gz` when the request accepts that encoding.
    pub precompressed: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bind: "127.0.0.1:0".into(),
            prefix: "/".into(),
            precompressed: false,
        }
    }
}

impl StaticServer {
    pub fn start(root: PathBuf) -> std::io::Result<StaticServer> {
        StaticServer::start_with(root, Options::default())
    }

    pub fn start_with(root: PathBuf, options: Options) -> std::io::Result<StaticServer> {
        let listener = TcpListener::bind(&options.bind)?;
        let addr = listener.local_addr()?;
        let prefix = options.prefix.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let root = root.clone();
                let options = options.clone();
                // A thread per connection: a browser may open a connection and send nothing.
                std::thread::spawn(move || {
                    let _ = handle(stream, &root, &options);
                });
            }
        });
        Ok(StaticServer {
            addr,
            prefix,
            stop,
            thread: Some(thread),
        })
    }

    /// The site's address (with its prefix), as a browser on this machine opens it.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.addr, self.prefix)
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
        "webmanifest" => "application/manifest+json",
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

/// The request line's method and target, and the encodings the request accepts.
fn read_request(stream: &TcpStream) -> std::io::Result<(String, String, String)> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut accept = String::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("accept-encoding") {
                accept = value.trim().to_ascii_lowercase();
            }
        }
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("/").to_string();
    Ok((method, target, accept))
}

fn handle(stream: TcpStream, root: &Path, options: &Options) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let (method, target, accept) = read_request(&stream)?;
    let mut out = stream;
    let with_body = method == "GET";
    if method != "GET" && method != "HEAD" {
        return respond(
            &mut out,
            "405 Method Not Allowed",
            "text/plain",
            None,
            b"method not allowed",
            true,
        );
    }
    let path = target.split(['?', '#']).next().unwrap_or("/");
    // `/outbox` → `/outbox/`: the page's relative URLs need the trailing slash.
    if options.prefix.len() > 1 && path == options.prefix.trim_end_matches('/') {
        let query = &target[path.len()..];
        let location = format!("{}{query}", options.prefix);
        return redirect(&mut out, &location);
    }
    let Some(inner) = path.strip_prefix(options.prefix.as_str()) else {
        return respond(
            &mut out,
            "404 Not Found",
            "text/plain",
            None,
            b"not found",
            with_body,
        );
    };
    let Some(file) = resolve(root, &format!("/{inner}")).filter(|f| f.is_file()) else {
        return respond(
            &mut out,
            "404 Not Found",
            "text/plain",
            None,
            b"not found",
            with_body,
        );
    };
    let (body, encoding) = pick_encoding(&file, &accept, options.precompressed)?;
    respond(
        &mut out,
        "200 OK",
        content_type(&file),
        encoding,
        &body,
        with_body,
    )
}

/// The file's bytes, or its precompressed sibling's when one exists and is accepted
/// (brotli first: smaller), with the `Content-Encoding` to send.
fn pick_encoding(
    file: &Path,
    accept: &str,
    precompressed: bool,
) -> std::io::Result<(Vec<u8>, Option<&'static str>)> {
    if precompressed {
        for (token, suffix) in [("br", "br"), ("gzip", "gz")] {
            let sibling = with_suffix(file, suffix);
            let accepted = accept
                .split(',')
                .any(|a| a.split(';').next().unwrap_or("").trim() == token);
            if accepted && sibling.is_file() {
                return Ok((std::fs::read(sibling)?, Some(token)));
            }
        }
    }
    Ok((std::fs::read(file)?, None))
}

/// `a/b.wasm` → `a/b.wasm.br`.
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

fn redirect(out: &mut TcpStream, location: &str) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 301 Moved Permanently\r\nLocation: {location}\r\nContent-Length: 0\r\n\
         Connection: close\r\n\r\n"
    )?;
    out.flush()
}

fn respond(
    out: &mut TcpStream,
    status: &str,
    content_type: &str,
    encoding: Option<&str>,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    let encoding = encoding.map_or(String::new(), |e| {
        format!("Content-Encoding: {e}\r\nVary: Accept-Encoding\r\n")
    });
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         {encoding}Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
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
        let dir = std::env::temp_dir().join(format!("static-server-{}", std::process::id()));
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

    #[test]
    fn serves_under_a_prefix_with_precompressed_files() {
        let dir = std::env::temp_dir().join(format!("static-server-prefix-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.join("a.js"), "plain").unwrap();
        std::fs::write(dir.join("a.js.br"), "BROTLI").unwrap();
        let options = Options {
            prefix: "/outbox/".into(),
            precompressed: true,
            ..Options::default()
        };
        let server = StaticServer::start_with(dir.clone(), options).unwrap();
        assert!(server.url().ends_with("/outbox/"));
        let get = |path: &str, accept: &str| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            write!(
                s,
                "GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {accept}\r\n\r\n"
            )
            .unwrap();
            let mut text = Vec::new();
            s.read_to_end(&mut text).unwrap();
            String::from_utf8_lossy(&text).into_owned()
        };
        assert!(get("/outbox/", "").ends_with("<p>hi</p>"));
        assert!(get("/outbox?lang=en", "").contains("Location: /outbox/?lang=en"));
        assert!(
            get("/index.html", "").starts_with("HTTP/1.1 404"),
            "outside the prefix"
        );
        let br = get("/outbox/a.js", "gzip, deflate, br");
        assert!(
            br.contains("Content-Encoding: br") && br.ends_with("BROTLI"),
            "{br}"
        );
        assert!(
            get("/outbox/a.js", "gzip").ends_with("plain"),
            "no .gz: the file as it is"
        );
        drop(server);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
