//! Each cause said once (issue 55): under one object of the summary, its stuck Pods grouped by
//! why (`pod/shop-6c9-r6977, -6zjwc, -vqrfl (3 Pods): ImagePullBackOff (web): ...`), the Warning
//! events that tell a group's cause nested under it without naming its Pods again, those that
//! restate it left out, and the rest each on a line with the objects that said it. Pure: the
//! cause engine hands over what it found, the summary places the lines.

/// One of an object's Pods stuck now, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StuckPod {
    /// `pod/web-1` (its context in front in a run over several).
    pub pod: String,
    /// `ImagePullBackOff (web): Back-off pulling image "x"`.
    pub reason: String,
}

/// A Warning message, once, and the objects that said it, in the order they first did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SaidBy {
    pub by: Vec<String>,
    /// `Warning Failed: Failed to pull image "x": ...`.
    pub said: String,
}

/// Names shown one by one in a group; past them, counted.
const NAMED: usize = 5;

/// `labels` compactly: the first whole, each next one as the part after the first's last `-`
/// when they share what comes before it (`pod/shop-6c9-r6977, -6zjwc, -vqrfl`), at most
/// `NAMED`, then `and N more`; with the count when they are several Pods (`(3 Pods)`).
pub fn names(labels: &[&str]) -> String {
    let Some(first) = labels.first() else {
        return String::new();
    };
    let stem = first.rfind('-').map(|at| &first[..at]);
    let mut said = vec![first.to_string()];
    for label in labels.iter().skip(1).take(NAMED - 1) {
        match stem.and_then(|stem| label.strip_prefix(stem)) {
            Some(rest) if rest.starts_with('-') && !rest[1..].contains('-') => {
                said.push(rest.to_string())
            }
            _ => said.push(label.to_string()),
        }
    }
    let mut text = said.join(", ");
    if labels.len() > NAMED {
        text.push_str(&format!(" and {} more", labels.len() - NAMED));
    }
    let pods = labels.iter().all(|label| label.contains("pod/"));
    if labels.len() > 1 && pods {
        text.push_str(&format!(" ({} Pods)", labels.len()));
    }
    text
}

/// The lines under one object (without their indentation; `depth` 1 is nested): each cause
/// of its stuck Pods once, with the Warning events that tell it, then the other Warning
/// events.
pub fn lines(stuck: &[StuckPod], warnings: &[SaidBy]) -> Vec<(usize, String)> {
    let mut sorted: Vec<&StuckPod> = stuck.iter().collect();
    sorted.sort_by(|a, b| a.pod.cmp(&b.pod));
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for pod in sorted {
        match groups.iter_mut().find(|(reason, _)| *reason == pod.reason) {
            Some((_, pods)) => pods.push(&pod.pod),
            None => groups.push((&pod.reason, vec![&pod.pod])),
        }
    }
    let mut nested: Vec<Vec<&str>> = vec![Vec::new(); groups.len()];
    let mut loose: Vec<&SaidBy> = Vec::new();
    for warning in warnings {
        let home = groups
            .iter()
            .position(|(_, pods)| warning.by.iter().all(|by| pods.contains(&by.as_str())));
        match home {
            Some(at) if restates(groups[at].0, &warning.said) => {}
            Some(at) => nested[at].push(&warning.said),
            None => loose.push(warning),
        }
    }
    let mut lines = Vec::new();
    for ((reason, pods), nested) in groups.iter().zip(nested) {
        lines.push((0, format!("{}: {reason}", names(pods))));
        lines.extend(nested.into_iter().map(|said| (1, said.to_string())));
    }
    for warning in loose {
        let by: Vec<&str> = warning.by.iter().map(String::as_str).collect();
        lines.push((0, format!("{}: {}", names(&by), warning.said)));
    }
    lines
}

/// `text` with what `stuck` says already taken out (`Progress deadline exceeded; pod/web-1:
/// ImagePullBackOff (web): ...` → `Progress deadline exceeded`): the groups under the object
/// say it. A part naming a Pod for a reason a group holds goes, whichever Pod it names (the
/// Pod the verdict caught may be between two back-offs when the block is written). `None` when
/// nothing else is left.
pub fn without_stuck(text: &str, stuck: &[StuckPod]) -> Option<String> {
    let said_below = |part: &str| {
        stuck.iter().any(|pod| {
            part.strip_suffix(pod.reason.as_str())
                .and_then(|named| named.strip_suffix(": "))
                .is_some_and(|named| named.contains("pod/") && !named.contains(' '))
        })
    };
    let left: Vec<&str> = text.split("; ").filter(|part| !said_below(part)).collect();
    let left = left.join("; ");
    (!left.trim().is_empty()).then_some(left)
}

