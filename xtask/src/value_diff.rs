//! The first place two JSON values differ, as a JSON Pointer.

use serde_json::Value;

/// The JSON Pointer (RFC 6901) of the first value that differs between `a` and `b`, or `None`
/// if they are equal. Object members are compared whatever their order (as `Value` equality
/// does): `a`'s members in `a`'s order first, then members only `b` has. A member or element
/// present on one side only is reported at its own pointer.
pub(crate) fn first_difference(a: &Value, b: &Value) -> Option<String> {
    let mut pointer = String::new();
    diff(a, b, &mut pointer).then_some(pointer)
}

/// Whether `a` and `b` differ; if so, `pointer` is extended to the first difference.
fn diff(a: &Value, b: &Value, pointer: &mut String) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, av) in a {
                let len = pointer.len();
                push(pointer, key);
                match b.get(key) {
                    None => return true,
                    Some(bv) if diff(av, bv, pointer) => return true,
                    Some(_) => pointer.truncate(len),
                }
            }
            if let Some(key) = b.keys().find(|key| !a.contains_key(*key)) {
                push(pointer, key);
                return true;
            }
            false
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (av, bv)) in a.iter().zip(b).enumerate() {
                let len = pointer.len();
                push(pointer, &i.to_string());
                if diff(av, bv, pointer) {
                    return true;
                }
                pointer.truncate(len);
            }
            if a.len() != b.len() {
                push(pointer, &a.len().min(b.len()).to_string());
                return true;
            }
            false
        }
        _ => a != b,
    }
}

fn push(pointer: &mut String, token: &str) {
    pointer.push('/');
    pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
}

/// `a` and `b` at `pointer`, for a loss message: `input has X, output has Y`.
pub(crate) fn describe(pointer: &str, a: &Value, a_name: &str, b: &Value, b_name: &str) -> String {
    let at = if pointer.is_empty() { "the document root" } else { pointer };
    format!(
        "first difference at {at}: {a_name} has {}, {b_name} has {}",
        excerpt(a.pointer(pointer)),
        excerpt(b.pointer(pointer))
    )
}

fn excerpt(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "nothing".to_owned();
    };
    let text = value.to_string();
    if text.chars().count() > 60 {
        format!("{}…", text.chars().take(60).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_values_have_no_difference() {
        let a = json!({"a": [1, {"b": null}], "c": "x"});
        assert_eq!(first_difference(&a, &a.clone()), None);
    }

    #[test]
    fn member_order_does_not_matter() {
        let a: Value = serde_json::from_str(r#"{"a": 1, "b": 2}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"b": 2, "a": 1}"#).unwrap();
        assert_eq!(a, b);
        assert_eq!(first_difference(&a, &b), None);
    }

    #[test]
    fn finds_a_changed_scalar_deep_down() {
        let a = json!({"ns": {"m": {"params": [{"name": "x"}, {"name": "y"}]}}});
        let b = json!({"ns": {"m": {"params": [{"name": "x"}, {"name": "z"}]}}});
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/ns/m/params/1/name"));
    }

    #[test]
    fn finds_a_dropped_and_an_added_member() {
        let a = json!({"keep": 1, "x-owner": "ops"});
        let b = json!({"keep": 1});
        assert_eq!(first_difference(&a, &b).as_deref(), Some("/x-owner"));
        assert_eq!(first_difference(&b, &a).as_deref(), Some("/x-owner"));
    }

    #[test]
    fn finds_a_shorter_array_and_a_changed_type() {
        assert_eq!(first_difference(&json!([1, 2, 3]), &json!([1, 2])).as_deref(), Some("/2"));
        assert_eq!(first_difference(&json!({"a": 1}), &json!({"a": "1"})).as_deref(), Some("/a"));
        assert_eq!(first_difference(&json!(1), &json!(1.0)).as_deref(), Some(""));
        assert_eq!(first_difference(&json!({"a": []}), &json!({"a": {}})).as_deref(), Some("/a"));
    }

    #[test]
    fn escapes_pointer_tokens() {
        let a = json!({"a/b": {"c~d": 1}});
        let b = json!({"a/b": {"c~d": 2}});
        let pointer = first_difference(&a, &b).unwrap();
        assert_eq!(pointer, "/a~1b/c~0d");
        assert_eq!(a.pointer(&pointer), Some(&json!(1)));
    }

    #[test]
    fn describes_both_sides() {
        let a = json!({"x": "kept"});
        let b = json!({});
        let pointer = first_difference(&a, &b).unwrap();
        assert_eq!(
            describe(&pointer, &a, "input", &b, "output"),
            r#"first difference at /x: input has "kept", output has nothing"#
        );
    }
}
