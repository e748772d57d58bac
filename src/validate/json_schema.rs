//! The part of JSON Schema (draft 2020-12) that fbc's embedded property schemas use,
//! checked with the message texts of the `jsonschema` crate (which the tests compare
//! against). A general validator costs a few megabytes of code and memory on every
//! `validate` run; these schemas need a dozen keywords. A schema using a keyword not
//! listed here does not compile, so a new schema cannot be half checked.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::codec::json_walk::{Member, Token, Walk};

/// Values nested deeper than this are not checked further (one finding says so); the
/// loader accepts 10,000 levels, and each level is a frame here.
const MAX_DEPTH: usize = 256;

/// Keywords that only describe: they never fail a value.
const ANNOTATIONS: [&str; 8] = [
    "$schema",
    "$id",
    "$comment",
    "title",
    "description",
    "examples",
    "contentEncoding",
    "contentMediaType",
];

/// A compiled schema document: its root and its `$defs`.
#[derive(Debug)]
pub(crate) struct Schema {
    root: Node,
    defs: BTreeMap<String, Node>,
}

/// One problem: where in the value (a JSON pointer) and what.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SchemaError {
    pub(crate) path: String,
    pub(crate) message: String,
}

#[derive(Debug, Default)]
struct Node {
    kind: Option<Kind>,
    options: Option<Vec<Value>>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    min_items: Option<u64>,
    required: Vec<String>,
    properties: BTreeMap<String, Node>,
    additional: Additional,
    items: Option<Box<Node>>,
    one_of: Vec<Node>,
    reference: Option<Reference>,
}

impl Node {
    /// The reference of a node that has no other keyword.
    fn only_reference(&self) -> Option<&Reference> {
        let Node {
            kind: None,
            options: None,
            min_length: None,
            max_length: None,
            min_items: None,
            required,
            properties,
            additional: Additional::Allowed,
            items: None,
            one_of,
            reference,
        } = self
        else {
            return None;
        };
        if required.is_empty() && properties.is_empty() && one_of.is_empty() {
            reference.as_ref()
        } else {
            None
        }
    }

    /// Whether a value must be seen whole to be checked against this node.
    fn needs_whole_value(&self) -> bool {
        !self.one_of.is_empty() || self.reference.is_some() || self.required.len() > 64
    }

    /// Whether a value of the JSON type `kind` (`None`: a number or null) may
    /// stand here, `option` telling whether the value equals an option of an
    /// `enum` (only a string, a boolean or null can, as far as the text check
    /// knows).
    fn takes(&self, kind: Option<Kind>, option: impl Fn(&Value) -> bool) -> bool {
        let kind_fits = match (self.kind, kind) {
            (None, _) => true,
            (Some(wanted), Some(found)) => wanted.name() == found.name(),
            (Some(_), None) => false,
        };
        kind_fits
            && self
                .options
                .as_ref()
                .is_none_or(|options| options.iter().any(option))
    }
}

#[derive(Debug, Default)]
enum Additional {
    #[default]
    Allowed,
    Forbidden,
    Checked(Box<Node>),
}

#[derive(Debug)]
enum Reference {
    Root,
    Def(String),
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Object,
    Array,
    String,
    Boolean,
}

impl Kind {
    fn parse(name: &str) -> Option<Kind> {
        Some(match name {
            "object" => Kind::Object,
            "array" => Kind::Array,
            "string" => Kind::String,
            "boolean" => Kind::Boolean,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Object => "object",
            Kind::Array => "array",
            Kind::String => "string",
            Kind::Boolean => "boolean",
        }
    }

    fn matches(self, value: &Value) -> bool {
        matches!(
            (self, value),
            (Kind::Object, Value::Object(_))
                | (Kind::Array, Value::Array(_))
                | (Kind::String, Value::String(_))
                | (Kind::Boolean, Value::Bool(_))
        )
    }
}

impl Schema {
    /// Compiles a schema document; an error names a keyword or form not supported.
    pub(crate) fn compile(document: &Value) -> Result<Schema, String> {
        let Value::Object(map) = document else {
            return Err("a schema document is an object".to_owned());
        };
        let mut defs = BTreeMap::new();
        if let Some(found) = map.get("$defs") {
            let Value::Object(found) = found else {
                return Err("$defs is an object".to_owned());
            };
            for (name, schema) in found {
                defs.insert(name.clone(), compile_node(schema)?);
            }
        }
        let schema = Schema {
            root: compile_node(document)?,
            defs,
        };
        schema.check_references(&schema.root)?;
        for def in schema.defs.values() {
            schema.check_references(def)?;
        }
        Ok(schema)
    }

