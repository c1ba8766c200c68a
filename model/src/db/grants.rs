//! Who may do what: the roles the processes connect as, the tables and the privileges
//! PostgreSQL checks.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The schema owner; the relay, worker and cleaner connect as it.
    Owner,
    /// `vazifalar_ilova`: INSERT on `vazifalar` and `outbox`, nothing else on the outbox.
    App,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    Vazifalar,
    Outbox,
    Inbox,
    Amallar,
    /// `sorov_kalitlari`: the API's idempotency keys (one per client request).
    SorovKalitlari,
}

impl Table {
    /// PostgreSQL's words for a refused privilege on this table.
    pub fn permission_denied(self) -> &'static str {
        match self {
            Table::Vazifalar => "permission denied for table vazifalar",
            Table::Outbox => "permission denied for table outbox",
            Table::Inbox => "permission denied for table inbox",
            Table::Amallar => "permission denied for table amallar",
            Table::SorovKalitlari => "permission denied for table sorov_kalitlari",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Table::Vazifalar => "vazifalar",
            Table::Outbox => "outbox",
            Table::Inbox => "inbox",
            Table::Amallar => "amallar",
            Table::SorovKalitlari => "sorov_kalitlari",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Privilege {
    /// SELECT that reads the row's columns (the relay's poll, `SELECT *`).
    Select,
    /// SELECT that reads `hodisa_id` alone, or no column at all (`count(*)`): PostgreSQL
    /// allows both with SELECT on any one column, so [`crate::sql::GRANT_RETURNING`]
    /// (SELECT on `hodisa_id`) lets the app role count the outbox and read every event id.
    SelectHodisaId,
    Insert,
    Update,
    Delete,
}
