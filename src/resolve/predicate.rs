//! Dependency properties as OLM classic turns them into requirements
//! (`resolver.go` `convertDependencyProperties`, `cache/predicates.go`): what an
//! entry must match, the text OLM prints for it, and the conversion errors.

use serde_json::{Map, Value};

use super::cel;
use super::source::{Entry, Hint};
use crate::go::fmt::quote;
use crate::go::semver::range::Range;

/// The largest `olm.constraint` value operator-framework/api accepts.
const MAX_CONSTRAINT_SIZE: usize = 131_072;

/// Something an operator must match.
#[derive(Debug)]
pub(crate) enum Predicate {
    Gvk {
        group: String,
        version: String,
        kind: String,
    },
    Package {
        name: String,
        range: Range,
        text: String,
    },
    Label(String),
    All(Vec<Predicate>),
    Any(Vec<Predicate>),
    Not(Vec<Predicate>),
    Cel {
        rule: Box<cel::Rule>,
        source: String,
        message: String,
    },
}

impl Predicate {
    /// What every matching entry has, when the predicate says (so that only the
    /// entries with it need be tried).
    pub(crate) fn hint(&self) -> Option<Hint<'_>> {
        match self {
            Predicate::Package { name, .. } => Some(Hint::Package(name)),
            Predicate::Gvk {
                group,
                version,
                kind,
            } => Some(Hint::Gvk(group, version, kind)),
            Predicate::All(children) => children.iter().find_map(Predicate::hint),
            _ => None,
        }
    }

    /// Whether `entry` matches; `None` when CEL rules would cost more than what
    /// is left of `budget` (see `cel::Rule::matches`).
    pub(crate) fn matches(&self, entry: &Entry, budget: &mut u64) -> Option<bool> {
        let any = |children: &[Predicate], budget: &mut u64| {
            for child in children {
                if child.matches(entry, budget)? {
                    return Some(true);
                }
            }
            Some(false)
        };
        Some(match self {
            Predicate::Gvk {
                group,
                version,
                kind,
            } => entry.properties.iter().any(|(kind_, value)| {
                kind_ == "olm.gvk"
                    && field(value, "group") == group
                    && field(value, "version") == version
                    && field(value, "kind") == kind
            }),
            // OLM's `PkgPredicate` and `VersionInRangePredicate`: any `olm.package`
            // property's version, or the entry's own.
            Predicate::Package { name, range, .. } => {
                entry.is_package(name)
                    && (entry.properties.iter().any(|(kind, value)| {
                        kind == "olm.package"
                            && crate::go::semver::Version::parse(field(value, "version"))
                                .is_ok_and(|v| range.contains(&v))
                    }) || entry.version.as_ref().is_some_and(|v| range.contains(v)))
            }
            Predicate::Label(label) => entry
                .properties
                .iter()
                .any(|(kind, value)| kind == "olm.label" && field(value, "label") == label),
            Predicate::All(children) => {
                for child in children {
                    if !child.matches(entry, budget)? {
                        return Some(false);
                    }
                }
                true
            }
            Predicate::Any(children) => any(children, budget)?,
            Predicate::Not(children) => !any(children, budget)?,
            Predicate::Cel { rule, .. } => rule.matches(&entry.properties, budget)?,
        })
    }

    /// OLM's `String()`: what follows `requires an operator `.
    pub(crate) fn text(&self) -> String {
        let join = |children: &[Predicate], separator: &str| {
            children
                .iter()
                .map(Predicate::text)
                .collect::<Vec<_>>()
                .join(separator)
        };
        match self {
            Predicate::Gvk {
                group,
                version,
                kind,
            } => format!("providing an API with group: {group}, version: {version}, kind: {kind}"),
            Predicate::Package { name, text, .. } => {
                format!("with package: {name} and with version in range: {text}")
            }
            Predicate::Label(label) => format!("with label: {label}"),
            Predicate::All(children) => join(children, " and "),
            Predicate::Any(children) => join(children, " or "),
            // OLM prints the first child of a `not` without its negation.
            Predicate::Not(children) => join(children, " and not "),
            Predicate::Cel {
                source, message, ..
            } => format!(
                "with constraint: {} and message: {}",
                quote(source),
                quote(message)
            ),
        }
    }
}