    fn check_references(&self, node: &Node) -> Result<(), String> {
        if let Some(Reference::Def(name)) = &node.reference
            && !self.defs.contains_key(name)
        {
            return Err(format!("$ref to a missing definition {name}"));
        }
        let children = node
            .properties
            .values()
            .chain(node.items.as_deref())
            .chain(&node.one_of)
            .chain(match &node.additional {
                Additional::Checked(child) => Some(child.as_ref()),
                _ => None,
            });
        for child in children {
            self.check_references(child)?;
        }
        Ok(())
    }

    /// Every problem of `value`, in no particular order.
    pub(crate) fn errors(&self, value: &Value) -> Vec<SchemaError> {
        let mut errors = Vec::new();
        self.check(&self.root, value, &mut String::new(), 0, &mut errors);
        errors
    }

    /// Whether the JSON `text` certainly matches (the errors of its value would be
    /// none), read straight from the text: nothing is built, but for the few nodes
    /// whose value must be seen whole (`oneOf`, a `$ref` beside other keywords).
    /// `false` too where unsure, such as text nested deeper than the reader goes.
    pub(crate) fn matches_text(&self, text: &str) -> bool {
        let mut walk = Walk::new(text);
        self.walk(&self.root, &mut walk, 0).is_some() && walk.end()
    }

    /// Reads the next value of `walk` against `node`; `None` when it does not
    /// certainly match.
    fn walk(&self, node: &Node, walk: &mut Walk<'_>, depth: usize) -> Option<()> {
        let node = self.resolve(node);
        if depth > MAX_DEPTH {
            return None;
        }
        if node.needs_whole_value() {
            let value: Value = serde_json::from_str(walk.take()?).ok()?;
            return self.is_valid(node, &value, depth).then_some(());
        }
        let fits = match walk.value()? {
            Token::Null => node.takes(None, Value::is_null),
            Token::Bool(flag) => {
                node.takes(Some(Kind::Boolean), |option| option.as_bool() == Some(flag))
            }
            // No node kind is a number, nor (as far as this check knows) an option.
            Token::Number(_) => node.takes(None, |_| false),
            Token::Str(text) => {
                let constrained = node.options.is_some()
                    || node.min_length.is_some()
                    || node.max_length.is_some();
                if constrained {
                    let text = text.text()?;
                    let length = text.chars().count() as u64;
                    node.takes(Some(Kind::String), |option| option.as_str() == Some(&text))
                        && node.min_length.is_none_or(|limit| length >= limit)
                        && node.max_length.is_none_or(|limit| length <= limit)
                } else {
                    node.takes(Some(Kind::String), |_| false)
                }
            }
            Token::Array => {
                if !node.takes(Some(Kind::Array), |_| false) {
                    return None;
                }
                let mut count: u64 = 0;
                while walk.more()? {
                    match &node.items {
                        Some(child) => self.walk(child, walk, depth + 1)?,
                        None => walk.skip()?,
                    }
                    count += 1;
                }
                node.min_items.is_none_or(|limit| count >= limit)
            }
            Token::Object => {
                if !node.takes(Some(Kind::Object), |_| false) {
                    return None;
                }
                // One bit for each required name seen (`needs_whole_value` keeps
                // lists of more than 64 names out).
                let mut seen: u64 = 0;
                while let Member::Key(key) = walk.key()? {
                    let key = key.text()?;
                    if let Some(index) = node.required.iter().position(|name| *name == key) {
                        seen |= 1 << index;
                    }
                    match (node.properties.get(&*key), &node.additional) {
                        (Some(child), _) => self.walk(child, walk, depth + 1)?,
                        (None, Additional::Checked(child)) => self.walk(child, walk, depth + 1)?,
                        (None, Additional::Allowed) => walk.skip()?,
                        (None, Additional::Forbidden) => return None,
                    }
                }
                let all = u64::MAX
                    .checked_shr(64 - node.required.len() as u32)
                    .unwrap_or(0);
                seen == all
            }
        };
        fits.then_some(())
    }

