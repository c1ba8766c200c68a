//! A step's id in test ids and element ids (`data-testid="step-queue_add"`): its name in
//! the model's JSON, kept equal to it by the test below.

use outbox_model::Step;

/// A step's id in test ids: its name in the model's JSON (`queue_add`), `script-0` for a
/// psql statement.
pub fn step_id(step: Step) -> String {
    use Step::*;
    let id = match step {
        Script(i) => return format!("script-{i}"),
        Send => "send",
        Await => "await",
        Begin => "begin",
        InsertTask => "insert_task",
        InsertEvent => "insert_event",
        Commit => "commit",
        QueueAdd => "queue_add",
        Respond => "respond",
        SelectBatch => "select_batch",
        Publish => "publish",
        MarkPublished => "mark_published",
        MarkFailed => "mark_failed",
        Rollback => "rollback",
        Fetch => "fetch",
        InboxCheck => "inbox_check",
        InboxInsert => "inbox_insert",
        Action => "action",
        ExternalCall => "external_call",
        BeginSecond => "begin_second",
        CommitSecond => "commit_second",
        Complete => "complete",
        InsertKey => "insert_key",
        DeadLetter => "dead_letter",
        ReadWal => "read_wal",
        SaveOffset => "save_offset",
        CleanOutbox => "clean_outbox",
        CleanInbox => "clean_inbox",
    };
    id.to_string()
}

#[cfg(test)]
mod step_ids {
    use super::step_id;
    use outbox_model::Step;

    #[test]
    fn step_ids_are_the_models_json_names() {
        let mut steps: Vec<Step> = Vec::new();
        // Every step some program of some preset uses.
        for s in outbox_model::presets() {
            let w = outbox_model::World::new(&s);
            for p in w.procs() {
                steps.extend(p.program.iter().copied());
            }
        }
        steps.sort();
        steps.dedup();
        assert!(steps.len() >= 25, "only {} steps seen", steps.len());
        for step in steps {
            let json = serde_json::to_value(step).unwrap();
            match json.as_str() {
                Some(name) => assert_eq!(step_id(step), name),
                None => assert!(step_id(step).starts_with("script-")),
            }
        }
    }
}
