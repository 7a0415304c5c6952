//! Everything needed to talk to one API server, as kubectl does: the kubeconfig, flags and
//! environment resolved into settings (config, with auth and exec plugins), the HTTP/TLS client
//! that sends each context's credentials only to its own server (client), and the API's types
//! learnt once and cached (discovery); a container's log as a stream (pod_log).

pub mod client;
pub mod config;
pub mod discovery;
pub mod pod_log;
