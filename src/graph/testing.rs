//! Test helper: a catalog from JSON lines, without files.

use serde_json::Value;

use crate::catalog::{Catalog, Located, Location};
use crate::model::{Bundle, Channel, Deprecation, Package};

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
