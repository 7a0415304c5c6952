//! The JSON types of the kinds the sim acts out (Deployments, ReplicaSets, StatefulSets,
//! DaemonSets, Jobs, Pods, Services), checked as kube-apiserver's decoder checks them: a body
//! whose `spec` is the number 5 cannot become a `v1.DeploymentSpec`, so the server refuses it
//! with Go's words, and the controllers never see an object they would have to guess at.
//!
//! Only the fields the sim reads or defaults are described; the rest are taken as they come.
//! `null` is accepted everywhere, as Go decodes it to the zero value.

use serde_json::Value;

/// A Go type a JSON value decodes into.
enum Shape {
    /// A struct: its Go name (as `Type.String()` prints it) and the fields described.
    Struct(&'static str, &'static [(&'static str, &'static Shape)]),
    /// A slice of the element shape, named as Go prints it (`[]v1.Container`).
    List(&'static str, &'static Shape),
    /// `map[string]string`.
    Labels,
    Str,
    Bool,
    Int32,
    Int64,
}

static META: Shape = Shape::Struct(
    "v1.ObjectMeta",
    &[
        ("name", &Shape::Str),
        ("generateName", &Shape::Str),
        ("namespace", &Shape::Str),
        ("uid", &Shape::Str),
        ("resourceVersion", &Shape::Str),
        ("generation", &Shape::Int64),
        ("labels", &Shape::Labels),
        ("annotations", &Shape::Labels),
        ("finalizers", &STRINGS),
    ],
);
static STRINGS: Shape = Shape::List("[]string", &Shape::Str);
static SELECTOR: Shape = Shape::Struct("v1.LabelSelector", &[("matchLabels", &Shape::Labels)]);
static PORT: Shape = Shape::Struct(
    "v1.ContainerPort",
    &[
        ("name", &Shape::Str),
        ("containerPort", &Shape::Int32),
        ("protocol", &Shape::Str),
    ],
);
static ENV: Shape = Shape::Struct(
    "v1.EnvVar",
    &[("name", &Shape::Str), ("value", &Shape::Str)],
);
static CONTAINER: Shape = Shape::Struct(
    "v1.Container",
    &[
        ("name", &Shape::Str),
        ("image", &Shape::Str),
        ("imagePullPolicy", &Shape::Str),
        ("command", &STRINGS),
        ("args", &STRINGS),
        ("ports", &Shape::List("[]v1.ContainerPort", &PORT)),
        ("env", &Shape::List("[]v1.EnvVar", &ENV)),
    ],
);
static CONTAINERS: Shape = Shape::List("[]v1.Container", &CONTAINER);
static POD_SPEC: Shape = Shape::Struct(
    "v1.PodSpec",
    &[
        ("containers", &CONTAINERS),
        ("initContainers", &CONTAINERS),
        ("restartPolicy", &Shape::Str),
        ("nodeName", &Shape::Str),
    ],
);
static TEMPLATE: Shape = Shape::Struct(
    "v1.PodTemplateSpec",
    &[("metadata", &META), ("spec", &POD_SPEC)],
);
static STRATEGY: Shape = Shape::Struct("v1.DeploymentStrategy", &[("type", &Shape::Str)]);
static DEPLOYMENT_SPEC: Shape = Shape::Struct(
    "v1.DeploymentSpec",
    &[
        ("replicas", &Shape::Int32),
        ("selector", &SELECTOR),
        ("template", &TEMPLATE),
        ("strategy", &STRATEGY),
        ("minReadySeconds", &Shape::Int32),
        ("revisionHistoryLimit", &Shape::Int32),
        ("paused", &Shape::Bool),
        ("progressDeadlineSeconds", &Shape::Int32),
    ],
);
static REPLICA_SET_SPEC: Shape = Shape::Struct(
    "v1.ReplicaSetSpec",
    &[
        ("replicas", &Shape::Int32),
        ("selector", &SELECTOR),
        ("template", &TEMPLATE),
        ("minReadySeconds", &Shape::Int32),
    ],
);
static STATEFUL_SET_SPEC: Shape = Shape::Struct(
    "v1.StatefulSetSpec",
    &[
        ("replicas", &Shape::Int32),
        ("selector", &SELECTOR),
        ("template", &TEMPLATE),
        ("serviceName", &Shape::Str),
        ("minReadySeconds", &Shape::Int32),
    ],
);
static DAEMON_SET_SPEC: Shape = Shape::Struct(
    "v1.DaemonSetSpec",
    &[
        ("selector", &SELECTOR),
        ("template", &TEMPLATE),
        ("minReadySeconds", &Shape::Int32),
    ],
);
static JOB_SPEC: Shape = Shape::Struct(
    "v1.JobSpec",
    &[
        ("parallelism", &Shape::Int32),
        ("completions", &Shape::Int32),
        ("backoffLimit", &Shape::Int32),
        ("activeDeadlineSeconds", &Shape::Int64),
        ("selector", &SELECTOR),
        ("template", &TEMPLATE),
        ("suspend", &Shape::Bool),
        ("manualSelector", &Shape::Bool),
        ("completionMode", &Shape::Str),
    ],
);
static SERVICE_PORT: Shape = Shape::Struct(
    "v1.ServicePort",
    &[
        ("name", &Shape::Str),
        ("port", &Shape::Int32),
        ("protocol", &Shape::Str),
    ],
);
static SERVICE_SPEC: Shape = Shape::Struct(
    "v1.ServiceSpec",
    &[
        ("type", &Shape::Str),
        ("clusterIP", &Shape::Str),
        ("ports", &Shape::List("[]v1.ServicePort", &SERVICE_PORT)),
        ("selector", &Shape::Labels),
    ],
);

