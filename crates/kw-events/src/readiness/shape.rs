//! Whether an object has its kind's shape, for the built-in kinds the rules judge: kubectl
//! decodes a Deployment into Go's `v1.Deployment` before its status viewer looks at it, so an
//! object whose `spec` is the number 5 is an error there (`json: cannot unmarshal number into
//! Go struct field Deployment.spec of type v1.DeploymentSpec`), never "successfully rolled
//! out". The rules read fields leniently (`fields`); this is asked first, so that an object
//! they would misread is named and not judged.
//!
//! Only the fields the rules and viewers read are described, with the Go types kubectl decodes
//! them into; `null` is Go's zero value and always fits.

use serde_json::Value;

/// What a described field must decode into.
#[derive(Clone, Copy)]
enum Go {
    /// A struct, by its Go name (`v1.DeploymentSpec`), and its described fields.
    Struct(&'static str, &'static [Member]),
    /// A slice of structs (`[]v1.DeploymentCondition`).
    Slice(&'static str, &'static Go),
    /// A string type (`string`, `v1.ConditionStatus`).
    Text(&'static str),
    /// `map[string]string`.
    StringMap,
    Int32,
    Int64,
    Bool,
}

type Member = (&'static str, Go);

const META: Go = Go::Struct(
    "v1.ObjectMeta",
    &[
        ("name", Go::Text("string")),
        ("namespace", Go::Text("string")),
        ("generation", Go::Int64),
        ("labels", Go::StringMap),
        ("annotations", Go::StringMap),
    ],
);

const fn conditions(slice: &'static str, element: &'static Go) -> Go {
    Go::Slice(slice, element)
}

/// One kind's condition struct: the four fields every condition has, its `type` of its own.
macro_rules! condition {
    ($name:literal, $kind:literal) => {
        Go::Struct(
            $name,
            &[
                ("type", Go::Text($kind)),
                ("status", Go::Text("v1.ConditionStatus")),
                ("reason", Go::Text("string")),
                ("message", Go::Text("string")),
            ],
        )
    };
}

const DEPLOYMENT_CONDITION: Go = condition!("v1.DeploymentCondition", "v1.DeploymentConditionType");
const STATEFUL_SET_CONDITION: Go =
    condition!("v1.StatefulSetCondition", "v1.StatefulSetConditionType");
const DAEMON_SET_CONDITION: Go = condition!("v1.DaemonSetCondition", "v1.DaemonSetConditionType");
const REPLICA_SET_CONDITION: Go =
    condition!("v1.ReplicaSetCondition", "v1.ReplicaSetConditionType");
const JOB_CONDITION: Go = condition!("v1.JobCondition", "v1.JobConditionType");
const POD_CONDITION: Go = condition!("v1.PodCondition", "v1.PodConditionType");

const DEPLOYMENT: [Member; 3] = [
    ("metadata", META),
    (
        "spec",
        Go::Struct(
            "v1.DeploymentSpec",
            &[
                ("replicas", Go::Int32),
                ("paused", Go::Bool),
                ("minReadySeconds", Go::Int32),
                ("progressDeadlineSeconds", Go::Int32),
                (
                    "strategy",
                    Go::Struct(
                        "v1.DeploymentStrategy",
                        &[("type", Go::Text("v1.DeploymentStrategyType"))],
                    ),
                ),
            ],
        ),
    ),
    (
        "status",
        Go::Struct(
            "v1.DeploymentStatus",
            &[
                ("observedGeneration", Go::Int64),
                ("replicas", Go::Int32),
                ("updatedReplicas", Go::Int32),
                ("readyReplicas", Go::Int32),
                ("availableReplicas", Go::Int32),
                ("unavailableReplicas", Go::Int32),
                (
                    "conditions",
                    conditions("[]v1.DeploymentCondition", &DEPLOYMENT_CONDITION),
                ),
            ],
        ),
    ),
];

const STATEFUL_SET: [Member; 3] = [
    ("metadata", META),
    (
        "spec",
        Go::Struct(
            "v1.StatefulSetSpec",
            &[
                ("replicas", Go::Int32),
                (
                    "updateStrategy",
                    Go::Struct(
                        "v1.StatefulSetUpdateStrategy",
                        &[
                            ("type", Go::Text("v1.StatefulSetUpdateStrategyType")),
                            (
                                "rollingUpdate",
                                Go::Struct(
                                    "v1.RollingUpdateStatefulSetStrategy",
                                    &[("partition", Go::Int32)],
                                ),
                            ),
                        ],
                    ),
                ),
            ],
        ),
    ),
    (
        "status",
        Go::Struct(
            "v1.StatefulSetStatus",
            &[
                ("observedGeneration", Go::Int64),
                ("replicas", Go::Int32),
                ("readyReplicas", Go::Int32),
                ("currentReplicas", Go::Int32),
                ("updatedReplicas", Go::Int32),
                ("availableReplicas", Go::Int32),
                ("currentRevision", Go::Text("string")),
                ("updateRevision", Go::Text("string")),
                (
                    "conditions",
                    conditions("[]v1.StatefulSetCondition", &STATEFUL_SET_CONDITION),
                ),
            ],
        ),
    ),
];

const DAEMON_SET: [Member; 3] = [
    ("metadata", META),
    (
        "spec",
        Go::Struct(
            "v1.DaemonSetSpec",
            &[(
                "updateStrategy",
                Go::Struct(
                    "v1.DaemonSetUpdateStrategy",
                    &[("type", Go::Text("v1.DaemonSetUpdateStrategyType"))],
                ),
            )],
        ),
    ),
    (
        "status",
        Go::Struct(
            "v1.DaemonSetStatus",
            &[
                ("currentNumberScheduled", Go::Int32),
                ("numberMisscheduled", Go::Int32),
                ("desiredNumberScheduled", Go::Int32),
                ("numberReady", Go::Int32),
                ("observedGeneration", Go::Int64),
                ("updatedNumberScheduled", Go::Int32),
                ("numberAvailable", Go::Int32),
                ("numberUnavailable", Go::Int32),
                (
                    "conditions",
                    conditions("[]v1.DaemonSetCondition", &DAEMON_SET_CONDITION),
                ),
            ],
        ),
    ),
];

const REPLICA_SET: [Member; 3] = [
    ("metadata", META),
    (
        "spec",
        Go::Struct("v1.ReplicaSetSpec", &[("replicas", Go::Int32)]),
    ),
    (
        "status",
        Go::Struct(
            "v1.ReplicaSetStatus",
            &[
                ("replicas", Go::Int32),
                ("readyReplicas", Go::Int32),
                ("availableReplicas", Go::Int32),
                ("observedGeneration", Go::Int64),
                (
                    "conditions",
                    conditions("[]v1.ReplicaSetCondition", &REPLICA_SET_CONDITION),
                ),
            ],
        ),
    ),
];

const JOB: [Member; 3] = [
    ("metadata", META),
    (
        "spec",
        Go::Struct(
            "v1.JobSpec",
            &[
                ("parallelism", Go::Int32),
                ("completions", Go::Int32),
                ("backoffLimit", Go::Int32),
                ("suspend", Go::Bool),
            ],
        ),
    ),
    (
        "status",
        Go::Struct(
            "v1.JobStatus",
            &[
                ("active", Go::Int32),
                ("succeeded", Go::Int32),
                ("failed", Go::Int32),
                (
                    "conditions",
                    conditions("[]v1.JobCondition", &JOB_CONDITION),
                ),
            ],
        ),
    ),
];

const POD: [Member; 3] = [
    ("metadata", META),
    ("spec", Go::Struct("v1.PodSpec", &[])),
    (
        "status",
        Go::Struct(
            "v1.PodStatus",
            &[
                ("phase", Go::Text("v1.PodPhase")),
                (
                    "conditions",
                    conditions("[]v1.PodCondition", &POD_CONDITION),
                ),
            ],
        ),
    ),
];

/// The described fields of `kind` in API group `group`, and the kind's Go struct name.
fn described(group: &str, kind: &str) -> Option<(&'static str, &'static [Member])> {
    Some(match (group, kind) {
        ("apps", "Deployment") => ("Deployment", &DEPLOYMENT),
        ("apps", "StatefulSet") => ("StatefulSet", &STATEFUL_SET),
        ("apps", "DaemonSet") => ("DaemonSet", &DAEMON_SET),
        ("apps", "ReplicaSet") => ("ReplicaSet", &REPLICA_SET),
        ("batch", "Job") => ("Job", &JOB),
        ("", "Pod") => ("Pod", &POD),
        _ => return None,
    })
}

/// Why `object` cannot be decoded as a `kind` of `group`, in the words of Go's decoder that
/// kubectl prints; `None` when it can (or the kind is not described).
pub fn mismatch(group: &str, kind: &str, object: &Value) -> Option<String> {
    let (name, members) = described(group, kind)?;
    let Value::Object(fields) = object else {
        return Some(format!(
            "json: cannot unmarshal {} into Go value of type v1.{name}",
            json_kind(object)
        ));
    };
    // Go reports the first misfit in the order the object's fields came.
    fields.iter().find_map(|(field, value)| {
        let (_, go) = members.iter().find(|(member, _)| member == field)?;
        misfit(value, *go, name, field)
    })
}

/// The first field of `value` (at `path`, a field of Go struct `parent`) that does not fit.
fn misfit(value: &Value, go: Go, parent: &str, path: &str) -> Option<String> {
    let refuse = |type_name: &str| {
        let what = match (value, go) {
            // Go quotes the digits of a number an integer field cannot hold.
            (Value::Number(number), Go::Int32 | Go::Int64) => format!("number {number}"),
            _ => json_kind(value).to_string(),
        };
        Some(format!(
            "json: cannot unmarshal {what} into Go struct field {parent}.{path} of type {type_name}"
        ))
    };
    match (go, value) {
        (_, Value::Null) => None,
        (Go::Struct(_, members), Value::Object(fields)) => {
            let Go::Struct(type_name, _) = go else {
                return None;
            };
            let inner = type_name.rsplit('.').next().unwrap_or(type_name);
            fields.iter().find_map(|(field, value)| {
                let (_, go) = members.iter().find(|(member, _)| member == field)?;
                misfit(value, *go, inner, &format!("{path}.{field}"))
            })
        }
        (Go::Struct(type_name, _), _) => refuse(type_name),
        (Go::Slice(_, element), Value::Array(items)) => items
            .iter()
            .find_map(|item| misfit(item, *element, parent, path)),
        (Go::Slice(type_name, _), _) => refuse(type_name),
        (Go::StringMap, Value::Object(entries)) => entries
            .values()
            .find_map(|entry| misfit(entry, Go::Text("string"), parent, path)),
        (Go::StringMap, _) => refuse("map[string]string"),
        (Go::Text(_), Value::String(_)) | (Go::Bool, Value::Bool(_)) => None,
        (Go::Text(type_name), _) => refuse(type_name),
        (Go::Bool, _) => refuse("bool"),
        (Go::Int32, _) if fits(value, i64::from(i32::MIN), i64::from(i32::MAX)) => None,
        (Go::Int32, _) => refuse("int32"),
        (Go::Int64, _) if fits(value, i64::MIN, i64::MAX) => None,
        (Go::Int64, _) => refuse("int64"),
    }
}

/// A JSON integer in `min..=max`. Written as a float (`1.0`) it is not one: Go parses an int
/// field's digits as an integer and refuses `1.0` as it refuses `1.5`.
fn fits(value: &Value, min: i64, max: i64) -> bool {
    value.as_i64().is_some_and(|n| (min..=max).contains(&n))
}

/// How Go's decoder names a JSON value it could not store.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn kubectls_words_for_fields_of_the_wrong_type() {
        for (object, said) in [
            (json!({"spec": 5}), "json: cannot unmarshal number into Go struct field Deployment.spec of type v1.DeploymentSpec"),
            (json!({"spec": {"replicas": "3"}}), "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"),
            (json!({"spec": {}, "status": []}), "json: cannot unmarshal array into Go struct field Deployment.status of type v1.DeploymentStatus"),
            (json!({"status": {"conditions": [{"type": 1}]}}), "json: cannot unmarshal number into Go struct field DeploymentCondition.status.conditions.type of type v1.DeploymentConditionType"),
            (json!({"status": {"replicas": i64::MIN}}), "json: cannot unmarshal number -9223372036854775808 into Go struct field DeploymentStatus.status.replicas of type int32"),
            (json!({"metadata": {"annotations": {"a": 1}}}), "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.annotations of type string"),
        ] {
            assert_eq!(mismatch("apps", "Deployment", &object).as_deref(), Some(said), "{object}");
        }
    }

    #[test]
    fn the_first_misfit_in_the_objects_order_and_well_formed_objects_pass() {
        let object: Value = serde_json::from_str(r#"{"status": "x", "spec": 5}"#).expect("JSON");
        let said = mismatch("apps", "Deployment", &object).expect("a misfit");
        assert!(
            said.contains("Deployment.") && said.contains("v1.Deployment"),
            "{said}"
        );
        let fine = json!({"metadata": {"name": "web", "generation": 2},
            "spec": {"replicas": 3, "paused": null, "template": {"spec": {}}},
            "status": {"observedGeneration": 2, "conditions": [{"type": "Available", "status": "True"}]}});
        assert_eq!(mismatch("apps", "Deployment", &fine), None);
        assert_eq!(mismatch("example.com", "Widget", &json!({"spec": 5})), None);
        assert!(mismatch("", "Pod", &json!({"status": {"phase": 3}})).is_some());
    }
}
