//! Decoding JSON into the operator-framework/api v1alpha1 CSV types that
//! `olm.csv.metadata` is made of, and encoding them back as Go does: fields in
//! struct order, `omitempty` fields left out when empty, struct fields never.

use std::borrow::Cow;

use serde_json::Value;

use crate::codec::node::Node;
use crate::model::go_decode::{GoDecoder, match_field};

/// The Go type of a field.
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    Str,
    /// A Go type defined as a string (`type InstallModeType string`): decoded as a
    /// string, named in type errors.
    NamedStr(&'static str),
    Bool,
    Int32,
    Strings,
    StringMap,
    /// A `json.RawMessage`: any JSON, left out when absent.
    Raw,
    Struct(&'static Schema),
    List(&'static Schema),
}

pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) kind: Kind,
    pub(crate) omit_empty: bool,
}

/// A Go struct: its name (for error messages), its type as Go prints it, its type
/// as a slice element, and its fields in declaration order.
pub(crate) struct Schema {
    pub(crate) name: &'static str,
    pub(crate) go_type: &'static str,
    pub(crate) slice_type: &'static str,
    pub(crate) fields: &'static [Field],
}

const fn field(name: &'static str, kind: Kind, omit_empty: bool) -> Field {
    Field {
        name,
        kind,
        omit_empty,
    }
}

/// The fields of status, spec and action descriptors.
static DESCRIPTOR_FIELDS: [Field; 5] = [
    field("path", Kind::Str, false),
    field("displayName", Kind::Str, true),
    field("description", Kind::Str, true),
    field("x-descriptors", Kind::Strings, true),
    field("value", Kind::Raw, true),
];

const fn descriptor(name: &'static str, go_type: &'static str, slice_type: &'static str) -> Schema {
    Schema {
        name,
        go_type,
        slice_type,
        fields: &DESCRIPTOR_FIELDS,
    }
}

static STATUS: Schema = descriptor(
    "StatusDescriptor",
    "v1alpha1.StatusDescriptor",
    "[]v1alpha1.StatusDescriptor",
);
static SPEC: Schema = descriptor(
    "SpecDescriptor",
    "v1alpha1.SpecDescriptor",
    "[]v1alpha1.SpecDescriptor",
);
static ACTION: Schema = descriptor(
    "ActionDescriptor",
    "v1alpha1.ActionDescriptor",
    "[]v1alpha1.ActionDescriptor",
);

static RESOURCE: Schema = Schema {
    name: "APIResourceReference",
    go_type: "v1alpha1.APIResourceReference",
    slice_type: "[]v1alpha1.APIResourceReference",
    fields: &[
        field("name", Kind::Str, false),
        field("kind", Kind::Str, false),
        field("version", Kind::Str, false),
    ],
};

static CRD_DESCRIPTION: Schema = Schema {
    name: "CRDDescription",
    go_type: "v1alpha1.CRDDescription",
    slice_type: "[]v1alpha1.CRDDescription",
    fields: &[
        field("name", Kind::Str, false),
        field("version", Kind::Str, false),
        field("kind", Kind::Str, false),
        field("displayName", Kind::Str, true),
        field("description", Kind::Str, true),
        field("resources", Kind::List(&RESOURCE), true),
        field("statusDescriptors", Kind::List(&STATUS), true),
        field("specDescriptors", Kind::List(&SPEC), true),
        field("actionDescriptors", Kind::List(&ACTION), true),
    ],
};

static API_SERVICE_DESCRIPTION: Schema = Schema {
    name: "APIServiceDescription",
    go_type: "v1alpha1.APIServiceDescription",
    slice_type: "[]v1alpha1.APIServiceDescription",
    fields: &[
        field("name", Kind::Str, false),
        field("group", Kind::Str, false),
        field("version", Kind::Str, false),
        field("kind", Kind::Str, false),
        field("deploymentName", Kind::Str, true),
        field("containerPort", Kind::Int32, true),
        field("displayName", Kind::Str, true),
        field("description", Kind::Str, true),
        field("resources", Kind::List(&RESOURCE), true),
        field("statusDescriptors", Kind::List(&STATUS), true),
        field("specDescriptors", Kind::List(&SPEC), true),
        field("actionDescriptors", Kind::List(&ACTION), true),
    ],
};

pub(crate) static CRD_DEFINITIONS: Schema = Schema {
    name: "CustomResourceDefinitions",
    go_type: "v1alpha1.CustomResourceDefinitions",
    slice_type: "[]v1alpha1.CustomResourceDefinitions",
    fields: &[
        field("owned", Kind::List(&CRD_DESCRIPTION), true),
        field("required", Kind::List(&CRD_DESCRIPTION), true),
    ],
};

