//! The rule each process card arms its ☠ under, kept in one place (#42). While the process
//! has armed kills, the rule is theirs, read from the model (`ProcView::rule`), so the card
//! never says "next time (once)" over a variant's kill that fired ten times; choosing
//! another rule re-arms those kills under it, so the order of "arm" and "choose" no longer
//! matters. With nothing armed, the card's choice waits here for the next ☠ (or `k`).

use leptos::prelude::*;
use outbox_model::scenario::KillRule;
use outbox_model::{Action, Step};

use crate::ctl::{Ctl, Notice};
use crate::i18n::Key;
use crate::run::sim::ActRefusal;

impl Ctl {
    /// The rule the card of `process` shows and arms under (tracked).
    pub fn kill_rule(&self, process: &str) -> KillRule {
        let armed = self
            .procs
            .with(|ps| ps.iter().find(|p| p.name == process).and_then(|p| p.rule));
        armed.unwrap_or_else(|| {
            self.kill_rules.with(|rs| {
                rs.iter()
                    .find(|(n, _)| n == process)
                    .map_or(KillRule::Next, |(_, r)| *r)
            })
        })
    }

    /// Chooses the rule of `process`'s card, and re-arms its armed kills under it.
    pub fn set_kill_rule(&self, process: &str, rule: KillRule) {
        self.kill_rules.update(|rs| {
            rs.retain(|(n, _)| n != process);
            rs.push((process.to_string(), rule));
        });
        let steps: Vec<Step> = self.procs.with_untracked(|ps| {
            ps.iter()
                .find(|p| p.name == process)
                .map(|p| p.armed.clone())
                .unwrap_or_default()
        });
        if steps.is_empty() || rule == KillRule::Other {
            return;
        }
        let (when, times) = rule.when();
        let mut actions = Vec::with_capacity(steps.len() * 2);
        for step in steps {
            let process = process.to_string();
            actions.push(Action::Disarm {
                process: process.clone(),
                step: Some(step),
            });
            actions.push(Action::ArmKill {
                process,
                step,
                when: when.clone(),
                times,
            });
        }
        self.dispatch_all(actions);
    }

    /// Arms a kill of `process` at `step` under its card's rule.
    pub fn arm_kill(&self, process: &str, step: Step) {
        let (when, times) = self.kill_rule_untracked(process).when();
        self.dispatch(Action::ArmKill {
            process: process.to_string(),
            step,
            when,
            times,
        });
    }

    fn kill_rule_untracked(&self, process: &str) -> KillRule {
        untrack(|| self.kill_rule(process))
    }

    /// Several actions as one change: the panels are told and the run saved once; the
    /// first refusal stops the rest and is shown.
    pub fn dispatch_all(&self, actions: Vec<Action>) {
        let r = self.sim.try_update_value(|s| {
            for a in actions {
                s.act(a)?;
            }
            Ok::<(), ActRefusal>(())
        });
        if let Some(Err(why)) = r {
            self.notice
                .set(Some(Notice::error(Key::NoticeRefused, why)));
        }
        self.changed(true);
        let _ = self.save();
    }
}
