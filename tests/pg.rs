//! Layer 4: a real PostgreSQL server, started and stopped by `cargo xtask test`, which passes
//! its address in `OUTBOX_PG_URL`. These checks are the server's own (it answers, one
//! connection per thread); the differential suite, the model against the same server, is
//! the `truth` target in tests/truth/.
#![cfg(not(target_arch = "wasm32"))]

use postgres::{Client, NoTls};

fn pg_url() -> String {
    std::env::var("OUTBOX_PG_URL").unwrap_or_else(|_| {
        panic!(
            "OUTBOX_PG_URL is not set: this test needs the PostgreSQL server that \
             `cargo xtask test` starts. Run `cargo xtask test`."
        )
    })
}

fn connect() -> Client {
    let url = pg_url();
    Client::connect(&url, NoTls).unwrap_or_else(|err| panic!("cannot connect to {url}: {err}"))
}

#[test]
fn server_answers_version_and_uuid() {
    let mut client = connect();
    let row = client
        .query_one("SELECT version(), gen_random_uuid()::text", &[])
        .expect("query");
    let version: String = row.get(0);
    let uuid: String = row.get(1);
    assert!(
        version.starts_with("PostgreSQL "),
        "unexpected version(): {version}"
    );
    assert_eq!(uuid.len(), 36, "unexpected gen_random_uuid(): {uuid}");
    eprintln!("{version}");
}

#[test]
fn one_connection_per_thread() {
    let pids: Vec<i32> = (0..4)
        .map(|_| {
            std::thread::spawn(|| {
                let mut client = connect();
                client
                    .query_one("SELECT pg_backend_pid()", &[])
                    .expect("query")
                    .get::<_, i32>(0)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|handle| handle.join().expect("thread"))
        .collect();
    let mut distinct = pids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), pids.len(), "backends were shared: {pids:?}");
}
