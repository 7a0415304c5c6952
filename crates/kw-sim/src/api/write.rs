//! Writes, as kube-apiserver takes them from kubectl: POST (`create`, `apply` of a new object),
//! PUT (`replace`), PATCH in the three formats (`apply`, `set image`, `scale`, `rollout undo`,
//! `rollout restart`, `label`), each also on the `/scale` subresource, with `?dryRun=All`.
//! What a write changes is told to the controllers (`crate::world::controllers`), which act
//! the rest out as kube-controller-manager and the kubelet would.
//!
//! The server's rules kept here: the name and namespace of the body must be the URL's; a
//! `resourceVersion` in the body is a precondition (409 Conflict when stale); `status` is the
//! controllers' (a client's write keeps the stored one); `metadata.generation` starts at 1 and
//! counts changes of `spec`.

use serde_json::{json, Value};

use super::defaults;
use super::names;
use super::patch::{self, PatchError, PatchKind};
use super::reply::Reply;
use super::shape;
use super::shared::Shared;
use super::status::{already_exists, bad_request, conflict, invalid, not_found, unsupported_patch};
use crate::error::SimError;
use crate::http::Request;
use crate::world::catalog::ResourceInfo;
use kw_wire::Status;

/// The object a write is about.
pub struct Target<'a> {
    pub info: &'static ResourceInfo,
    pub namespace: Option<&'a str>,
}

impl Target<'_> {
    fn namespace(&self) -> &str {
        self.namespace.unwrap_or("")
    }
}

/// POST to a collection: a new object.
pub fn create(shared: &Shared, target: &Target<'_>, request: &Request) -> Reply {
    match body(request) {
        Ok(object) => create_object(shared, target, object, dry_run(request)),
        Err(status) => Reply::status(status),
    }
}

fn create_object(shared: &Shared, target: &Target<'_>, mut object: Value, dry: bool) -> Reply {
    let info = target.info;
    if let Err(status) = check_kind(info, &object).and_then(|()| check_shape(info, &object)) {
        return Reply::status(status);
    }
    let metadata = &mut object["metadata"];
    if !metadata.is_object() {
        *metadata = json!({});
    }
    if metadata["name"].as_str().is_none_or(str::is_empty) {
        match metadata["generateName"].as_str() {
            Some(prefix) if !prefix.is_empty() => {
                let suffix = crate::world::objects::safe_suffix(
                    shared.store.seed(),
                    &format!("{prefix}{}", shared.store.current_resource_version()),
                    5,
                );
                metadata["name"] = json!(format!("{prefix}{suffix}"));
            }
            _ => {
                return Reply::status(invalid(
                    info,
                    "",
                    "metadata.name",
                    "Required value: name or generateName is required",
                ))
            }
        }
    }
    let name = object["metadata"]["name"]
        .as_str()
        .unwrap_or("")
        .to_string();
    if let Some(why) = names::new_name_errors(info.kind, &name).first() {
        return Reply::status(invalid(
            info,
            &name,
            "metadata.name",
            &format!("Invalid value: {name:?}: {why}"),
        ));
    }
    if let Err(status) = check_namespace(target, &mut object) {
        return Reply::status(status);
    }
    // The controllers write status; what a client sends is dropped, as for every resource
    // with a status subresource.
    if info.subresources.iter().any(|(sub, _)| *sub == "status") {
        object["status"] = json!({});
    }
    if object.get("spec").is_some() {
        object["metadata"]["generation"] = json!(1);
    }
    // The uid is chosen here, before the store sees the object, because a Job's defaults
    // (its selector) name it.
    if object["metadata"]["uid"].as_str().is_none_or(str::is_empty) {
        let key = format!(
            "{}/{}/{name}/{}",
            info.plural,
            target.namespace(),
            shared.store.current_resource_version()
        );
        object["metadata"]["uid"] = json!(crate::world::objects::uid(shared.store.seed(), &key));
    }
    let uid = object["metadata"]["uid"].as_str().unwrap_or("").to_string();
    defaults::apply(info.plural, &mut object, &uid);
    if dry {
        return Reply::json(201, &object);
    }
    match shared.store.create(info.plural, object) {
        Ok(stored) => {
            shared
                .controllers
                .written(info.plural, target.namespace(), &name);
            Reply::json(201, &stored)
        }
        Err(SimError::AlreadyExists { .. }) => Reply::status(already_exists(info, &name)),
        Err(error) => Reply::status(bad_request(error.to_string())),
    }
}

