//! The checks themselves, checked.

use std::time::Duration;

use crate::common::*;
use crate::exports::*;
use crate::harness::*;

/// The checks themselves: the watch sees a payload that does run, a dialog, and live
/// markup; the export checks see code where data should be.
#[test]
fn the_watch_sees_a_payload_that_runs() {
    serially(async {
        let (client, page) = session().await;
        with_session(client, |client| async move {
            install_watch(&client).await?;
            open_page(&client, &page).await?;
            assert_eq!(seen(&client).await?.dialog, None);
            // #18: the page's Content-Security-Policy blocks the inline handler (a recorded
            // violation, cleared at the end, as `with_session` fails on any); the script
            // WebDriver runs is not bound by it, so it sets the marker itself.
            client
                .execute(
                    "const d = document.createElement('div');
                     d.innerHTML = '<img src=x onerror=\"window.__pwned=1\">';
                     document.body.appendChild(d);
                     window.__pwned = 1;
                     alert('x');",
                    vec![],
                )
                .await?;
            tokio::time::sleep(Duration::from_millis(500)).await;
            let blocked = csp_violations(&client).await;
            assert!(blocked.iter().any(|v| v.starts_with("script-src")), "{blocked:?}");
            let s = seen(&client).await?;
            assert!(s.watch && s.pwned, "the watch missed a payload that ran: {s:?}");
            assert_eq!(s.dialog.as_deref(), Some("alert;"));
            assert_eq!(s.injected.len(), 1, "{s:?}");
            let svg = "<svg xmlns='http://www.w3.org/2000/svg'><a href='javascript:x'><text onclick='y'>t</text></a></svg>";
            let bad = client.execute(SVG_CHECK_JS, vec![svg.into()]).await?;
            assert_eq!(bad.as_array().map(Vec::len), Some(2), "{bad}");
            // The handler may be blocked again (each time its event fires): only ever it.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let again = csp_violations(&client).await;
            assert!(again.iter().all(|v| v.starts_with("script-src-attr")), "{again:?}");
            client.execute("window.__csp = []", vec![]).await?;
            Ok(())
        })
        .await;
    });
    let ok = r#"{"name":"<script>x</script>","n":1}"#;
    assert_eq!(json_outside_strings(ok), r#"{"":"","":1}"#);
    assert!(check_json_export("t", "application/json", ok).is_ok());
    assert!(check_json_export("t", "text/html", ok).is_err());
    assert!(check_json_export("t", "application/json", r#"{"a":1}<script>"#).is_err());
    let code = "#[test]\nfn a() { let s = \"<script>\"; }\n#[test]\nfn b() {}\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_err());
    let code = "#[test]\nfn a() { window.__pwned = 1; }\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_err());
    let code = "// <script>window.__pwned=1</script>\n#[test]\nfn a() { let _ = r#\"<img onerror=x>\"#; }\n";
    assert!(check_rust_export("t", "text/x-rust", code).is_ok());
    assert_eq!(
        data_url_text("data:text/plain;charset=utf-8,a%3Cb%25%C3%A9").unwrap(),
        ("text/plain;charset=utf-8".to_string(), "a<b%é".to_string())
    );
}
