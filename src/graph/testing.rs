//! Test helper: a catalog from JSON lines, without files.

use serde_json::Value;

use crate::catalog::{Catalog, Located, Location};
use crate::model::{Bundle, Channel, Deprecation, Package};

/// A channel with every kind of edge (its `skips` names a bundle the catalog
/// lacks), whose first bundle and the channel itself are deprecated.
pub(crate) const DEPRECATED_ETCD: &str = r#"
{"schema":"olm.channel","package":"etcd","name":"alpha","entries":[{"name":"etcd.v0.9.0"},{"name":"etcd.v0.9.2","replaces":"etcd.v0.9.0","skips":["etcd.v0.9.1"],"skipRange":"<0.9.2"}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v0.9.0","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.0"}}]}
{"schema":"olm.bundle","package":"etcd","name":"etcd.v0.9.2","properties":[{"type":"olm.package","value":{"packageName":"etcd","version":"0.9.2"}}]}
{"schema":"olm.deprecations","package":"etcd","entries":[{"reference":{"schema":"olm.bundle","name":"etcd.v0.9.0"},"message":"old"},{"reference":{"schema":"olm.channel","name":"alpha"},"message":"old"}]}
"#;

/// Decodes one blob per non-empty line into a catalog, in line order.
pub(crate) fn catalog(lines: &str) -> Catalog {
    let mut catalog = Catalog::default();
    for (index, line) in lines.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let location = Location::new(
            &crate::catalog::shared_path(std::path::Path::new("catalog.json")),
            index + 1,
            1,
        );
        let Value::Object(map) = serde_json::from_str(line).expect("test blob is JSON") else {
            panic!("test blob is not an object: {line}");
        };
        let schema = map
            .get("schema")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match schema {
            "olm.package" => catalog.packages.push(Located {
                item: Package::decode(map).expect("package decodes"),
                location,
            }),
            "olm.channel" => catalog.channels.push(Located {
                item: Channel::decode(map).expect("channel decodes"),
                location,
            }),
            "olm.bundle" => catalog.bundles.push(Located {
                item: Bundle::decode(map).expect("bundle decodes"),
                location,
            }),
            "olm.deprecations" => catalog.deprecations.push(Located {
                item: Deprecation::decode(map).expect("deprecation decodes"),
                location,
            }),
            other => panic!("test blob has schema {other}"),
        }
    }
    catalog
}