/// The shape of a kind's object: its Go struct name and its top-level fields.
fn kind_shape(kind: &str) -> Option<(&'static str, [(&'static str, &'static Shape); 3])> {
    let (spec, status): (&'static Shape, &'static Shape) = match kind {
        "Deployment" => (&DEPLOYMENT_SPEC, &Shape::Struct("v1.DeploymentStatus", &[])),
        "ReplicaSet" => (
            &REPLICA_SET_SPEC,
            &Shape::Struct("v1.ReplicaSetStatus", &[]),
        ),
        "StatefulSet" => (
            &STATEFUL_SET_SPEC,
            &Shape::Struct("v1.StatefulSetStatus", &[]),
        ),
        "DaemonSet" => (&DAEMON_SET_SPEC, &Shape::Struct("v1.DaemonSetStatus", &[])),
        "Job" => (&JOB_SPEC, &Shape::Struct("v1.JobStatus", &[])),
        "Pod" => (&POD_SPEC, &Shape::Struct("v1.PodStatus", &[])),
        "Service" => (&SERVICE_SPEC, &Shape::Struct("v1.ServiceStatus", &[])),
        _ => return None,
    };
    let name = match kind {
        "Deployment" => "Deployment",
        "ReplicaSet" => "ReplicaSet",
        "StatefulSet" => "StatefulSet",
        "DaemonSet" => "DaemonSet",
        "Job" => "Job",
        "Pod" => "Pod",
        _ => "Service",
    };
    Some((
        name,
        [("metadata", &META), ("spec", spec), ("status", status)],
    ))
}

/// Why `object` cannot be decoded as a `kind`, in Go's words (`json: cannot unmarshal number
/// into Go struct field Deployment.spec of type v1.DeploymentSpec`); `None` when it can, or
/// when the sim does not describe that kind.
pub fn mismatch(kind: &str, object: &Value) -> Option<String> {
    let (name, fields) = kind_shape(kind)?;
    let Value::Object(members) = object else {
        return Some(format!(
            "json: cannot unmarshal {} into Go value of type v1.{name}",
            value_kind(object)
        ));
    };
    for (field, shape) in fields {
        if let Some(value) = members.get(field) {
            if let Some(why) = check(value, shape, name, field) {
                return Some(why);
            }
        }
    }
    None
}