/// PUT to an object: the whole object replaced.
pub fn replace(shared: &Shared, target: &Target<'_>, name: &str, request: &Request) -> Reply {
    let mut object = match body(request) {
        Ok(object) => object,
        Err(status) => return Reply::status(status),
    };
    if let Err(status) =
        check_kind(target.info, &object).and_then(|()| check_shape(target.info, &object))
    {
        return Reply::status(status);
    }
    if let Err(status) = check_name(target.info, name, &object) {
        return Reply::status(status);
    }
    if let Err(status) = check_namespace(target, &mut object) {
        return Reply::status(status);
    }
    let info = target.info;
    store_change(shared, target, name, request, move |current| {
        let uid = current["metadata"]["uid"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let mut object = object.clone();
        defaults::apply(info.plural, &mut object, &uid);
        Ok(object)
    })
}

/// PATCH to an object.
pub fn patch(shared: &Shared, target: &Target<'_>, name: &str, request: &Request) -> Reply {
    let content_type = request.header("content-type").unwrap_or("");
    let Some(kind) = PatchKind::from_content_type(content_type) else {
        return Reply::status(unsupported_patch(content_type));
    };
    let patch = match body(request) {
        Ok(patch) => patch,
        Err(status) => return Reply::status(status),
    };
    let info = target.info;
    if kind == PatchKind::Apply {
        let (_, map) = shared.store.snapshot(info.plural);
        let key = (target.namespace().to_string(), name.to_string());
        if !map.contains_key(&key) {
            // Server-side apply of an object that does not exist creates it.
            if let Err(status) = check_name(info, name, &patch) {
                return Reply::status(status);
            }
            return create_object(shared, target, patch, dry_run(request));
        }
    }
    store_change(shared, target, name, request, |current| {
        let patched = patch::apply(kind, current, &patch).map_err(patch_status)?;
        check_name(info, name, &patched)?;
        check_patched_shape(info, &patched)?;
        Ok(patched)
    })
}

/// GET, PUT or PATCH of `/scale`: the object's replicas seen as an `autoscaling/v1` Scale.
pub fn scale(shared: &Shared, target: &Target<'_>, name: &str, request: &Request) -> Reply {
    let (_, map) = shared.store.snapshot(target.info.plural);
    let key = (target.namespace().to_string(), name.to_string());
    let Some(current) = map.get(&key) else {
        return Reply::status(not_found(target.info, name));
    };
    if request.method == "GET" {
        return Reply::json(200, &scale_of(current));
    }
    let wanted = match request.method.as_str() {
        "PUT" => body(request),
        _ => {
            let content_type = request.header("content-type").unwrap_or("");
            let Some(kind) = PatchKind::from_content_type(content_type) else {
                return Reply::status(unsupported_patch(content_type));
            };
            body(request).and_then(|patch| {
                patch::apply(kind, &scale_of(current), &patch).map_err(patch_status)
            })
        }
    };
    let replicas = match wanted.map(|scale| scale["spec"]["replicas"].as_i64()) {
        Ok(Some(replicas)) if (0..=i64::from(i32::MAX)).contains(&replicas) => replicas,
        Ok(_) => {
            return Reply::status(invalid(
                target.info,
                name,
                "spec.replicas",
                "Invalid value: must be greater than or equal to 0",
            ))
        }
        Err(status) => return Reply::status(status),
    };
    let reply = store_change(shared, target, name, request, |current| {
        let mut object = current.clone();
        // Written by a raw store write only (every client write is checked): not a Deployment
        // the sim can scale, and indexing into it would panic.
        let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut) else {
            return Err(bad_request(format!(
                "{} {name:?} has no spec to scale",
                target.info.kind
            )));
        };
        spec.insert("replicas".into(), json!(replicas));
        Ok(object)
    });
    match reply {
        Reply::Body {
            status: 200, body, ..
        } => match serde_json::from_slice::<Value>(&body) {
            Ok(object) => Reply::json(200, &scale_of(&object)),
            Err(_) => Reply::status(bad_request("scale")),
        },
        other => other,
    }
}

