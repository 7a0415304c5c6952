//! The simulated cluster's objects: realistic, deterministic for a seed.
//!
//! Objects are built to look like `kubectl get -o json` output from a real v1.32 cluster (see
//! `fixtures/`): full metadata (uid, creationTimestamp, labels, ownerReferences, managedFields),
//! defaulted specs and believable status. `resourceVersion` is never set here: the store assigns
//! it. Nothing reads the wall clock; every timestamp is derived from the `now` the caller passes.

mod cluster;
mod config;
mod events;
mod ids;
mod pods;
mod services;
mod widgets;
mod workloads;

use std::time::SystemTime;

use serde_json::{json, Map, Value};

pub use cluster::{heartbeat, namespace, node, node_shapes, NodeShape};
pub use config::{bound_claim, config_map, root_ca_config_map, secret};
pub use events::{pod_event, PodEvent};
pub use ids::{ago, hex, later, rfc3339, safe_suffix, uid, SplitMix64};
pub use pods::{container_spec, owner_reference, sidecar_spec, PodBlueprint, PodStage};
pub use services::{endpoints, service, Backend, ServiceShape};
pub use widgets::{widget, WIDGET_PHASES};
pub use workloads::{set_replica_counts, Workload};

/// One object of the initial world, with the resource (URL plural) it belongs to.
#[derive(Debug, Clone)]
pub struct SeedObject {
    pub resource: &'static str,
    pub object: Value,
}

const MINUTE: u64 = 60;
const HOUR: u64 = 60 * MINUTE;
const DAY: u64 = 24 * HOUR;

/// The namespaces of the world and how long ago each was created.
const NAMESPACES: [(&str, u64); 4] = [
    ("default", 12 * DAY),
    ("kube-system", 12 * DAY),
    ("team-a", 9 * DAY),
    ("team-b", 3 * DAY),
];

/// Builds the world in order, handing out pod IPs per node as the IPAM plugin would.
struct WorldBuilder {
    seed: u64,
    now: SystemTime,
    rng: SplitMix64,
    nodes: Vec<NodeShape>,
    next_pod_ip: Vec<u8>,
    objects: Vec<SeedObject>,
}

impl WorldBuilder {
    fn push(&mut self, resource: &'static str, object: Value) {
        self.objects.push(SeedObject { resource, object });
    }

    /// `now` minus roughly `seconds`, with a little seed-driven jitter so ages differ.
    fn ago(&mut self, seconds: u64) -> SystemTime {
        let jitter = self.rng.below(seconds / 10 + 1);
        ago(self.now, seconds - jitter)
    }

    fn pod_ip(&mut self, node_index: usize) -> String {
        let octet = self.next_pod_ip.get_mut(node_index).map(|next| {
            *next = next.wrapping_add(1).max(2);
            *next
        });
        format!("10.244.{node_index}.{}", octet.unwrap_or(2))
    }

    fn blueprint(
        &mut self,
        namespace: &str,
        name: &str,
        node_index: usize,
        created: SystemTime,
    ) -> PodBlueprint {
        let node = self.nodes[node_index % self.nodes.len()].clone();
        PodBlueprint {
            seed: self.seed,
            namespace: namespace.into(),
            name: name.into(),
            uid: uid(self.seed, &format!("pods/{namespace}/{name}")),
            labels: Map::new(),
            annotations: Map::new(),
            owner: None,
            containers: Vec::new(),
            init_containers: Vec::new(),
            restart_policy: "Always".into(),
            node: node.name.clone(),
            host_ip: node.internal_ip.clone(),
            pod_ip: self.pod_ip(node_index % self.nodes.len()),
            created,
            manager: "kubectl-run".into(),
        }
    }

    fn push_pod(&mut self, blueprint: &PodBlueprint, stage: &PodStage) {
        let since = later(blueprint.created, 4);
        self.push("pods", blueprint.render(stage, since));
    }

