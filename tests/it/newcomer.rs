//! What a new user trips on first (issue 32): a quiet watch whose reader has gone, optional
//! flag values given with a space, kw's flags that a format would ignore, one header under
//! `--watch-only --diff`, and the short help.

use crate::harness;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::Duration;

use harness::{run, Cluster};

const LIMIT: Duration = Duration::from_secs(20);

/// `kw get pods -w | head -1` on a cluster where nothing happens: kw has written everything it
/// had before the reader goes, so no write can fail and tell it; it must notice on its own and
/// end as a closed pipe ends it (exit 0, nothing said). The bound is the behaviour (about a
/// second), not a measure of speed: without the check kw waits for the next event, forever.
#[test]
fn a_quiet_watch_ends_once_its_reader_has_gone() {
    let cluster = Cluster::seeded();
    for format in ["name", "jsonl"] {
        let listed = run(cluster.get(&["pods", "-o", "name"]), LIMIT);
        assert_eq!(listed.code, Some(0), "{}", listed.stderr);
        let pods = listed.stdout.lines().count();
        assert!(pods > 0, "the seeded world has pods");
        let mut child = cluster
            .get(&["pods", "-w", "-o", format])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = BufReader::new(child.stdout.take().unwrap());
        // The whole initial list: after it, kw has nothing more to write.
        for _ in 0..pods {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "-o {format}: the list ended early");
        }
        drop(reader); // like `| head -N`
        let code = harness::wait_with_limit(&mut child, Duration::from_secs(2));
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert_eq!(code, Some(0), "-o {format}: {stderr}");
        assert_eq!(stderr, "", "-o {format}");
    }
}
