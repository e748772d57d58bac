//! Registry credentials, from the files podman and docker write: `REGISTRY_AUTH_FILE`,
//! `$XDG_RUNTIME_DIR/containers/auth.json`, then `$DOCKER_CONFIG/config.json`
//! (`~/.docker/config.json` without `DOCKER_CONFIG`). The first
//! file with an entry for the registry wins (an `auths` entry, or a credential
//! helper named by `credHelpers` or `credsStore`); without one the pull is
//! anonymous (the registry's token flow still runs).

use std::path::PathBuf;

use oci_client::secrets::RegistryAuth;
use serde_json::Value;

pub(super) fn for_registry(registry: &str) -> Result<RegistryAuth, String> {
    for path in auth_files() {
        let bytes = match crate::files::limits::read_file(&path) {
            Ok(bytes) => bytes,
            // No file (or an unreadable one): the next, as podman and docker do.
            Err(crate::files::limits::ReadError::Io(_)) => continue,
            Err(refused) => return Err(format!("{}: {refused}", path.display())),
        };
        let config: Value = serde_json::from_slice(&bytes)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        if let Some(auth) =
            entry(&config, registry).map_err(|error| format!("{}: {error}", path.display()))?
        {
            return Ok(auth);
        }
        if let Some(helper) = helper(&config, registry) {
            return from_helper(&helper, registry);
        }
    }
    Ok(RegistryAuth::Anonymous)
}

/// The credential helper for a registry: `credHelpers[registry]`, else `credsStore`.
fn helper(config: &Value, registry: &str) -> Option<String> {
    let named = config
        .get("credHelpers")
        .and_then(|helpers| helpers.get(registry))
        .or_else(|| config.get("credsStore"));
    named.and_then(Value::as_str).map(str::to_owned)
}

/// Asks `docker-credential-<helper> get` for the registry's credentials.
fn from_helper(helper: &str, registry: &str) -> Result<RegistryAuth, String> {
    use std::io::Write as _;
    let program = format!("docker-credential-{helper}");
    let failed = |error: std::io::Error| format!("{program}: {error}");
    let mut child = std::process::Command::new(&program)
        .arg("get")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(failed)?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(registry.as_bytes()).map_err(failed)?;
    }
    let output = child.wait_with_output().map_err(failed)?;
    if !output.status.success() {
        // The helper has nothing for this registry: pull anonymously.
        return Ok(RegistryAuth::Anonymous);
    }
    let reply: Value =
        serde_json::from_slice(&output.stdout).map_err(|error| format!("{program}: {error}"))?;
    let field = |name| reply.get(name).and_then(Value::as_str).unwrap_or_default();
    Ok(RegistryAuth::Basic(
        field("Username").to_owned(),
        field("Secret").to_owned(),
    ))
}

fn auth_files() -> Vec<PathBuf> {
    files_from(|name| std::env::var_os(name).filter(|value| !value.is_empty()))
}

/// The credential files, in the order they are read, from the variables `var` gives.
fn files_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if let Some(file) = var("REGISTRY_AUTH_FILE") {
        files.push(PathBuf::from(file));
    }
    if let Some(runtime) = var("XDG_RUNTIME_DIR") {
        files.push(PathBuf::from(runtime).join("containers/auth.json"));
    }
    // Docker's own: $DOCKER_CONFIG/config.json, else ~/.docker/config.json.
    if let Some(directory) = var("DOCKER_CONFIG") {
        files.push(PathBuf::from(directory).join("config.json"));
    } else if let Some(home) = var("HOME") {
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
    #[test]
    fn docker_config_replaces_the_home_directory_file() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let files = super::files_from(env(&[
            ("HOME", "/home/u"),
            ("DOCKER_CONFIG", "/etc/docker-cfg"),
        ]));
        assert_eq!(
            files,
            [std::path::PathBuf::from("/etc/docker-cfg/config.json")]
        );
        let files = super::files_from(env(&[
            ("HOME", "/home/u"),
            ("REGISTRY_AUTH_FILE", "/a.json"),
            ("XDG_RUNTIME_DIR", "/run/u"),
        ]));
        assert_eq!(
            files,
            [
                "/a.json",
                "/run/u/containers/auth.json",
                "/home/u/.docker/config.json"
            ]
            .map(std::path::PathBuf::from)
        );
    }

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

    #[test]
    fn helpers_are_chosen_per_registry() {
        let config = json!({"credHelpers": {"gcr.io": "gcloud"}, "credsStore": "desktop"});
        assert_eq!(helper(&config, "gcr.io").as_deref(), Some("gcloud"));
        assert_eq!(helper(&config, "quay.io").as_deref(), Some("desktop"));
        assert_eq!(helper(&json!({}), "quay.io"), None);
    }

    #[test]
    fn a_missing_helper_is_an_error_naming_it() {
        let error = from_helper("fbc-test-missing", "quay.io").expect_err("no such helper");
        assert!(
            error.starts_with("docker-credential-fbc-test-missing: "),
            "{error}"
        );
    }
}
