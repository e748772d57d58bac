//! What opm's bundle parser reads from the `ClusterServiceVersion`: its name and
//! annotations (typed object metadata), and fields of the raw `spec` read one at a
//! time with Go's decoder, each failing with Go's message when it has the wrong type.

use serde_json::{Map, Value};

use crate::model::go_decode::{GoDecoder, match_field};

/// A `spec.customresourcedefinitions` or `spec.apiservicedefinitions` entry as opm's
/// `DefinitionKey` reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct DefinitionKey {
    pub(crate) group: String,
    pub(crate) kind: String,
    pub(crate) name: String,
    pub(crate) version: String,
}

/// The owned and required entries of a definitions section.
pub(crate) type Definitions = (Vec<DefinitionKey>, Vec<DefinitionKey>);

/// The CSV object of a bundle.
pub(crate) struct Csv<'a> {
    object: &'a Map<String, Value>,
}

const DEFINITIONS_TYPE: &str = "struct { Owned []*registry.DefinitionKey \"json:\\\"owned\\\"\"; \
                                Required []*registry.DefinitionKey \"json:\\\"required\\\"\" }";

/// Go's error for a top-level value of the wrong type.
pub(crate) fn value_mismatch(value: &Value, go_type: &str) -> String {
    format!(
        "json: cannot unmarshal {} into Go value of type {go_type}",
        crate::go::json_kind(value)
    )
}

impl<'a> Csv<'a> {
    pub(crate) fn new(object: &'a Map<String, Value>) -> Self {
        Csv { object }
    }