/// A workload's replicas as an `autoscaling/v1` Scale.
pub fn scale_of(object: &Value) -> Value {
    let metadata = &object["metadata"];
    let selector = object["spec"]["selector"]["matchLabels"]
        .as_object()
        .map(|labels| {
            labels
                .iter()
                .map(|(key, value)| format!("{key}={}", value.as_str().unwrap_or("")))
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default();
    json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": metadata["name"],
            "namespace": metadata["namespace"],
            "uid": metadata["uid"],
            "resourceVersion": metadata["resourceVersion"],
            "creationTimestamp": metadata["creationTimestamp"],
        },
        "spec": {"replicas": object["spec"]["replicas"].as_i64().unwrap_or(1)},
        "status": {
            "replicas": object["status"]["replicas"].as_i64().unwrap_or(0),
            "selector": selector,
        },
    })
}

/// Write `change(current)` back under the store's lock, with the server's rules for updates:
/// the precondition, status kept, generation counted.
fn store_change(
    shared: &Shared,
    target: &Target<'_>,
    name: &str,
    request: &Request,
    change: impl Fn(&Value) -> Result<Value, Status>,
) -> Reply {
    let info = target.info;
    let keeps_status = info.subresources.iter().any(|(sub, _)| *sub == "status");
    let dry = dry_run(request);
    let result = shared
        .store
        .modify(info.plural, target.namespace(), name, |current| {
            let mut object = change(current).map_err(|status| Refusal::Status(Box::new(status)))?;
            let sent = object["metadata"]["resourceVersion"].as_str().unwrap_or("");
            if !sent.is_empty() && Some(sent) != current["metadata"]["resourceVersion"].as_str() {
                return Err(Refusal::Status(Box::new(conflict(info, name))));
            }
            if keeps_status {
                object["status"] = current["status"].clone();
            }
            if let Some(generation) = current["metadata"]["generation"].as_i64() {
                let changed = object.get("spec") != current.get("spec");
                object["metadata"]["generation"] = json!(generation + i64::from(changed));
            }
            if dry {
                return Err(Refusal::DryRun(object));
            }
            Ok(object)
        });
    match result {
        Ok(stored) => {
            shared
                .controllers
                .written(info.plural, target.namespace(), name);
            Reply::json(200, &stored)
        }
        Err(Refusal::DryRun(object)) => Reply::json(200, &object),
        Err(Refusal::Status(status)) => Reply::status(*status),
    }
}

/// Why `store_change` wrote nothing: the server refused, or the client asked for a dry run
/// (what would be stored, which the store must not keep).
enum Refusal {
    Status(Box<Status>),
    DryRun(Value),
}

impl From<SimError> for Refusal {
    fn from(error: SimError) -> Refusal {
        Refusal::Status(Box::new(match error {
            SimError::NotFound { resource, name } => {
                match crate::world::catalog::by_plural(&resource) {
                    Some(info) => not_found(info, &name),
                    None => bad_request(format!("{resource} \"{name}\" not found")),
                }
            }
            SimError::Contended { resource, name } => {
                match crate::world::catalog::by_plural(&resource) {
                    Some(info) => conflict(info, &name),
                    None => bad_request(format!("{resource} \"{name}\" kept changing")),
                }
            }
            other => bad_request(other.to_string()),
        }))
    }
}

