//! Manifests for `kw get -f FILE` / `-f -`: the objects a YAML or JSON file names (several
//! documents, `kind: List` items), as (type, namespace, name) targets. Only `apiVersion`, `kind`
//! and `metadata.name/namespace` are read; the rest of each document is skipped unparsed.
//! Turning a kind into a resource type is discovery's job, not this module's.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use kw_client::config::settings::{check_name, check_namespace};
use kw_events::events::kind_prefix;

#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("-f {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("-f {path}: not valid YAML or JSON: {reason}")]
    Parse { path: PathBuf, reason: String },
    #[error("-f {path}: document {index} has no {field}")]
    Missing {
        path: PathBuf,
        index: usize,
        field: &'static str,
    },
    /// kubectl wait's words for a manifest object without a name.
    #[error("resource name must be provided")]
    NameRequired,
    #[error("-f {path}: names no objects")]
    Empty { path: PathBuf },
    /// A name or namespace that would change the request's path (`..`, `a/b`), refused before
    /// any request, as kubectl refuses it.
    #[error(transparent)]
    InvalidSegment(#[from] kw_client::config::settings::PathSegmentError),
    /// kubectl's words for a directory with no manifest in it.
    #[error("error reading [{path}]: recognized file extensions are [.json .yaml .yml]")]
    NoManifestFiles { path: PathBuf },
}

impl ManifestError {
    /// This error as kubectl wait words it.
    pub fn in_kubectl_wait_words(self) -> ManifestError {
        match self {
            ManifestError::Missing {
                field: "metadata.name",
                ..
            } => ManifestError::NameRequired,
            other => other,
        }
    }
}

/// The extensions of the files kubectl reads in a directory given to `-f`.
pub(crate) const MANIFEST_EXTENSIONS: [&str; 3] = ["json", "yaml", "yml"];

/// One object a manifest names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestObject {
    /// `v1`, `apps/v1`.
    pub api_version: String,
    /// `Deployment`.
    pub kind: String,
    /// `None` when the document does not say (the default namespace applies).
    pub namespace: Option<String>,
    pub name: String,
    /// The file it was read from (`-`: stdin).
    pub path: PathBuf,
    /// The line its document starts on in its file (1-based; a `List`'s items share the
    /// list's), when known: a CI's annotation points there (`file=…,line=…`).
    pub line: Option<usize>,
}

