//! Reading `-o`: the format name, and for the template formats their template (from the flag or
//! from a file). Templates are parsed here, once, so that a bad one is a usage error before any
//! request is made. The wording of errors follows kubectl's.

use std::path::Path;
use std::str::FromStr;

use kw_go::gotemplate::GoTemplate;
use kw_go::jsonpath::{JsonPath, JsonPathError};

/// What `-o` asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum OutputFormat {
    /// The default: server-side printed table.
    #[default]
    Table,
    /// `-o wide`: the table including `priority > 0` columns.
    Wide,
    /// `-o json`: kubectl's indented JSON, byte for byte.
    Json,
    /// `-o jsonl`: one compact object per line (kw's own format).
    Jsonl,
    /// `-o name`: `pod/nginx`.
    Name,
    /// `-o yaml`: kubectl's YAML, byte for byte.
    Yaml,
    /// `-o kyaml`: kubectl's KYAML (1.35+), byte for byte.
    Kyaml,
    /// `-o jsonpath=TEMPLATE` / `-o jsonpath-file=FILE` / `-o jsonpath-as-json=TEMPLATE`.
    JsonPath {
        template: String,
        path: JsonPath,
        /// `jsonpath-as-json`: each action's results as an indented JSON array.
        as_json: bool,
    },
    /// `-o go-template=TEMPLATE` / `-o template=TEMPLATE` / `-o go-template-file=FILE` /
    /// `--template=TEMPLATE`.
    GoTemplate {
        template: String,
        parsed: GoTemplate,
    },
    /// `-o custom-columns=SPEC` / `-o custom-columns-file=FILE`.
    CustomColumns {
        columns: Vec<Column>,
        from_file: bool,
    },
    /// `kw rollout status`: kubectl's status-viewer line per event (not a `-o` value), pinned
    /// to `revision` when it is not 0.
    RolloutStatus { revision: i64 },
    /// `kw wait`: each object once, when it meets the condition, as kubectl wait says it
    /// (`inner` `None`: `pod/web condition met`; else the `-o` format), named objects in
    /// `order`.
    ConditionMet {
        inner: Option<Box<OutputFormat>>,
        order: Vec<String>,
        /// How many `--for` conditions each object meets in turn, each said once.
        steps: usize,
    },
}

impl OutputFormat {
    /// kubectl's `--allow-missing-template-keys=false`: a jsonpath or go-template that reads a
    /// key an object lacks fails instead of printing nothing (`<no value>` for go-template).
    /// Other formats have no keys to miss.
    pub fn missing_keys_refused(self) -> OutputFormat {
        match self {
            OutputFormat::JsonPath {
                template,
                path,
                as_json,
            } => OutputFormat::JsonPath {
                template,
                path: path.allow_missing_keys(false),
                as_json,
            },
            OutputFormat::GoTemplate { template, parsed } => OutputFormat::GoTemplate {
                template,
                parsed: parsed.missing_keys_refused(true),
            },
            other => other,
        }
    }

    /// Table modes ask the server for `meta.k8s.io/v1` Tables.
    pub fn is_table(&self) -> bool {
        matches!(self, OutputFormat::Table | OutputFormat::Wide)
    }

    /// Formats kubectl prints the whole `List` with (so something even when nothing matched:
    /// `[]`, a header), and then says nothing on stderr.
    pub fn prints_empty_list(&self) -> bool {
        matches!(
            self,
            OutputFormat::Json
                | OutputFormat::Yaml
                | OutputFormat::Kyaml
                | OutputFormat::JsonPath { .. }
                | OutputFormat::GoTemplate { .. }
                | OutputFormat::CustomColumns { .. }
        )
    }
}

impl FromStr for OutputFormat {
    type Err = FormatError;

    /// The value of `-o` (template files it names are read).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_output(s)
    }
}

