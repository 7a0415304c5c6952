//! Ordering rows for `--sort-by` as kubectl's `TableSorter` orders them (`kubectl/pkg/cmd/get/
//! sorter.go`, `isLess`): numbers by value, strings that are both resource quantities (`100m`,
//! `1Gi`) by quantity, other strings byte by byte (kubectl 1.37 compares Go strings with `<`:
//! `pod-10` before `pod-2`, `10.0.0.10` before `10.0.0.9`; older kubectl ordered them
//! "naturally"); values kubectl cannot compare (booleans, maps, arrays, a number and a string, an
//! integer and a float) stop it: `isLess` fails and kubectl exits through `klog.Exitf` with
//! [`Unsortable`]'s words, printing nothing. The sort itself is Go's (`go_sort`).

use serde_json::Value;

use kw_go::goformat::quote::quote;

/// `--sort-by` over several objects none of which has the field: kubectl's `SortObjects`
/// checks that one has it (it knows no schema), and prints nothing when none has.
#[derive(Debug, thiserror::Error)]
#[error("couldn't find any field with path {} in the list of objects", quote(.0))]
pub struct SortFieldMissing(pub String);

/// A sorted table's list had no row with the `--sort-by` field: kubectl's `SortingPrinter`
/// fails on it and `get` ignores a printer's failure, so nothing is printed and kubectl says
/// `No resources found`, as for an empty list (the run takes this for "printed nothing").
#[derive(Debug, thiserror::Error)]
#[error("no object has the --sort-by field")]
pub struct NothingSorted;

/// kubectl's `klog.Exitf` when `isLess` cannot compare two values (sorter.go): `holder` is
/// what Go's `%T` names there, `RUNTIME_SORT` or `TABLE_SORTER`.
#[derive(Debug, thiserror::Error)]
#[error("Field {template} in {holder} is an unsortable type: interface, err: {reason}")]
pub struct Unsortable {
    pub template: String,
    pub holder: &'static str,
    pub reason: &'static str,
}

/// `RuntimeSort`'s objects (`-o name|json|yaml|...`), to Go's `%T`.
pub const RUNTIME_SORT: &str = "*unstructured.Unstructured";
/// `TableSorter`'s parsed rows (a table), to Go's `%T`.
pub const TABLE_SORTER: &str = "[][][]reflect.Value";

/// kubectl's `isLess` for values decoded from JSON, or why it fails (its `err`, by the type
/// of `a`, as Go's type switch on `i` words it).
pub fn sort_key_order(a: &Value, b: &Value) -> Result<bool, &'static str> {
    const MIXED: &str = "unsortable interface: interface";
    Ok(match (a, b) {
        (Value::Null, Value::Null) => false,
        (Value::Null, _) => true,
        (_, Value::Null) => false,
        // An int64 and a float64 to Go (the JSON decoder's two kinds of number) do not compare.
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(x), Some(y)) => x < y,
            (None, None) => x.as_f64() < y.as_f64(),
            _ => return Err(MIXED),
        },
        (Value::String(x), Value::String(y)) => match (parse_quantity(x), parse_quantity(y)) {
            (Some(qx), Some(qy)) => qx < qy,
            _ => x < y,
        },
        (Value::Number(_) | Value::String(_), _) => return Err(MIXED),
        (Value::Bool(_), _) => return Err("unsortable type: bool"),
        (Value::Object(_), _) => return Err("unsortable type: map[string]interface {}"),
        (Value::Array(_), _) => return Err("unsortable type: []interface {}"),
    })
}

/// A Kubernetes resource quantity (`1.5`, `100m`, `2Gi`, `1e3`) as a number, or `None` when
/// the text is not one.
pub fn parse_quantity(text: &str) -> Option<f64> {
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(text.len());
    let (number, suffix) = text.split_at(number_end);
    let digits = number.strip_prefix(['+', '-']).unwrap_or(number);
    if digits.is_empty()
        || digits == "."
        || digits.matches('.').count() > 1
        || digits.contains(['+', '-'])
    {
        return None;
    }
    let value: f64 = number.parse().ok()?;
    let scale = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024f64,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        exponent => {
            let power = exponent.strip_prefix(['e', 'E'])?;
            let digits = power.strip_prefix(['+', '-']).unwrap_or(power);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            10f64.powi(power.parse().ok()?)
        }
    };
    Some(value * scale)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `isLess` where it does not fail.
    fn sort_key_less(a: &Value, b: &Value) -> bool {
        sort_key_order(a, b).expect("comparable")
    }

    #[test]
    fn strings_in_byte_order() {
        assert!(sort_key_less(&json!("pod-10"), &json!("pod-2")));
        assert!(!sort_key_less(&json!("pod-2"), &json!("pod-10")));
        assert!(sort_key_less(&json!("10.0.0.10"), &json!("10.0.0.9")));
        assert!(sort_key_less(&json!("B"), &json!("a")));
        assert!(sort_key_less(&json!("a"), &json!("ab")));
    }

    #[test]
    fn quantities_and_numbers() {
        assert_eq!(parse_quantity("100m"), Some(0.1));
        assert_eq!(parse_quantity("2Gi"), Some(2.0 * 1024f64.powi(3)));
        assert_eq!(parse_quantity("1e3"), Some(1000.0));
        assert_eq!(parse_quantity("Running"), None);
        assert_eq!(parse_quantity("web-1"), None);
        assert!(sort_key_less(&json!("500m"), &json!("1")));
        assert!(sort_key_less(&json!("900Mi"), &json!("1Gi")));
        assert!(sort_key_less(&json!(2), &json!(10)));
        assert!(sort_key_less(&json!(null), &json!("a")));
    }

    #[test]
    fn what_kubectl_cannot_compare_is_refused_in_its_words() {
        assert_eq!(
            sort_key_order(&json!(true), &json!(false)),
            Err("unsortable type: bool")
        );
        assert_eq!(
            sort_key_order(&json!({"a": 1}), &json!(1)),
            Err("unsortable type: map[string]interface {}")
        );
        assert_eq!(
            sort_key_order(&json!([1]), &json!([2])),
            Err("unsortable type: []interface {}")
        );
        let mixed = Err("unsortable interface: interface");
        assert_eq!(sort_key_order(&json!(1), &json!("x")), mixed);
        assert_eq!(sort_key_order(&json!(1), &json!(2.5)), mixed);
        assert_eq!(sort_key_order(&json!(2.5), &json!(1.5)), Ok(false));
        assert_eq!(sort_key_order(&json!(null), &json!(true)), Ok(true));
    }
}
