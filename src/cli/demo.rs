//! `kw demo`'s flags, and the global flags it refuses (it runs its own cluster).

use clap::Args;

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Events per second the simulated cluster produces.
    #[arg(long, value_name = "RATE", default_value_t = 2.0)]
    pub churn: f64,

    /// Seed for the simulated cluster's churn (the same seed, the same story).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Act out a rollout in namespace default as the demo starts: PLOT is completes,
    /// image-pull, crash-loop, job-completes or job-fails; NAME defaults to PLOT. Repeatable.
    /// Try `kw demo --rollout image-pull:shop -- deploy/shop --until ready --fail-on failed`.
    #[arg(long, value_name = "PLOT[:NAME]")]
    pub rollout: Vec<String>,

    /// Arguments for `kw get` (default: `pods -A --watch --output-watch-events`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "GET ARGS"
    )]
    pub get_args: Vec<String>,
}

/// The global flags that choose a cluster or a credential, which `kw demo` refuses (it runs
/// its own cluster: `ConfigFlags::cluster_choice`); its help does not list them.
pub const DEMO_REFUSES: [&str; 15] = [
    "kubeconfig",
    "context",
    "all_contexts",
    "cluster",
    "user",
    "server",
    "token",
    "certificate_authority",
    "client_certificate",
    "client_key",
    "tls_server_name",
    "insecure_skip_tls_verify",
    "as_user",
    "as_group",
    "as_uid",
];