fn patch_status(error: PatchError) -> Status {
    match error {
        PatchError::Malformed(message) => bad_request(message),
        PatchError::Unapplicable(message) => Status::failure(422, "Invalid", message),
        PatchError::TooLarge(message) => Status::failure(
            413,
            "RequestEntityTooLarge",
            format!("Request entity too large: {message}"),
        ),
    }
}

fn dry_run(request: &Request) -> bool {
    request
        .query()
        .split('&')
        .any(|pair| pair.eq_ignore_ascii_case("dryRun=All"))
}

fn body(request: &Request) -> Result<Value, Status> {
    match serde_json::from_slice::<Value>(&request.body) {
        Ok(value @ (Value::Object(_) | Value::Array(_))) => Ok(value),
        Ok(_) => Err(bad_request("the body of the request is not a JSON object")),
        Err(error) => Err(bad_request(format!(
            "the body of the request was in an unknown format: {error}"
        ))),
    }
}

/// The body's kind and apiVersion, when given, must be the resource's.
fn check_kind(info: &ResourceInfo, object: &Value) -> Result<(), Status> {
    if !object.is_object() {
        return Err(bad_request("the body of the request is not a JSON object"));
    }
    let expected = info.api_version();
    match object["apiVersion"].as_str() {
        Some(sent) if !sent.is_empty() && sent != expected => {
            return Err(bad_request(format!(
                "the API version in the data ({sent}) does not match the expected API version ({expected})"
            )))
        }
        _ => {}
    }
    match object["kind"].as_str() {
        Some(sent) if !sent.is_empty() && sent != info.kind => Err(bad_request(format!(
            "the kind in the data ({sent}) does not match the expected kind ({})",
            info.kind
        ))),
        _ => Ok(()),
    }
}

/// A body that cannot be decoded as its kind is refused as the server's decoder refuses it
/// (400), before anything reads its fields.
fn check_shape(info: &ResourceInfo, object: &Value) -> Result<(), Status> {
    match shape::mismatch(info.kind, object) {
        Some(why) => Err(bad_request(format!(
            "{kind} in version {version:?} cannot be handled as a {kind}: {why}",
            kind = info.kind,
            version = info.version,
        ))),
        None => Ok(()),
    }
}

/// A patch whose result cannot be decoded as its kind: 422, naming the patched object, as
/// kube-apiserver's patcher words it.
fn check_patched_shape(info: &ResourceInfo, patched: &Value) -> Result<(), Status> {
    let Some(why) = shape::mismatch(info.kind, patched) else {
        return Ok(());
    };
    let text = serde_json::to_string(patched).unwrap_or_default();
    let quoted = serde_json::to_string(&text).unwrap_or_default();
    let mut status = Status::failure(
        422,
        "Invalid",
        format!(" \"\" is invalid: patch: Invalid value: {quoted}: {why}"),
    );
    status.details = Some(kw_wire::StatusDetails {
        causes: vec![kw_wire::StatusCause {
            cause_type: "FieldValueInvalid".into(),
            message: format!("Invalid value: {quoted}: {why}"),
            field: "patch".into(),
        }],
        ..kw_wire::StatusDetails::default()
    });
    Err(status)
}

fn check_name(info: &ResourceInfo, name: &str, object: &Value) -> Result<(), Status> {
    match object["metadata"]["name"].as_str() {
        Some(sent) if sent != name => Err(bad_request(format!(
            "the name of the object ({sent}) does not match the name on the URL ({name})"
        ))),
        None => Err(invalid(
            info,
            name,
            "metadata.name",
            "Required value: name or generateName is required",
        )),
        Some(_) => Ok(()),
    }
}

fn check_namespace(target: &Target<'_>, object: &mut Value) -> Result<(), Status> {
    let Some(namespace) = target.namespace else {
        return Ok(());
    };
    match object["metadata"]["namespace"].as_str() {
        Some(sent) if !sent.is_empty() && sent != namespace => Err(bad_request(
            "the namespace of the provided object does not match the namespace sent on the request",
        )),
        _ => {
            object["metadata"]["namespace"] = json!(namespace);
            Ok(())
        }
    }
}
