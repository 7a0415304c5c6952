//! The kubeconfig written for a running sim: one cluster `sim` with the CA embedded, and the
//! contexts `sim` (admin token, current), `sim-cert` (client certificate), `sim-limited`
//! (namespace `team-a` only) and `sim-bad-token` (rejected with 401). Written by hand as YAML
//! text: every value is either fixed or base64/hex, so no quoting rules can bite.

use base64::Engine;

use crate::api::auth::{Tokens, LIMITED_NAMESPACE};

/// What goes into the kubeconfig.
pub struct KubeconfigInputs<'a> {
    pub server_url: &'a str,
    pub ca_pem: &'a str,
    pub client_cert_pem: &'a str,
    pub client_key_pem: &'a str,
    pub tokens: &'a Tokens,
}

fn base64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(text)
}

/// The kubeconfig YAML text.
pub fn render(inputs: &KubeconfigInputs<'_>) -> String {
    let contexts = [
        ("sim", "admin", "default"),
        ("sim-cert", "cert-user", "default"),
        ("sim-limited", "limited", LIMITED_NAMESPACE),
        ("sim-bad-token", "bad-token", "default"),
    ];
    let mut out = String::new();
    out.push_str("apiVersion: v1\nkind: Config\npreferences: {}\n");
    out.push_str("clusters:\n- name: sim\n  cluster:\n");
    out.push_str(&format!("    server: {}\n", inputs.server_url));
    if inputs.server_url.starts_with("https://") {
        out.push_str(&format!(
            "    certificate-authority-data: {}\n",
            base64(inputs.ca_pem)
        ));
    }
    out.push_str("contexts:\n");
    for (context, user, namespace) in contexts {
        out.push_str(&format!(
            "- name: {context}\n  context:\n    cluster: sim\n    user: {user}\n    namespace: {namespace}\n"
        ));
    }
    out.push_str("current-context: sim\nusers:\n");
    out.push_str(&format!(
        "- name: admin\n  user:\n    token: {}\n",
        inputs.tokens.admin
    ));
    out.push_str(&format!(
        "- name: cert-user\n  user:\n    client-certificate-data: {}\n    client-key-data: {}\n",
        base64(inputs.client_cert_pem),
        base64(inputs.client_key_pem)
    ));
    out.push_str(&format!(
        "- name: limited\n  user:\n    token: {}\n",
        inputs.tokens.limited
    ));
    out.push_str(&format!(
        "- name: bad-token\n  user:\n    token: {}\n",
        inputs.tokens.bad
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubeconfig_parses_as_yaml_with_all_contexts() {
        let tokens = Tokens {
            admin: "aaa".into(),
            limited: "lll".into(),
            bad: "bbb".into(),
        };
        let text = render(&KubeconfigInputs {
            server_url: "https://127.0.0.1:1234",
            ca_pem: "-----BEGIN CERTIFICATE-----\nxx\n-----END CERTIFICATE-----\n",
            client_cert_pem: "c",
            client_key_pem: "k",
            tokens: &tokens,
        });
        let parsed: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        assert_eq!(parsed["current-context"], "sim");
        let names: Vec<&str> = parsed["contexts"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(names, ["sim", "sim-cert", "sim-limited", "sim-bad-token"]);
        assert_eq!(parsed["contexts"][2]["context"]["namespace"], "team-a");
        assert_eq!(parsed["users"][0]["user"]["token"], "aaa");
    }
}