/// Whether a Warning (`Warning BackOff: Back-off restarting failed container web`) says no
/// more than the stuck reason it would be nested under (`CrashLoopBackOff (web): back-off
/// restarting failed container=web`).
fn restates(reason: &str, said: &str) -> bool {
    let message = said.split_once(": ").map_or(said, |(_, message)| message);
    let plain = |text: &str| {
        text.to_ascii_lowercase()
            .replace('=', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    plain(reason).contains(&plain(message))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stuck(pod: &str, reason: &str) -> StuckPod {
        StuckPod {
            pod: pod.into(),
            reason: reason.into(),
        }
    }

    fn said(by: &[&str], said: &str) -> SaidBy {
        SaidBy {
            by: by.iter().map(|b| b.to_string()).collect(),
            said: said.into(),
        }
    }

    #[test]
    fn names_are_compact_counted_and_bounded() {
        assert_eq!(names(&["pod/web-1"]), "pod/web-1");
        assert_eq!(
            names(&["pod/shop-6c9-r6977", "pod/shop-6c9-6zjwc", "pod/other-1"]),
            "pod/shop-6c9-r6977, -6zjwc, pod/other-1 (3 Pods)"
        );
        let many: Vec<String> = (0..8).map(|i| format!("east/pod/web-{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            names(&many),
            "east/pod/web-0, -1, -2, -3, -4 and 3 more (8 Pods)"
        );
        assert_eq!(
            names(&["replicaset.apps/web-1", "replicaset.apps/web-2"]),
            "replicaset.apps/web-1, -2"
        );
    }

    /// One missing image on three Pods: one line for the three, the registry's answer once
    /// under it; the kubelet's back-off words, which restate the reason, left out.
    #[test]
    fn one_cause_on_several_pods_is_said_once_with_its_message_under_it() {
        let pods = [
            "pod/shop-6c9-vqrfl",
            "pod/shop-6c9-r6977",
            "pod/shop-6c9-6zjwc",
        ];
        let stuck: Vec<StuckPod> = pods
            .iter()
            .map(|p| stuck(p, "ImagePullBackOff (web): Back-off pulling image \"x\""))
            .collect();
        let warnings = [
            said(
                &pods,
                "Warning Failed: Failed to pull image \"x\": not found",
            ),
            said(&pods[..1], "Warning BackOff: Back-off pulling image \"x\""),
            said(&["replicaset.apps/shop-6c9"], "Warning FailedCreate: quota"),
        ];
        assert_eq!(
            lines(&stuck, &warnings),
            [
                (
                    0,
                    "pod/shop-6c9-6zjwc, -r6977, -vqrfl (3 Pods): ImagePullBackOff (web): Back-off pulling image \"x\"".to_string()
                ),
                (1, "Warning Failed: Failed to pull image \"x\": not found".into()),
                (0, "replicaset.apps/shop-6c9: Warning FailedCreate: quota".into()),
            ]
        );
    }

    #[test]
    fn a_warning_of_pods_in_two_groups_is_said_on_its_own_line() {
        let stuck = [
            stuck(
                "pod/a-1",
                "CrashLoopBackOff (web): back-off restarting failed container=web",
            ),
            stuck("pod/a-2", "ErrImagePull (web)"),
        ];
        let warnings = [
            said(
                &["pod/a-1"],
                "Warning BackOff: Back-off restarting failed container web",
            ),
            said(&["pod/a-1", "pod/a-2"], "Warning Failed: Error: boom"),
        ];
        assert_eq!(
            lines(&stuck, &warnings),
            [
                (
                    0,
                    "pod/a-1: CrashLoopBackOff (web): back-off restarting failed container=web"
                        .to_string()
                ),
                (0, "pod/a-2: ErrImagePull (web)".into()),
                (
                    0,
                    "pod/a-1, -2 (2 Pods): Warning Failed: Error: boom".into()
                ),
            ]
        );
    }

    #[test]
    fn what_the_groups_say_is_taken_out_of_the_objects_line() {
        let stuck = [stuck("pod/web-1", "ImagePullBackOff (web): x")];
        assert_eq!(
            without_stuck(
                "Progress deadline exceeded; pod/web-1: ImagePullBackOff (web): x",
                &stuck
            ),
            Some("Progress deadline exceeded".into())
        );
        assert_eq!(
            without_stuck("pod/web-1: ImagePullBackOff (web): x", &stuck),
            None
        );
        // Another Pod of the same cause is said by the group too.
        assert_eq!(
            without_stuck("pod/web-9: ImagePullBackOff (web): x", &stuck),
            None
        );
        assert_eq!(
            without_stuck("pod/web-9: CrashLoopBackOff (web): y", &stuck),
            Some("pod/web-9: CrashLoopBackOff (web): y".into())
        );
    }
}
