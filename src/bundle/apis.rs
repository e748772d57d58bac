//! The APIs a bundle provides (its CRDs' versions and the CSV's owned API services)
//! and requires (the CSV's required CRDs and API services), with opm's checks.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

use super::csv::{Csv, DefinitionKey};
use super::decode::kind_of;

/// opm's `APIKey`; the derived order is the one Go's `fmt` sorts map keys by.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct ApiKey {
    pub(crate) group: String,
    pub(crate) version: String,
    pub(crate) kind: String,
    pub(crate) plural: String,
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}/{} ({})",
            self.group, self.version, self.kind, self.plural
        )
    }
}

/// A set of API keys.
pub(crate) type ApiSet = BTreeSet<ApiKey>;

/// An object's group, version and kind as `Unstructured.GroupVersionKind` reads
/// them: an `apiVersion` with more than one `/` yields nothing at all.
pub(crate) fn group_version_kind(object: &Map<String, Value>) -> (&str, &str, &str) {
    let api_version = object
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let kind = kind_of(object).unwrap_or_default();
    match api_version.split_once('/') {
        None => ("", api_version, kind),
        Some((_, version)) if version.contains('/') => ("", "", ""),
        Some((group, version)) => (group, version, kind),
    }
}

/// The API keys of every CRD object (v1 and v1beta1), decoded as opm decodes them.
/// The error names the index of the object that failed.
pub(crate) fn crd_apis(objects: &[Map<String, Value>]) -> Result<ApiSet, (usize, String)> {
    let mut apis = ApiSet::new();
    for (index, object) in objects.iter().enumerate() {
        let (group, version, kind) = group_version_kind(object);
        if kind != "CustomResourceDefinition" || !matches!(version, "v1" | "v1beta1") {
            continue;
        }
        decode_crd(object, group, version, &mut apis)
            .map_err(|error| (index, format!("error decoding {version} CRD: {error}")))?;
    }
    Ok(apis)
}

/// Reads the fields of a typed CRD that opm uses (field names are case-sensitive
/// for Kubernetes' decoder).
fn decode_crd(
    object: &Map<String, Value>,
    group: &str,
    version: &str,
    apis: &mut ApiSet,
) -> Result<(), String> {
    if group != "apiextensions.k8s.io" {
        let group_version = if group.is_empty() {
            version.to_owned()
        } else {
            format!("{group}/{version}")
        };
        // The scheme is named after the line that created it in opm's sources.
        return Err(format!(
            "no kind \"CustomResourceDefinition\" is registered for version \"{group_version}\" \
             in scheme \"pkg/registry/bundle.go:24\""
        ));
    }
    let spec = child(object, "spec", "CustomResourceDefinition", "spec")?;
    let text = |map: Option<&Map<String, Value>>, key: &str, owner: &str, path: &str| match map
        .and_then(|map| map.get(key))
    {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(field_mismatch(other, owner, path, "string")),
    };
    let crd_group = text(spec, "group", "CustomResourceDefinitionSpec", "spec.group")?;
    let names = match spec {
        Some(spec) => child(spec, "names", "CustomResourceDefinitionSpec", "spec.names")?,
        None => None,
    };
    let names_type = "CustomResourceDefinitionNames";
    let kind = text(names, "kind", names_type, "spec.names.kind")?;
    let plural = text(names, "plural", names_type, "spec.names.plural")?;
    let mut versions = Vec::new();
    match spec.and_then(|spec| spec.get("versions")) {
        None | Some(Value::Null) => {}
        Some(Value::Array(items)) => {
            for item in items {
                let entry = match item {
                    Value::Object(map) => Some(map),
                    Value::Null => None,
                    other => {
                        return Err(field_mismatch(
                            other,
                            "CustomResourceDefinitionSpec",
                            "spec.versions",
                            "v1.CustomResourceDefinitionVersion",
                        ));
                    }
                };
                versions.push(text(
                    entry,
                    "name",
                    "CustomResourceDefinitionVersion",
                    "spec.versions.name",
                )?);
            }
        }
        Some(other) => {
            return Err(field_mismatch(
                other,
                "CustomResourceDefinitionSpec",
                "spec.versions",
                "[]v1.CustomResourceDefinitionVersion",
            ));
        }
    }
    if version == "v1beta1" {
        let single = text(
            spec,
            "version",
            "CustomResourceDefinitionSpec",
            "spec.version",
        )?;
        if !single.is_empty() {
            versions.push(single);
        }
    }
    for version in versions {
        apis.insert(ApiKey {
            group: crd_group.clone(),
            version,
            kind: kind.clone(),
            plural: plural.clone(),
        });
    }
    Ok(())
}

fn child<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    owner: &str,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>, String> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(child)) => Ok(Some(child)),
        Some(other) => Err(field_mismatch(other, owner, path, "struct")),
    }
}

fn field_mismatch(value: &Value, owner: &str, path: &str, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go struct field {owner}.{path} of type {go_type}",
        crate::go::json_kind(value)
    )
}

fn definition_apis(keys: &[DefinitionKey]) -> impl Iterator<Item = ApiKey> + '_ {
    keys.iter().map(|key| ApiKey {
        group: key.group.clone(),
        version: key.version.clone(),
        kind: key.kind.clone(),
        plural: key.name.clone(),
    })
}

