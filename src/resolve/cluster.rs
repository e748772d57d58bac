//! Kubernetes manifests as a GitOps repository holds them: CatalogSources,
//! OperatorGroups, Subscriptions and installed ClusterServiceVersions, read from
//! multi-document YAML or JSON (a `List`'s items included).

use std::path::Path;

use serde_json::Value;

use super::resolver::{Namespace, Subscription};
use super::source::Installed;
use crate::go::semver::Version;

/// A CatalogSource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CatalogSource {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) priority: i64,
    pub(crate) image: String,
}

/// Everything the manifests describe.
#[derive(Debug, Default)]
pub(crate) struct Cluster {
    pub(crate) catalogs: Vec<CatalogSource>,
    /// Namespaces with an OperatorGroup, a Subscription or a CSV, in order of
    /// appearance.
    pub(crate) namespaces: Vec<Namespace>,
}

/// Kubernetes' default namespace for an object without one.
const DEFAULT_NAMESPACE: &str = "default";
const PROPERTIES_ANNOTATION: &str = "operatorframework.io/properties";
const EXCLUDE_GLOBAL: &str = "olm.operatorframework.io/exclude-global-namespace-resolution";

impl Cluster {
    pub(crate) fn namespace(&mut self, name: &str) -> &mut Namespace {
        if let Some(index) = self.namespaces.iter().position(|n| n.name == name) {
            return &mut self.namespaces[index];
        }
        self.namespaces.push(Namespace {
            name: name.to_owned(),
            ..Namespace::default()
        });
        self.namespaces.last_mut().expect("just pushed")
    }

    /// Reads one manifest file (`-`: stdin).
    pub(crate) fn read(&mut self, path: &Path) -> Result<(), String> {
        let stdin = path == Path::new("-");
        let shown = if stdin {
            Path::new("<stdin>").display()
        } else {
            path.display()
        };
        let bytes = if stdin {
            crate::files::limits::read_stdin()
        } else {
            crate::files::limits::read_file(path)
        }
        .map_err(|error| format!("{shown}: {error}"))?;
        let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8 text"))?;
        let documents = crate::catalog::manifest_documents(&text)
            .map_err(|(message, (line, column))| format!("{shown}:{line}:{column}: {message}"))?;
        let mut csvs = Vec::new();
        for document in documents {
            self.object(&document, &mut csvs)
                .map_err(|error| format!("{shown}: {error}"))?;
        }
        for (namespace, csv) in csvs {
            self.namespace(&namespace).installed.push(csv);
        }
        Ok(())
    }

