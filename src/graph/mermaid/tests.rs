//! opm's own `TestWriteMermaidChannels` cases (library default: v0 semantics on),
//! and the CLI default without them.

use super::*;
use crate::graph::deprecations::Deprecations;
use crate::graph::selection::{Filters, select};
use crate::graph::testing::catalog;

/// opm's `buildValidDeclarativeConfig` with deprecations, as JSON lines.
const STAR_WARS: &str = r#"
{"schema":"olm.package","name":"anakin","defaultChannel":"dark"}
{"schema":"olm.package","name":"boba-fett","defaultChannel":"mando"}
{"schema":"olm.channel","package":"anakin","name":"dark","entries":[{"name":"anakin.v0.0.1"},{"name":"anakin.v0.1.0","replaces":"anakin.v0.0.1"},{"name":"anakin.v0.1.1","replaces":"anakin.v0.0.1","skips":["anakin.v0.1.0"]}]}
{"schema":"olm.channel","package":"anakin","name":"light","entries":[{"name":"anakin.v0.0.1"},{"name":"anakin.v0.1.0","replaces":"anakin.v0.0.1"}]}
{"schema":"olm.channel","package":"boba-fett","name":"mando","entries":[{"name":"boba-fett.v1.0.0"},{"name":"boba-fett.v2.0.0","replaces":"boba-fett.v1.0.0"}]}
{"schema":"olm.bundle","package":"anakin","name":"anakin.v0.0.1","properties":[{"type":"olm.package","value":{"packageName":"anakin","version":"0.0.1"}}]}
{"schema":"olm.bundle","package":"anakin","name":"anakin.v0.1.0","properties":[{"type":"olm.package","value":{"packageName":"anakin","version":"0.1.0"}}]}
{"schema":"olm.bundle","package":"anakin","name":"anakin.v0.1.1","properties":[{"type":"olm.package","value":{"packageName":"anakin","version":"0.1.1"}}]}
{"schema":"olm.bundle","package":"boba-fett","name":"boba-fett.v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"boba-fett","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"boba-fett","name":"boba-fett.v2.0.0","properties":[{"type":"olm.package","value":{"packageName":"boba-fett","version":"2.0.0"}}]}
{"schema":"olm.deprecations","package":"anakin","entries":[{"reference":{"schema":"olm.bundle","name":"anakin.v0.0.1"},"message":"This bundle version is deprecated"},{"reference":{"schema":"olm.channel","name":"light"},"message":"This channel is deprecated"},{"reference":{"schema":"olm.package"},"message":"This package is deprecated... there is another"}]}
"#;

const HEADER: &str = "graph LR
  classDef deprecated fill:#E8960F
  classDef skipped stroke:#FF0000,stroke-width:4px
  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px
";

fn render(minimum_edge: &str, package: &str, v0: bool) -> Mermaid {
    let catalog = catalog(STAR_WARS);
    let filters = Filters {
        minimum_edge: minimum_edge.to_owned(),
        package: package.to_owned(),
    };
    let selection = select(&catalog, &filters).expect("valid catalog");
    let deprecations = Deprecations::new(&catalog.deprecations);
    write_mermaid(&selection, &deprecations.name_sets(), v0)
}

const ALL_PACKAGES: &str = r#"  %% package "anakin"
  subgraph "anakin"
    %% channel "dark"
    subgraph anakin-dark["dark"]
      anakin-dark-anakin.v0.1.1["anakin.v0.1.1"]
      anakin-dark-anakin.v0.1.0["anakin.v0.1.0"]-- skip --> anakin-dark-anakin.v0.1.1["anakin.v0.1.1"]
      anakin-dark-anakin.v0.0.1["anakin.v0.0.1"]-- replace --> anakin-dark-anakin.v0.1.1["anakin.v0.1.1"]
      anakin-dark-anakin.v0.1.0["anakin.v0.1.0"]
      anakin-dark-anakin.v0.0.1["anakin.v0.0.1"]-- replace --> anakin-dark-anakin.v0.1.0["anakin.v0.1.0"]
      anakin-dark-anakin.v0.0.1["anakin.v0.0.1"]
    end
    %% channel "light"
    subgraph anakin-light["light"]
      anakin-light-anakin.v0.1.0["anakin.v0.1.0"]
      anakin-light-anakin.v0.0.1["anakin.v0.0.1"]-- replace --> anakin-light-anakin.v0.1.0["anakin.v0.1.0"]
      anakin-light-anakin.v0.0.1["anakin.v0.0.1"]
    end
  end
  %% package "boba-fett"
  subgraph "boba-fett"
    %% channel "mando"
    subgraph boba-fett-mando["mando"]
      boba-fett-mando-boba-fett.v2.0.0["boba-fett.v2.0.0"]
      boba-fett-mando-boba-fett.v1.0.0["boba-fett.v1.0.0"]-- replace --> boba-fett-mando-boba-fett.v2.0.0["boba-fett.v2.0.0"]
      boba-fett-mando-boba-fett.v1.0.0["boba-fett.v1.0.0"]
    end
  end