    /// A deployment, its replicaset and its running pods; returns the pods' `(ip, node, name)`.
    fn workload(
        &mut self,
        workload: &Workload,
        nodes: &[usize],
        extra_labels: &[(&str, &str)],
    ) -> Vec<Backend> {
        self.push("deployments", workload.deployment());
        self.push("replicasets", workload.replicaset());
        let mut backends = Vec::new();
        for replica in 0..workload.replicas as usize {
            let suffix = safe_suffix(
                self.seed,
                &format!("{}/{}/{replica}", workload.namespace, workload.name),
                5,
            );
            let name = format!("{}-{suffix}", workload.replicaset_name());
            let created = later(workload.created, 1);
            let node_index = nodes[replica % nodes.len()];
            let mut bp = self.blueprint(&workload.namespace, &name, node_index, created);
            bp.labels = workload.pod_labels();
            for (key, value) in extra_labels {
                bp.labels.insert((*key).into(), json!(value));
            }
            bp.owner = Some(workload.replicaset_owner());
            bp.containers = workload.containers.clone();
            bp.manager = "kube-controller-manager".into();
            self.push_pod(
                &bp,
                &PodStage::Running {
                    restarts: 0,
                    last_restart: None,
                },
            );
            backends.push((bp.pod_ip.clone(), bp.node.clone(), Some(name)));
        }
        backends
    }
}

