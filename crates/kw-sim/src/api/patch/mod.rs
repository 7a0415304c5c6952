//! The three patch formats kubectl sends, applied to an object as kube-apiserver applies them:
//! JSON Patch (RFC 6902, `kubectl rollout undo`), JSON Merge Patch (RFC 7386, `kubectl scale`
//! on `/scale`, `kubectl patch --type merge`) and the strategic merge patch (`kubectl apply`,
//! `set image`, `rollout restart`, `label`, `annotate`), which merges lists of named things by
//! their key; and server-side apply, taken as a strategic merge of the applied configuration. Pure functions over JSON: `write` reads the body and stores the result.

mod error;
mod json_patch;
mod merge;
mod strategic;

pub use error::PatchError;

use serde_json::Value;

/// A patch format, from the request's `Content-Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatchKind {
    Json,
    Merge,
    Strategic,
    /// Server-side apply (`kubectl apply --server-side`): the applied configuration merged into
    /// the object (or the object created), as one field manager's apply is.
    Apply,
}

impl PatchKind {
    /// The format a `Content-Type` names (parameters such as `; charset=utf-8` ignored).
    pub fn from_content_type(content_type: &str) -> Option<PatchKind> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        match media.to_ascii_lowercase().as_str() {
            "application/json-patch+json" => Some(PatchKind::Json),
            "application/merge-patch+json" => Some(PatchKind::Merge),
            "application/strategic-merge-patch+json" => Some(PatchKind::Strategic),
            "application/apply-patch+yaml" | "application/apply-patch+json" => {
                Some(PatchKind::Apply)
            }
            _ => None,
        }
    }
}

/// `current` with `patch` applied.
pub fn apply(kind: PatchKind, current: &Value, patch: &Value) -> Result<Value, PatchError> {
    match kind {
        PatchKind::Json => json_patch::apply(current, patch),
        PatchKind::Merge => Ok(merge::apply(current, patch)),
        PatchKind::Strategic => strategic::apply(current, patch),
        // One manager's apply merges what it sets; a field it stops setting is left as it is
        // (the real server's managedFields would remove it: the sim keeps no field owners).
        PatchKind::Apply => {
            let mut applied = patch.clone();
            if let Some(map) = applied.as_object_mut() {
                map.remove("status");
            }
            strategic::apply(current, &applied)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_apply_merges_the_configuration_and_never_the_status() {
        assert_eq!(
            PatchKind::from_content_type("application/apply-patch+yaml"),
            Some(PatchKind::Apply)
        );
        assert_eq!(PatchKind::from_content_type("application/yaml"), None);
        let current = json!({"spec": {"replicas": 2, "template": {"spec": {"containers": [
            {"name": "app", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}]}}},
            "status": {"replicas": 2}});
        let applied = json!({"spec": {"template": {"spec": {"containers": [
            {"name": "app", "image": "nginx:1.28"}]}}}, "status": {"replicas": 9}});
        let merged = apply(PatchKind::Apply, &current, &applied).unwrap();
        assert_eq!(
            merged["spec"]["template"]["spec"]["containers"][0]["image"],
            "nginx:1.28"
        );
        assert_eq!(merged["spec"]["replicas"], 2);
        assert_eq!(merged["status"]["replicas"], 2);
    }
}