/// opm's `ProvidedAPIs`: the CRDs' APIs plus the CSV's owned API services.
pub(crate) fn provided(crds: &ApiSet, csv: &Csv<'_>) -> Result<ApiSet, String> {
    let (owned, _) = csv
        .spec()
        .map_err(|error| format!("error unmarshaling into object map: {error}"))
        .and_then(|_| csv.definitions("apiservicedefinitions"))
        .map_err(|error| format!("error getting apiservice definitions: {error}"))?;
    let mut apis = crds.clone();
    apis.extend(definition_apis(&owned));
    Ok(apis)
}

/// `plural.group` of a CRD name.
fn split_crd_name(key: &DefinitionKey) -> Result<(String, String), String> {
    key.name
        .split_once('.')
        .map(|(plural, group)| (plural.to_owned(), group.to_owned()))
        .ok_or_else(|| format!("couldn't parse plural.group from crd name: {}", key.name))
}

/// opm's `RequiredAPIs`: the CSV's required CRDs and API services.
pub(crate) fn required(csv: &Csv<'_>) -> Result<ApiSet, String> {
    let (_, crds) = csv.definitions("customresourcedefinitions")?;
    let mut apis = ApiSet::new();
    for crd in &crds {
        let (plural, group) = split_crd_name(crd)?;
        apis.insert(ApiKey {
            group,
            version: crd.version.clone(),
            kind: crd.kind.clone(),
            plural,
        });
    }
    let (_, services) = csv.definitions("apiservicedefinitions")?;
    apis.extend(definition_apis(&services));
    Ok(apis)
}

/// opm's `AllProvidedAPIsInBundle`: every owned CRD of the CSV has a CRD object.
pub(crate) fn check_owned_crds(provided: &ApiSet, csv: &Csv<'_>) -> Result<(), String> {
    let (owned, _) = csv.definitions("customresourcedefinitions")?;
    let mut expected = ApiSet::new();
    for crd in &owned {
        let (plural, group) = split_crd_name(crd)?;
        expected.insert(ApiKey {
            group,
            version: crd.version.clone(),
            kind: crd.kind.clone(),
            plural,
        });
    }
    // opm walks a Go map, so which missing API it names is random; fbc names the first.
    match expected.iter().find(|key| !provided.contains(key)) {
        None => Ok(()),
        Some(missing) => {
            let found: Vec<String> = provided.iter().map(|key| format!("{key}:{{}}")).collect();
            Err(format!(
                "couldn't find {missing} in bundle. found: map[{}]",
                found.join(" ")
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => panic!("an object"),
        }
    }

    #[test]
    fn crd_versions_are_provided() {
        let objects = vec![
            object(
                json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
                "spec": {"group": "example.com", "names": {"kind": "Foo", "plural": "foos"},
                         "versions": [{"name": "v1"}, {"name": "v2"}]}}),
            ),
            object(
                json!({"apiVersion": "apiextensions.k8s.io/v1beta1", "kind": "CustomResourceDefinition",
                "spec": {"group": "example.com", "names": {"kind": "Bar", "plural": "bars"}, "version": "v1alpha1"}}),
            ),
            object(
                json!({"apiVersion": "apiextensions.k8s.io/v2", "kind": "CustomResourceDefinition"}),
            ),
        ];
        let apis = crd_apis(&objects).expect("decodes");
        let names: Vec<String> = apis.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "example.com/v1/Foo (foos)",
                "example.com/v1alpha1/Bar (bars)",
                "example.com/v2/Foo (foos)"
            ]
        );
    }

    #[test]
    fn crd_type_errors_are_reported() {
        let objects = vec![object(json!({"apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition", "spec": {"group": 1}}))];
        assert_eq!(
            crd_apis(&objects),
            Err((0, "error decoding v1 CRD: json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.group of type string".to_owned()))
        );
    }

    #[test]
    fn missing_owned_crd() {
        let csv_object = object(json!({"spec": {"customresourcedefinitions": {
            "owned": [{"name": "foos.example.com", "version": "v1", "kind": "Foo"}]}}}));
        let csv = Csv::new(&csv_object);
        let provided = ApiSet::from([ApiKey {
            group: "example.com".into(),
            version: "v2".into(),
            kind: "Foo".into(),
            plural: "foos".into(),
        }]);
        assert_eq!(
            check_owned_crds(&provided, &csv),
            Err("couldn't find example.com/v1/Foo (foos) in bundle. found: map[example.com/v2/Foo (foos):{}]".to_owned())
        );
        let bad = object(
            json!({"spec": {"customresourcedefinitions": {"required": [{"name": "foos"}]}}}),
        );
        assert_eq!(
            required(&Csv::new(&bad)),
            Err("couldn't parse plural.group from crd name: foos".to_owned())
        );
    }

    #[test]
    fn group_version_kind_like_unstructured() {
        let crd = object(json!({"apiVersion": "a/b/c", "kind": "X"}));
        assert_eq!(group_version_kind(&crd), ("", "", ""));
        let core = object(json!({"apiVersion": "v1", "kind": "Service"}));
        assert_eq!(group_version_kind(&core), ("", "v1", "Service"));
    }
}