/// The initial world for a seed: namespaces, nodes, workloads with their pods, a few standalone
/// pods in interesting states, services, endpoints, configmaps, secrets, claims, events, widgets.
pub fn seed_world(seed: u64, now: SystemTime) -> Vec<SeedObject> {
    let nodes = node_shapes();
    let mut world = WorldBuilder {
        seed,
        now,
        rng: SplitMix64::new(seed),
        next_pod_ip: vec![1; nodes.len()],
        nodes: nodes.clone(),
        objects: Vec::new(),
    };

    for (name, age) in NAMESPACES {
        let created = ago(now, age);
        world.push("namespaces", namespace(seed, name, created));
        world.push(
            "configmaps",
            root_ca_config_map(seed, name, later(created, 2)),
        );
    }
    let cluster_born = ago(now, 12 * DAY);
    for shape in &nodes {
        world.push("nodes", node(seed, shape, cluster_born, ago(now, 7)));
    }

    // kube-system: static etcd, kube-proxy on every node, coredns.
    let mut etcd = world.blueprint("kube-system", "etcd-node-1", 0, later(cluster_born, 30));
    etcd.pod_ip = etcd.host_ip.clone();
    etcd.labels.insert("component".into(), json!("etcd"));
    etcd.labels.insert("tier".into(), json!("control-plane"));
    etcd.owner = Some(
        json!({"apiVersion": "v1", "controller": true, "kind": "Node", "name": "node-1", "uid": uid(seed, "nodes/node-1")}),
    );
    etcd.containers = vec![container_spec(
        "etcd",
        "registry.k8s.io/etcd:3.5.16-0",
        None,
        "100m",
        "100Mi",
    )];
    etcd.manager = "kubelet".into();
    world.push_pod(
        &etcd,
        &PodStage::Running {
            restarts: 0,
            last_restart: None,
        },
    );
    let proxy_owner = owner_reference(
        "apps/v1",
        "DaemonSet",
        "kube-proxy",
        &uid(seed, "daemonsets/kube-system/kube-proxy"),
    );
    for index in 0..nodes.len() {
        let name = format!(
            "kube-proxy-{}",
            safe_suffix(seed, &format!("kube-proxy/{index}"), 5)
        );
        let mut proxy = world.blueprint("kube-system", &name, index, later(cluster_born, 60));
        proxy.pod_ip = proxy.host_ip.clone();
        proxy
            .labels
            .insert("controller-revision-hash".into(), json!("7bb84c4984"));
        proxy.labels.insert("k8s-app".into(), json!("kube-proxy"));
        proxy
            .labels
            .insert("pod-template-generation".into(), json!("1"));
        proxy.owner = Some(proxy_owner.clone());
        proxy.containers = vec![container_spec(
            "kube-proxy",
            "registry.k8s.io/kube-proxy:v1.32.0",
            None,
            "50m",
            "64Mi",
        )];
        proxy.manager = "kube-controller-manager".into();
        world.push_pod(
            &proxy,
            &PodStage::Running {
                restarts: 0,
                last_restart: None,
            },
        );
    }
    let coredns = Workload::new(
        seed,
        "kube-system",
        "coredns",
        vec![container_spec(
            "coredns",
            "registry.k8s.io/coredns/coredns:v1.11.3",
            Some(53),
            "100m",
            "70Mi",
        )],
        2,
        later(cluster_born, 60),
    );
    let dns_backends = world.workload(&coredns, &[0], &[("k8s-app", "kube-dns")]);

    // Application workloads.
    let web_age = world.ago(5 * DAY);
    let web = Workload::new(
        seed,
        "default",
        "web",
        vec![container_spec(
            "web",
            "nginx:1.27",
            Some(80),
            "100m",
            "128Mi",
        )],
        3,
        web_age,
    );
    let web_backends = world.workload(&web, &[1, 2], &[]);
    let api_age = world.ago(2 * HOUR);
    let api = Workload::new(
        seed,
        "default",
        "api",
        vec![container_spec(
            "api",
            "ghcr.io/example/api:2.3.1",
            Some(8080),
            "250m",
            "256Mi",
        )],
        2,
        api_age,
    );
    let api_backends = world.workload(&api, &[2, 1], &[]);
    let frontend_age = world.ago(DAY + 4 * HOUR);
    let frontend = Workload::new(
        seed,
        "team-a",
        "frontend",
        vec![container_spec(
            "frontend",
            "ghcr.io/example/frontend:5.0.1",
            Some(3000),
            "100m",
            "128Mi",
        )],
        2,
        frontend_age,
    );
    let frontend_backends = world.workload(&frontend, &[1, 2], &[]);
    let backend_age = world.ago(DAY + 3 * HOUR);
    let backend = Workload::new(
        seed,
        "team-a",
        "backend",
        vec![container_spec(
            "backend",
            "ghcr.io/example/backend:5.0.1",
            Some(8080),
            "200m",
            "256Mi",
        )],
        3,
        backend_age,
    );
    let backend_backends = world.workload(&backend, &[2, 1], &[]);

    // Standalone pods in the states people actually stare at.
    let init_age = world.ago(3 * HOUR);
    let mut init_demo = world.blueprint("default", "init-demo", 1, init_age);
    init_demo.labels.insert("run".into(), json!("init-demo"));
    init_demo.init_containers = vec![container_spec(
        "init-config",
        "busybox:1.36",
        None,
        "10m",
        "16Mi",
    )];
    init_demo.containers = vec![container_spec(
        "app",
        "nginx:1.27",
        Some(80),
        "100m",
        "64Mi",
    )];
    world.push_pod(
        &init_demo,
        &PodStage::Running {
            restarts: 0,
            last_restart: None,
        },
    );

    let mesh_age = world.ago(40 * MINUTE);
    let mut mesh_demo = world.blueprint("default", "mesh-demo", 2, mesh_age);
    mesh_demo.labels.insert("run".into(), json!("mesh-demo"));
    mesh_demo.init_containers = vec![
        container_spec("wait-for-db", "busybox:1.36", None, "10m", "16Mi"),
        sidecar_spec("proxy", "envoyproxy/envoy:v1.32.1"),
    ];
    mesh_demo.containers = vec![container_spec(
        "app",
        "ghcr.io/example/app:1.4.0",
        Some(8080),
        "100m",
        "128Mi",
    )];
    world.push_pod(
        &mesh_demo,
        &PodStage::Running {
            restarts: 0,
            last_restart: None,
        },
    );

    let job_age = world.ago(25 * MINUTE);
    let job_name = "db-migrate-28904730";
    let job_pod = format!("{job_name}-{}", safe_suffix(seed, job_name, 5));
    let mut migrate = world.blueprint("team-a", &job_pod, 1, job_age);
    let job_uid = uid(seed, &format!("jobs/team-a/{job_name}"));
    migrate
        .labels
        .insert("batch.kubernetes.io/controller-uid".into(), json!(job_uid));
    migrate
        .labels
        .insert("batch.kubernetes.io/job-name".into(), json!(job_name));
    migrate.labels.insert("job-name".into(), json!(job_name));
    migrate.owner = Some(owner_reference("batch/v1", "Job", job_name, &job_uid));
    migrate.containers = vec![container_spec(
        "migrate",
        "ghcr.io/example/migrate:5.0.1",
        None,
        "100m",
        "64Mi",
    )];
    migrate.restart_policy = "Never".into();
    migrate.manager = "kube-controller-manager".into();
    world.push(
        "pods",
        migrate.render(&PodStage::Completed, later(job_age, 20)),
    );

    let flaky_age = world.ago(50 * MINUTE);
    let mut flaky = world.blueprint("team-b", "flaky-worker", 2, flaky_age);
    flaky.labels.insert("run".into(), json!("flaky-worker"));
    flaky.containers = vec![container_spec(
        "worker",
        "ghcr.io/example/worker:0.9.2",
        None,
        "50m",
        "64Mi",
    )];
    let last_crash = ago(now, 2 * MINUTE + 10);
    world.push(
        "pods",
        flaky.render(
            &PodStage::CrashLoopBackOff {
                restarts: 7,
                last_restart: last_crash,
            },
            last_crash,
        ),
    );

    // Services and the endpoints the controller keeps for them.
    let kubernetes = ServiceShape {
        namespace: "default",
        name: "kubernetes",
        service_type: "ClusterIP",
        cluster_ip: "10.96.0.1",
        ports: vec![("https", 443, 6443, "TCP", None)],
        selector: vec![],
        ingress_ip: None,
    };
    let control_plane = vec![(nodes[0].internal_ip.clone(), nodes[0].name.clone(), None)];
    let services = [
        (kubernetes, control_plane, cluster_born),
        (
            ServiceShape {
                namespace: "kube-system",
                name: "kube-dns",
                service_type: "ClusterIP",
                cluster_ip: "10.96.0.10",
                ports: vec![
                    ("dns", 53, 53, "UDP", None),
                    ("dns-tcp", 53, 53, "TCP", None),
                    ("metrics", 9153, 9153, "TCP", None),
                ],
                selector: vec![("k8s-app", "kube-dns")],
                ingress_ip: None,
            },
            dns_backends,
            later(cluster_born, 60),
        ),
        (
            ServiceShape {
                namespace: "default",
                name: "web",
                service_type: "ClusterIP",
                cluster_ip: "10.96.12.34",
                ports: vec![("http", 80, 80, "TCP", None)],
                selector: vec![("app", "web")],
                ingress_ip: None,
            },
            web_backends,
            web_age,
        ),
        (
            ServiceShape {
                namespace: "default",
                name: "api",
                service_type: "LoadBalancer",
                cluster_ip: "10.96.45.67",
                ports: vec![("http", 80, 8080, "TCP", Some(31380))],
                selector: vec![("app", "api")],
                ingress_ip: Some("203.0.113.10"),
            },
            api_backends,
            api_age,
        ),
        (
            ServiceShape {
                namespace: "team-a",
                name: "frontend",
                service_type: "NodePort",
                cluster_ip: "10.96.78.90",
                ports: vec![("http", 80, 3000, "TCP", Some(30080))],
                selector: vec![("app", "frontend")],
                ingress_ip: None,
            },
            frontend_backends,
            frontend_age,
        ),
        (
            ServiceShape {
                namespace: "team-a",
                name: "backend",
                service_type: "ClusterIP",
                cluster_ip: "10.96.88.11",
                ports: vec![("http", 8080, 8080, "TCP", None)],
                selector: vec![("app", "backend")],
                ingress_ip: None,
            },
            backend_backends,
            backend_age,
        ),
    ];
    for (shape, backends, created) in &services {
        world.push("services", service(seed, shape, *created));
        world.push(
            "endpoints",
            endpoints(seed, shape, backends, later(*created, 1)),
        );
    }

    // Configuration and storage.
    world.push(
        "configmaps",
        config_map(
            seed,
            "default",
            "web-config",
            &[
                (
                    "nginx.conf",
                    "server { listen 80; location / { root /usr/share/nginx/html; } }\n".into(),
                ),
                ("version", "1".into()),
            ],
            web_age,
        ),
    );
    world.push(
        "configmaps",
        config_map(seed, "kube-system", "coredns", &[("Corefile", ".:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . /etc/resolv.conf\n    cache 30\n}\n".into())], cluster_born),
    );
    world.push(
        "secrets",
        secret(
            seed,
            "default",
            "api-credentials",
            &[("password", "s3cr3t-passw0rd"), ("username", "api")],
            api_age,
        ),
    );
    world.push(
        "secrets",
        secret(
            seed,
            "team-a",
            "db-password",
            &[("password", "correct-horse-battery-staple")],
            backend_age,
        ),
    );
    world.push(
        "secrets",
        secret(
            seed,
            "team-b",
            "registry-token",
            &[("token", "ghp_exampleexampleexample")],
            flaky_age,
        ),
    );
    world.push(
        "persistentvolumeclaims",
        bound_claim(seed, "default", "web-data", "1Gi", web_age),
    );
    world.push(
        "persistentvolumeclaims",
        bound_claim(seed, "team-a", "postgres-data", "10Gi", backend_age),
    );

    // Events: the start of the newest web pod, and the crash loop.
    let web_pod = world
        .objects
        .iter()
        .filter(|o| o.resource == "pods" && o.object["metadata"]["labels"]["app"] == "web")
        .filter_map(|o| {
            o.object["metadata"]["name"].as_str().map(|n| {
                (
                    n.to_string(),
                    o.object["spec"]["nodeName"]
                        .as_str()
                        .unwrap_or("")
                        .to_string(),
                )
            })
        })
        .next()
        .unwrap_or_default();
    let (pod_name, pod_node) = web_pod;
    let assigned = format!("Successfully assigned default/{pod_name} to {pod_node}");
    let started = later(web_age, 1);
    let story: [(&str, &str, &str, &str); 4] = [
        ("", "Scheduled", assigned.as_str(), "default-scheduler"),
        (
            "spec.containers{web}",
            "Pulled",
            "Container image \"nginx:1.27\" already present on machine",
            "kubelet",
        ),
        (
            "spec.containers{web}",
            "Created",
            "Created container: web",
            "kubelet",
        ),
        (
            "spec.containers{web}",
            "Started",
            "Started container web",
            "kubelet",
        ),
    ];
    for (field_path, reason, message, component) in story {
        let host = if component == "kubelet" {
            pod_node.as_str()
        } else {
            ""
        };
        let event = PodEvent {
            namespace: "default",
            pod: &pod_name,
            field_path,
            event_type: "Normal",
            reason,
            message,
            component,
            host,
            count: 1,
            first: started,
            last: started,
        };
        world.push("events", pod_event(seed, &event));
    }
    let backoff = format!(
        "Back-off restarting failed container worker in pod flaky-worker_team-b({})",
        uid(seed, "pods/team-b/flaky-worker")
    );
    let crash = PodEvent {
        namespace: "team-b",
        pod: "flaky-worker",
        field_path: "spec.containers{worker}",
        event_type: "Warning",
        reason: "BackOff",
        message: &backoff,
        component: "kubelet",
        host: "node-3",
        count: 31,
        first: later(flaky_age, 30),
        last: last_crash,
    };
    world.push("events", pod_event(seed, &crash));

    // The custom resource.
    let widgets = [
        ("default", "alpha", "red", 3, "Ready", 6 * DAY),
        ("default", "beta", "blue", 5, "Pending", 45 * MINUTE),
        ("team-a", "gamma", "green", 1, "Ready", 2 * DAY),
    ];
    for (namespace, name, color, size, phase, age) in widgets {
        let created = world.ago(age);
        world.push(
            "widgets",
            widget(seed, namespace, name, color, size, phase, created),
        );
    }

    world.objects
}

