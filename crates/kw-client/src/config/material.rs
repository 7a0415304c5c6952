//! Material: bytes a kubeconfig or a flag points at, either a file or a base64 `*-data` field
//! (CA bundles, client certificates and keys), read with the field or flag that named them so
//! every error can say which.

use std::path::Path;

/// Bytes that could not be had, named by the field or flag that pointed at them.
#[derive(Debug, thiserror::Error)]
pub enum MaterialError {
    #[error("cannot read {origin}: {source}")]
    ReadFile {
        origin: String,
        source: std::io::Error,
    },
    #[error("{origin} is not valid base64")]
    BadBase64 { origin: String },
}

/// A source of bytes: a file, or a base64 field of the kubeconfig.
pub enum Material<'a> {
    File { path: &'a Path, origin: String },
    Base64 { text: &'a str, origin: String },
}

impl<'a> Material<'a> {
    /// The kubeconfig's `FIELD-data` or `FIELD` of `owner` (a cluster or user label). As in
    /// client-go, inline data beats a file reference; an empty data field counts as absent.
    pub fn from_kubeconfig(
        data: Option<&'a str>,
        path: Option<&'a Path>,
        field: &str,
        owner: &str,
    ) -> Option<Material<'a>> {
        match (data.filter(|text| !text.is_empty()), path) {
            (Some(text), _) => Some(Material::Base64 {
                text,
                origin: format!("{field}-data of {owner}"),
            }),
            (None, Some(path)) => Some(Material::File {
                path,
                origin: file_origin(field, path, owner),
            }),
            (None, None) => None,
        }
    }

    /// The file a flag (`--client-key`, …) names.
    pub fn from_flag(path: &'a Path, field: &str, flag: &str) -> Material<'a> {
        Material::File {
            path,
            origin: file_origin(field, path, flag),
        }
    }

    pub fn origin(&self) -> &str {
        match self {
            Material::File { origin, .. } | Material::Base64 { origin, .. } => origin,
        }
    }

    pub fn read(&self) -> Result<Vec<u8>, MaterialError> {
        match self {
            Material::File { path, origin } => {
                std::fs::read(path).map_err(|source| MaterialError::ReadFile {
                    origin: origin.clone(),
                    source,
                })
            }
            Material::Base64 { text, origin } => {
                decode_base64(text).ok_or_else(|| MaterialError::BadBase64 {
                    origin: origin.clone(),
                })
            }
        }
    }
}

/// How messages name a file: by the flag that gave it, or by the field and its owner.
pub fn file_origin(field: &str, path: &Path, owner: &str) -> String {
    if owner.starts_with("--") {
        format!("{owner} file {}", path.display())
    } else {
        format!("{field} file {} of {owner}", path.display())
    }
}

/// Decodes standard base64, tolerating line breaks and spaces (tools wrap long values).
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine as _;
    let compact: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_beats_files_and_errors_name_the_field() {
        let path = Path::new("/nonexistent/ca.crt");
        let data = Material::from_kubeconfig(Some("aGk=\n"), Some(path), "ca", "cluster \"x\"");
        assert_eq!(
            data.as_ref().map(|m| m.read().ok()),
            Some(Some(b"hi".to_vec()))
        );
        let file = Material::from_kubeconfig(Some(""), Some(path), "ca", "cluster \"x\"");
        let error = file.map(|m| m.read()).and_then(|r| r.err());
        assert_eq!(
            error.map(|e| e
                .to_string()
                .starts_with("cannot read ca file /nonexistent/ca.crt of cluster \"x\"")),
            Some(true)
        );
        let bad = Material::from_kubeconfig(Some("!!"), None, "ca", "cluster \"x\"");
        let error = bad.map(|m| m.read()).and_then(|r| r.err());
        assert_eq!(
            error.map(|e| e.to_string()),
            Some("ca-data of cluster \"x\" is not valid base64".to_string())
        );
        assert!(Material::from_kubeconfig(None, None, "ca", "x").is_none());
    }
}