pub(crate) static API_SERVICE_DEFINITIONS: Schema = Schema {
    name: "APIServiceDefinitions",
    go_type: "v1alpha1.APIServiceDefinitions",
    slice_type: "[]v1alpha1.APIServiceDefinitions",
    fields: &[
        field("owned", Kind::List(&API_SERVICE_DESCRIPTION), true),
        field("required", Kind::List(&API_SERVICE_DESCRIPTION), true),
    ],
};

pub(crate) static INSTALL_MODE: Schema = Schema {
    name: "InstallMode",
    go_type: "v1alpha1.InstallMode",
    slice_type: "[]v1alpha1.InstallMode",
    fields: &[
        field("type", Kind::NamedStr("v1alpha1.InstallModeType"), false),
        field("supported", Kind::Bool, false),
    ],
};

pub(crate) static APP_LINK: Schema = Schema {
    name: "AppLink",
    go_type: "v1alpha1.AppLink",
    slice_type: "[]v1alpha1.AppLink",
    fields: &[
        field("name", Kind::Str, true),
        field("url", Kind::Str, true),
    ],
};

pub(crate) static MAINTAINER: Schema = Schema {
    name: "Maintainer",
    go_type: "v1alpha1.Maintainer",
    slice_type: "[]v1alpha1.Maintainer",
    fields: &[
        field("name", Kind::Str, true),
        field("email", Kind::Str, true),
    ],
};

pub(crate) static GROUP_VERSION_KIND: Schema = Schema {
    name: "GroupVersionKind",
    go_type: "v1.GroupVersionKind",
    slice_type: "[]v1.GroupVersionKind",
    fields: &[
        field("group", Kind::Str, false),
        field("version", Kind::Str, false),
        field("kind", Kind::Str, false),
    ],
};

/// `property.CSVMetadata`, the value of an `olm.csv.metadata` property, as opm's
/// `property.Parse` decodes it.
pub(crate) static CSV_METADATA: Schema = Schema {
    name: "CSVMetadata",
    go_type: "property.CSVMetadata",
    slice_type: "[]property.CSVMetadata",
    fields: &[
        field("annotations", Kind::StringMap, true),
        field(
            "apiServiceDefinitions",
            Kind::Struct(&API_SERVICE_DEFINITIONS),
            true,
        ),
        field("crdDescriptions", Kind::Struct(&CRD_DEFINITIONS), true),
        field("description", Kind::Str, true),
        field("displayName", Kind::Str, true),
        field("installModes", Kind::List(&INSTALL_MODE), true),
        field("keywords", Kind::Strings, true),
        field("labels", Kind::StringMap, true),
        field("links", Kind::List(&APP_LINK), true),
        field("maintainers", Kind::List(&MAINTAINER), true),
        field("maturity", Kind::Str, true),
        field("minKubeVersion", Kind::Str, true),
        field("nativeAPIs", Kind::List(&GROUP_VERSION_KIND), true),
        field("provider", Kind::Struct(&APP_LINK), true),
    ],
};

/// A decoded field: `None` only for an absent raw message.
pub(crate) type Slot = Option<Node<'static>>;

/// The zero value of a field's type.
pub(crate) fn zero(kind: Kind) -> Slot {
    Some(match kind {
        Kind::Str | Kind::NamedStr(_) => Node::String(Cow::Borrowed("")),
        Kind::Bool => Node::Bool(false),
        Kind::Int32 => Node::Number(0.0),
        Kind::Strings | Kind::List(_) => Node::Array(Vec::new()),
        Kind::StringMap => Node::Object(Vec::new()),
        Kind::Raw => return None,
        Kind::Struct(schema) => {
            encode(schema, schema.fields.iter().map(|f| zero(f.kind)).collect())
        }
    })
}

/// Whether `omitempty` leaves a value out.
pub(crate) fn is_empty(node: &Node<'_>) -> bool {
    match node {
        Node::String(text) => text.is_empty(),
        Node::Array(items) => items.is_empty(),
        Node::Items(items) => items.is_empty(),
        Node::Chunks(chunks) => chunks.text().is_empty(),
        Node::Object(fields) => fields.is_empty(),
        Node::Number(number) => *number == 0.0,
        Node::Bool(flag) => !flag,
        Node::Null => true,
        Node::Raw { .. } => false,
    }
}

