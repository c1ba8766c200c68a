//! The scripted SQL session (`psql`): runs the lesson's statements one by one, in
//! autocommit or inside its own BEGIN … COMMIT, and records what psql would print.

use super::script_result::{ScriptResult, PG_SLEEP_TICKS};
use super::{script_sql, Mem, Note, Wait, World};
use crate::action::Step;
use crate::auditor::TaskRef;
use crate::db::{Exec, Privilege, Role, SqlError, Table};
use crate::ids::{EventKind, ProcId};
use crate::scenario::ScriptStmt;

impl World {
    pub(super) fn run_session(&mut self, i: usize) {
        let Mem::Session { pos } = self.procs[i].mem else {
            unreachable!()
        };
        let stmt = self.script[pos];
        let pid = Some(ProcId(i as u8));
        let result: Result<u64, SqlError> = match stmt {
            ScriptStmt::Begin => {
                if self.procs[i].tx.is_none() {
                    self.begin(i, Role::Owner);
                }
                Ok(0)
            }
            ScriptStmt::Commit | ScriptStmt::Rollback => {
                if self.procs[i].tx.is_some() {
                    self.end_tx(i, stmt == ScriptStmt::Commit, true);
                }
                Ok(0)
            }
            _ => {
                let r = match self.session_statement(i, pos, stmt) {
                    Exec::Done(n) => Ok(n),
                    Exec::Err(e) => Err(e),
                    Exec::Blocked(t) => {
                        self.block(i, Wait::Tx(t));
                        return;
                    }
                };
                // psql's autocommit: a statement outside BEGIN … COMMIT is its own
                // transaction, committed when it succeeds and rolled back when it fails.
                if !in_explicit_tx(&self.script, pos) && self.procs[i].tx.is_some() {
                    self.end_tx(i, r.is_ok(), true);
                }
                r
            }
        };
        let note = match &result {
            Ok(n) => Note::Rows { n: *n as u32 },
            Err(e) => Note::Error { code: e.code },
        };
        self.log(pid, Some(Step::Script(pos as u8)), note);
        self.script_results.push(ScriptResult {
            stmt,
            sql: script_sql(stmt),
            result,
            by_hand: self.by_hand,
        });
        let np = pos + 1;
        self.procs[i].mem = Mem::Session { pos: np };
        self.procs[i].pc = Step::Script(np.min(255) as u8);
    }

    /// A statement other than BEGIN / COMMIT / ROLLBACK, in the session's transaction or,
    /// outside one, in its own (autocommit).
    fn session_statement(&mut self, i: usize, pos: usize, stmt: ScriptStmt) -> Exec<u64> {
        let tx = match self.procs[i].tx {
            Some(t) => t,
            None => {
                // Autocommit: a one-statement transaction.
                self.begin(i, Role::Owner);
                self.procs[i].tx.expect("tx")
            }
        };
        match stmt {
            ScriptStmt::SetRoleApp => self.db.set_local_role(tx, Role::App).map(|_| 0),
            ScriptStmt::InsertTask => self.db.insert_task(tx, 1, 0).map(|_| 1),
            ScriptStmt::PgSleep => {
                self.procs[i].sleep_until = self.tick + PG_SLEEP_TICKS;
                Exec::Done(0)
            }
            ScriptStmt::InsertEvent | ScriptStmt::InsertEventReturning => {
                // An intent of its own, past the workload's: no client request
                // shares it (so no false reordering or duplicate effect).
                let intent = self.tasks_total + self.preloaded + pos as u32;
                let e = self.mint(intent, EventKind::Completed, TaskRef::OwnRow);
                self.touched.push(e);
                self.db
                    .insert_event(
                        tx,
                        e,
                        EventKind::Completed,
                        1,
                        0,
                        0,
                        stmt == ScriptStmt::InsertEventReturning,
                    )
                    .map(|_| 1)
            }
            // count(*) needs SELECT on any one column; `hodisa_id`'s grant is one.
            ScriptStmt::SelectCountOutbox | ScriptStmt::SelectEventIds => {
                self.db.probe(tx, Table::Outbox, Privilege::SelectHodisaId)
            }
            ScriptStmt::GrantReturning => self.db.grant_returning(tx).map(|_| 0),
            ScriptStmt::SelectCountTasks => self.db.probe(tx, Table::Vazifalar, Privilege::Select),
            ScriptStmt::UpdateOutbox => self.db.probe(tx, Table::Outbox, Privilege::Update),
            ScriptStmt::DeleteOutbox => self.db.probe(tx, Table::Outbox, Privilege::Delete),
            _ => unreachable!(),
        }
    }
}

/// Whether the statement at `pos` runs inside the script's own BEGIN … COMMIT / ROLLBACK
/// (otherwise psql runs it in autocommit).
fn in_explicit_tx(script: &[ScriptStmt], pos: usize) -> bool {
    script[..pos].iter().rev().find(|s| {
        matches!(
            s,
            ScriptStmt::Begin | ScriptStmt::Commit | ScriptStmt::Rollback
        )
    }) == Some(&ScriptStmt::Begin)
}
