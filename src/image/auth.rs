//! Registry credentials, from the files podman and docker write: `REGISTRY_AUTH_FILE`,
//! `$XDG_RUNTIME_DIR/containers/auth.json`, then `~/.docker/config.json`. The first
//! file with an entry for the registry wins; without one the pull is anonymous
//! (the registry's token flow still runs).

use std::path::PathBuf;

use oci_client::secrets::RegistryAuth;
use serde_json::Value;

pub(super) fn for_registry(registry: &str) -> Result<RegistryAuth, String> {
    for path in auth_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let config: Value =
            serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))?;
        if let Some(auth) =
            entry(&config, registry).map_err(|error| format!("{}: {error}", path.display()))?
        {
            return Ok(auth);
        }
    }
    Ok(RegistryAuth::Anonymous)
}

fn auth_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(file) = std::env::var_os("REGISTRY_AUTH_FILE") {
        files.push(PathBuf::from(file));
    }
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR") {
        files.push(PathBuf::from(runtime).join("containers/auth.json"));
    }
    if let Some(home) = std::env::var_os("HOME") {
        files.push(PathBuf::from(home).join(".docker/config.json"));
    }
    files
}

/// The `auths` entry for a registry: `auth` (base64 of `user:password`) or
/// `username` and `password`. Docker Hub is also stored under its index URL.
fn entry(config: &Value, registry: &str) -> Result<Option<RegistryAuth>, String> {
    let Some(auths) = config.get("auths").and_then(Value::as_object) else {
        return Ok(None);
    };
    let docker_hub = registry == "index.docker.io" || registry == "docker.io";
    let found = auths.iter().find(|(key, _)| {
        let host = key
            .trim_start_matches("https://")
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default();
        host == registry || (docker_hub && host.ends_with("docker.io"))
    });
    let Some((_, entry)) = found else {
        return Ok(None);
    };
    if let Some(encoded) = entry.get("auth").and_then(Value::as_str) {
        let decoded = crate::go::base64::decode(encoded.as_bytes())
            .map_err(|error| format!("auth for {registry}: {error}"))?;
        let text =
            String::from_utf8(decoded).map_err(|_| format!("auth for {registry} is not UTF-8"))?;
        let (user, password) = text
            .split_once(':')
            .ok_or_else(|| format!("auth for {registry} is not user:password"))?;
        return Ok(Some(RegistryAuth::Basic(
            user.to_owned(),
            password.to_owned(),
        )));
    }
    let field = |name| entry.get(name).and_then(Value::as_str).map(str::to_owned);
    Ok(field("username")
        .zip(field("password"))
        .map(|(user, password)| RegistryAuth::Basic(user, password)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_are_found_by_host() {
        let config = json!({"auths": {
            "https://quay.io/v1/": {"auth": "dXNlcjpwYXNz"},
            "registry.example.com": {"username": "a", "password": "b"},
            "https://index.docker.io/v1/": {"auth": "aHViOmh1Yg=="}
        }});
        let basic = |user: &str, password: &str| {
            Some(RegistryAuth::Basic(user.to_owned(), password.to_owned()))
        };
        assert_eq!(
            entry(&config, "quay.io").expect("valid"),
            basic("user", "pass")
        );
        assert_eq!(
            entry(&config, "registry.example.com").expect("valid"),
            basic("a", "b")
        );
        assert_eq!(
            entry(&config, "index.docker.io").expect("valid"),
            basic("hub", "hub")
        );
        assert_eq!(entry(&config, "ghcr.io").expect("valid"), None);
        assert!(entry(&json!({"auths": {"quay.io": {"auth": "!!"}}}), "quay.io").is_err());
    }
}