/// Encodes a struct from its decoded fields.
pub(crate) fn encode(schema: &Schema, slots: Vec<Slot>) -> Node<'static> {
    let fields = schema
        .fields
        .iter()
        .zip(slots)
        .filter_map(|(field, slot)| {
            let node = slot?;
            (!(field.omit_empty && is_empty(&node))).then_some((Cow::Borrowed(field.name), node))
        })
        .collect();
    Node::Object(fields)
}

/// A `json.RawMessage` field: Go copies the CSV's own text of the value, which
/// for a CSV that Go marshalled is its `json.Marshal` form (sorted keys, HTML
/// escapes, exact integers).
fn raw(value: &Value) -> Node<'static> {
    Node::Raw(Cow::Owned(crate::bundle::marshal::marshal(value)))
}

/// Decodes a value into `schema`'s fields with Go's rules; type errors go to the
/// decoder, which keeps the first.
pub(crate) fn decode_fields(
    decoder: &mut GoDecoder,
    value: &Value,
    schema: &Schema,
    parent: &str,
) -> Vec<Slot> {
    let mut slots: Vec<Slot> = schema.fields.iter().map(|f| zero(f.kind)).collect();
    let map = match value {
        Value::Object(map) => map,
        Value::Null => return slots,
        other => {
            decoder.mismatch(other, parent, schema.go_type);
            return slots;
        }
    };
    let names: Vec<&'static str> = schema.fields.iter().map(|f| f.name).collect();
    for (key, item) in map {
        let Some(name) = match_field(key, &names) else {
            continue;
        };
        let index = names
            .iter()
            .position(|n| *n == name)
            .expect("a listed field");
        let kind = schema.fields[index].kind;
        if let Some(node) = decoder.field(name, |d| decode_value(d, item, kind, schema.name)) {
            slots[index] = Some(node);
        }
    }
    slots
}

/// Decodes one field; `None` leaves the current value (null, or a type error).
pub(crate) fn decode_value(
    decoder: &mut GoDecoder,
    value: &Value,
    kind: Kind,
    parent: &str,
) -> Option<Node<'static>> {
    if let Kind::Raw = kind {
        return Some(raw(value));
    }
    if value.is_null() {
        return match kind {
            Kind::Strings | Kind::List(_) | Kind::StringMap => zero(kind),
            _ => None,
        };
    }
    let mismatch = |decoder: &mut GoDecoder, go_type: &str| {
        decoder.mismatch(value, parent, go_type);
        None
    };
    match (kind, value) {
        (Kind::Str | Kind::NamedStr(_), Value::String(text)) => {
            Some(Node::String(Cow::Owned(text.clone())))
        }
        (Kind::Str, _) => mismatch(decoder, "string"),
        (Kind::NamedStr(go_type), _) => mismatch(decoder, go_type),
        (Kind::Bool, Value::Bool(flag)) => Some(Node::Bool(*flag)),
        (Kind::Bool, _) => mismatch(decoder, "bool"),
        // Catalog numbers are float64 (an integral 8080 is `8080.0` here); Go
        // accepts any integral number that fits.
        (Kind::Int32, Value::Number(number)) => {
            let number = number.as_f64().unwrap_or(f64::NAN);
            if number.fract() == 0.0
                && (f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&number)
            {
                Some(Node::Number(number))
            } else {
                decoder.mismatch_number(number, parent, "int32");
                None
            }
        }
        (Kind::Int32, _) => mismatch(decoder, "int32"),
        (Kind::Strings, Value::Array(items)) => Some(Node::Array(
            items
                .iter()
                .map(|item| {
                    decode_value(decoder, item, Kind::Str, parent)
                        .unwrap_or(Node::String(Cow::Borrowed("")))
                })
                .collect(),
        )),
        (Kind::Strings, _) => mismatch(decoder, "[]string"),
        (Kind::StringMap, Value::Object(map)) => Some(Node::Object(
            map.iter()
                .map(|(key, item)| {
                    let text = decode_value(decoder, item, Kind::Str, parent);
                    (
                        Cow::Owned(key.clone()),
                        text.unwrap_or(Node::String(Cow::Borrowed(""))),
                    )
                })
                .collect(),
        )),
        (Kind::StringMap, _) => mismatch(decoder, "map[string]string"),
        (Kind::Struct(schema), _) => Some(encode(
            schema,
            decode_fields(decoder, value, schema, parent),
        )),
        (Kind::List(schema), Value::Array(items)) => Some(Node::Array(
            items
                .iter()
                .map(|item| encode(schema, decode_fields(decoder, item, schema, parent)))
                .collect(),
        )),
        (Kind::List(schema), _) => mismatch(decoder, schema.slice_type),
        (Kind::Raw, _) => Some(raw(value)),
    }
}