    /// The node itself, or where a node that holds nothing but a `$ref` leads.
    fn resolve<'s>(&'s self, mut node: &'s Node) -> &'s Node {
        while let Some(reference) = node.only_reference() {
            node = match reference {
                Reference::Root => &self.root,
                Reference::Def(name) => &self.defs[name],
            };
        }
        node
    }

    fn is_valid(&self, node: &Node, value: &Value, depth: usize) -> bool {
        let mut errors = Vec::new();
        self.check(node, value, &mut String::new(), depth, &mut errors);
        errors.is_empty()
    }

    fn check(
        &self,
        node: &Node,
        value: &Value,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<SchemaError>,
    ) {
        let mut fail = |message: String| {
            errors.push(SchemaError {
                path: path.clone(),
                message,
            });
        };
        if depth > MAX_DEPTH {
            fail(format!(
                "nested deeper than {MAX_DEPTH} levels: not checked further"
            ));
            return;
        }
        if let Some(kind) = node.kind
            && !kind.matches(value)
        {
            fail(format!("{value} is not of type \"{}\"", kind.name()));
        }
        if let Some(options) = &node.options
            && !options.contains(value)
        {
            fail(enum_message(value, options));
        }
        if let Value::String(text) = value {
            let length = text.chars().count() as u64;
            if let Some(limit) = node.min_length
                && length < limit
            {
                fail(format!(
                    "{value} is shorter than {limit} character{}",
                    plural(limit)
                ));
            }
            if let Some(limit) = node.max_length
                && length > limit
            {
                fail(format!(
                    "{value} is longer than {limit} character{}",
                    plural(limit)
                ));
            }
        }
        if let (Value::Array(items), Some(limit)) = (value, node.min_items)
            && (items.len() as u64) < limit
        {
            fail(format!(
                "{value} has less than {limit} item{}",
                plural(limit)
            ));
        }
        if let Value::Object(map) = value {
            self.check_object(node, map, path, depth, errors);
        }
        if let (Value::Array(items), Some(child)) = (value, &node.items) {
            for (index, item) in items.iter().enumerate() {
                let length = path.len();
                write!(path, "/{index}").expect("writing to a String");
                self.check(child, item, path, depth + 1, errors);
                path.truncate(length);
            }
        }
        if !node.one_of.is_empty() {
            let valid = node
                .one_of
                .iter()
                .filter(|child| self.is_valid(child, value, depth + 1))
                .count();
            let problem = match valid {
                0 => Some("is not valid under any"),
                1 => None,
                _ => Some("is valid under more than one"),
            };
            if let Some(problem) = problem {
                errors.push(SchemaError {
                    path: path.clone(),
                    message: format!(
                        "{value} {problem} of the schemas listed in the 'oneOf' keyword"
                    ),
                });
            }
        }
        if let Some(reference) = &node.reference {
            let target = match reference {
                Reference::Root => &self.root,
                Reference::Def(name) => &self.defs[name],
            };
            self.check(target, value, path, depth + 1, errors);
        }
    }

