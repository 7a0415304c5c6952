//! kubectl's status viewers (`kubectl rollout status`, `polymorphichelpers/rollout_status.go`):
//! for a Deployment, a DaemonSet or a StatefulSet, the line kubectl prints for one state of the
//! object and whether the rollout is done, or the error that ends it. Written afresh from
//! kubectl 1.32's behaviour, messages byte for byte (each ends with its newline, as kubectl's).
//!
//! Pure: an object in, a [`Status`] out. `wait`'s judge asks it through [`Readiness`] (a
//! judgement per event, as for kw's own rules), and the `rollout status` printer prints its line.

use std::fmt;
use std::time::SystemTime;

use serde_json::Value;

use super::fields::{int, text};
use super::judgement::Judgement;
use kw_go::goformat::quote::quote;

/// What the viewer says of one state of the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The line kubectl prints, its newline included.
    pub message: String,
    /// The rollout is done: kubectl stops watching.
    pub done: bool,
}

/// Why kubectl's viewer ends the wait with an error (`error: ...` on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViewerError {
    /// `Progressing` has reason `ProgressDeadlineExceeded`: the controller gave up.
    DeadlineExceeded { name: String },
    /// `--revision N` and the Deployment is at another revision.
    OtherRevision { desired: i64, running: i64 },
    /// The revision annotation is not a number.
    BadRevision { name: String, reason: String },
    /// A DaemonSet or StatefulSet that is not updated by `RollingUpdate` (`OnDelete`).
    NotRollingUpdate,
    /// A replica count that is not a 32-bit integer (the API's `int32`): kubectl cannot decode
    /// such an object; kw refuses it rather than count with it (`-9223372036854775808 old
    /// replicas`).
    BadCount { field: String, value: String },
    /// The object is not of its kind's shape (`spec` is the number 5): kubectl's decoder
    /// refuses it with these words, and so does kw, before any line is made of it.
    Undecodable(String),
}

impl ViewerError {
    /// Whether the rollout itself failed (rather than the question being one kubectl cannot
    /// answer): kw's exit code for a failure condition.
    pub fn is_failure(&self) -> bool {
        matches!(self, ViewerError::DeadlineExceeded { .. })
    }
}

impl fmt::Display for ViewerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewerError::DeadlineExceeded { name } => {
                write!(
                    f,
                    "deployment {} exceeded its progress deadline",
                    quote(name)
                )
            }
            ViewerError::OtherRevision { desired, running } => write!(
                f,
                "desired revision ({desired}) is different from the running revision ({running})"
            ),
            ViewerError::BadRevision { name, reason } => write!(
                f,
                "cannot get the revision of deployment {}: {reason}",
                quote(name)
            ),
            // kubectl names the StatefulSet's strategy type for both kinds.
            ViewerError::NotRollingUpdate => {
                f.write_str("rollout status is only available for RollingUpdate strategy type")
            }
            ViewerError::BadCount { field, value } => write!(
                f,
                "the object is invalid: {field} is {value}, not a count (a 32-bit integer)"
            ),
            ViewerError::Undecodable(why) => f.write_str(why),
        }
    }
}

/// The kinds kubectl has a status viewer for, by API group and kind.
pub fn has_viewer(group: &str, kind: &str) -> bool {
    matches!(
        (group, kind),
        ("apps" | "extensions", "Deployment" | "DaemonSet") | ("apps", "StatefulSet")
    )
}

/// kubectl's status of `object` (of `group` and `kind`), pinned to `revision` when it is not 0
/// (Deployments only; the others ignore it, as kubectl does). `None` for a kind without a
/// viewer.
pub fn status(
    group: &str,
    kind: &str,
    object: &Value,
    revision: i64,
) -> Option<Result<Status, ViewerError>> {
    if !has_viewer(group, kind) {
        return None;
    }
    if let Some(why) = super::shape::mismatch(group, kind, object) {
        return Some(Err(ViewerError::Undecodable(why)));
    }
    Some(match kind {
        "Deployment" => deployment(object, revision),
        "DaemonSet" => daemon_set(object),
        _ => stateful_set(object),
    })
}