    /// `metadata`, as the typed `ObjectMeta` sees it (exact key).
    fn metadata(&self) -> Option<&'a Map<String, Value>> {
        self.object.get("metadata")?.as_object()
    }

    /// opm's conversion of the CSV to its typed form (`FromUnstructured`).
    pub(crate) fn check_conversion(&self) -> Result<(), String> {
        super::unstructured::check_csv(self.object)
    }

    /// `metadata.name`.
    pub(crate) fn name(&self) -> String {
        self.metadata()
            .and_then(|metadata| metadata.get("name")?.as_str())
            .unwrap_or_default()
            .to_owned()
    }

    /// One annotation of `metadata.annotations`.
    pub(crate) fn annotation(&self, name: &str) -> Option<&'a str> {
        self.metadata()?
            .get("annotations")?
            .as_object()?
            .get(name)?
            .as_str()
    }

    /// `json.Unmarshal(csv.Spec, &map[string]*json.RawMessage)`.
    pub(crate) fn spec(&self) -> Result<Option<&'a Map<String, Value>>, String> {
        match self.object.get("spec") {
            None => Err("unexpected end of JSON input".to_owned()),
            Some(Value::Null) => Ok(None),
            Some(Value::Object(map)) => Ok(Some(map)),
            Some(other) => Err(value_mismatch(other, "map[string]*json.RawMessage")),
        }
    }

    /// A top-level spec field, `None` when absent or null.
    pub(crate) fn spec_field(&self, name: &str) -> Result<Option<&'a Value>, String> {
        Ok(self
            .spec()?
            .and_then(|spec| spec.get(name))
            .filter(|value| !value.is_null()))
    }

    /// `spec.version`, or `""`.
    pub(crate) fn version(&self) -> Result<String, String> {
        match self.spec_field("version")? {
            None => Ok(String::new()),
            Some(Value::String(text)) => Ok(text.clone()),
            Some(other) => Err(value_mismatch(other, "string")),
        }
    }

    /// `spec.release`, a string or a number printed as opm prints it, or `""`.
    pub(crate) fn release(&self) -> Result<String, String> {
        match self.spec_field("release")? {
            None => Ok(String::new()),
            Some(Value::String(text)) => Ok(text.clone()),
            Some(Value::Number(number)) => {
                let value = number.as_f64().unwrap_or_default();
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let whole = value.fract() == 0.0 && value.abs() < 9.223_372_036_854_776e18;
                Ok(if whole {
                    #[allow(clippy::cast_possible_truncation)]
                    let integer = value as i64;
                    integer.to_string()
                } else {
                    format_g(value)
                })
            }
            Some(_) => Err("release field must be a string or number".to_owned()),
        }
    }

    /// The owned and required entries of `spec.<field>` (CRDs or API services).
    pub(crate) fn definitions(&self, field: &str) -> Result<Definitions, String> {
        let Some(value) = self.spec_field(field)? else {
            return Ok((Vec::new(), Vec::new()));
        };
        let Value::Object(map) = value else {
            return Err(value_mismatch(value, DEFINITIONS_TYPE));
        };
        let mut decoder = GoDecoder::default();
        let mut owned = Vec::new();
        let mut required = Vec::new();
        for (key, value) in map {
            let (name, list) = match match_field(key, &["owned", "required"]) {
                Some("owned") => ("owned", &mut owned),
                Some(_) => ("required", &mut required),
                None => continue,
            };
            *list = decoder
                .field(name, |d| {
                    d.slice(value.clone(), "", "[]*registry.DefinitionKey", decode_key)
                })
                .unwrap_or_default();
        }
        decoder.finish().map(|()| (owned, required))
    }

    /// `spec.relatedImages` as `(name, image)` pairs.
    pub(crate) fn related_images(&self) -> Result<Vec<(String, String)>, String> {
        let Some(value) = self.spec_field("relatedImages")? else {
            return Ok(Vec::new());
        };
        let mut decoder = GoDecoder::default();
        let images = decoder
            .slice(value.clone(), "", "[]declcfg.RelatedImage", |d, item| {
                let mut pair = (String::new(), String::new());
                let Some(map) = d.object(item, "", "declcfg.RelatedImage") else {
                    return pair;
                };
                for (key, value) in map {
                    match match_field(&key, &["name", "image"]) {
                        Some("name") => {
                            pair.0 = d.field("name", |d| d.string(value, "RelatedImage"));
                        }
                        Some(_) => pair.1 = d.field("image", |d| d.string(value, "RelatedImage")),
                        None => {}
                    }
                }
                pair
            })
            .unwrap_or_default();
        decoder.finish().map(|()| images)
    }

    /// Container and init container images of the deployments of a `deployment`
    /// install strategy, in order (opm collects them in a set).
    pub(crate) fn operator_images(&self) -> Result<Vec<String>, String> {
        let mut install = None;
        for (key, value) in self.spec()?.into_iter().flatten() {
            if match_field(key, &["Install"]).is_some() {
                install = Some(value);
            }
        }
        let mut images = Vec::new();
        let Some(install) = install.and_then(Value::as_object) else {
            return Ok(images);
        };
        let field = |map: &'a Map<String, Value>, name: &'static str| {
            map.iter()
                .filter(|(key, _)| match_field(key, &[name]).is_some())
                .map(|(_, value)| value)
                .next_back()
        };
        if field(install, "strategy").and_then(Value::as_str) != Some("deployment") {
            return Ok(images);
        }
        let deployments = field(install, "spec")
            .and_then(Value::as_object)
            .and_then(|spec| field(spec, "Deployments"))
            .and_then(Value::as_array);
        for deployment in deployments.into_iter().flatten() {
            let pod = deployment
                .as_object()
                .and_then(|deployment| field(deployment, "Spec")?.as_object())
                .and_then(|spec| field(spec, "template")?.as_object())
                .and_then(|template| field(template, "spec")?.as_object());
            let Some(pod) = pod else { continue };
            for list in ["containers", "initContainers"] {
                let containers = field(pod, list).and_then(Value::as_array);
                for container in containers.into_iter().flatten() {
                    let image = container.as_object().and_then(|c| field(c, "image"));
                    match image {
                        Some(Value::String(image)) => images.push(image.clone()),
                        Some(Value::Null) | None => images.push(String::new()),
                        Some(other) => {
                            return Err(format!(
                                "json: cannot unmarshal {} into Go struct field Container.Install.spec.Deployments.Spec.template.spec.{list}.image of type string",
                                crate::go::json_kind(other)
                            ));
                        }
                    }
                }
            }
        }
        Ok(images)
    }
}

