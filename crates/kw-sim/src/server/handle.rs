//! [`start`] and [`SimHandle`], the in-process API that tests and `kw demo` drive: the
//! certificates, the seeded store, the loopback listener and its accept thread (connections are
//! `connection`'s), churn, and what a test does to a running server (objects, faults, dropped
//! connections, a restart). Stopping closes the listener and every connection.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use serde_json::Value;

use super::certs::{self, Certs};
use super::connection::accept_loop;
use super::drivers;
use super::kubeconfig::{self, KubeconfigInputs};
use super::listener;
use crate::api::auth::Tokens;
use crate::api::flood_data::FloodData;
use crate::api::shared::{RequestRecord, Shared};
use crate::config::SimConfig;
use crate::error::SimError;
use crate::faults::{FaultState, Faults};
use crate::world::objects;
use crate::world::rollout::Rollout;
use crate::world::store::{Change, Store};

/// A running simulator. Dropping it stops it.
pub struct SimHandle {
    shared: Arc<Shared>,
    certs: Certs,
    /// The server certificate's names, for certificates made anew (`restart_with_new_ca`).
    server_names: Vec<String>,
    url: String,
    port: u16,
    ip: std::net::IpAddr,
    accept_thread: Option<JoinHandle<()>>,
    churn_thread: Option<JoinHandle<()>>,
}

/// Start a simulator: certificates, the seeded store, the listener, churn.
pub fn start(config: SimConfig) -> Result<SimHandle, SimError> {
    let server_names = config
        .server_names
        .clone()
        .unwrap_or_else(|| certs::DEFAULT_SERVER_NAMES.map(String::from).to_vec());
    let certs = Certs::generate(&server_names, config.server_cert_expired)?;
    let ip: std::net::IpAddr = if config.ipv6 {
        std::net::Ipv6Addr::LOCALHOST.into()
    } else {
        std::net::Ipv4Addr::LOCALHOST.into()
    };
    let tls_config = if config.tls {
        Some(certs.server_config()?)
    } else {
        None
    };
    let listener =
        listener::bind(SocketAddr::new(ip, config.port)).map_err(|source| SimError::Listen {
            port: config.port,
            source,
        })?;
    let port = listener.local_addr()?.port();
    let store = Store::new(config.history, config.seed, config.clock);
    let now = store.now();
    let world = if config.empty {
        Vec::new()
    } else {
        objects::seed_world(config.seed, now)
    };
    for namespace in ["default", "kube-system", "kube-public", "team-a"] {
        let _ = store.create(
            "namespaces",
            serde_json::json!({"metadata": {"name": namespace}, "status": {"phase": "Active"}}),
        );
    }
    for seed in &world {
        // The seed may repeat a namespace created above; everything else is new.
        let _ = store.create(seed.resource, seed.object.clone());
    }
    let flood = config.flood.map(|flood| FloodData::build(flood, now));
    let shared = Arc::new(Shared {
        store,
        faults: FaultState::new(config.faults.clone()),
        tokens: Tokens::random(),
        address: SocketAddr::new(ip, port).to_string(),
        bookmark_interval: config.bookmark_interval,
        max_watch: config.max_watch,
        tables: !config.no_tables,
        crds: !config.no_crds,
        aggregated_discovery: !config.no_aggregated_discovery,
        down_groups: config.down_groups.clone(),
        shutdown: AtomicBool::new(false),
        logs: Default::default(),
        last_bookmark: AtomicU64::new(0),
        stop_accepting: AtomicBool::new(false),
        flood,
        anonymous_is_admin: !config.tls,
        requests: Mutex::new(VecDeque::new()),
        server_names: Mutex::new(VecDeque::new()),
        connections: Mutex::new(HashMap::new()),
        next_connection: AtomicU64::new(0),
        controllers: Default::default(),
        controller_beat: config.controller_beat,
    });
    let accept_shared = Arc::clone(&shared);
    let accept_thread = std::thread::Builder::new()
        .name("sim-accept".into())
        .spawn(move || accept_loop(&accept_shared, &listener, tls_config))?;
    let churn_thread = match config.churn {
        Some(rate) => Some(drivers::spawn_churn(
            Arc::clone(&shared),
            config.seed,
            world,
            rate,
        )?),
        None => None,
    };
    drivers::spawn_controllers(Arc::clone(&shared))?;
    let scheme = if config.tls { "https" } else { "http" };
    Ok(SimHandle {
        shared,
        certs,
        server_names,
        url: format!("{scheme}://{}", SocketAddr::new(ip, port)),
        port,
        ip,
        accept_thread: Some(accept_thread),
        churn_thread,
    })
}