/// Which rules judge readiness: kw's own (kstatus's), or kubectl's status viewers where kubectl
/// has one (`rollout status`), kw's own for every other kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Readiness {
    #[default]
    Kw,
    Kubectl {
        revision: i64,
    },
}

impl Readiness {
    /// The judgement of `object` under these rules: kubectl's viewer says ready when done, failed
    /// on an error (its message is kubectl's error), in progress otherwise (its line, without the
    /// newline).
    pub fn judge(&self, group: &str, kind: &str, object: &Value, now: SystemTime) -> Judgement {
        let Readiness::Kubectl { revision } = *self else {
            return super::judge(group, kind, object, now);
        };
        match status(group, kind, object, revision) {
            None => super::judge(group, kind, object, now),
            Some(Err(error)) => Judgement::failed(error.to_string()),
            Some(Ok(status)) if status.done => Judgement::ready(status.message.trim_end()),
            Some(Ok(status)) => Judgement::in_progress(status.message.trim_end()),
        }
    }
}

fn name(object: &Value) -> &str {
    text(object, "/metadata/name").unwrap_or_default()
}

/// An integer field, 0 when absent (Go's zero value).
fn count(object: &Value, pointer: &str) -> i64 {
    int(object, pointer).unwrap_or(0)
}

/// A replica count (an `int32` field), 0 when absent; refused outside int32, where kubectl
/// cannot decode the object and kw's arithmetic would wrap.
fn replicas(object: &Value, pointer: &str) -> Result<i64, ViewerError> {
    Ok(replicas_if_any(object, pointer)?.unwrap_or(0))
}

/// A replica count, `None` when absent.
fn replicas_if_any(object: &Value, pointer: &str) -> Result<Option<i64>, ViewerError> {
    let Some(value) = object.pointer(pointer).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    // A number written as a float (`3.0`) is read as `fields::int` reads it.
    let whole = value.as_i64().or_else(|| {
        value
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 1e10)
            .map(|f| f as i64)
    });
    match whole.filter(|n| i32::try_from(*n).is_ok()) {
        Some(n) => Ok(Some(n)),
        // JSON text: a string's controls are written as `\u001b`.
        None => Err(ViewerError::BadCount {
            field: pointer.trim_start_matches('/').replace('/', "."),
            value: value.to_string(),
        }),
    }
}

fn ok(message: String, done: bool) -> Result<Status, ViewerError> {
    Ok(Status { message, done })
}

fn deployment(object: &Value, revision: i64) -> Result<Status, ViewerError> {
    let name = name(object);
    if revision > 0 {
        let running = match text(
            object,
            "/metadata/annotations/deployment.kubernetes.io~1revision",
        ) {
            None => 0,
            Some(text) => text.parse::<i64>().map_err(|_| ViewerError::BadRevision {
                name: name.to_string(),
                reason: format!("strconv.ParseInt: parsing {}: invalid syntax", quote(text)),
            })?,
        };
        if running != revision {
            return Err(ViewerError::OtherRevision {
                desired: revision,
                running,
            });
        }
    }
    if count(object, "/metadata/generation") > count(object, "/status/observedGeneration") {
        return ok(
            "Waiting for deployment spec update to be observed...\n".into(),
            false,
        );
    }
    let progressing = object
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .and_then(|all| all.iter().find(|c| c["type"] == "Progressing"));
    if progressing.is_some_and(|c| c["reason"] == "ProgressDeadlineExceeded") {
        return Err(ViewerError::DeadlineExceeded { name: name.into() });
    }
    let quoted = quote(name);
    let replicas = self::replicas(object, "/status/replicas")?;
    let updated = self::replicas(object, "/status/updatedReplicas")?;
    let available = self::replicas(object, "/status/availableReplicas")?;
    if let Some(wanted) = replicas_if_any(object, "/spec/replicas")?.filter(|w| updated < *w) {
        return ok(format!("Waiting for deployment {quoted} rollout to finish: {updated} out of {wanted} new replicas have been updated...\n"), false);
    }
    if replicas > updated {
        return ok(format!("Waiting for deployment {quoted} rollout to finish: {} old replicas are pending termination...\n", replicas - updated), false);
    }
    if available < updated {
        return ok(format!("Waiting for deployment {quoted} rollout to finish: {available} of {updated} updated replicas are available...\n"), false);
    }
    ok(
        format!("deployment {quoted} successfully rolled out\n"),
        true,
    )
}

