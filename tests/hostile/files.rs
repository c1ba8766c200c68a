//! Crafted files imported into an open page.

use outbox_model::Action;
use outbox_playground::proof::trace_io::trace_of;
use outbox_playground::run::link;

use crate::common::*;
use crate::harness::*;
use crate::payloads::*;

#[test]
fn hostile_files_run_no_script_and_are_imported_or_refused_with_a_reason() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            for (n, (label, payload)) in payloads().into_iter().enumerate() {
                // A trace whose texts are the payload (a property only a trace carries).
                let mut sim = lesson_sim();
                sim.ticks(6);
                let mut trace = trace_of(&sim).expect("a short run is a trace");
                trace.scenario.name = payload.clone();
                trace.scenario.summary = payload.clone();
                trace.property = Some(payload.clone());
                let mut files = vec![("trace", trace.to_json())];
                // A trace that names a process the scenario does not have.
                let mut bad = trace.clone();
                bad.scenario.name = "hostile-process".into();
                bad.actions.push(Action::Kill {
                    process: payload.clone(),
                });
                files.push(("trace with the process", bad.to_json()));
                // A saved run, and a bare scenario.
                let mut run = sim.to_run();
                run.scenario.name = payload.clone();
                run.scenario.summary = payload.clone();
                files.push(("saved run", link::to_json(&run)));
                files.push(("scenario", run.scenario.to_json()));
                for (kind, text) in files {
                    let what = format!("file, {label} in a {kind}");
                    let took = import(
                        &client,
                        &format!("{n}-{}.json", kind.replace(' ', "-")),
                        text.as_bytes(),
                        10,
                    )
                    .await?
                    .ok_or_else(|| format!("{what}: no notice after 10 s"))?;
                    let s = seen(&client).await?;
                    assert_clean(&s, &what);
                    assert_opened_or_told(&s, &what);
                    eprintln!(
                        "{what}: {} ms, notice {}",
                        took.as_millis(),
                        short(s.notice.as_deref().unwrap_or_default(), 140)
                    );
                }
                assert_alive(&client, label).await?;
            }
            Ok(())
        })
        .await;
    });
}