/// `-o` could not be turned into a printer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("unable to match a printer suitable for the output format \"{0}\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonl,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml")]
    Unknown(String),
    #[error("template format specified but no template given")]
    MissingGoTemplate,
    #[error("error parsing template {template}, {message}")]
    GoTemplateParse { template: String, message: String },
    #[error("error reading --template {path}, {message}")]
    GoTemplateFile { path: String, message: String },
    #[error("{0} format specified but no template given")]
    MissingTemplate(String),
    #[error("error parsing jsonpath {template}, {message}")]
    JsonPath { template: String, message: String },
    #[error("error reading {flag} file {path}: {message}")]
    File {
        flag: String,
        path: String,
        message: String,
    },
    #[error("custom-columns format specified but no custom columns given")]
    NoColumns,
    #[error("unexpected custom-columns spec: {0}, expected <header>:<json-path-expr>")]
    ColumnSpec(String),
    #[error("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{{name1.name2}}' or '{{.name1.name2}}'")]
    ColumnPath,
    #[error("invalid template, missing {0} line. Expected format is one line of space separated headers, one line of space separated column specs.")]
    ColumnsFile(&'static str),
    #[error("number of headers ({0}) and field specifications ({1}) don't match")]
    ColumnsCount(usize, usize),
    #[error("--show-labels option cannot be used with {0} printer")]
    ShowLabels(String),
    /// kubectl 1.37 (not 1.32, which printed the custom columns alone).
    #[error("--label-columns option cannot be used with {0} printer")]
    LabelColumns(String),
}

/// kubectl's checks of `--show-labels` and `-L` against `-o` (only tables have a LABELS
/// column; custom columns have no room for label columns), in kubectl's order.
pub fn check_label_flags(
    output: &str,
    show_labels: bool,
    label_columns: &[String],
) -> Result<(), FormatError> {
    if show_labels && !output.is_empty() && output != "wide" {
        return Err(FormatError::ShowLabels(output.to_string()));
    }
    if !label_columns.is_empty() && output.starts_with("custom-columns") {
        return Err(FormatError::LabelColumns(output.to_string()));
    }
    Ok(())
}

/// One column of `-o custom-columns`.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub header: String,
    /// The column's path as written, made into a template (`{.metadata.name}`).
    pub template: String,
    pub path: JsonPath,
}

/// What `-o` says before any file is read: a format, or a template file still to be read.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputSpec {
    Format(OutputFormat),
    File(TemplateFile),
}

/// A template file `-o` names (`jsonpath-file=`, `custom-columns-file=`), not read yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// The format that names it: `jsonpath-file` or `custom-columns-file`.
    flag: &'static str,
    path: String,
}

impl TemplateFile {
    /// The file's path, for the caller to read.
    pub fn path(&self) -> &Path {
        Path::new(&self.path)
    }