impl SimHandle {
    /// `https://127.0.0.1:PORT` (or `http://` without TLS).
    pub fn url(&self) -> String {
        self.url.clone()
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The kubeconfig YAML for this server (contexts sim, sim-cert, sim-limited, sim-bad-token).
    pub fn kubeconfig(&self) -> String {
        kubeconfig::render(&KubeconfigInputs {
            server_url: &self.url,
            ca_pem: &self.certs.ca_pem,
            client_cert_pem: &self.certs.client_cert_pem,
            client_key_pem: &self.certs.client_key_pem,
            tokens: &self.shared.tokens,
        })
    }

    /// Write the kubeconfig (it holds the sim's tokens and client key) readable by the owner
    /// only: created exclusively with mode 0600 beside `path`, then renamed onto it, so a file
    /// or symlink another user planted there is replaced, never written through.
    pub fn write_kubeconfig(&self, path: &Path) -> Result<(), SimError> {
        let error = |source| SimError::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut temp_name = path.as_os_str().to_owned();
        temp_name.push(format!(".{}.tmp", std::process::id()));
        let temp = std::path::PathBuf::from(temp_name);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options
            .open(&temp)
            .and_then(|mut file| file.write_all(self.kubeconfig().as_bytes()))
            .and_then(|()| std::fs::rename(&temp, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        written.map_err(error)
    }

    /// The bearer token of the `admin` user (full access).
    pub fn admin_token(&self) -> String {
        self.shared.tokens.admin.clone()
    }

    /// The bearer token of the `limited` user (namespace team-a only).
    pub fn limited_token(&self) -> String {
        self.shared.tokens.limited.clone()
    }

    /// The CA certificate that signed the server (and client) certificates, PEM.
    pub fn ca_pem(&self) -> String {
        self.certs.ca_pem.clone()
    }

    /// The client certificate (CN cert-user, O system:masters) and its key, PEM.
    pub fn client_cert_pem(&self) -> (String, String) {
        (
            self.certs.client_cert_pem.clone(),
            self.certs.client_key_pem.clone(),
        )
    }

    /// Create an object; returns it as stored (resourceVersion, uid, creationTimestamp set).
    pub fn create(&self, resource: &str, object: Value) -> Result<Value, SimError> {
        self.shared.store.create(resource, object)
    }

    pub fn update(&self, resource: &str, object: Value) -> Result<Value, SimError> {
        self.shared.store.update(resource, object)
    }

    pub fn delete(&self, resource: &str, namespace: &str, name: &str) -> Result<Value, SimError> {
        self.shared.store.delete(resource, namespace, name)
    }

    /// Act out `rollout` (see `rollout`) in a thread of its own, from now.
    pub fn play_rollout(&self, rollout: &Rollout) -> Result<(), SimError> {
        let seed = self.shared.store.seed();
        drivers::spawn_rollout(Arc::clone(&self.shared), seed, rollout)?;
        Ok(())
    }

    /// Current objects of a resource, sorted by namespace/name.
    pub fn objects(&self, resource: &str) -> Vec<Value> {
        self.shared.store.objects(resource)
    }

    /// Every change ever made, oldest first.
    pub fn changes(&self) -> Vec<Change> {
        self.shared.store.changes()
    }

    pub fn current_resource_version(&self) -> u64 {
        self.shared.store.current_resource_version()
    }

    /// The highest resourceVersion a watch bookmark has carried so far (0: none yet).
    pub fn last_bookmark(&self) -> u64 {
        self.shared.last_bookmark.load(Ordering::SeqCst)
    }

    /// Forget watch history and list snapshots: older RVs and continue tokens get 410.
    pub fn compact(&self) {
        self.shared.store.compact()
    }

    /// Replace the injected faults (their counts restart).
    pub fn set_faults(&self, faults: Faults) {
        self.shared.faults.set(faults)
    }

    /// How many times each injected fault has fired so far (across [`SimHandle::set_faults`]).
    pub fn faults_fired(&self) -> crate::FaultsFired {
        self.shared.faults.fired_so_far()
    }

    /// The server name (SNI) of each TLS handshake so far, in order (the last 10 000).
    pub fn tls_server_names(&self) -> Vec<Option<String>> {
        let names = self
            .shared
            .server_names
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        names.iter().cloned().collect()
    }

    /// The requests served so far (the last 10 000).
    pub fn requests(&self) -> Vec<RequestRecord> {
        let requests = self
            .shared
            .requests
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        requests.iter().cloned().collect()
    }

    /// Cut every open connection (watches included) without a goodbye, as a network failure
    /// or a load balancer would; the listener stays up.
    pub fn drop_connections(&self) {
        self.shared.store.close_watchers();
        for (_, stream) in self.shared.lock_connections().drain() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Act out an API server restart: close the listener and every connection, stay down for
    /// `down_for` (connections refused), then listen on the same port again with the same state
    /// and credentials (as a restarted server backed by the same etcd would). The port is held
    /// throughout (`listener::reserve`), so nothing else can take it while the server is down.
    pub fn restart(&mut self, down_for: Duration) -> Result<(), SimError> {
        let address = SocketAddr::new(self.ip, self.port);
        let tls_config = if self.url.starts_with("https") {
            Some(self.certs.server_config()?)
        } else {
            None
        };
        let reserved = listener::reserve(address).map_err(|source| SimError::Listen {
            port: self.port,
            source,
        })?;
        self.shared.stop_accepting.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect_timeout(&address, Duration::from_secs(1));
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
        self.drop_connections();
        std::thread::sleep(down_for);
        self.shared.stop_accepting.store(false, Ordering::SeqCst);
        let listener = reserved.listen().map_err(|source| SimError::Listen {
            port: self.port,
            source,
        })?;
        let shared = Arc::clone(&self.shared);
        self.accept_thread = Some(
            std::thread::Builder::new()
                .name("sim-accept".into())
                .spawn(move || accept_loop(&shared, &listener, tls_config))?,
        );
        Ok(())
    }

    /// As [`SimHandle::restart`], but the server comes back with certificates from a CA made
    /// anew under the same name (a cluster set up again on the same address), which the
    /// kubeconfigs written before no longer trust. `ca_pem` is the new CA from then on.
    pub fn restart_with_new_ca(&mut self, down_for: Duration) -> Result<(), SimError> {
        self.certs = Certs::generate(&self.server_names, false)?;
        self.restart(down_for)
    }

    /// Close the listener and every connection.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        if self.shared.shutdown.swap(true, Ordering::SeqCst) {
            return;
        }
        self.shared.store.close_watchers();
        // Wake the accept loop so it sees the flag.
        let address = SocketAddr::new(self.ip, self.port);
        let _ = TcpStream::connect_timeout(&address, Duration::from_secs(1));
        for (_, stream) in self.shared.lock_connections().drain() {
            let _ = stream.shutdown(Shutdown::Both);
        }
        if let Some(thread) = self.accept_thread.take() {
            let _ = thread.join();
        }
        if let Some(thread) = self.churn_thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for SimHandle {
    fn drop(&mut self) {
        self.shut_down();
    }
}