/// A string field of a decoded property value (`""` when absent or not a string).
fn field<'v>(value: &'v Value, name: &str) -> &'v str {
    value.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The requirements of an entry's properties, in order (other properties are
/// ignored); the first error ends the conversion, as in OLM.
pub(crate) fn requirements(properties: &[(String, Value)]) -> Result<Vec<Predicate>, String> {
    let mut out = Vec::new();
    for (kind, value) in properties {
        let predicate = match kind.as_str() {
            "olm.gvk.required" => {
                let fields = go_struct(value, &["group", "version", "kind"])?;
                Predicate::Gvk {
                    group: fields[0].clone(),
                    version: fields[1].clone(),
                    kind: fields[2].clone(),
                }
            }
            "olm.package.required" => {
                let fields = go_struct(value, &["packageName", "versionRange"])?;
                package(&fields[0], &fields[1])?
            }
            "olm.label.required" => Predicate::Label(go_struct(value, &["label"])?.remove(0)),
            "olm.constraint" => constraint(value)?,
            _ => continue,
        };
        out.push(predicate);
    }
    Ok(out)
}

fn package(name: &str, range: &str) -> Result<Predicate, String> {
    let parsed = Range::parse(range).map_err(|error| error.to_string())?;
    Ok(Predicate::Package {
        name: name.to_owned(),
        range: parsed,
        text: range.to_owned(),
    })
}

/// Go's `json.Unmarshal` into an anonymous struct of string fields (matched
/// case-insensitively, unknown ones ignored).
fn go_struct(value: &Value, names: &[&str]) -> Result<Vec<String>, String> {
    let Value::Object(map) = value else {
        if value.is_null() {
            return Ok(vec![String::new(); names.len()]);
        }
        let fields: Vec<String> = names
            .iter()
            .map(|name| format!("{} string \"json:\\\"{name}\\\"\"", capitalise(name)))
            .collect();
        return Err(format!(
            "json: cannot unmarshal {} into Go value of type struct {{ {} }}",
            crate::go::json_kind(value),
            fields.join("; ")
        ));
    };
    names
        .iter()
        .map(|name| {
            let found = map.get(*name).or_else(|| {
                map.iter()
                    .find(|(key, _)| key.eq_ignore_ascii_case(name))
                    .map(|(_, v)| v)
            });
            match found {
                None | Some(Value::Null) => Ok(String::new()),
                Some(Value::String(text)) => Ok(text.clone()),
                Some(other) => Err(format!(
                    "json: cannot unmarshal {} into Go struct field .{name} of type string",
                    crate::go::json_kind(other)
                )),
            }
        })
        .collect()
}

fn capitalise(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// An `olm.constraint` value: parsed strictly, then converted.
fn constraint(value: &Value) -> Result<Predicate, String> {
    if serde_json::to_string(value).map_or(0, |text| text.len()) > MAX_CONSTRAINT_SIZE {
        return Err(format!(
            "parse olm.constraint: olm.constraint value is greater than max constraint size {MAX_CONSTRAINT_SIZE} bytes"
        ));
    }
    let parsed =
        parse_constraint(value).map_err(|error| format!("parse olm.constraint: {error}"))?;
    convert(&parsed)
        .map_err(|error| format!("convert olm.constraint to resolver predicate: {error}"))
}

/// operator-framework/api's `Constraint`, as decoded with unknown fields refused.
#[derive(Debug, Default)]
struct Constraint {
    failure_message: String,
    gvk: Option<[String; 3]>,
    package: Option<[String; 2]>,
    all: Option<Vec<Constraint>>,
    any: Option<Vec<Constraint>>,
    not: Option<Vec<Constraint>>,
    cel: Option<String>,
}

fn object<'v>(value: &'v Value, what: &str) -> Result<Option<&'v Map<String, Value>>, String> {
    match value {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(format!(
            "json: cannot unmarshal {} into Go value of type {what}",
            crate::go::json_kind(other)
        )),
    }
}

