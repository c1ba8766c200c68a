//! The client: sends the workload's requests to the API one at a time and waits for each
//! answer, retrying an error answer while retries are left.

use super::{Mem, Note, Request, World};
use crate::action::Step;
use crate::auditor::TaskRef;
use crate::ids::{EventKind, ProcId};

impl World {
    pub(super) fn run_client(&mut self, i: usize) {
        let Mem::Client {
            next,
            waiting,
            reply,
            tries,
        } = self.procs[i].mem
        else {
            unreachable!()
        };
        match self.procs[i].pc {
            Step::Send => {
                let e = self.mint(next, EventKind::Created, TaskRef::NotYet);
                let a = i + 1;
                self.touch_proc(a);
                self.set_api_req(
                    a,
                    Some(Request {
                        intent: next,
                        event: e,
                        added: false,
                        pool: super::Hold::Nothing,
                    }),
                );
                if self.cfg.api == crate::scenario::ApiMode::OutboxPoolBegin {
                    // The handler's first `pool.query` (BEGIN) asks for a connection.
                    self.pool_checkout(a);
                }
                self.procs[a].pc = self.procs[a].program[0];
                self.procs[a].arrived = false;
                // In place: the memory is the client's (no drop of the old value).
                if let Mem::Client { waiting, reply, .. } = &mut self.procs[i].mem {
                    *waiting = Some(next);
                    *reply = None;
                }
                self.touched.push(e);
                self.goto(i, Step::Await);
                self.log(Some(ProcId(i as u8)), Some(Step::Send), Note::Ok);
            }
            _ => {
                let ok = reply.unwrap_or(false);
                // An error answer (perhaps lost after COMMIT): send the same request again
                // while retries are left.
                let retry = !ok && tries < self.cfg.client_retries && waiting.is_some();
                let (n, t) = if retry {
                    (waiting.unwrap_or(next), tries + 1)
                } else {
                    (waiting.map_or(next, |w| w + self.cfg.apis.max(1) as u32), 0)
                };
                if let Mem::Client {
                    next,
                    waiting,
                    reply,
                    tries,
                } = &mut self.procs[i].mem
                {
                    (*next, *waiting, *reply, *tries) = (n, None, None, t);
                }
                self.goto(i, Step::Send);
                self.log(Some(ProcId(i as u8)), Some(Step::Await), Note::Reply { ok });
            }
        }
    }
}