style anakin fill:#989695
style anakin-light fill:#DCD0FF
class anakin-dark-anakin.v0.0.1,anakin-light-anakin.v0.0.1 deprecated
"#;

#[test]
fn no_filters_with_v0_semantics() {
    let expected = format!(
        "{HEADER}{ALL_PACKAGES}class anakin-dark-anakin.v0.1.0 skipped\nlinkStyle 2 stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;\n"
    );
    let mermaid = render("", "", true);
    assert_eq!(mermaid.text, expected);
    assert!(mermaid.warnings.is_empty());
}

#[test]
fn cli_default_draws_no_v0_decorations() {
    assert_eq!(
        render("", "", false).text,
        format!("{HEADER}{ALL_PACKAGES}")
    );
}

#[test]
fn minimum_edge_filter() {
    let expected = format!(
        r#"{HEADER}  %% package "anakin"
  subgraph "anakin"
    %% channel "dark"
    subgraph anakin-dark["dark"]
      anakin-dark-anakin.v0.1.1["anakin.v0.1.1"]
      anakin-dark-anakin.v0.1.0["anakin.v0.1.0"]-- skip --> anakin-dark-anakin.v0.1.1["anakin.v0.1.1"]
      anakin-dark-anakin.v0.1.0["anakin.v0.1.0"]
    end
    %% channel "light"
    subgraph anakin-light["light"]
      anakin-light-anakin.v0.1.0["anakin.v0.1.0"]
    end
  end
style anakin fill:#989695
style anakin-light fill:#DCD0FF
class anakin-dark-anakin.v0.1.0 skipped
"#
    );
    assert_eq!(render("anakin.v0.1.0", "", true).text, expected);
}

#[test]
fn package_name_filter() {
    let expected = format!(
        r#"{HEADER}  %% package "boba-fett"
  subgraph "boba-fett"
    %% channel "mando"
    subgraph boba-fett-mando["mando"]
      boba-fett-mando-boba-fett.v2.0.0["boba-fett.v2.0.0"]
      boba-fett-mando-boba-fett.v1.0.0["boba-fett.v1.0.0"]-- replace --> boba-fett-mando-boba-fett.v2.0.0["boba-fett.v2.0.0"]
      boba-fett-mando-boba-fett.v1.0.0["boba-fett.v1.0.0"]
    end
  end
"#
    );
    assert_eq!(render("", "boba-fett", true).text, expected);
}

#[test]
fn skip_range_edges_include_every_covered_entry_and_bad_ranges_warn() {
    let lines = r#"
{"schema":"olm.channel","package":"p","name":"c","entries":[{"name":"p.v1"},{"name":"p.v2","skipRange":"<2.0.0"},{"name":"p.v3","skipRange":"not a range"}]}
{"schema":"olm.bundle","package":"p","name":"p.v1","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v2","properties":[{"type":"olm.package","value":{"packageName":"p","version":"2.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"p.v3","properties":[{"type":"olm.package","value":{"packageName":"p","version":"3.0.0"}}]}
"#;
    let catalog = catalog(lines);
    let selection = select(&catalog, &Filters::default()).expect("valid");
    let mermaid = write_mermaid(&selection, &NameSets::default(), false);
    assert!(
        mermaid
            .text
            .contains("      p-c-p.v1[\"p.v1\"]-- \"skipRange(<2.0.0)\" --> p-c-p.v2[\"p.v2\"]\n")
    );
    assert_eq!(mermaid.warnings.len(), 1);
    assert!(
        mermaid.warnings[0]
            .starts_with("warning: ignoring invalid SkipRange for package/edge \"p\"/\"p.v3\": ")
    );
}
