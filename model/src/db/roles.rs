//! Roles and grants: who may do what to which table, worded as PostgreSQL refuses it,
//! and the app-role probes the lesson runs to show the refusals.

use super::error::{sqlstate, Exec, SqlError};
use super::grants::{Privilege, Role, Table};
use super::lock_kinds::{Cursor, OutboxChange};
use super::store::Db;
use crate::ids::TxId;

impl Db {
    /// `SET LOCAL ROLE`: lasts until the transaction ends.
    pub fn set_local_role(&mut self, tx: TxId, role: Role) -> Exec<()> {
        if let Err(e) = self.usable(tx) {
            return Exec::Err(e);
        }
        if let Some(w) = self.wm(tx) {
            w.role = Some(role);
        }
        Exec::Done(())
    }

    pub(super) fn role(&self, tx: TxId) -> Role {
        let w = self.w(tx).expect("open tx");
        w.role.or(w.session_role).unwrap_or(Role::Owner)
    }

    /// Checks a privilege the way PostgreSQL words the refusal.
    pub fn check(&self, tx: TxId, table: Table, p: Privilege) -> Result<(), SqlError> {
        let allowed = match self.role(tx) {
            Role::Owner => true,
            Role::App => match (table, p) {
                (Table::Vazifalar | Table::Outbox | Table::SorovKalitlari, Privilege::Insert) => {
                    true
                }
                // The column grant: nothing else on the outbox (not its other columns, not
                // UPDATE or DELETE).
                (Table::Outbox, Privilege::SelectHodisaId) => self.can_read_hodisa_id(tx),
                _ => false,
            },
        };
        if allowed {
            Ok(())
        } else {
            Err(SqlError::new(
                sqlstate::INSUFFICIENT_PRIVILEGE,
                table.permission_denied(),
            ))
        }
    }

    /// `GRANT SELECT (hodisa_id) ON outbox TO vazifalar_ilova` ([`crate::sql::GRANT_RETURNING`]).
    /// As the owner it takes effect at COMMIT (at once inside its own transaction). As the
    /// app role PostgreSQL grants nothing, with only a WARNING ("no privileges were
    /// granted"): the statement succeeds and changes nothing.
    pub fn grant_returning(&mut self, tx: TxId) -> Exec<()> {
        if let Err(e) = self.usable(tx) {
            return Exec::Err(e);
        }
        if self.role(tx) == Role::Owner {
            if let Some(w) = self.wm(tx) {
                w.grant_returning = true;
            }
        }
        Exec::Done(())
    }

    /// Whether the app role may read `hodisa_id` in `tx`: granted and committed, or granted
    /// earlier in `tx` itself.
    pub(super) fn can_read_hodisa_id(&self, tx: TxId) -> bool {
        self.app_can_read_hodisa_id || self.w(tx).is_some_and(|w| w.grant_returning)
    }

    /// The probes of the app-role check.
    pub fn probe(&mut self, tx: TxId, table: Table, p: Privilege) -> Exec<u64> {
        if let Err(e) = self.usable(tx).and_then(|_| self.check(tx, table, p)) {
            return self.fail(tx, e);
        }
        match (table, p) {
            (Table::Outbox, Privilege::Select | Privilege::SelectHodisaId) => {
                Exec::Done(self.count_outbox_visible(tx))
            }
            (Table::Vazifalar, Privilege::Select | Privilege::SelectHodisaId) => {
                Exec::Done(self.count_tasks_visible(tx))
            }
            (Table::Outbox, Privilege::Update | Privilege::Delete) => {
                let rows: Vec<u32> = (0..self.outbox.len() as u32)
                    .filter(|&i| {
                        let r = &self.outbox[i as usize];
                        self.committed(r.xmin) || r.xmin == tx
                    })
                    .collect();
                let change = if p == Privilege::Delete {
                    OutboxChange::Delete
                } else {
                    OutboxChange::SetPublished
                };
                self.update_outbox(tx, &rows, change, &mut Cursor::default())
            }
            _ => Exec::Done(0),
        }
    }

    fn count_outbox_visible(&self, tx: TxId) -> u64 {
        self.outbox
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                let mine = r.lock == tx;
                let d = if mine {
                    self.pending.get(&(*i as u32)).copied().unwrap_or(r.data)
                } else {
                    r.data
                };
                (self.committed(r.xmin) || r.xmin == tx) && !d.deleted
            })
            .count() as u64
    }

    fn count_tasks_visible(&self, tx: TxId) -> u64 {
        self.tasks
            .iter()
            .filter(|t| self.committed(t.xmin) || t.xmin == tx)
            .count() as u64
    }
}
