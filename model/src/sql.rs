//! The one source of SQL text. Every statement a process of the model runs is here; the
//! page's SQL panel shows these strings and the truth suite executes these same strings
//! against a real PostgreSQL. Parameters are `$n` placeholders, as a driver sends them.

/// The schema: tasks, the outbox with its partial index, the consumer's inbox and the
/// business table the worker writes to.
pub const SCHEMA: &str = "\
CREATE TABLE vazifalar (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    egasi_id        bigint      NOT NULL,
    matn            text        NOT NULL,
    holat           text        NOT NULL DEFAULT 'yangi',
    yaratilgan_vaqt timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE outbox (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hodisa_id        uuid        NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    tur              text        NOT NULL,
    foydalanuvchi_id bigint      NOT NULL,
    malumot          jsonb       NOT NULL,
    yaratilgan_vaqt  timestamptz NOT NULL DEFAULT now(),
    tarqatilgan_vaqt timestamptz,
    urinishlar       integer     NOT NULL DEFAULT 0
);
CREATE INDEX outbox_navbat_idx ON outbox (id) WHERE tarqatilgan_vaqt IS NULL;
CREATE TABLE inbox (
    hodisa_id      uuid PRIMARY KEY,
    ishlangan timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE amallar (
    id        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    hodisa_id uuid   NOT NULL,
    summa     bigint NOT NULL
);
CREATE TABLE outbox_olik (
    id               bigint PRIMARY KEY,
    hodisa_id        uuid        NOT NULL UNIQUE,
    tur              text        NOT NULL,
    foydalanuvchi_id bigint      NOT NULL,
    malumot          jsonb       NOT NULL,
    yaratilgan_vaqt  timestamptz NOT NULL,
    urinishlar       integer     NOT NULL,
    kochirilgan_vaqt timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sorov_kalitlari (
    kalit           text PRIMARY KEY,
    yaratilgan_vaqt timestamptz NOT NULL DEFAULT now()
);";

/// The application role (roles are cluster-wide: created once).
pub const CREATE_APP_ROLE: &str = "CREATE ROLE vazifalar_ilova NOLOGIN";
/// What the application role may do: add tasks and events, and nothing else on the outbox.
/// An identity column needs no sequence grant (a `serial` one would).
pub const GRANTS: &str = "\
GRANT INSERT ON vazifalar TO vazifalar_ilova;
GRANT INSERT ON outbox TO vazifalar_ilova;
GRANT INSERT ON sorov_kalitlari TO vazifalar_ilova;";

/// Lets the app role read back the one column `INSERT … RETURNING hodisa_id` returns.
pub const GRANT_RETURNING: &str = "GRANT SELECT (hodisa_id) ON outbox TO vazifalar_ilova";

pub const BEGIN: &str = "BEGIN";
pub const COMMIT: &str = "COMMIT";
pub const ROLLBACK: &str = "ROLLBACK";
pub const SET_ROLE_APP: &str = "SET LOCAL ROLE vazifalar_ilova";

/// $1 owner, $2 text.
pub const INSERT_TASK: &str = "INSERT INTO vazifalar (egasi_id, matn) VALUES ($1, $2)";
/// $1 hodisa_id (made by the app, so no RETURNING is needed), $2 type, $3 user, $4 payload.
pub const INSERT_EVENT: &str =
    "INSERT INTO outbox (hodisa_id, tur, foydalanuvchi_id, malumot) VALUES ($1, $2, $3, $4)";
/// The same insert, asking for the generated id back.
pub const INSERT_EVENT_RETURNING: &str =
    "INSERT INTO outbox (tur, foydalanuvchi_id, malumot) VALUES ($1, $2, $3) RETURNING hodisa_id";

/// The relay's poll: $1 batch size. The lock clause is one of [`LOCK_CLAUSES`].
pub const SELECT_BATCH_HEAD: &str = "SELECT id, hodisa_id, tur, foydalanuvchi_id, malumot \
FROM outbox WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT $1";
pub const SELECT_BATCH_SKIP_LOCKED: &str = "SELECT id, hodisa_id, tur, foydalanuvchi_id, malumot \
FROM outbox WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED";
pub const SELECT_BATCH_NOWAIT: &str = "SELECT id, hodisa_id, tur, foydalanuvchi_id, malumot \
FROM outbox WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT $1 FOR UPDATE NOWAIT";
pub const SELECT_BATCH_WAIT: &str = "SELECT id, hodisa_id, tur, foydalanuvchi_id, malumot \
FROM outbox WHERE tarqatilgan_vaqt IS NULL ORDER BY id LIMIT $1 FOR UPDATE";

/// The high-water-mark poll (a design the lesson avoids): $1 last id seen, $2 batch size.
pub const SELECT_AFTER: &str = "SELECT id FROM outbox WHERE id > $1 ORDER BY id LIMIT $2";

/// $1 bigint[] of ids that reached the queue.
pub const MARK_PUBLISHED: &str = "UPDATE outbox SET tarqatilgan_vaqt = now(), \
urinishlar = urinishlar + 1 WHERE id = ANY($1::bigint[])";
/// $1 bigint[] of ids whose publish failed.
pub const MARK_FAILED: &str =
    "UPDATE outbox SET urinishlar = urinishlar + 1 WHERE id = ANY($1::bigint[])";

/// The dead-letter move after the failed mark, in the relay's transaction: rows of $1 whose
/// attempts reached $2 leave the outbox for `outbox_olik` (the rest of the order can flow).
pub const DEAD_LETTER: &str = "WITH olik AS (DELETE FROM outbox WHERE id = ANY($1::bigint[]) \
AND urinishlar >= $2 RETURNING id, hodisa_id, tur, foydalanuvchi_id, malumot, yaratilgan_vaqt, \
urinishlar) INSERT INTO outbox_olik (id, hodisa_id, tur, foydalanuvchi_id, malumot, \
yaratilgan_vaqt, urinishlar) SELECT * FROM olik";

/// The operator's recovery after Redis restarted empty: send again everything marked since
/// $1 (a timestamptz at or before the crash).
pub const UNPUBLISH_SINCE: &str =
    "UPDATE outbox SET tarqatilgan_vaqt = NULL WHERE tarqatilgan_vaqt >= $1";

/// The API's idempotency key, in the request's transaction: $1 the client's key. Nothing
/// inserted means an earlier request with this key committed: answer with its result.
pub const KEY_INSERT: &str =
    "INSERT INTO sorov_kalitlari (kalit) VALUES ($1) ON CONFLICT DO NOTHING";

/// The consumer's dedup: $1 hodisa_id.
pub const INBOX_INSERT: &str = "INSERT INTO inbox (hodisa_id) VALUES ($1) ON CONFLICT DO NOTHING";
/// The "action first" consumer's look-up: $1 hodisa_id.
pub const INBOX_CHECK: &str = "SELECT 1 FROM inbox WHERE hodisa_id = $1";
/// The business action: $1 hodisa_id, $2 amount.
pub const ACTION_INSERT: &str = "INSERT INTO amallar (hodisa_id, summa) VALUES ($1, $2)";

/// Cleanup of published rows, the lesson's `outboxTozala` word for word: $1 retention in
/// days (`saqlashKun`, 7 by default). In the model a day is
/// [`crate::scenario::TICKS_PER_DAY`] ticks, so the same statement runs on model time.
pub const CLEANUP: &str =
    "DELETE FROM outbox WHERE tarqatilgan_vaqt < now() - make_interval(days => $1)";
/// The broken cleanup: by age alone, published or not ($1 days).
pub const CLEANUP_BY_AGE: &str =
    "DELETE FROM outbox WHERE yaratilgan_vaqt < now() - make_interval(days => $1)";

/// The consumer's retention: inbox rows older than $1 days go.
pub const INBOX_CLEANUP: &str =
    "DELETE FROM inbox WHERE ishlangan < now() - make_interval(days => $1)";

/// The probes the lesson's app-role check runs.
pub const COUNT_OUTBOX: &str = "SELECT count(*) FROM outbox";
/// What [`GRANT_RETURNING`] lets the app role read besides RETURNING: every event's id.
pub const SELECT_EVENT_IDS: &str = "SELECT hodisa_id FROM outbox";
pub const UPDATE_ALL_PUBLISHED: &str = "UPDATE outbox SET tarqatilgan_vaqt = now()";
pub const DELETE_ALL: &str = "DELETE FROM outbox";
pub const COUNT_TASKS: &str = "SELECT count(*) FROM vazifalar";
/// A slow transaction in a scripted session: $1 seconds.
pub const PG_SLEEP: &str = "SELECT pg_sleep($1)";

/// Not SQL: the queue calls the processes make, shown beside the SQL in the page.
pub const QUEUE_ADD: &str = "queue.add(tur, malumot, { jobId: hodisa_id })";
pub const QUEUE_ADD_NO_ID: &str = "queue.add(tur, malumot)";
pub const QUEUE_GET: &str = "worker: getNextJob()";
pub const QUEUE_COMPLETE: &str = "job.moveToCompleted()";
/// Not SQL: the CDC connector reads the slot's logical stream from its saved offset, and
/// confirms an offset (the slot may then drop the log up to it). A replication-protocol
/// command; pgoutput needs both options (without `publication_names` it refuses to start).
pub const CDC_READ: &str = "START_REPLICATION SLOT outbox_slot LOGICAL $1 (proto_version '1', publication_names 'outbox_pub')";
pub const CDC_CONFIRM: &str = "standby status update: flush_lsn = $1";
pub const EXTERNAL_CALL: &str = "POST https://pochta.example/send";
/// The relay's other publisher (lesson §4.1): a receiver's webhook endpoint.
pub const WEBHOOK_POST: &str = "POST https://qabul.example/webhook";
pub const WEBHOOK_POST_KEY: &str =
    "POST https://qabul.example/webhook (Idempotency-Key: hodisa_id)";
pub const HTTP_POST: &str = "POST /vazifalar";

/// The lesson's look at the outbox's structure (§3.2), run as the owner.
pub const OUTBOX_COLUMNS_QUERY: &str = "SELECT column_name, data_type, column_default \
FROM information_schema.columns WHERE table_name = 'outbox' ORDER BY ordinal_position";

/// [`OUTBOX_COLUMNS_QUERY`]'s answer on [`SCHEMA`], as PostgreSQL prints it (name, type,
/// default; "" for none). The truth suite runs the query and compares, so the schema panel
/// shows a real answer, not a hand-written one.
pub const OUTBOX_COLUMNS: [(&str, &str, &str); 8] = [
    ("id", "bigint", ""),
    ("hodisa_id", "uuid", "gen_random_uuid()"),
    ("tur", "text", ""),
    ("foydalanuvchi_id", "bigint", ""),
    ("malumot", "jsonb", ""),
    ("yaratilgan_vaqt", "timestamp with time zone", "now()"),
    ("tarqatilgan_vaqt", "timestamp with time zone", ""),
    ("urinishlar", "integer", "0"),
];

/// The lesson's grants for the app role (§3.1), word for word. The sequence grant is
/// harmless but not needed for an identity column (the truth suite shows both).
pub const LESSON_ROLE_SQL: &str = "\
GRANT INSERT ON outbox TO vazifalar_ilova;
GRANT USAGE ON SEQUENCE outbox_id_seq TO vazifalar_ilova;
REVOKE SELECT, UPDATE, DELETE ON outbox FROM vazifalar_ilova;";

/// The app role's rights on the outbox, column by column.
pub const APP_COLUMN_PRIVILEGES_QUERY: &str = "SELECT column_name, privilege_type \
FROM information_schema.column_privileges \
WHERE grantee = 'vazifalar_ilova' AND table_name = 'outbox' ORDER BY column_name, privilege_type";

/// [`APP_COLUMN_PRIVILEGES_QUERY`]'s answer: a table-wide INSERT shows on every column;
/// [`GRANT_RETURNING`] adds SELECT on `hodisa_id` alone.
pub fn app_column_privileges(returning_grant: bool) -> Vec<(&'static str, &'static str)> {
    let mut rows: Vec<(&str, &str)> = OUTBOX_COLUMNS.iter().map(|c| (c.0, "INSERT")).collect();
    if returning_grant {
        rows.push(("hodisa_id", "SELECT"));
    }
    rows.sort_unstable();
    rows
}

/// The statements of [`SCHEMA`] one by one (for the page, which shows some of them).
pub fn schema_statements() -> impl Iterator<Item = &'static str> {
    SCHEMA.split(";\n").map(str::trim).filter(|s| !s.is_empty())
}
