//! For tests that edit JSON by hand, as a user might edit a link, a trace or a scenario
//! file: every place in a value, and the value at a place.

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