    /// The template in what reading the file gave, or the error `-o` words for the read.
    pub fn parse(&self, read: std::io::Result<String>) -> Result<OutputFormat, FormatError> {
        if self.flag == "go-template-file" {
            // kubectl words Go's error: `open PATH: no such file or directory`.
            let text = read.map_err(|e| FormatError::GoTemplateFile {
                path: self.path.clone(),
                message: go_open_error(&self.path, &e),
            })?;
            return go_template(&text);
        }
        let text = read.map_err(|e| FormatError::File {
            flag: self.flag.to_string(),
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        match self.flag {
            "custom-columns-file" => columns_from_file(&text),
            "go-template-file" => go_template(&text),
            _ => jsonpath(&text, false),
        }
    }

    /// Read the file and parse the template it holds.
    pub fn read(&self) -> Result<OutputFormat, FormatError> {
        self.parse(std::fs::read_to_string(self.path()))
    }
}

/// Read the value of `-o` (reading template files it names).
pub fn parse_output(value: &str) -> Result<OutputFormat, FormatError> {
    match parse_output_spec(value)? {
        OutputSpec::Format(format) => Ok(format),
        OutputSpec::File(file) => file.read(),
    }
}

/// Read the value of `-o` without reading any file: a template file is named, not read.
pub fn parse_output_spec(value: &str) -> Result<OutputSpec, FormatError> {
    let (name, argument) = match value.split_once('=') {
        Some((name, argument)) => (name, Some(argument)),
        None => (value, None),
    };
    let format = match name {
        "" => OutputFormat::Table,
        "wide" => OutputFormat::Wide,
        "json" => OutputFormat::Json,
        "jsonl" => OutputFormat::Jsonl,
        "name" => OutputFormat::Name,
        "yaml" => OutputFormat::Yaml,
        "kyaml" => OutputFormat::Kyaml,
        _ => return parse_template_output(value, name, argument),
    };
    Ok(OutputSpec::Format(format))
}

fn parse_template_output(
    value: &str,
    name: &str,
    argument: Option<&str>,
) -> Result<OutputSpec, FormatError> {
    let file = |flag: &'static str, path: &str| {
        Ok(OutputSpec::File(TemplateFile {
            flag,
            path: path.to_string(),
        }))
    };
    match (name, argument) {
        ("go-template" | "template", Some(template)) if !template.is_empty() => {
            go_template(template).map(OutputSpec::Format)
        }
        ("go-template-file" | "templatefile", Some(path)) if !path.is_empty() => {
            file("go-template-file", path)
        }
        ("go-template" | "go-template-file" | "template" | "templatefile", _) => {
            Err(FormatError::MissingGoTemplate)
        }
        ("jsonpath", Some(template)) if !template.is_empty() => {
            jsonpath(template, false).map(OutputSpec::Format)
        }
        ("jsonpath-as-json", Some(template)) if !template.is_empty() => {
            jsonpath(template, true).map(OutputSpec::Format)
        }
        ("jsonpath-file", Some(path)) if !path.is_empty() => file("jsonpath-file", path),
        ("custom-columns", Some(spec)) => columns_from_spec(spec).map(OutputSpec::Format),
        ("custom-columns-file", Some(path)) if !path.is_empty() => {
            file("custom-columns-file", path)
        }
        ("jsonpath" | "jsonpath-as-json" | "jsonpath-file" | "custom-columns-file", _) => {
            Err(FormatError::MissingTemplate(name.to_string()))
        }
        ("custom-columns", None) => Err(FormatError::NoColumns),
        _ => Err(FormatError::Unknown(value.to_string())),
    }
}

fn jsonpath(template: &str, as_json: bool) -> Result<OutputFormat, FormatError> {
    let path = parse_template(template)?;
    Ok(OutputFormat::JsonPath {
        template: template.to_string(),
        path,
        as_json,
    })
}

/// `-o go-template=TEMPLATE` (and `--template`): parsed now, so a bad one fails before any
/// request.
pub fn go_template(template: &str) -> Result<OutputFormat, FormatError> {
    let parsed = GoTemplate::parse(template).map_err(|e| FormatError::GoTemplateParse {
        template: template.to_string(),
        message: e.0,
    })?;
    Ok(OutputFormat::GoTemplate {
        template: template.to_string(),
        parsed,
    })
}

/// The output format `--template=TEMPLATE` means, as kubectl reads it: `-o go-template=T`
/// when `-o` names no format, the template of a template format `-o` names without one
/// (`-o jsonpath --template=T`), and an unknown format when `-o` already has a template.
pub fn with_template_flag(output: &str, template: Option<&str>) -> Result<String, FormatError> {
    const TEMPLATE_FORMATS: [&str; 7] = [
        "go-template",
        "template",
        "go-template-file",
        "templatefile",
        "jsonpath",
        "jsonpath-file",
        "jsonpath-as-json",
    ];
    let Some(template) = template.filter(|t| !t.is_empty()) else {
        return Ok(output.to_string());
    };
    if output.is_empty() {
        return Ok(format!("go-template={template}"));
    }
    if TEMPLATE_FORMATS.contains(&output) {
        return Ok(format!("{output}={template}"));
    }
    let name = output.split_once('=').map_or(output, |(name, _)| name);
    if output.contains('=') && TEMPLATE_FORMATS.contains(&name) {
        return Err(FormatError::Unknown(output.to_string()));
    }
    Ok(output.to_string())
}

/// Go's `os.Open` error text for an `io::Error`.
fn go_open_error(path: &str, error: &std::io::Error) -> String {
    let reason = match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::IsADirectory => return format!("read {path}: is a directory"),
        _ => error.to_string(),
    };
    format!("open {path}: {reason}")
}

fn parse_template(template: &str) -> Result<JsonPath, FormatError> {
    JsonPath::parse(template)
        .map(|path| path.allow_missing_keys(true))
        .map_err(|e| FormatError::JsonPath {
            template: template.to_string(),
            message: match e {
                JsonPathError::Parse(m) | JsonPathError::Execute(m) => m,
            },
        })
}

fn columns_from_spec(spec: &str) -> Result<OutputFormat, FormatError> {
    if spec.is_empty() {
        return Err(FormatError::NoColumns);
    }
    let mut columns = Vec::new();
    for part in spec.split(',') {
        let Some((header, path)) = part.split_once(':') else {
            return Err(FormatError::ColumnSpec(part.to_string()));
        };
        columns.push(column(header, path)?);
    }
    Ok(OutputFormat::CustomColumns {
        columns,
        from_file: false,
    })
}

