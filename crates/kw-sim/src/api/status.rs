//! The Status objects the server answers with, each built in one place: 400, 404, 406, 410,
//! 422, 504 and the injected faults. A leaf: handlers and the stream writer call it.

use kw_wire::{Status, StatusCause, StatusDetails};

use crate::world::catalog::ResourceInfo;

/// The 404 for paths the server does not serve.
pub fn not_found_path() -> Status {
    let mut status = Status::failure(
        404,
        "NotFound",
        "the server could not find the requested resource",
    );
    status.details = Some(StatusDetails::default());
    status
}

/// The 406 for an `Accept` the server cannot serve.
pub fn not_acceptable() -> Status {
    Status::failure(
        406,
        "NotAcceptable",
        "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
    )
}

/// A 400 BadRequest Status.
pub fn bad_request(message: impl Into<String>) -> Status {
    Status::failure(400, "BadRequest", message)
}

/// A 410 Expired Status.
pub fn expired(message: impl Into<String>) -> Status {
    Status::failure(410, "Expired", message)
}

/// The 422 for invalid list options: `(field, detail)` pairs, worded like the real validation.
pub fn invalid_options(errors: &[(&str, &str)]) -> Status {
    let rendered: Vec<String> = errors
        .iter()
        .map(|(field, detail)| format!("{field}: Forbidden: {detail}"))
        .collect();
    let joined = if rendered.len() == 1 {
        rendered[0].clone()
    } else {
        format!("[{}]", rendered.join(", "))
    };
    let mut status = Status::failure(
        422,
        "Invalid",
        format!("ListOptions.meta.k8s.io \"\" is invalid: {joined}"),
    );
    status.details = Some(StatusDetails {
        group: "meta.k8s.io".into(),
        kind: "ListOptions".into(),
        causes: errors
            .iter()
            .map(|(field, detail)| StatusCause {
                cause_type: "FieldValueForbidden".into(),
                message: format!("Forbidden: {detail}"),
                field: (*field).into(),
            })
            .collect(),
        ..StatusDetails::default()
    });
    status
}

/// The 504 a server sends for a resourceVersion newer than it has.
pub fn too_large(requested: u64, current: u64) -> Status {
    let mut status = Status::failure(
        504,
        "Timeout",
        format!("Too large resource version: {requested}, current: {current}"),
    );
    status.details = Some(StatusDetails {
        causes: vec![StatusCause {
            cause_type: "ResourceVersionTooLarge".into(),
            message: "Too large resource version".into(),
            field: String::new(),
        }],
        retry_after_seconds: Some(1),
        ..StatusDetails::default()
    });
    status
}

/// The Status for an injected list fault.
pub fn list_fault_status(code: u16) -> Status {
    let (reason, message) = match code {
        429 => (
            "TooManyRequests",
            "Too many requests, please try again later.",
        ),
        500 => (
            "InternalError",
            "Internal error occurred: injected by kw sim",
        ),
        503 => (
            "ServiceUnavailable",
            "The server is currently unable to handle the request",
        ),
        504 => (
            "Timeout",
            "The server was unable to return a response in the time allotted",
        ),
        410 => ("Expired", "too old resource version"),
        403 => ("Forbidden", "forbidden: injected by kw sim"),
        401 => ("Unauthorized", "Unauthorized"),
        _ => ("", "injected by kw sim"),
    };
    let mut status = Status::failure(code, reason, message);
    if code == 429 {
        status.details = Some(StatusDetails {
            retry_after_seconds: Some(1),
            ..StatusDetails::default()
        });
    }
    status
}

/// The in-stream 410 for a resourceVersion older than the history window.
pub fn expired_status(requested: u64, oldest: u64) -> Status {
    Status::failure(
        410,
        "Expired",
        format!("too old resource version: {requested} ({oldest})"),
    )
}

/// The Status of a WATCH the faults refuse (`watch_status`).
pub fn refused_status(code: u16) -> Status {
    if code == 410 {
        return Status::failure(410, "Expired", "too old resource version");
    }
    list_fault_status(code)
}

/// `deployments.apps`, `pods`: how the server names a resource in its messages.
pub fn qualified(info: &ResourceInfo) -> String {
    if info.group.is_empty() {
        info.plural.to_string()
    } else {
        format!("{}.{}", info.plural, info.group)
    }
}

fn details(info: &ResourceInfo, name: &str) -> StatusDetails {
    StatusDetails {
        name: name.into(),
        group: info.group.into(),
        kind: info.plural.into(),
        ..StatusDetails::default()
    }
}

/// The 404 for an object that does not exist.
pub fn not_found(info: &ResourceInfo, name: &str) -> Status {
    let message = format!("{} \"{name}\" not found", qualified(info));
    let mut status = Status::failure(404, "NotFound", message);
    status.details = Some(details(info, name));
    status
}

/// The 409 for a create of a name already taken.
pub fn already_exists(info: &ResourceInfo, name: &str) -> Status {
    let message = format!("{} \"{name}\" already exists", qualified(info));
    let mut status = Status::failure(409, "AlreadyExists", message);
    status.details = Some(details(info, name));
    status
}

/// The 409 for a write whose resourceVersion precondition no longer holds.
pub fn conflict(info: &ResourceInfo, name: &str) -> Status {
    let message = format!(
        "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
        qualified(info)
    );
    let mut status = Status::failure(409, "Conflict", message);
    status.details = Some(details(info, name));
    status
}

/// The 422 for an object that fails validation at `field`.
pub fn invalid(info: &ResourceInfo, name: &str, field: &str, detail: &str) -> Status {
    let message = format!(
        "{}.{} \"{name}\" is invalid: {field}: {detail}",
        info.kind,
        if info.group.is_empty() {
            ""
        } else {
            info.group
        }
    )
    .replace(". \"", " \"");
    let mut status = Status::failure(422, "Invalid", message);
    let mut details = details(info, name);
    details.kind = info.kind.into();
    details.causes = vec![StatusCause {
        cause_type: "FieldValueInvalid".into(),
        message: detail.into(),
        field: field.into(),
    }];
    status.details = Some(details);
    status
}

/// The 415 for a PATCH in a format the server does not take.
pub fn unsupported_patch(content_type: &str) -> Status {
    Status::failure(
        415,
        "UnsupportedMediaType",
        format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json (got {content_type:?})"),
    )
}