fn strict_fields<'v>(
    map: &'v Map<String, Value>,
    known: &[&str],
) -> Result<Vec<Option<&'v Value>>, String> {
    let mut found = vec![None; known.len()];
    for (key, value) in map {
        match known.iter().position(|k| k.eq_ignore_ascii_case(key)) {
            Some(index) => found[index] = Some(value),
            None => return Err(format!("json: unknown field {}", quote(key))),
        }
    }
    Ok(found)
}

fn string_field(value: Option<&Value>, path: &str) -> Result<String, String> {
    match value {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(text)) => Ok(text.clone()),
        Some(other) => Err(format!(
            "json: cannot unmarshal {} into Go struct field {path} of type string",
            crate::go::json_kind(other)
        )),
    }
}

fn parse_constraint(value: &Value) -> Result<Constraint, String> {
    let Some(map) = object(value, "constraints.Constraint")? else {
        return Ok(Constraint::default());
    };
    let fields = strict_fields(
        map,
        &[
            "failureMessage",
            "cel",
            "gvk",
            "package",
            "all",
            "any",
            "not",
        ],
    )?;
    let mut out = Constraint {
        failure_message: string_field(fields[0], "Constraint.failureMessage")?,
        ..Constraint::default()
    };
    if let Some(cel) = fields[1]
        .map(|v| object(v, "constraints.Cel"))
        .transpose()?
        .flatten()
    {
        let inner = strict_fields(cel, &["rule"])?;
        out.cel = Some(string_field(inner[0], "Constraint.cel.rule")?);
    }
    if let Some(gvk) = fields[2]
        .map(|v| object(v, "constraints.GVK"))
        .transpose()?
        .flatten()
    {
        let inner = strict_fields(gvk, &["group", "kind", "version"])?;
        out.gvk = Some([
            string_field(inner[0], "Constraint.gvk.group")?,
            string_field(inner[2], "Constraint.gvk.version")?,
            string_field(inner[1], "Constraint.gvk.kind")?,
        ]);
    }
    if let Some(package) = fields[3]
        .map(|v| object(v, "constraints.PackageConstraint"))
        .transpose()?
        .flatten()
    {
        let inner = strict_fields(package, &["packageName", "versionRange"])?;
        out.package = Some([
            string_field(inner[0], "Constraint.package.packageName")?,
            string_field(inner[1], "Constraint.package.versionRange")?,
        ]);
    }
    let compound = |value: Option<&Value>| -> Result<Option<Vec<Constraint>>, String> {
        let Some(map) = value
            .map(|v| object(v, "constraints.CompoundConstraint"))
            .transpose()?
            .flatten()
        else {
            return Ok(None);
        };
        let inner = strict_fields(map, &["constraints"])?;
        let children = match inner[0] {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(parse_constraint)
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(format!(
                    "json: cannot unmarshal {} into Go struct field CompoundConstraint.constraints of type []constraints.Constraint",
                    crate::go::json_kind(other)
                ));
            }
        };
        Ok(Some(children))
    };
    out.all = compound(fields[4])?;
    out.any = compound(fields[5])?;
    out.not = compound(fields[6])?;
    Ok(out)
}

fn convert(constraint: &Constraint) -> Result<Predicate, String> {
    let children = |list: &[Constraint]| list.iter().map(convert).collect::<Result<Vec<_>, _>>();
    if let Some([group, version, kind]) = &constraint.gvk {
        Ok(Predicate::Gvk {
            group: group.clone(),
            version: version.clone(),
            kind: kind.clone(),
        })
    } else if let Some([name, range]) = &constraint.package {
        package(name, range)
    } else if let Some(all) = &constraint.all {
        Ok(Predicate::All(children(all)?))
    } else if let Some(any) = &constraint.any {
        Ok(Predicate::Any(children(any)?))
    } else if let Some(not) = &constraint.not {
        Ok(Predicate::Not(children(not)?))
    } else if let Some(rule) = &constraint.cel {
        Ok(Predicate::Cel {
            rule: Box::new(cel::Rule::compile(rule)?),
            source: rule.clone(),
            message: constraint.failure_message.clone(),
        })
    } else {
        Err("constraint is empty".to_owned())
    }
}
