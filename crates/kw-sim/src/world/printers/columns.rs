//! Column definitions per resource, in the order, types and priorities a v1.32 kube-apiserver
//! sends (`pkg/printers/internalversion/printers.go`, `AddHandlers`). Descriptions are the API's
//! field documentation where upstream uses it, shortened in a few long cases.

use kw_wire::TableColumnDefinition;

pub const NAME: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
pub const CREATED: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const CONTAINERS: &str = "Names of each container in the template.";
const IMAGES: &str = "Images referenced by each container in the template.";

fn column(
    name: &str,
    column_type: &str,
    description: &str,
    priority: i32,
) -> TableColumnDefinition {
    TableColumnDefinition {
        name: name.into(),
        column_type: column_type.into(),
        format: String::new(),
        description: description.into(),
        priority,
    }
}

fn name_column(priority: i32) -> TableColumnDefinition {
    TableColumnDefinition {
        format: "name".into(),
        ..column("Name", "string", NAME, priority)
    }
}

fn age_column() -> TableColumnDefinition {
    column("Age", "string", CREATED, 0)
}

fn pods() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Ready", "string", "The aggregate readiness state of this pod for accepting traffic.", 0),
        column("Status", "string", "The aggregate status of the containers in this pod.", 0),
        column("Restarts", "string", "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.", 0),
        age_column(),
        column("IP", "string", "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.", 1),
        column("Node", "string", "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename", 1),
        column("Nominated Node", "string", "nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.", 1),
        column("Readiness Gates", "string", "If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to \"True\" More info: https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates", 1),
    ]
}

fn nodes() -> Vec<TableColumnDefinition> {
    let addresses = "List of addresses reachable to the node. Queried from cloud provider, if available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses";
    vec![
        name_column(0),
        column("Status", "string", "The status of the node", 0),
        column("Roles", "string", "The roles of the node", 0),
        age_column(),
        column("Version", "string", "Kubelet Version reported by the node.", 0),
        column("Internal-IP", "string", addresses, 1),
        column("External-IP", "string", addresses, 1),
        column("OS-Image", "string", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).", 1),
        column("Kernel-Version", "string", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
        column("Container-Runtime", "string", "ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).", 1),
    ]
}

fn namespaces() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Status", "string", "The status of the namespace", 0),
        age_column(),
    ]
}

fn services() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Type", "string", "type determines how the Service is exposed. Defaults to ClusterIP. Valid options are ExternalName, ClusterIP, NodePort, and LoadBalancer.", 0),
        column("Cluster-IP", "string", "clusterIP is the IP address of the service and is usually assigned randomly.", 0),
        column("External-IP", "string", "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.  These IPs are not managed by Kubernetes.", 0),
        column("Port(s)", "string", "The list of ports that are exposed by this service. More info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies", 0),
        age_column(),
        column("Selector", "string", "Route service traffic to pods with label keys and values matching this selector. If empty or not present, the service is assumed to have an external process managing its endpoints, which Kubernetes will not modify.", 1),
    ]
}

fn endpoints() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Endpoints", "string", "The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share.", 0),
        age_column(),
    ]
}

fn config_maps() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Data", "string", "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field.", 0),
        age_column(),
    ]
}

fn secrets() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Type", "string", "Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types", 0),
        column("Data", "string", "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string.", 0),
        age_column(),
    ]
}

fn claims() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Status", "string", "phase represents the current phase of PersistentVolumeClaim.", 0),
        column("Volume", "string", "volumeName is the binding reference to the PersistentVolume backing this claim.", 0),
        column("Capacity", "string", "capacity represents the actual resources of the underlying volume.", 0),
        column("Access Modes", "string", "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1", 0),
        column("StorageClass", "string", "StorageClass of the pvc", 0),
        column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc", 0),
        age_column(),
        column("VolumeMode", "string", "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.", 1),
    ]
}

fn events() -> Vec<TableColumnDefinition> {
    vec![
        column("Last Seen", "string", "The time at which the most recent occurrence of this event was recorded.", 0),
        column("Type", "string", "Type of this event (Normal, Warning), new types could be added in the future", 0),
        column("Reason", "string", "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.", 0),
        column("Object", "string", "The object that this event is about.", 0),
        column("Subobject", "string", "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].", 1),
        column("Source", "string", "The component reporting this event. Should be a short machine understandable string.", 1),
        column("Message", "string", "A human-readable description of the status of this operation.", 0),
        column("First Seen", "string", "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)", 1),
        column("Count", "string", "The number of times this event has occurred.", 1),
        name_column(1),
    ]
}

fn deployments() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Ready", "string", "Number of the pod with ready state", 0),
        column("Up-to-date", "string", "Total number of non-terminated pods targeted by this deployment that have the desired template spec.", 0),
        column("Available", "string", "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.", 0),
        age_column(),
        column("Containers", "string", CONTAINERS, 1),
        column("Images", "string", IMAGES, 1),
        column("Selector", "string", "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.", 1),
    ]
}

fn replica_sets() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Desired", "integer", "Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1.", 0),
        column("Current", "integer", "Replicas is the most recently observed number of replicas.", 0),
        column("Ready", "integer", "The number of ready replicas for this replica set.", 0),
        age_column(),
        column("Containers", "string", CONTAINERS, 1),
        column("Images", "string", IMAGES, 1),
        column("Selector", "string", "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template.", 1),
    ]
}

/// The Widget CRD's `additionalPrinterColumns`, behind the Name column every CRD table starts
/// with. CRD columns carry the description the CRD gives them (none here).
fn widgets() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column("Color", "string", "", 0),
        column("Size", "integer", "", 0),
        column("Phase", "string", "", 0),
        column("Age", "date", "", 0),
    ]
}

/// An `autoscaling/v1` Scale (`GET .../NAME/scale`).
fn scales() -> Vec<TableColumnDefinition> {
    vec![
        name_column(0),
        column(
            "Desired",
            "integer",
            "desired number of instances for the scaled object.",
            0,
        ),
        column(
            "Available",
            "integer",
            "actual number of observed instances of the scaled object.",
            0,
        ),
    ]
}

/// What the API server's default table convertor sends for a resource without printers.
fn default_columns() -> Vec<TableColumnDefinition> {
    vec![name_column(0), column("Created At", "date", CREATED, 0)]
}

pub fn for_resource(resource: &str) -> Vec<TableColumnDefinition> {
    match resource {
        "pods" => pods(),
        "nodes" => nodes(),
        "namespaces" => namespaces(),
        "services" => services(),
        "endpoints" => endpoints(),
        "configmaps" => config_maps(),
        "secrets" => secrets(),
        "persistentvolumeclaims" => claims(),
        "events" => events(),
        "deployments" => deployments(),
        "replicasets" => replica_sets(),
        "widgets" => widgets(),
        "scales" => scales(),
        _ => default_columns(),
    }
}