impl ManifestObject {
    /// What discovery understands: `deployment.v1.apps` (kind, version, group), or the bare kind
    /// for the core group (`pod`).
    pub fn type_query(&self) -> String {
        match self.api_version.split_once('/') {
            Some((group, version)) => kind_prefix(&self.kind, &format!("{version}.{group}")),
            None => kind_prefix(&self.kind, ""),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Document {
    #[serde(rename = "apiVersion")]
    api_version: Option<String>,
    kind: Option<String>,
    metadata: Metadata,
    items: Vec<Document>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Metadata {
    name: Option<String>,
    namespace: Option<String>,
}

/// The objects `text` names; `path` is only for messages.
pub fn parse(path: &Path, text: &str) -> Result<Vec<ManifestObject>, ManifestError> {
    let parse_error = |reason: String| ManifestError::Parse {
        path: path.to_path_buf(),
        reason,
    };
    let (documents, mut lines): (Vec<Document>, Vec<usize>) =
        if text.trim_start().starts_with(['{', '[']) {
            // JSON (one object or several one after another); YAML parsers choke on tabs in
            // JSON.
            let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Document>();
            let (mut documents, mut lines) = (Vec::new(), Vec::new());
            loop {
                let at = stream.byte_offset();
                let Some(document) = stream.next() else { break };
                documents.push(document.map_err(|e| parse_error(e.to_string()))?);
                let start = at + (text[at..].len() - text[at..].trim_start().len());
                lines.push(text[..start].matches('\n').count() + 1);
            }
            (documents, lines)
        } else {
            let documents: Vec<Document> =
                serde_saphyr::from_multiple(text).map_err(|e| parse_error(e.to_string()))?;
            (documents, yaml_document_lines(text))
        };
    // Lines that do not match the documents one for one are not told at all: no annotation
    // may point at the wrong object.
    if lines.len() != documents.len() {
        lines.clear();
    }
    let mut objects = Vec::new();
    for (index, document) in documents.into_iter().enumerate() {
        let first = objects.len();
        flatten(path, index + 1, document, &mut objects)?;
        for object in &mut objects[first..] {
            object.line = lines.get(index).copied();
        }
    }
    if objects.is_empty() {
        return Err(ManifestError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(objects)
}

/// The line each YAML document of `text` starts on (its first line that is neither blank nor a
/// comment), skipping documents with nothing in them, as the parser skips them.
fn yaml_document_lines(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut start = None;
    for (at, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        let separator = line == "---" || line.starts_with("--- ") || line.starts_with("---\t");
        if separator {
            starts.extend(start.take());
            // `--- {a: 1}`: the document starts on its separator's line.
            if !line[3..].trim().is_empty() && !line[3..].trim().starts_with('#') {
                start = Some(at + 1);
            }
            continue;
        }
        if start.is_none() && !trimmed.is_empty() && !trimmed.starts_with('#') && trimmed != "..." {
            start = Some(at + 1);
        }
    }
    starts.extend(start);
    starts
}

fn flatten(
    path: &Path,
    index: usize,
    document: Document,
    out: &mut Vec<ManifestObject>,
) -> Result<(), ManifestError> {
    let missing = |field| ManifestError::Missing {
        path: path.to_path_buf(),
        index,
        field,
    };
    let is_list = document
        .kind
        .as_deref()
        .is_some_and(|k| k.ends_with("List"));
    if is_list || (document.kind.is_none() && !document.items.is_empty()) {
        for item in document.items {
            flatten(path, index, item, out)?;
        }
        return Ok(());
    }
    let object = ManifestObject {
        api_version: document
            .api_version
            .filter(|v| !v.is_empty())
            .ok_or_else(|| missing("apiVersion"))?,
        kind: document
            .kind
            .filter(|k| !k.is_empty())
            .ok_or_else(|| missing("kind"))?,
        namespace: document.metadata.namespace.filter(|n| !n.is_empty()),
        name: document
            .metadata
            .name
            .filter(|n| !n.is_empty())
            .ok_or_else(|| missing("metadata.name"))?,
        path: path.to_path_buf(),
        line: None,
    };
    check_name(&object.name)?;
    if let Some(namespace) = &object.namespace {
        check_namespace(namespace)?;
    }
    out.push(object);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(objects: &[ManifestObject]) -> Vec<(String, Option<String>, String)> {
        objects
            .iter()
            .map(|o| (o.type_query(), o.namespace.clone(), o.name.clone()))
            .collect()
    }

    #[test]
    fn each_object_knows_the_line_its_document_starts_on() {
        let yaml = "# header\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\n# only a comment\n---\n\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n- {apiVersion: v1, kind: Pod, metadata: {name: c}}\n";
        let lines: Vec<_> = parse(Path::new("m.yaml"), yaml)
            .unwrap()
            .into_iter()
            .map(|o| (o.name, o.line))
            .collect();
        assert_eq!(
            lines,
            [
                ("a".into(), Some(3)),
                ("b".into(), Some(10)),
                ("c".into(), Some(10))
            ]
        );
        let json = "\n  {\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"a\"}}\n\n{\"apiVersion\":\"v1\",\n\"kind\":\"Pod\",\"metadata\":{\"name\":\"b\"}}";
        let lines: Vec<_> = parse(Path::new("m.json"), json)
            .unwrap()
            .into_iter()
            .map(|o| o.line)
            .collect();
        assert_eq!(lines, [Some(2), Some(4)]);
    }

    #[test]
    fn reads_multi_document_yaml() {
        let text = "\
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers: [{name: c, image: nginx}]
---
# a comment-only document in between
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: prod}
spec:
  template: &t {metadata: {labels: {a: b}}}
";
        let objects = parse(Path::new("m.yaml"), text).unwrap();
        assert_eq!(
            names(&objects),
            vec![
                ("pod".into(), None, "web".into()),
                (
                    "deployment.v1.apps".into(),
                    Some("prod".into()),
                    "api".into()
                ),
            ]
        );
    }

    #[test]
    fn reads_json_and_lists() {
        let text = r#"{"apiVersion":"v1","kind":"List","items":[
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}},
            {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"x"}}]}
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"b"}}"#;
        let objects = parse(Path::new("m.json"), text).unwrap();
        assert_eq!(
            names(&objects),
            vec![
                ("pod".into(), None, "a".into()),
                ("widget.v1.example.com".into(), Some("x".into()), "w".into()),
                ("pod".into(), None, "b".into()),
            ]
        );
    }

    #[test]
    fn errors_name_the_file_and_the_document() {
        let err = parse(
            Path::new("m.yaml"),
            "apiVersion: v1\nkind: Pod\n---\nkind: Pod\n",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(err, "-f m.yaml: document 1 has no metadata.name");
        let err = parse(Path::new("m.yaml"), "a: [").unwrap_err().to_string();
        assert!(
            err.starts_with("-f m.yaml: not valid YAML or JSON"),
            "{err}"
        );
        let err = parse(Path::new("m.yaml"), "").unwrap_err().to_string();
        assert_eq!(err, "-f m.yaml: names no objects");
    }

    /// A manifest's name or namespace that would change the request's path is refused before
    /// any request, in client-go's words (issue #45, item 11: `/namespaces/../pods/web` was
    /// sent).
    #[test]
    fn names_and_namespaces_that_are_no_path_segment_are_refused() {
        let path = Path::new("m.yaml");
        let pod = |name: &str, namespace: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"{name}\"\n  namespace: \"{namespace}\"\n")
        };
        let refused = |text: String| parse(path, &text).map(|_| ()).unwrap_err().to_string();
        assert_eq!(
            refused(pod("..", "default")),
            "invalid resource name \"..\": [may not be '..']"
        );
        assert_eq!(
            refused(pod("web", "..")),
            "invalid namespace \"..\": [may not be '..']"
        );
        assert_eq!(
            refused(pod("a/b", "default")),
            "invalid resource name \"a/b\": [may not contain '/']"
        );
        assert!(parse(path, &pod("web.1", "default")).is_ok());
    }
}
