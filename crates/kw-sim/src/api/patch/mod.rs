//! The three patch formats kubectl sends, applied to an object as kube-apiserver applies them:
//! JSON Patch (RFC 6902, `kubectl rollout undo`), JSON Merge Patch (RFC 7386, `kubectl scale`
//! on `/scale`, `kubectl patch --type merge`) and the strategic merge patch (`kubectl apply`,
//! `set image`, `rollout restart`, `label`, `annotate`), which merges lists of named things by
//! their key. Pure functions over JSON: `write` reads the body and stores the result.

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
}

impl PatchKind {
    /// The format a `Content-Type` names (parameters such as `; charset=utf-8` ignored).
    pub fn from_content_type(content_type: &str) -> Option<PatchKind> {
        let media = content_type.split(';').next().unwrap_or("").trim();
        match media.to_ascii_lowercase().as_str() {
            "application/json-patch+json" => Some(PatchKind::Json),
            "application/merge-patch+json" => Some(PatchKind::Merge),
            "application/strategic-merge-patch+json" => Some(PatchKind::Strategic),
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
    }
}
