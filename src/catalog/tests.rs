use super::*;
use std::fmt::Write as _;

#[test]
fn yaml_lines_are_told_apart_from_file_lines() {
    let note = yaml_line_note(
        "error converting YAML to JSON: yaml: line 2: did not find",
        6,
    );
    assert_eq!(
        note.as_deref(),
        Some(
            "\"line 2\" is yaml.v2's count within this YAML document (opm's message); the error is at line 6 of the file"
        )
    );
    let at = |rest: &str| format!("error converting YAML to JSON: yaml: {rest}");
    assert_eq!(yaml_line_note(&at("line 6: mapping values"), 6), None);
    assert_eq!(
        yaml_line_note(&at("did not find expected ',' or ']'"), 6),
        None
    );
    assert_eq!(yaml_line_note(&at("line 2x"), 6), None);
    assert_eq!(
        yaml_line_note("convert bundle object: yaml: line 2: x", 6),
        None
    );
}

#[test]
fn a_file_removed_after_the_walk_listed_it_is_named() {
    let root = tempfile::tempdir().expect("a directory");
    let package = r#"{"schema":"olm.package","name":"a"}"#;
    std::fs::write(root.path().join("a.json"), package).expect("written");
    std::fs::write(root.path().join("b.json"), package).expect("written");
    let files = walk::catalog_files(root.path()).expect("walked");
    assert_eq!(files.len(), 2);
    std::fs::remove_file(root.path().join("b.json")).expect("removed");
    let errors = load_listed(root.path(), &files).expect_err("b.json is gone");
    assert_eq!(errors.errors.len(), 1);
    assert_eq!(
        errors.errors[0].to_string(),
        format!(
            "{}: No such file or directory (os error 2)",
            root.path().join("b.json").display()
        )
    );
}

#[test]
fn a_large_file_keeps_its_blobs_in_order() {
    // Over the size at which room is made from a count of schema keys.
    let mut text = String::new();
    let mut index = 0;
    while text.len() <= 1 << 20 {
        write!(
            text,
            "{{\"schema\":\"olm.package\",\"name\":\"p{index}\"}}\n\
             {{\"schema\":\"x.y\",\"package\":\"p{index}\",\"name\":\"o{index}\",\"v\":[{index}]}}\n"
        )
        .expect("writing to a string cannot fail");
        index += 1;
    }
    let catalog = decode_bytes(Path::new("big.json"), text.into_bytes()).expect("valid");
    assert_eq!(catalog.packages.len(), index);
    assert_eq!(catalog.others.len(), index);
    for (at, (package, other)) in catalog.packages.iter().zip(&catalog.others).enumerate() {
        assert_eq!(&*package.item.name, format!("p{at}"));
        assert_eq!(package.location.line as usize, 2 * at + 1);
        assert_eq!(other.item.name(), format!("o{at}"));
        assert_eq!(other.item.package(), format!("p{at}"));
        assert_eq!(other.item.schema(), "x.y");
        assert_eq!(
            other.item.json(),
            format!("{{\"name\":\"o{at}\",\"package\":\"p{at}\",\"schema\":\"x.y\",\"v\":[{at}]}}")
        );
    }
}

#[test]
fn many_files_load_in_path_order_across_chunks() {
    // More files than one chunk, with fewer blobs per file after the first
    // chunk than in it (the room made from the first chunk is then too much).
    let root = tempfile::tempdir().expect("a directory");
    for file in 0..700 {
        let blobs = if file < 256 { 3 } else { 1 };
        let text = (0..blobs).fold(String::new(), |mut text, blob| {
            let _ = writeln!(
                text,
                "{{\"schema\":\"olm.package\",\"name\":\"p{file:03}-{blob}\"}}"
            );
            text
        });
        std::fs::write(root.path().join(format!("f{file:03}.json")), text).expect("written");
    }
    let catalog = load_directory(root.path()).expect("valid");
    let names: Vec<&str> = catalog.packages.iter().map(|p| &*p.item.name).collect();
    let expected: Vec<String> = (0..700)
        .flat_map(|file| {
            (0..if file < 256 { 3 } else { 1 }).map(move |blob| format!("p{file:03}-{blob}"))
        })
        .collect();
    assert_eq!(names, expected);
    assert_eq!(catalog.packages.capacity(), catalog.packages.len());
}

