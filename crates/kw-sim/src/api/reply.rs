//! What a request handler answers: a body with its status and headers, a watch to stream, a
//! followed log, or a flood to stream. `router` and `flood` build one; `server` writes it.

use kw_wire::Status;

use super::query::Rendering;
use super::watch::WatchRequest;

/// What to send back.
pub enum Reply {
    Body {
        status: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    Watch(Box<WatchRequest>),
    /// A followed container log (`pod_logs::follow`).
    LogFollow(Box<super::log_query::LogFollow>),
    FloodWatch {
        rendering: Rendering,
        /// Stream the flood list as ADDED events and the end bookmark first (`sendInitialEvents`).
        initial_events: bool,
    },
}

impl Reply {
    pub fn json(status: u16, value: &impl serde::Serialize) -> Reply {
        Reply::Body {
            status,
            headers: Vec::new(),
            body: serde_json::to_vec(value).unwrap_or_default(),
        }
    }

    /// A Status reply; its HTTP status is the Status's code.
    pub fn status(status: Status) -> Reply {
        let code = status.code;
        let mut headers = Vec::new();
        if code == 429 {
            headers.push(("Retry-After", "1".to_string()));
        }
        Reply::Body {
            status: code,
            headers,
            body: serde_json::to_vec(&status).unwrap_or_default(),
        }
    }
}
