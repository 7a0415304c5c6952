//! Who is asking: 401 and 403 bodies as the API server writes them, and credentials redacted
//! in the request log.

use kw_sim::SimConfig;

use crate::client::{connect, get_with};
use crate::harness::populated_sim;

#[test]
fn unauthorized_and_forbidden_bodies() {
    let sim = populated_sim(SimConfig::default());
    let anonymous = get_with(&sim, "/api/v1/pods", &[]);
    assert_eq!(anonymous.status, 401);
    assert_eq!(anonymous.json()["message"], "Unauthorized");
    let bad = get_with(&sim, "/api/v1/pods", &[("Authorization", "Bearer wrong")]);
    assert_eq!(bad.status, 401);
    let limited = format!("Bearer {}", sim.limited_token());
    let allowed = get_with(
        &sim,
        "/api/v1/namespaces/team-a/pods",
        &[("Authorization", &limited)],
    );
    assert_eq!(allowed.status, 200);
    let denied = get_with(
        &sim,
        "/api/v1/namespaces/default/pods",
        &[("Authorization", &limited)],
    );
    assert_eq!(denied.status, 403);
    let status = denied.json();
    assert_eq!(status["message"], "pods is forbidden: User \"limited\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\"");
    assert_eq!(status["reason"], "Forbidden");
    assert_eq!(status["details"]["kind"], "pods");
    let cluster = get_with(&sim, "/api/v1/pods?watch=1", &[("Authorization", &limited)]);
    assert_eq!(cluster.status, 403);
    assert!(cluster.json()["message"]
        .as_str()
        .unwrap()
        .ends_with("cannot watch resource \"pods\" in API group \"\" at the cluster scope"));
    // The client certificate is a user of its own (system:masters).
    let mut conn = connect(&sim, true);
    conn.send("/api/v1/namespaces/default/pods", &[]);
    assert_eq!(conn.response().status, 200);
    // Requests are logged with the token redacted.
    let logged = sim.requests();
    let header = logged
        .iter()
        .flat_map(|r| r.headers.iter())
        .find(|(k, _)| k == "Authorization")
        .map(|(_, v)| v.clone());
    assert_eq!(header.as_deref(), Some("Bearer <redacted>"));
}
