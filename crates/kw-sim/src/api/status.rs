//! The Status objects the server answers with, each built in one place: 400, 404, 406, 410,
//! 422, 504 and the injected faults. A leaf: handlers and the stream writer call it.

use kw_wire::{Status, StatusCause, StatusDetails};

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

/// The parsed path.
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