    fn check_object(
        &self,
        node: &Node,
        map: &Map<String, Value>,
        path: &mut String,
        depth: usize,
        errors: &mut Vec<SchemaError>,
    ) {
        for name in node.required.iter().filter(|name| !map.contains_key(*name)) {
            errors.push(SchemaError {
                path: path.clone(),
                message: format!("{} is a required property", Value::String(name.clone())),
            });
        }
        let mut unexpected = Vec::new();
        for (key, member) in map {
            let child = match (node.properties.get(key), &node.additional) {
                (Some(child), _) => child,
                (None, Additional::Checked(child)) => child.as_ref(),
                (None, Additional::Allowed) => continue,
                (None, Additional::Forbidden) => {
                    unexpected.push(format!("'{key}'"));
                    continue;
                }
            };
            let length = path.len();
            path.push('/');
            path.push_str(&pointer(key));
            self.check(child, member, path, depth + 1, errors);
            path.truncate(length);
        }
        if !unexpected.is_empty() {
            let verb = if unexpected.len() == 1 { "was" } else { "were" };
            errors.push(SchemaError {
                path: path.clone(),
                message: format!(
                    "Additional properties are not allowed ({} {verb} unexpected)",
                    unexpected.join(", ")
                ),
            });
        }
    }
}

/// A key as a JSON pointer step (mostly the key itself).
fn pointer(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        Cow::Owned(key.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(key)
    }
}

fn plural(count: u64) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// `x is not one of "a", "b" or "c"`; past three options, the first two and a count.
fn enum_message(value: &Value, options: &[Value]) -> String {
    let shown: Vec<String> = options.iter().map(ToString::to_string).collect();
    let listed = if shown.len() <= 3 {
        match shown.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    } else {
        format!(
            "{} or {} other candidates",
            shown[..2].join(", "),
            shown.len() - 2
        )
    };
    format!("{value} is not one of {listed}")
}

fn compile_node(schema: &Value) -> Result<Node, String> {
    let Value::Object(map) = schema else {
        return Err(format!("a schema is an object, not {schema}"));
    };
    let mut node = Node::default();
    for (keyword, value) in map {
        match keyword.as_str() {
            "type" => {
                let kind = value.as_str().and_then(Kind::parse);
                node.kind = Some(kind.ok_or_else(|| format!("type {value} is not supported"))?);
            }
            "enum" => node.options = Some(array(keyword, value)?.clone()),
            "minLength" => node.min_length = Some(count(keyword, value)?),
            "maxLength" => node.max_length = Some(count(keyword, value)?),
            "minItems" => node.min_items = Some(count(keyword, value)?),
            "required" => {
                node.required = array(keyword, value)?
                    .iter()
                    .map(|name| name.as_str().map(str::to_owned))
                    .collect::<Option<_>>()
                    .ok_or("required lists strings")?;
            }
            "properties" => {
                let Value::Object(properties) = value else {
                    return Err("properties is an object".to_owned());
                };
                for (name, child) in properties {
                    node.properties.insert(name.clone(), compile_node(child)?);
                }
            }
            "additionalProperties" => {
                node.additional = match value {
                    Value::Bool(true) => Additional::Allowed,
                    Value::Bool(false) => Additional::Forbidden,
                    child => Additional::Checked(Box::new(compile_node(child)?)),
                };
            }
            "items" => node.items = Some(Box::new(compile_node(value)?)),
            "oneOf" => {
                node.one_of = array(keyword, value)?
                    .iter()
                    .map(compile_node)
                    .collect::<Result<_, _>>()?;
            }
            "$ref" => {
                node.reference = Some(match value.as_str() {
                    Some("#") => Reference::Root,
                    Some(target) if target.starts_with("#/$defs/") => {
                        Reference::Def(target["#/$defs/".len()..].to_owned())
                    }
                    _ => return Err(format!("$ref {value} is not supported")),
                });
            }
            // Read by `Schema::compile`.
            "$defs" => {}
            other if ANNOTATIONS.contains(&other) => {}
            other => return Err(format!("keyword {other} is not supported")),
        }
    }
    Ok(node)
}

fn array<'v>(keyword: &str, value: &'v Value) -> Result<&'v Vec<Value>, String> {
    value
        .as_array()
        .ok_or_else(|| format!("{keyword} is an array"))
}

