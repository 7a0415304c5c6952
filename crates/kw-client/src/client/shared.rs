//! What the clients of one run share, however many contexts it watches: the TLS configurations,
//! one per trust setting (`tls::Configs`), and the permits of exec credential plugins, so that a
//! fleet whose every context runs a plugin runs a few at a time, not a thousand at once.

use std::sync::Arc;
use std::time::Duration;

use crate::client::tls;
use kw_base::permits::Permits;

/// How many exec credential plugins run at once.
const PLUGINS_AT_ONCE: usize = 4;
/// How long a plugin run counts against that: one that waits longer (for a login in a browser)
/// lets the next one start.
const PLUGIN_PATIENCE: Duration = Duration::from_secs(10);

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