fn columns_from_file(text: &str) -> Result<OutputFormat, FormatError> {
    let mut lines = text.lines();
    let headers: Vec<&str> = lines
        .next()
        .ok_or(FormatError::ColumnsFile("header"))?
        .split_whitespace()
        .collect();
    let paths: Vec<&str> = lines
        .next()
        .ok_or(FormatError::ColumnsFile("spec"))?
        .split_whitespace()
        .collect();
    if headers.len() != paths.len() {
        return Err(FormatError::ColumnsCount(headers.len(), paths.len()));
    }
    let columns = headers
        .iter()
        .zip(&paths)
        .map(|(header, path)| column(header, path))
        .collect::<Result<_, _>>()?;
    Ok(OutputFormat::CustomColumns {
        columns,
        from_file: true,
    })
}

fn column(header: &str, path: &str) -> Result<Column, FormatError> {
    let template = relaxed_jsonpath(path)?;
    let parsed = parse_template(&template)?;
    Ok(Column {
        header: header.to_string(),
        template,
        path: parsed,
    })
}

/// kubectl's `RelaxedJSONPathExpression` (see `kw_go::jsonpath::relaxed`).
pub fn relaxed_jsonpath(path: &str) -> Result<String, FormatError> {
    kw_go::jsonpath::relaxed(path).ok_or(FormatError::ColumnPath)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_templates() {
        assert_eq!(parse_output("").unwrap(), OutputFormat::Table);
        assert_eq!(parse_output("yaml").unwrap(), OutputFormat::Yaml);
        assert!(matches!(
            parse_output("jsonpath={.a}").unwrap(),
            OutputFormat::JsonPath { template, .. } if template == "{.a}"
        ));
        assert!(matches!(
            parse_output("go-template={{.a}}").unwrap(),
            OutputFormat::GoTemplate { template, .. } if template == "{{.a}}"
        ));
        assert_eq!(
            parse_output("go-template={{.a"),
            Err(FormatError::GoTemplateParse {
                template: "{{.a".into(),
                message: "template: output:1: unclosed action".into()
            })
        );
        assert_eq!(
            parse_output("template="),
            Err(FormatError::MissingGoTemplate)
        );
        assert_eq!(
            parse_output("go-template-file=/nonexistent/kw").unwrap_err().to_string(),
            "error reading --template /nonexistent/kw, open /nonexistent/kw: no such file or directory"
        );
        let flag = |output: &str| with_template_flag(output, Some("{.a}"));
        assert_eq!(flag(""), Ok("go-template={.a}".into()));
        assert_eq!(flag("jsonpath"), Ok("jsonpath={.a}".into()));
        assert_eq!(flag("json"), Ok("json".into()));
        assert_eq!(
            flag("go-template={{.b}}"),
            Err(FormatError::Unknown("go-template={{.b}}".into()))
        );
        assert!(matches!(parse_output("xml"), Err(FormatError::Unknown(_))));
        assert!(matches!(
            parse_output("jsonpath={.a["),
            Err(FormatError::JsonPath { .. })
        ));
        assert!(matches!(
            parse_output("jsonpath-file=/nonexistent/kw"),
            Err(FormatError::File { .. })
        ));
    }

    #[test]
    fn custom_columns_spec() {
        let OutputFormat::CustomColumns { columns, .. } =
            parse_output("custom-columns=NAME:.metadata.name,RV:{.metadata.resourceVersion},X:a.b")
                .unwrap()
        else {
            panic!("not columns");
        };
        let templates: Vec<&str> = columns.iter().map(|c| c.template.as_str()).collect();
        assert_eq!(
            templates,
            ["{.metadata.name}", "{.metadata.resourceVersion}", "{.a.b}"]
        );
        assert_eq!(
            parse_output("custom-columns=NAME"),
            Err(FormatError::ColumnSpec("NAME".into()))
        );
        assert_eq!(parse_output("custom-columns="), Err(FormatError::NoColumns));
    }

    #[test]
    fn custom_columns_file() {
        let OutputFormat::CustomColumns { columns, from_file } =
            columns_from_file("NAME   PHASE\n.metadata.name  .status.phase\n").unwrap()
        else {
            panic!("not columns");
        };
        assert!(from_file);
        assert_eq!(columns[1].header, "PHASE");
        assert_eq!(
            columns_from_file("A B\n.a\n"),
            Err(FormatError::ColumnsCount(2, 1))
        );
        assert_eq!(
            columns_from_file(""),
            Err(FormatError::ColumnsFile("header"))
        );
    }
}