fn count(keyword: &str, value: &Value) -> Result<u64, String> {
    value
        .as_u64()
        .ok_or_else(|| format!("{keyword} is a non-negative integer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `value` with the member or element at `path` (JSON pointer steps) replaced by
    /// `with`, or removed.
    fn replaced(value: &Value, path: &[String], with: Option<&Value>) -> Value {
        let mut copy = value.clone();
        let (last, parents) = path.split_last().expect("a non-empty path");
        let parent_pointer: String = parents
            .iter()
            .flat_map(|step| ["/".to_owned(), pointer(step).into_owned()])
            .collect();
        let parent = copy.pointer_mut(&parent_pointer).expect("the path exists");
        match (parent, with) {
            (Value::Object(map), Some(with)) => {
                map.insert(last.clone(), with.clone());
            }
            (Value::Object(map), None) => {
                map.remove(last);
            }
            (Value::Array(items), with) => {
                let index: usize = last.parse().expect("an index");
                match with {
                    Some(with) => items[index] = with.clone(),
                    None => {
                        items.remove(index);
                    }
                }
            }
            _ => unreachable!("paths lead through containers"),
        }
        copy
    }

    /// The path of every member and element in `value`.
    fn paths(value: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        let children: Vec<(String, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (i.to_string(), v))
                .collect(),
            _ => Vec::new(),
        };
        for (step, child) in children {
            prefix.push(step);
            out.push(prefix.clone());
            paths(child, prefix, out);
            prefix.pop();
        }
    }

    /// Valid values of each schema, the seeds of the mutations.
    fn seeds() -> Vec<(&'static str, Value)> {
        vec![
            (
                "olm.package",
                json!({"packageName": "p", "version": "1.0.0", "release": "1"}),
            ),
            (
                "olm.gvk",
                json!({"group": "g", "version": "v1", "kind": "K"}),
            ),
            (
                "olm.gvk.required",
                json!({"group": "", "version": "v1", "kind": "K"}),
            ),
            (
                "olm.package.required",
                json!({"packageName": "p", "versionRange": ">=1"}),
            ),
            ("olm.bundle.object", json!({"data": "eyJ9"})),
            (
                "olm.csv.metadata",
                json!({
                    "annotations": {"a": "b", "x/y~z": "c"},
                    "apiServiceDefinitions": {}, "crdDescriptions": {"owned": []},
                    "description": "d", "displayName": "n",
                    "installModes": [{"type": "OwnNamespace", "supported": true}],
                    "keywords": ["k"], "labels": {"l": "v"},
                    "links": [{"name": "n", "url": "u"}],
                    "maintainers": [{"name": "n", "email": "e"}],
                    "maturity": "alpha", "minKubeVersion": "1.2",
                    "nativeAPIs": [{"group": "g", "version": "v", "kind": "K"}],
                    "provider": {"name": "n", "url": "u"}
                }),
            ),
            (
                "olm.constraint",
                json!({"failureMessage": "m", "all": {"constraints": [
                    {"gvk": {"group": "g", "version": "v1", "kind": "K"}},
                    {"not": {"constraints": [{"package": {"packageName": "p", "versionRange": "1"}}]}},
                    {"any": {"constraints": [{"cel": {"rule": "true"}}]}}
                ]}}),
            ),
        ]
    }

    fn sorted(mut errors: Vec<SchemaError>) -> Vec<SchemaError> {
        errors.sort();
        errors
    }

    /// Every seed, with each of its members deleted or replaced by each of a set of
    /// values, gives the same errors (paths and texts) as the `jsonschema` crate,
    /// and the check of its text the same verdict.
    #[test]
    fn errors_equal_a_general_validators() {
        let replacements = [
            json!(null),
            json!(1),
            json!(1.5),
            json!(true),
            json!(""),
            json!("x"),
            json!("日本語テキストです、二十文字を超える長さの文字列"),
            json!("Foo"),
            json!([]),
            json!(["a", 1]),
            json!({}),
            json!({"a~/b": 1, "extra": "x"}),
            json!({"constraints": []}),
            json!({"cel": {"rule": "r"}, "gvk": {}}),
        ];
        let mut compared = 0;
        for (kind, seed) in seeds() {
            let text = super::super::schemas::PROPERTY_SCHEMAS
                .iter()
                .find(|(known, _)| *known == kind)
                .unwrap()
                .1;
            let document: Value = serde_json::from_str(text).unwrap();
            let ours = Schema::compile(&document).unwrap();
            let theirs = jsonschema::draft202012::new(&document).unwrap();
            assert!(
                ours.errors(&seed).is_empty(),
                "{kind}: {:?}",
                ours.errors(&seed)
            );
            let mut all = Vec::new();
            paths(&seed, &mut Vec::new(), &mut all);
            let mut values = vec![seed.clone()];
            values.extend(replacements.iter().cloned());
            for path in &all {
                values.push(replaced(&seed, path, None));
                for with in &replacements {
                    values.push(replaced(&seed, path, Some(with)));
                }
            }
            for value in values {
                let expected: Vec<SchemaError> = theirs
                    .iter_errors(&value)
                    .map(|error| SchemaError {
                        path: error.instance_path().as_str().to_owned(),
                        message: error.to_string(),
                    })
                    .collect();
                assert_eq!(
                    ours.matches_text(&value.to_string()),
                    expected.is_empty(),
                    "{kind}, read from text: {value}"
                );
                assert_eq!(
                    sorted(ours.errors(&value)),
                    sorted(expected),
                    "{kind}: {value}"
                );
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared} values compared");
    }

    #[test]
    fn enum_messages_list_three_options_at_most() {
        let four = [json!("a"), json!("b"), json!("c"), json!("d")];
        assert_eq!(enum_message(&json!(1), &four[..1]), "1 is not one of \"a\"");
        assert_eq!(
            enum_message(&json!(1), &four[..3]),
            "1 is not one of \"a\", \"b\" or \"c\""
        );
        assert_eq!(
            enum_message(&json!(1), &four),
            "1 is not one of \"a\", \"b\" or 2 other candidates"
        );
    }

    #[test]
    fn unsupported_keywords_and_references_do_not_compile() {
        let error = Schema::compile(&json!({"type": "object", "pattern": "x"})).unwrap_err();
        assert_eq!(error, "keyword pattern is not supported");
        let error = Schema::compile(&json!({"$ref": "#/$defs/missing"})).unwrap_err();
        assert_eq!(error, "$ref to a missing definition missing");
        assert!(Schema::compile(&json!({"type": "integer"})).is_err());
    }

    #[test]
    fn deep_values_stop_with_one_error() {
        let schema = Schema::compile(&json!({
            "type": "object",
            "properties": {"n": {"$ref": "#"}},
            "additionalProperties": false
        }))
        .unwrap();
        let mut value = json!({});
        for _ in 0..300 {
            value = json!({ "n": value });
        }
        let errors = schema.errors(&value);
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .message
                .starts_with("nested deeper than 256 levels")
        );
        assert!(errors[0].path.starts_with("/n/n/"));
        assert!(!schema.matches_text(&value.to_string()));
    }

    /// Where the text check is unsure it says no, and the value is checked whole
    /// later: a number where an `enum` is. A value it cannot read whole is no
    /// match either.
    #[test]
    fn the_text_check_says_no_where_unsure() {
        let schema = Schema::compile(&json!({"enum": [1, "a"]})).unwrap();
        assert!(schema.errors(&json!(1)).is_empty());
        assert!(!schema.matches_text("1"));
        assert!(schema.matches_text(r#""a""#));
        assert!(!schema.matches_text(r#""b""#));
        let any = Schema::compile(&json!({})).unwrap();
        assert!(any.matches_text("[[{}]]"));
        assert!(!any.matches_text("{} {}"));
        assert!(!any.matches_text("[[{}]"));
    }
}