fn decode_key(decoder: &mut GoDecoder, value: Value) -> DefinitionKey {
    let mut key = DefinitionKey::default();
    let Some(map) = decoder.object(value, "", "registry.DefinitionKey") else {
        return key;
    };
    for (name, value) in map {
        let (field, slot) = match match_field(&name, &["group", "kind", "name", "version"]) {
            Some("group") => ("group", &mut key.group),
            Some("kind") => ("kind", &mut key.kind),
            Some("name") => ("name", &mut key.name),
            Some(_) => ("version", &mut key.version),
            None => continue,
        };
        *slot = decoder.field(field, |d| d.string(value, "DefinitionKey"));
    }
    key
}

/// Go's `%g` with the shortest precision: exponent form below 1e-4 and from 1e6... on
/// the digit count (Go uses precision 6 for that decision when shortest).
pub(crate) fn format_g(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude != 0.0 && !(1e-4..1e6).contains(&magnitude) {
        let text = format!("{value:e}");
        let (mantissa, exponent) = text.split_once('e').expect("`{:e}` has an exponent");
        let exponent: i32 = exponent.parse().expect("decimal exponent");
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn csv(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => panic!("an object"),
        }
    }

    #[test]
    fn version_and_release() {
        let object = csv(json!({"spec": {"version": "1.2.3", "release": 2.0}}));
        assert_eq!(Csv::new(&object).version(), Ok("1.2.3".to_owned()));
        assert_eq!(Csv::new(&object).release(), Ok("2".to_owned()));
        let object = csv(json!({"spec": {"version": 1, "release": [1]}}));
        assert_eq!(
            Csv::new(&object).version(),
            Err("json: cannot unmarshal number into Go value of type string".to_owned())
        );
        assert_eq!(
            Csv::new(&object).release(),
            Err("release field must be a string or number".to_owned())
        );
        let object = csv(json!({"spec": {"release": 1.5}}));
        assert_eq!(Csv::new(&object).release(), Ok("1.5".to_owned()));
        let object = csv(json!({"kind": "ClusterServiceVersion"}));
        assert_eq!(
            Csv::new(&object).version(),
            Err("unexpected end of JSON input".to_owned())
        );
    }

    #[test]
    fn definitions_decode_like_go() {
        let object = csv(json!({"spec": {"customresourcedefinitions": {
            "Owned": [{"name": "foos.example.com", "version": "v1", "kind": "Foo"}],
        }}}));
        let (owned, required) = Csv::new(&object)
            .definitions("customresourcedefinitions")
            .expect("decodes");
        assert_eq!(owned[0].name, "foos.example.com");
        assert!(required.is_empty());
        let object = csv(json!({"spec": {"customresourcedefinitions": {"owned": [{"name": 1}]}}}));
        assert_eq!(
            Csv::new(&object).definitions("customresourcedefinitions"),
            Err("json: cannot unmarshal number into Go struct field DefinitionKey.owned.name of type string".to_owned())
        );
    }

    #[test]
    fn images_of_deployments() {
        let object = csv(
            json!({"spec": {"install": {"strategy": "deployment", "spec": {
                "deployments": [{"name": "a", "spec": {"template": {"spec": {
                    "containers": [{"image": "a:1"}],
                    "initContainers": [{"image": "b:1"}],
                }}}}],
            }}}}),
        );
        assert_eq!(
            Csv::new(&object).operator_images(),
            Ok(vec!["a:1".to_owned(), "b:1".to_owned()])
        );
    }

    #[test]
    fn metadata_keys_match_exactly() {
        let object = csv(
            json!({"metadata": {"name": "x", "annotations": {"a": "1"}, "Annotations": {"b": "2"}}}),
        );
        assert_eq!(Csv::new(&object).name(), "x");
        assert_eq!(Csv::new(&object).annotation("a"), Some("1"));
        assert_eq!(Csv::new(&object).annotation("b"), None);
        let object = csv(json!({"Metadata": {"name": "x"}}));
        assert_eq!(Csv::new(&object).name(), "");
    }

    #[test]
    fn go_g_format() {
        assert_eq!(format_g(1.5), "1.5");
        assert_eq!(format_g(1_234_567.5), "1.2345675e+06");
        assert_eq!(format_g(0.000_01), "1e-05");
    }
}