/// The first field of `value` (at `path`, inside Go struct `within`) not of its shape.
fn check(value: &Value, shape: &Shape, within: &str, path: &str) -> Option<String> {
    if value.is_null() {
        return None;
    }
    let wrong = |type_name: &str| {
        // Go names a number that an int field cannot hold with its digits.
        let what = match (value, type_name) {
            (Value::Number(number), "int32" | "int64") => format!("number {number}"),
            _ => value_kind(value).to_string(),
        };
        Some(format!(
            "json: cannot unmarshal {what} into Go struct field {within}.{path} of type {type_name}"
        ))
    };
    match shape {
        Shape::Struct(type_name, fields) => {
            let Value::Object(members) = value else {
                return wrong(type_name);
            };
            let inner = type_name.rsplit('.').next().unwrap_or(type_name);
            fields.iter().find_map(|(field, shape)| {
                let value = members.get(*field)?;
                check(value, shape, inner, &format!("{path}.{field}"))
            })
        }
        Shape::List(type_name, element) => {
            let Value::Array(items) = value else {
                return wrong(type_name);
            };
            items
                .iter()
                .find_map(|item| check(item, element, within, path))
        }
        Shape::Labels => {
            let Value::Object(members) = value else {
                return wrong("map[string]string");
            };
            members
                .values()
                .find(|member| !member.is_string() && !member.is_null())
                .and_then(|member| check(member, &Shape::Str, within, path))
        }
        Shape::Str => (!value.is_string()).then(|| wrong("string")).flatten(),
        Shape::Bool => (!value.is_boolean()).then(|| wrong("bool")).flatten(),
        Shape::Int32 => integer(value, i64::from(i32::MIN), i64::from(i32::MAX))
            .then(|| wrong("int32"))
            .flatten(),
        Shape::Int64 => integer(value, i64::MIN, i64::MAX)
            .then(|| wrong("int64"))
            .flatten(),
    }
}

/// True when `value` is not an integer in `min..=max` (what Go refuses for an intN field).
fn integer(value: &Value, min: i64, max: i64) -> bool {
    !value
        .as_i64()
        .is_some_and(|number| (min..=max).contains(&number))
}

/// How Go's decoder names a JSON value it could not store.
fn value_kind(value: &Value) -> &'static str {
    match value {
        Value::String(_) => "string",
        Value::Number(_) => "number",
        Value::Bool(_) => "bool",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::Null => "null",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_spec_of_the_wrong_type_is_named_in_gos_words() {
        assert_eq!(
            mismatch("Deployment", &json!({"spec": 5})).as_deref(),
            Some("json: cannot unmarshal number into Go struct field Deployment.spec of type v1.DeploymentSpec")
        );
        assert_eq!(
            mismatch("Deployment", &json!({"spec": "x"})).as_deref(),
            Some("json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec")
        );
        assert_eq!(
            mismatch("Deployment", &json!({"spec": {"replicas": "3"}})).as_deref(),
            Some("json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32")
        );
        assert_eq!(
            mismatch("Job", &json!({"spec": {"template": {"spec": {"containers": [{"name": 1}]}}}}))
                .as_deref(),
            Some("json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.name of type string")
        );
        assert_eq!(
            mismatch("Deployment", &json!({"spec": {"replicas": 1.5}})).as_deref(),
            Some("json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32")
        );
        assert_eq!(
            mismatch("Pod", &json!({"metadata": {"labels": {"a": 1}}})).as_deref(),
            Some("json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string")
        );
    }

    #[test]
    fn objects_of_the_right_shape_and_undescribed_kinds_pass() {
        let deployment = json!({"metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"spec": {"containers": [{"name": "web", "image": "nginx",
            "ports": [{"containerPort": 80}]}]}}, "paused": null}, "status": {}});
        assert_eq!(mismatch("Deployment", &deployment), None);
        assert_eq!(mismatch("ConfigMap", &json!({"data": 5})), None);
    }
}