    fn object(
        &mut self,
        object: &Value,
        csvs: &mut Vec<(String, Installed)>,
    ) -> Result<(), String> {
        let kind = text(object, &["kind"]);
        if kind == "List" {
            for item in object
                .get("items")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.object(item, csvs)?;
            }
            return Ok(());
        }
        let group = text(object, &["apiVersion"]);
        if !group.starts_with("operators.coreos.com/") {
            return Ok(());
        }
        let name = text(object, &["metadata", "name"]);
        let namespace = match text(object, &["metadata", "namespace"]) {
            "" => DEFAULT_NAMESPACE,
            namespace => namespace,
        };
        if name.is_empty() && kind != "OperatorGroup" {
            return Err(format!("a {kind} without metadata.name"));
        }
        match kind {
            "CatalogSource" => {
                let priority = match object.pointer("/spec/priority") {
                    None | Some(Value::Null) => 0,
                    Some(value) => value
                        .as_f64()
                        .filter(|n| n.fract() == 0.0)
                        .map(|n| n as i64)
                        .ok_or_else(|| {
                            format!("CatalogSource {name}: spec.priority is not an integer")
                        })?,
                };
                self.catalogs.push(CatalogSource {
                    name: name.to_owned(),
                    namespace: namespace.to_owned(),
                    priority,
                    image: text(object, &["spec", "image"]).to_owned(),
                });
            }
            "OperatorGroup" => {
                let exclude = object
                    .pointer("/metadata/annotations")
                    .and_then(|a| a.get(EXCLUDE_GLOBAL))
                    .and_then(Value::as_str)
                    == Some("true");
                let target = self.namespace(namespace);
                target.operator_groups += 1;
                target.exclude_global |= exclude;
            }
            "Subscription" => {
                let subscription = Subscription {
                    name: name.to_owned(),
                    namespace: namespace.to_owned(),
                    package: text(object, &["spec", "name"]).to_owned(),
                    channel: text(object, &["spec", "channel"]).to_owned(),
                    starting_csv: text(object, &["spec", "startingCSV"]).to_owned(),
                    source: text(object, &["spec", "source"]).to_owned(),
                    source_namespace: text(object, &["spec", "sourceNamespace"]).to_owned(),
                    installed_csv: text(object, &["status", "installedCSV"]).to_owned(),
                };
                if subscription.package.is_empty() {
                    return Err(format!(
                        "Subscription {name}: spec.name (the package) is missing"
                    ));
                }
                self.namespace(namespace).subscriptions.push(subscription);
            }
            "ClusterServiceVersion" => {
                if let Some(csv) = installed(object, name)? {
                    csvs.push((namespace.to_owned(), csv));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Marks CSVs no Subscription manages, and infers the package of those
    /// without a properties annotation from the Subscription that installed them.
    pub(crate) fn settle(&mut self) {
        for namespace in &mut self.namespaces {
            let subscriptions = namespace.subscriptions.clone();
            for csv in &mut namespace.installed {
                let mut packages: Vec<&str> = subscriptions
                    .iter()
                    .filter(|s| s.installed_csv == csv.name)
                    .map(|s| s.package.as_str())
                    .collect();
                csv.freestanding = packages.is_empty();
                packages.sort_unstable();
                packages.dedup();
                // OLM infers the package of a CSV without the annotation when its
                // Subscriptions name exactly one.
                if let [package] = packages[..]
                    && !csv.annotated
                {
                    let version = if csv.version == Version::default() {
                        String::new()
                    } else {
                        csv.version.to_string()
                    };
                    csv.properties.push((
                        "olm.package".to_owned(),
                        serde_json::json!({"packageName": package, "version": version}),
                    ));
                }
                if csv.package.is_empty() {
                    csv.package = package_of(&csv.properties);
                }
            }
        }
    }
}

fn text<'v>(value: &'v Value, path: &[&str]) -> &'v str {
    let mut current = value;
    for key in path {
        match current.get(key) {
            Some(next) => current = next,
            None => return "",
        }
    }
    current.as_str().unwrap_or("")
}

fn package_of(properties: &[(String, Value)]) -> String {
    properties
        .iter()
        .rev()
        .find(|(kind, _)| kind == "olm.package")
        .and_then(|(_, value)| value.get("packageName")?.as_str())
        .unwrap_or("")
        .to_owned()
}

/// An installed CSV (`None` for a copy in another namespace).
fn installed(object: &Value, name: &str) -> Result<Option<Installed>, String> {
    let copied = object
        .pointer("/metadata/labels")
        .and_then(|l| l.get("olm.copiedFrom"))
        .is_some()
        || text(object, &["status", "reason"]) == "Copied";
    if copied {
        return Ok(None);
    }
    let version_text = text(object, &["spec", "version"]);
    let version = if version_text.is_empty() {
        Version::default()
    } else {
        Version::parse_tolerant(version_text)
            .map_err(|error| format!("ClusterServiceVersion {name}: spec.version: {error}"))?
    };
    let annotation = object
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(PROPERTIES_ANNOTATION));
    let properties = match annotation {
        Some(annotation) => {
            let text = annotation.as_str().ok_or_else(|| {
                format!("ClusterServiceVersion {name}: the annotation {PROPERTIES_ANNOTATION} is not a string")
            })?;
            let parsed: Value = serde_json::from_str(text).map_err(|error| {
                format!(
                    "ClusterServiceVersion {name}: the annotation {PROPERTIES_ANNOTATION}: {error}"
                )
            })?;
            parsed
                .get("properties")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|p| {
                    (
                        p.get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        p.get("value").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect()
        }
        None => inferred_properties(object),
    };
    Ok(Some(Installed {
        name: name.to_owned(),
        package: package_of(&properties),
        version,
        properties,
        annotated: annotation.is_some(),
        freestanding: false,
    }))
}

/// Without the annotation: an `olm.gvk` per owned CRD and `APIService`, an
/// `olm.gvk.required` per required one.
fn inferred_properties(object: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (section, kind) in [("owned", "olm.gvk"), ("required", "olm.gvk.required")] {
        for crd in object
            .pointer(&format!("/spec/customresourcedefinitions/{section}"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = text(crd, &["name"]);
            let group = name.split_once('.').map_or("", |(_, group)| group);
            out.push((
                kind.to_owned(),
                serde_json::json!({"group": group, "kind": text(crd, &["kind"]), "version": text(crd, &["version"])}),
            ));
        }
        for api in object
            .pointer(&format!("/spec/apiservicedefinitions/{section}"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.push((
                kind.to_owned(),
                serde_json::json!({"group": text(api, &["group"]), "kind": text(api, &["kind"]), "version": text(api, &["version"])}),
            ));
        }
    }
    out
}