fn daemon_set(object: &Value) -> Result<Status, ViewerError> {
    if text(object, "/spec/updateStrategy/type").unwrap_or_default() != "RollingUpdate" {
        return Err(ViewerError::NotRollingUpdate);
    }
    if count(object, "/metadata/generation") > count(object, "/status/observedGeneration") {
        return ok(
            "Waiting for daemon set spec update to be observed...\n".into(),
            false,
        );
    }
    let quoted = quote(name(object));
    let desired = replicas(object, "/status/desiredNumberScheduled")?;
    let updated = replicas(object, "/status/updatedNumberScheduled")?;
    let available = replicas(object, "/status/numberAvailable")?;
    if updated < desired {
        return ok(format!("Waiting for daemon set {quoted} rollout to finish: {updated} out of {desired} new pods have been updated...\n"), false);
    }
    if available < desired {
        return ok(format!("Waiting for daemon set {quoted} rollout to finish: {available} of {desired} updated pods are available...\n"), false);
    }
    ok(
        format!("daemon set {quoted} successfully rolled out\n"),
        true,
    )
}

fn stateful_set(object: &Value) -> Result<Status, ViewerError> {
    if text(object, "/spec/updateStrategy/type").unwrap_or_default() != "RollingUpdate" {
        return Err(ViewerError::NotRollingUpdate);
    }
    let observed = count(object, "/status/observedGeneration");
    if observed == 0 || count(object, "/metadata/generation") > observed {
        return ok(
            "Waiting for statefulset spec update to be observed...\n".into(),
            false,
        );
    }
    let wanted = replicas_if_any(object, "/spec/replicas")?;
    let ready = replicas(object, "/status/readyReplicas")?;
    let updated = replicas(object, "/status/updatedReplicas")?;
    if let Some(wanted) = wanted.filter(|w| ready < *w) {
        return ok(
            format!("Waiting for {} pods to be ready...\n", wanted - ready),
            false,
        );
    }
    // The API server defaults `rollingUpdate` (partition 0): most StatefulSets end here.
    if let Some(rolling) = object
        .pointer("/spec/updateStrategy/rollingUpdate")
        .filter(|r| r.is_object())
    {
        let partition = replicas_if_any(rolling, "/partition")?;
        if let (Some(wanted), Some(partition)) = (wanted, partition) {
            if updated < wanted - partition {
                return ok(format!("Waiting for partitioned roll out to finish: {updated} out of {} new pods have been updated...\n", wanted - partition), false);
            }
        }
        return ok(
            format!("partitioned roll out complete: {updated} new pods have been updated...\n"),
            true,
        );
    }
    let update_revision = text(object, "/status/updateRevision").unwrap_or_default();
    let current_revision = text(object, "/status/currentRevision").unwrap_or_default();
    if update_revision != current_revision {
        return ok(format!("waiting for statefulset rolling update to complete {updated} pods at revision {update_revision}...\n"), false);
    }
    let current = replicas(object, "/status/currentReplicas")?;
    ok(
        format!("statefulset rolling update complete {current} pods at revision {current_revision}...\n"),
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deploy(status: Value) -> Value {
        json!({"metadata": {"name": "web", "generation": 2}, "spec": {"replicas": 3}, "status": status})
    }

    fn line(result: Option<Result<Status, ViewerError>>) -> String {
        match result.expect("a viewer") {
            Ok(status) => format!(
                "{}{}",
                if status.done { "done: " } else { "" },
                status.message
            ),
            Err(error) => format!("error: {error}"),
        }
    }

    #[test]
    fn a_deployment_goes_through_kubectls_messages_in_order() {
        let cases = [
            (json!({"observedGeneration": 1}), "Waiting for deployment spec update to be observed...\n"),
            (json!({"observedGeneration": 2, "updatedReplicas": 1, "replicas": 4}), "Waiting for deployment \"web\" rollout to finish: 1 out of 3 new replicas have been updated...\n"),
            (json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 4}), "Waiting for deployment \"web\" rollout to finish: 1 old replicas are pending termination...\n"),
            (json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 3, "availableReplicas": 2}), "Waiting for deployment \"web\" rollout to finish: 2 of 3 updated replicas are available...\n"),
            (json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 3, "availableReplicas": 3}), "done: deployment \"web\" successfully rolled out\n"),
            (json!({"observedGeneration": 2, "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]}), "error: deployment \"web\" exceeded its progress deadline"),
        ];
        for (status, expected) in cases {
            assert_eq!(line(status_of(&deploy(status), 0)), expected);
        }
    }

    fn status_of(object: &Value, revision: i64) -> Option<Result<Status, ViewerError>> {
        status("apps", "Deployment", object, revision)
    }

    #[test]
    fn a_pinned_revision_must_be_the_running_one() {
        let mut object = deploy(json!({"observedGeneration": 2}));
        assert_eq!(
            line(status_of(&object, 2)),
            "error: desired revision (2) is different from the running revision (0)"
        );
        object["metadata"]["annotations"] = json!({"deployment.kubernetes.io/revision": "2"});
        assert!(status_of(&object, 2).unwrap().is_ok());
        object["metadata"]["annotations"] = json!({"deployment.kubernetes.io/revision": "x"});
        assert_eq!(line(status_of(&object, 2)), "error: cannot get the revision of deployment \"web\": strconv.ParseInt: parsing \"x\": invalid syntax");
    }

    #[test]
    fn daemon_sets_and_stateful_sets_say_kubectls_words() {
        let ds = |strategy: &str, status: Value| json!({"metadata": {"name": "agent", "generation": 1}, "spec": {"updateStrategy": {"type": strategy}}, "status": status});
        let viewed = |object: &Value, kind| line(status("apps", kind, object, 7));
        assert_eq!(
            viewed(&ds("OnDelete", json!({})), "DaemonSet"),
            "error: rollout status is only available for RollingUpdate strategy type"
        );
        assert_eq!(viewed(&ds("RollingUpdate", json!({"observedGeneration": 1, "desiredNumberScheduled": 3, "updatedNumberScheduled": 1})), "DaemonSet"), "Waiting for daemon set \"agent\" rollout to finish: 1 out of 3 new pods have been updated...\n");
        assert_eq!(viewed(&ds("RollingUpdate", json!({"observedGeneration": 1, "desiredNumberScheduled": 3, "updatedNumberScheduled": 3, "numberAvailable": 2})), "DaemonSet"), "Waiting for daemon set \"agent\" rollout to finish: 2 of 3 updated pods are available...\n");
        let sts = |rolling: Value, status: Value| json!({"metadata": {"name": "db", "generation": 1}, "spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": rolling}}, "status": status});
        assert_eq!(
            viewed(&sts(json!({"partition": 1}), json!({})), "StatefulSet"),
            "Waiting for statefulset spec update to be observed...\n"
        );
        assert_eq!(
            viewed(
                &sts(
                    json!({"partition": 1}),
                    json!({"observedGeneration": 1, "readyReplicas": 1})
                ),
                "StatefulSet"
            ),
            "Waiting for 2 pods to be ready...\n"
        );
        assert_eq!(viewed(&sts(json!({"partition": 1}), json!({"observedGeneration": 1, "readyReplicas": 3, "updatedReplicas": 1})), "StatefulSet"), "Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...\n");
        assert_eq!(
            viewed(
                &sts(
                    json!({"partition": 1}),
                    json!({"observedGeneration": 1, "readyReplicas": 3, "updatedReplicas": 2})
                ),
                "StatefulSet"
            ),
            "done: partitioned roll out complete: 2 new pods have been updated...\n"
        );
        assert_eq!(
            viewed(
                &sts(
                    Value::Null,
                    json!({"observedGeneration": 1, "readyReplicas": 3, "updatedReplicas": 1, "updateRevision": "db-2", "currentRevision": "db-1"})
                ),
                "StatefulSet"
            ),
            "waiting for statefulset rolling update to complete 1 pods at revision db-2...\n"
        );
        assert_eq!(
            viewed(
                &sts(
                    Value::Null,
                    json!({"observedGeneration": 1, "readyReplicas": 3, "currentReplicas": 3, "updateRevision": "db-2", "currentRevision": "db-2"})
                ),
                "StatefulSet"
            ),
            "done: statefulset rolling update complete 3 pods at revision db-2...\n"
        );
        assert!(status("batch", "Job", &json!({}), 0).is_none());
    }

    #[test]
    fn kubectls_rules_judge_what_they_know_and_kws_the_rest() {
        let rules = Readiness::Kubectl { revision: 0 };
        let now = SystemTime::now();
        let done = deploy(
            json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 3, "availableReplicas": 3}),
        );
        let judged = rules.judge("apps", "Deployment", &done, now);
        assert_eq!(
            judged,
            Judgement::ready("deployment \"web\" successfully rolled out")
        );
        let stuck = deploy(
            json!({"observedGeneration": 2, "conditions": [{"type": "Progressing", "reason": "ProgressDeadlineExceeded"}]}),
        );
        let judged = rules.judge("apps", "Deployment", &stuck, now);
        assert_eq!(
            judged,
            Judgement::failed("deployment \"web\" exceeded its progress deadline")
        );
        let config = json!({"metadata": {"name": "c"}});
        assert_eq!(
            rules.judge("", "ConfigMap", &config, now),
            super::super::judge("", "ConfigMap", &config, now)
        );
    }

    #[test]
    fn kinds_with_a_viewer() {
        assert!(has_viewer("apps", "StatefulSet"));
        assert!(!has_viewer("batch", "Job"));
    }

    /// Issue #45: counts outside int32 (kubectl cannot decode the object) are refused, never
    /// counted with (`-9223372036854775808 old replicas are pending termination`).
    #[test]
    fn counts_outside_int32_are_refused_not_wrapped() {
        let huge = deploy(
            json!({"observedGeneration": 2, "updatedReplicas": i64::MAX, "replicas": i64::MIN}),
        );
        assert_eq!(
            line(status("apps", "Deployment", &huge, 0)),
            // kubectl's decoder's words (issue 61, point 7), before any count is read.
            "error: json: cannot unmarshal number -9223372036854775808 into Go struct field DeploymentStatus.status.replicas of type int32"
        );
        let mut wide =
            deploy(json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 3}));
        wide["spec"]["replicas"] = json!(4_294_967_296i64);
        assert!(line(status("apps", "Deployment", &wide, 0))
            .contains("number 4294967296 into Go struct field DeploymentSpec.spec.replicas"));
        let set = json!({"metadata": {"name": "db", "generation": 1}, "spec": {"replicas": 3,
            "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": "x"}}},
            "status": {"observedGeneration": 1, "readyReplicas": 3}});
        assert!(line(status("apps", "StatefulSet", &set, 0)).contains(
            "string into Go struct field RollingUpdateStatefulSetStrategy.spec.updateStrategy.rollingUpdate.partition of type int32"
        ));
        // In range, negative included (kubectl decodes it), as before.
        let fine = deploy(json!({"observedGeneration": 2, "updatedReplicas": 3, "replicas": 5}));
        assert!(line(status("apps", "Deployment", &fine, 0)).contains("2 old replicas"));
    }

    #[test]
    fn names_are_quoted_as_go_quotes_them() {
        assert_eq!(quote("web"), "\"web\"");
        assert_eq!(quote("a\"b\\c\u{1b}"), "\"a\\\"b\\\\c\\x1b\"");
        // Go's %q: \a for BEL, format characters and U+00AD escaped (not printable for Go).
        let name = "web\u{7}\u{202e}\u{200b}\u{ad}\u{2028}";
        let done = json!({"metadata": {"name": name, "generation": 1}, "spec": {"replicas": 1},
            "status": {"observedGeneration": 1, "replicas": 1, "updatedReplicas": 1, "availableReplicas": 1}});
        assert_eq!(
            line(status("apps", "Deployment", &done, 0)),
            "done: deployment \"web\\a\\u202e\\u200b\\u00ad\\u2028\" successfully rolled out\n"
        );
    }
}
