//! What the three tables' views share: a row marked while uncommitted, a row count.

use leptos::prelude::*;

use crate::i18n::{tn, Key, Lang};

/// A two-value row (tasks, inbox), marked when its transaction has not committed.
pub fn row(committed: bool, a: String, b: String, uncommitted: &'static str) -> impl IntoView {
    let class = if committed {
        "row"
    } else {
        "row row--uncommitted"
    };
    view! {
        <tr class=class>
            <td>{a}</td>
            <td>{b}</td>
            <td>{(!committed).then_some(uncommitted)}</td>
        </tr>
    }
}

/// "{n} rows", in the plural form `n` takes.
pub fn count(lang: Lang, n: u64) -> String {
    tn(lang, Key::Rows, n)
}
