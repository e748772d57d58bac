//! opm's catalog migrations (`alpha/action/migrations`): an ordered list, run from
//! the first up to and including a chosen level, on every rendered reference.

mod csv_metadata;
pub(crate) mod schema;

use std::fmt::Write as _;

use rayon::prelude::*;

use crate::catalog::Catalog;

/// The migrations in the order they run: token and help.
const MIGRATIONS: [(&str, &str); 2] = [
    ("none", "do nothing"),
    (
        "bundle-object-to-csv-metadata",
        "migrates bundles' \"olm.bundle.object\" to \"olm.csv.metadata\"",
    ),
];

/// The level that selects every migration.
const ALL: &str = "all";

/// The migrations to run: the first `count` of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Migrations {
    count: usize,
}

impl Migrations {
    /// Every migration (`--migrate`, or level `all`).
    pub(crate) fn all() -> Self {
        Migrations {
            count: MIGRATIONS.len(),
        }
    }

    /// The migrations up to and including `level`; the error is opm's.
    pub(crate) fn up_to(level: &str) -> Result<Self, String> {
        if level == ALL {
            return Ok(Self::all());
        }
        MIGRATIONS
            .iter()
            .position(|(token, _)| *token == level)
            .map(|index| Migrations { count: index + 1 })
            .ok_or_else(|| format!("unknown migration level {}", crate::go::fmt::quote(level)))
    }

    /// Runs the migrations on one rendered reference; the error is the first
    /// bundle's, in catalog order.
    pub(crate) fn apply(self, catalog: &mut Catalog) -> Result<(), String> {
        if self.count < 2 {
            return Ok(());
        }
        let results: Vec<Result<(), String>> = catalog
            .bundles
            .par_iter_mut()
            .map(|bundle| csv_metadata::migrate_bundle(&mut bundle.item))
            .collect();
        results.into_iter().collect()
    }
}

impl Migrations {
    /// Whether the migrations replace bundle objects with CSV metadata.
    pub(crate) fn replaces_objects(self) -> bool {
        self.count >= 2
    }

    /// Runs the migrations on one bundle rendered from a directory, whose CSV is
    /// at hand (rather than decoded again from its `olm.bundle.object`s).
    pub(crate) fn apply_to_bundle(
        self,
        bundle: &mut crate::model::Bundle,
        csv: &serde_json::Value,
    ) -> Result<(), String> {
        if !self.replaces_objects() {
            return Ok(());
        }
        csv_metadata::migrate_with_csv(bundle, csv)
    }
}

/// The list of migrations as opm's `--migrate-level` help shows it (Go's
/// tabwriter: the token column padded to the longest entry plus one space).
pub(crate) fn help_text() -> String {
    let mut help = String::from(
        "Name of the last migration to run (default: none)\n\n\
         The migrator will run all migrations up to and including the selected level.\n\n\
         Available migrators:\n",
    );
    let width = MIGRATIONS
        .iter()
        .map(|(token, _)| token.len() + 4)
        .max()
        .unwrap_or_default();
    for (token, text) in MIGRATIONS {
        let cell = format!("  - {token}");
        writeln!(help, "{cell:<width$} : {text}").expect("writing to a String");
    }
    help
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn levels_select_a_prefix() {
        assert_eq!(Migrations::up_to("none"), Ok(Migrations { count: 1 }));
        assert_eq!(Migrations::up_to("all"), Ok(Migrations::all()));
        assert_eq!(
            Migrations::up_to("bundle-object-to-csv-metadata"),
            Ok(Migrations { count: 2 })
        );
        assert_eq!(
            Migrations::up_to("bogus"),
            Err("unknown migration level \"bogus\"".to_owned())
        );
    }

    #[test]
    fn help_lists_the_migrations_like_opm() {
        let help = help_text();
        assert!(help.ends_with(
            "Available migrators:\n  - none                          : do nothing\n  \
             - bundle-object-to-csv-metadata : migrates bundles' \"olm.bundle.object\" to \"olm.csv.metadata\"\n"
        ));
    }

    #[test]
    fn csv_metadata_follows_struct_order_and_omitempty() {
        let csv = json!({
            "apiVersion": "operators.coreos.com/v1alpha1",
            "kind": "ClusterServiceVersion",
            "metadata": {"name": "foo.v1.0.0", "annotations": {"b": "2", "a": "1"}, "labels": {}},
            "spec": {
                "version": "1.0.0",
                "displayName": "Foo",
                "keywords": [],
                "installModes": [{"supported": true, "type": "OwnNamespace"}, null],
                "customresourcedefinitions": {"owned": [{"kind": "Foo", "name": "foos.x.io", "version": "v1",
                    "specDescriptors": [{"path": "size", "value": {"b": 1, "a": null}}]}]},
                "maintainers": [{"email": "a@b.c"}],
            },
        });
        let node = csv_metadata::csv_metadata(&csv).expect("decodes");
        let mut text = Vec::new();
        crate::codec::json_write::write_compact(&node, &mut text);
        assert_eq!(
            String::from_utf8(text).expect("UTF-8"),
            r#"{"annotations":{"a":"1","b":"2"},"apiServiceDefinitions":{},"crdDescriptions":{"owned":[{"name":"foos.x.io","version":"v1","kind":"Foo","specDescriptors":[{"path":"size","value":{"a":null,"b":1}}]}]},"displayName":"Foo","installModes":[{"type":"OwnNamespace","supported":true},{"type":"","supported":false}],"maintainers":[{"email":"a@b.c"}],"provider":{}}"#
        );
    }

    #[test]
    fn csv_decoding_errors_read_as_go() {
        let csv = json!({"spec": {"displayName": 1, "version": "v1.2"}});
        assert_eq!(
            csv_metadata::csv_metadata(&csv).map(|_| ()),
            Err("json: cannot unmarshal number into Go struct field ClusterServiceVersionSpec.spec.displayName of type string".to_owned())
        );
        let csv = json!({"spec": {"displayName": 1, "version": "latest"}});
        assert_eq!(
            csv_metadata::csv_metadata(&csv).map(|_| ()),
            // blang pads a part that does not start with a digit with `0`.
            Err("Invalid character(s) found in major number \"0latest\"".to_owned())
        );
        let csv = json!({"spec": {"release": "01"}});
        assert_eq!(
            csv_metadata::csv_metadata(&csv).map(|_| ()),
            Err("Numeric PreRelease version must not contain leading zeroes \"01\"".to_owned())
        );
    }
}
