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
