//! What the clients of one run share, however many contexts it watches: the TLS configurations,
//! one per trust setting (`tls::Configs`), and the permits of exec credential plugins, so that a
//! fleet whose every context runs a plugin runs a few at a time, not a thousand at once.

use std::sync::Arc;
use std::time::Duration;

use crate::client::tls;
use kw_base::permits::Permits;

/// How many exec credential plugins run at once.
const PLUGINS_AT_ONCE: usize = 4;
/// How long a plugin run counts against that: about what a plugin takes to start and answer
/// (gke-gcloud-auth-plugin and kubelogin with a cached token: a tenth of a second; `aws eks
/// get-token`: under one). The limit is on plugins starting at once (a thousand interpreters
/// starting together), not on plugins waiting: one that runs longer (for a login in a
/// browser, or hung) lets the next one start, so N hung plugins hold the others up for N / 4
/// seconds at most (10 s of patience held a healthy fleet's first rows for 20, issue 61).
const PLUGIN_PATIENCE: Duration = Duration::from_secs(1);

/// Shared by the clients of one run (`Client::sharing`).
pub struct Shared {
    pub(super) tls: tls::Configs,
    pub(super) plugins: Arc<Permits>,
}

impl Default for Shared {
    fn default() -> Shared {
        Shared {
            tls: tls::Configs::default(),
            plugins: Arc::new(Permits::new(PLUGINS_AT_ONCE, PLUGIN_PATIENCE)),
        }
    }
}