/// A realistic Running pod (3–4 KB of JSON), for flood mode and tests. Deterministic for its
/// arguments; the pod was created at `now` and is already running.
pub fn pod(namespace: &str, name: &str, node: &str, now: SystemTime) -> Value {
    let node_number: u8 = node
        .rsplit('-')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let app = name
        .rsplit_once('-')
        .map(|(prefix, _)| prefix)
        .unwrap_or(name);
    let ip_seed =
        SplitMix64::new(u64::from_str_radix(&ids::hex(0, name, 8), 16).unwrap_or(0)).next_u64();
    let mut labels = Map::new();
    labels.insert("app".into(), json!(app));
    let blueprint = PodBlueprint {
        seed: 0,
        namespace: namespace.into(),
        name: name.into(),
        uid: uid(0, &format!("pods/{namespace}/{name}")),
        labels,
        annotations: Map::new(),
        owner: None,
        containers: vec![container_spec(app, "nginx:1.27", Some(80), "100m", "128Mi")],
        init_containers: Vec::new(),
        restart_policy: "Always".into(),
        node: node.into(),
        host_ip: format!("10.0.0.{}", 10u8.saturating_add(node_number)),
        pod_ip: format!("10.244.{}.{}", (ip_seed >> 8) % 250, ip_seed % 250 + 2),
        created: now,
        manager: "kubectl-run".into(),
    };
    blueprint.render(
        &PodStage::Running {
            restarts: 0,
            last_restart: None,
        },
        now,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::time::Duration;

    fn now() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000)
    }

    #[test]
    fn world_is_deterministic_for_a_seed() {
        let first: Vec<Value> = seed_world(7, now()).into_iter().map(|o| o.object).collect();
        let again: Vec<Value> = seed_world(7, now()).into_iter().map(|o| o.object).collect();
        let other: Vec<Value> = seed_world(8, now()).into_iter().map(|o| o.object).collect();
        assert_eq!(first, again);
        assert_ne!(first, other);
    }

    #[test]
    fn world_has_every_resource_of_the_catalog() {
        let world = seed_world(1, now());
        let resources: BTreeSet<&str> = world.iter().map(|o| o.resource).collect();
        let expected: BTreeSet<&str> = [
            "pods",
            "nodes",
            "namespaces",
            "services",
            "endpoints",
            "configmaps",
            "secrets",
            "persistentvolumeclaims",
            "events",
            "deployments",
            "replicasets",
            "widgets",
        ]
        .into_iter()
        .collect();
        assert_eq!(resources, expected);
    }

    #[test]
    fn every_object_is_identified_and_has_no_resource_version() {
        let world = seed_world(1, now());
        let mut seen = BTreeSet::new();
        for item in &world {
            let metadata = &item.object["metadata"];
            assert!(item.object["apiVersion"].is_string() && item.object["kind"].is_string());
            assert!(metadata.get("resourceVersion").is_none());
            let name = metadata["name"].as_str().unwrap_or("");
            let namespace = metadata["namespace"].as_str().unwrap_or("");
            assert!(!name.is_empty());
            assert!(
                seen.insert((item.resource, namespace.to_string(), name.to_string())),
                "duplicate {name}"
            );
            let created = metadata["creationTimestamp"].as_str().unwrap_or("");
            let at = humantime::parse_rfc3339(created).expect("timestamp");
            assert!(at <= now());
            assert_eq!(metadata["uid"].as_str().map(str::len), Some(36));
        }
    }

    #[test]
    fn replicaset_pods_are_owned_and_labelled() {
        let world = seed_world(3, now());
        let replicasets: Vec<&Value> = world
            .iter()
            .filter(|o| o.resource == "replicasets")
            .map(|o| &o.object)
            .collect();
        for rs in replicasets {
            let rs_name = rs["metadata"]["name"].as_str().unwrap_or("");
            let owned: Vec<&Value> = world
                .iter()
                .filter(|o| {
                    o.resource == "pods"
                        && o.object["metadata"]["ownerReferences"][0]["name"] == rs_name
                })
                .map(|o| &o.object)
                .collect();
            assert_eq!(Some(owned.len() as u64), rs["spec"]["replicas"].as_u64());
            for pod in owned {
                assert_eq!(
                    pod["metadata"]["labels"]["pod-template-hash"],
                    rs["metadata"]["labels"]["pod-template-hash"]
                );
                assert!(pod["metadata"]["name"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with(&format!("{rs_name}-")));
            }
        }
    }

    /// Every field path (objects only, arrays looked into at their first item) of `value`.
    fn field_paths(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let path = format!("{prefix}.{key}");
                    out.insert(path.clone());
                    field_paths(child, &path, out);
                }
            }
            Value::Array(items) => {
                if let Some(first) = items.first() {
                    field_paths(first, &format!("{prefix}[]"), out);
                }
            }
            _ => {}
        }
    }

    /// Our objects carry at least the fields real `kubectl get -o json` output has (apart from
    /// the store-assigned and legacy ones), so code written against them meets real shapes.
    #[test]
    fn objects_have_the_fields_of_the_real_fixtures() {
        let world = seed_world(1, now());
        let find = |resource: &str, name: &str| {
            world
                .iter()
                .find(|o| o.resource == resource && o.object["metadata"]["name"] == name)
                .map(|o| o.object.clone())
                .unwrap_or(Value::Null)
        };
        let store_assigned = [
            ".metadata.resourceVersion",
            ".metadata.selfLink",
            ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration",
        ];
        let cases = [
            (
                include_str!("../../fixtures/po_sidecar.json"),
                find("pods", "mesh-demo"),
            ),
            (
                include_str!("../../fixtures/no.json"),
                find("nodes", "node-1"),
            ),
            (
                include_str!("../../fixtures/dp.json"),
                find("deployments", "web"),
            ),
            (
                include_str!("../../fixtures/svc.json"),
                find("services", "web"),
            ),
            (
                include_str!("../../fixtures/pvc.json"),
                find("persistentvolumeclaims", "web-data"),
            ),
            (
                include_str!("../../fixtures/ns.json"),
                find("namespaces", "kube-system"),
            ),
        ];
        for (fixture, ours) in cases {
            let real: Value = serde_json::from_str(fixture).expect("fixture parses");
            let (mut wanted, mut have) = (BTreeSet::new(), BTreeSet::new());
            field_paths(&real, "", &mut wanted);
            field_paths(&ours, "", &mut have);
            let missing: Vec<&String> = wanted
                .iter()
                .filter(|path| !have.contains(*path))
                .filter(|path| !store_assigned.iter().any(|skip| path.starts_with(skip)))
                // Free-form maps whose keys differ per object.
                .filter(|path| {
                    path.as_str() != ".metadata.annotations"
                        && !path.starts_with(".metadata.labels.")
                        && !path.starts_with(".metadata.annotations.")
                        && !path.contains(".selector.")
                        && !path.contains(".labels.")
                        && !path.contains(".matchLabels.")
                })
                // Optional fields the fixtures' objects happen to use and ours do not.
                .filter(|path| {
                    !path.contains(".command")
                        && !path.ends_with(".limits.cpu")
                        && !path.contains(".env")
                        && !path.contains(".dataSource")
                        && !path.contains(".ports[].name")
                })
                .collect();
            assert!(missing.is_empty(), "{} lacks {missing:?}", real["kind"]);
        }
    }

    #[test]
    fn flood_pod_is_three_to_four_kilobytes() {
        let pod = pod("default", "flood-00042", "node-2", now());
        let size = serde_json::to_string(&pod).map(|s| s.len()).unwrap_or(0);
        assert!((3000..=4500).contains(&size), "pod is {size} bytes");
        assert_eq!(pod["status"]["phase"], "Running");
        assert_eq!(pod["spec"]["nodeName"], "node-2");
        assert_eq!(pod["status"]["hostIP"], "10.0.0.12");
    }
}