/// NEW's documents, then OLD with one document changed, one moved down and one
/// with an implicitly typed scalar (which OLD takes with its line).
const MEMO_NEW: &str = "---\nschema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: stable\nentries:\n- name: a.v1\n---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: q.io/a:1\nproperties:\n- type: olm.package\n  value:\n    packageName: a\n    version: 1.0\n";
const MEMO_OLD: &str = "---\nschema: olm.deprecations\npackage: a\nentries: []\n---\nschema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: beta\nentries:\n- name: a.v1\n---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: q.io/a:1\nproperties:\n- type: olm.package\n  value:\n    packageName: a\n    version: 1.0\n";

fn decode_text(name: &str, text: &str, reuse: Reuse) -> Catalog {
    decode_bytes_reusing(Path::new(name), text.as_bytes().to_vec(), reuse).expect("valid")
}

#[test]
fn documents_taken_from_the_memo_equal_those_read() {
    let memo = Memo::default();
    let new = decode_text("new.yaml", MEMO_NEW, Reuse::Record(&memo));
    let shown = |catalog: &Catalog| format!("{catalog:?}");
    assert_eq!(
        shown(&new),
        shown(&decode_text("new.yaml", MEMO_NEW, Reuse::Nothing))
    );
    let old = decode_text("old.yaml", MEMO_OLD, Reuse::Recall(&memo));
    let read = decode_text("old.yaml", MEMO_OLD, Reuse::Nothing);
    assert_eq!(shown(&old), shown(&read));
    // Their places are OLD's own.
    assert_eq!(old.bundles[0].location.line, 15);
    assert_eq!(old.implicit.len(), 1);
    assert_eq!(old.implicit[0].location.line, 23);
}

#[test]
fn documents_the_memo_holds_are_not_read_again() {
    let memo = Memo::default();
    decode_text("new.yaml", MEMO_NEW, Reuse::Record(&memo));
    // What the memo holds for the package document stands for it, whatever its
    // text would give: proof that OLD's copy was not read.
    let other = decode_text(
        "x.yaml",
        "schema: olm.package\nname: other\n",
        Reuse::Nothing,
    );
    let package = "schema: olm.package\nname: a\n";
    memo.remember(
        package,
        memo::Remembered {
            blob: meta::Blob::Package(other.packages[0].item.clone()),
            implicit: Vec::new(),
        },
    );
    let old = decode_text("old.yaml", MEMO_OLD, Reuse::Recall(&memo));
    assert_eq!(old.packages[0].item.name, "other");
    assert_eq!(
        old.channels[0].item.name, "beta",
        "a changed document is read"
    );
}

/// Blobs whose YAML property values were captured as text load as the same blobs
/// read from the same values written as JSON (never captured): bundles keep the
/// text, other schemas decode it again.
#[test]
fn captured_property_values_load_as_values_read() {
    let yaml = "schema: olm.package\nname: a\nproperties:\n- type: t\n  value:\n    b: 1\n    a: [x, 1e3]\n---\nschema: olm.channel\npackage: a\nname: s\nentries: []\nproperties:\n- type: t\n  value: yes\n---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: q.io/a:1\nproperties:\n- type: olm.gvk\n  value:\n    version: v1\n    kind: K\n    group: g\n- type: olm.bundle.object\n  value:\n    data: eyJraW5kIjogIkEifQ==\n---\nschema: my.own\nname: o\nproperties:\n- value:\n    z: ~\n    y: 'q'\n";
    let json: String = split_documents(yaml)
        .iter()
        .map(|document| {
            let (value, _) = crate::codec::yaml::catalog_document(document).expect("valid");
            value.expect("a value").to_string()
        })
        .collect();
    let captured = decode_text("catalog.yaml", yaml, Reuse::Nothing);
    let read = decode_text("catalog.json", &json, Reuse::Nothing);
    let items = |catalog: &Catalog| {
        format!(
            "{:?} {:?} {:?} {:?}",
            catalog.packages.iter().map(|p| &p.item).collect::<Vec<_>>(),
            catalog.channels.iter().map(|c| &c.item).collect::<Vec<_>>(),
            catalog.bundles.iter().map(|b| &b.item).collect::<Vec<_>>(),
            catalog.others.iter().map(|o| &o.item).collect::<Vec<_>>(),
        )
    };
    assert_eq!(items(&captured), items(&read));
    assert!(items(&captured).contains(r#"{\"a\":[\"x\",1000],\"b\":1}"#));
}
