//! What the command line asks for, before discovery: types and names, or manifests; or, for
//! a watch that follows another, types its discovery already resolved.

use std::path::PathBuf;

use kw_client::config::settings::check_name;
use kw_events::events::ResourceInfo;

use super::error::PlanError;

/// What the command line asks for, before discovery (or after it, `Resolved`).
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `TYPE [NAME...]`, `TYPE1,TYPE2`, `TYPE/NAME...`: type queries and their names, in order.
    Types(Vec<(String, Vec<String>)>),
    /// Objects of types an earlier run's discovery resolved (what `rollout status -l`'s list
    /// found), and their names: watched as they are, no name resolved again.
    Resolved(Vec<(ResourceInfo, Vec<String>)>),
    /// `-f FILE...`: the objects the manifests name, file after file; a directory's manifests,
    /// and with `recursive` (`-R`) its subdirectories' too.
    Manifest {
        paths: Vec<PathBuf>,
        recursive: bool,
    },
}

/// `TYPE`, `TYPE NAME...`, `TYPE1,TYPE2`, `TYPE/NAME...` into types and their names, in the
/// order given (`po/a deploy/b po/c` is three groups).
pub fn parse_targets(targets: &[String]) -> Result<Vec<(String, Vec<String>)>, PlanError> {
    let groups = parse_target_groups(targets)?;
    for name in groups.iter().flat_map(|(_, names)| names) {
        check_name(name)?;
    }
    Ok(groups)
}

fn parse_target_groups(targets: &[String]) -> Result<Vec<(String, Vec<String>)>, PlanError> {
    let Some(first) = targets.first() else {
        return Err(PlanError::NoType);
    };
    if !first.contains('/') {
        let types: Vec<&str> = first.split(',').collect();
        if types.iter().any(|t| t.is_empty()) {
            return Err(PlanError::EmptyType {
                typed: first.clone(),
            });
        }
        let names = targets[1..].to_vec();
        // `pod a/b`: a TYPE, then a name in TYPE/NAME form.
        if let Some(slashed) = names.iter().find(|n| n.contains('/')) {
            return Err(PlanError::TypeBeforeSlashForm {
                target: slashed.clone(),
            });
        }
        if types.len() > 1 && !names.is_empty() {
            return Err(PlanError::NamesWithSeveralTypes);
        }
        return Ok(types
            .into_iter()
            .map(|t| (t.to_string(), names.clone()))
            .collect());
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for target in targets {
        let Some((kind, name)) = target.split_once('/') else {
            return Err(PlanError::TypeBeforeSlashForm {
                target: target.clone(),
            });
        };
        if kind.is_empty() || name.is_empty() || name.contains('/') {
            return Err(PlanError::BadSlashForm {
                target: target.clone(),
            });
        }
        // Neighbours of one type share a group; a type named again later starts another, so
        // objects come in the order named, as kubectl prints them.
        match groups.last_mut() {
            Some((t, names)) if t == kind => names.push(name.to_string()),
            _ => groups.push((kind.to_string(), vec![name.to_string()])),
        }
    }
    Ok(groups)
}
