//! For tests that edit JSON by hand, as a user might edit a link, a trace or a scenario
//! file: every place in a value, the value at a place, and a random edit of a few places.

use crate::rng::Rng;
use serde_json::Value;

/// Every place in `v` below `path`, as paths of object keys and `#index`es, parents before
/// their children.
pub fn places(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let children: Vec<(String, &Value)> = match v {
        Value::Object(m) => m.iter().map(|(k, x)| (k.clone(), x)).collect(),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| (format!("#{i}"), x))
            .collect(),
        _ => return,
    };
    for (k, x) in children {
        path.push(k);
        out.push(path.clone());
        places(x, path, out);
        path.pop();
    }
}

/// The value at a path that [`places`] gave for `v`.
pub fn at<'a>(v: &'a mut Value, path: &[String]) -> &'a mut Value {
    path.iter().fold(v, |cur, k| match k.strip_prefix('#') {
        Some(i) => &mut cur[i.parse::<usize>().expect("an index from places")],
        None => &mut cur[k.as_str()],
    })
}

/// Sets one to three places of `v` to one of `edges`, or (one time in ten) removes one.
pub fn edit(v: &mut Value, rng: &mut Rng, edges: &[Value]) {
    for _ in 0..=rng.below(3) {
        let mut all = Vec::new();
        places(v, &mut Vec::new(), &mut all);
        if all.is_empty() {
            return;
        }
        let path = &all[rng.below(all.len() as u64) as usize];
        if rng.below(10) == 0 {
            if let Some((last, parent)) = path.split_last() {
                if let Value::Object(m) = at(v, parent) {
                    m.remove(last);
                }
            }
        } else {
            *at(v, path) = edges[rng.below(edges.len() as u64) as usize].clone();
        }
    }
}
