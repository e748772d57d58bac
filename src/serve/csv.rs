//! The CSV opm makes for a bundle that carries `olm.csv.metadata` and no
//! manifests: the metadata decoded into `property.CSVMetadata`, placed in a
//! `v1alpha1.ClusterServiceVersion` with the bundle's name, version and related
//! images and the package's icon, then written by Go's `json.Marshal` (struct
//! field order, `omitempty`, HTML escapes).

use std::borrow::Cow;

use super::index::PackageDetails;
use crate::bundle::marshal::marshal_node;
use crate::bundle::migrate::schema::{self, CSV_METADATA, Slot};
use crate::codec::node::Node;
use crate::go::fmt::quote;
use crate::model::Bundle;
use crate::model::go_decode::GoDecoder;
use crate::model::property::Property;

/// The CSV's JSON text; `version` is the bundle's, as blang's semver prints it.
pub(crate) fn synthesize(
    package: &PackageDetails,
    bundle: &Bundle,
    version: &str,
    metadata: &Property,
) -> Result<String, String> {
    let value = metadata.value().unwrap_or_default();
    let mut decoder = GoDecoder::default();
    let slots = schema::decode_fields(&mut decoder, &value, &CSV_METADATA, "");
    decoder.finish().map_err(|error| {
        format!(
            "package {}, bundle {}: parse olm.csv.metadata: {error}",
            quote(&bundle.package),
            quote(&bundle.name)
        )
    })?;
    let field = |name: &str| -> Node<'static> {
        let index = CSV_METADATA
            .fields
            .iter()
            .position(|field| field.name == name)
            .expect("a field of CSVMetadata");
        slot(&slots[index])
    };
    let mut description = field("description");
    if schema::is_empty(&description) {
        description = Node::String(Cow::Owned(package.description.clone()));
    }
    let icon = package.icon.as_ref().map(|(data, media_type)| {
        Node::Array(vec![Node::Object(vec![
            ("base64data".into(), Node::String(data.clone().into())),
            ("mediatype".into(), Node::String(media_type.clone().into())),
        ])])
    });
    let related: Vec<Node<'static>> = bundle
        .related_images
        .iter()
        .map(|image| {
            Node::Object(vec![
                ("name".into(), Node::String(image.name.to_string().into())),
                ("image".into(), Node::String(image.image.to_string().into())),
            ])
        })
        .collect();
    let version = version.to_owned();
    let metadata_fields = omit_empty(vec![
        ("name", Node::String(bundle.name.to_string().into())),
        ("labels", field("labels")),
        ("annotations", field("annotations")),
    ]);
    let spec = Spec {
        version,
        description,
        icon,
        related,
    };
    let csv = Node::Object(vec![
        ("kind".into(), Node::String("ClusterServiceVersion".into())),
        (
            "apiVersion".into(),
            Node::String("operators.coreos.com/v1alpha1".into()),
        ),
        ("metadata".into(), object(metadata_fields)),
        ("spec".into(), object(spec.fields(&field))),
        (
            "status".into(),
            Node::Object(vec![("cleanup".into(), Node::Object(Vec::new()))]),
        ),
    ]);
    Ok(marshal_node(&csv))
}

/// What the CSV's spec takes from the bundle and the package.
struct Spec {
    version: String,
    description: Node<'static>,
    icon: Option<Node<'static>>,
    related: Vec<Node<'static>>,
}

impl Spec {
    /// `ClusterServiceVersionSpec`'s fields in struct order; `field` reads one
    /// of the metadata.
    fn fields(self, field: &dyn Fn(&str) -> Node<'static>) -> Vec<(&'static str, Node<'static>)> {
        let Spec {
            version,
            description,
            icon,
            related,
        } = self;
        let mut spec = vec![
            (
                "install",
                Node::Object(vec![
                    ("strategy".into(), Node::String("deployment".into())),
                    (
                        "spec".into(),
                        Node::Object(vec![("deployments".into(), Node::Null)]),
                    ),
                ]),
            ),
            ("version", Node::String(version.into())),
        ];
        spec.extend(omit_empty(vec![("maturity", field("maturity"))]));
        spec.push(("customresourcedefinitions", field("crdDescriptions")));
        spec.push(("apiservicedefinitions", field("apiServiceDefinitions")));
        spec.extend(omit_empty(vec![
            ("nativeAPIs", field("nativeAPIs")),
            ("minKubeVersion", field("minKubeVersion")),
        ]));
        spec.push(("displayName", field("displayName")));
        spec.extend(omit_empty(vec![
            ("description", description),
            ("keywords", field("keywords")),
            ("maintainers", field("maintainers")),
        ]));
        spec.push(("provider", field("provider")));
        spec.extend(omit_empty(vec![
            ("links", field("links")),
            ("icon", icon.unwrap_or(Node::Null)),
            ("installModes", field("installModes")),
        ]));
        spec.push((
            "cleanup",
            Node::Object(vec![("enabled".into(), Node::Bool(false))]),
        ));
        spec.extend(omit_empty(vec![("relatedImages", Node::Array(related))]));
        spec
    }
}

/// A decoded field; an absent raw value reads as null.
fn slot(slot: &Slot) -> Node<'static> {
    slot.clone().unwrap_or(Node::Null)
}

/// The fields that `omitempty` keeps.
fn omit_empty(fields: Vec<(&'static str, Node<'static>)>) -> Vec<(&'static str, Node<'static>)> {
    fields
        .into_iter()
        .filter(|(_, node)| !schema::is_empty(node))
        .collect()
}

fn object(fields: Vec<(&'static str, Node<'static>)>) -> Node<'static> {
    Node::Object(
        fields
            .into_iter()
            .map(|(name, node)| (Cow::Borrowed(name), node))
            .collect(),
    )
}
