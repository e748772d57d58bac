use super::*;

/// A package with a channel `c` of `a` <- `b` (b also skips `a` twice and
/// `x`), where `b` provides `g/v1/K`, and a custom blob.
fn index() -> Index {
    let mut catalog = Catalog::default();
    let file = crate::catalog::shared_path(std::path::Path::new("catalog.json"));
    let blobs = r#"{"schema":"olm.package","name":"p","defaultChannel":"c"}
{"schema":"olm.channel","package":"p","name":"c","entries":[{"name":"a"},{"name":"b","replaces":"a","skips":["a","a","x"]}]}
{"schema":"olm.bundle","package":"p","name":"a","image":"i/a","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.0.0"}}]}
{"schema":"olm.bundle","package":"p","name":"b","image":"i/b","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.1.0"}},{"type":"olm.gvk","value":{"group":"g","kind":"K","version":"v1"}},{"type":"olm.package.required","value":{"packageName":"q","versionRange":">=1 <2"}}]}
{"schema":"io.example.note","package":"p","name":"n","value":3}"#;
    for (line, blob) in blobs.lines().enumerate() {
        let value = serde_json::from_str(blob).expect("test blobs are JSON");
        let location = crate::catalog::Location::new(&file, line + 1, 1);
        catalog.push_value(value, location).expect("a blob");
    }
    let catalog = Arc::new(catalog);
    let mut index = Index::new(Arc::clone(&catalog));
    let mut failure = None;
    crate::validate::validate_with_models(&catalog, |_| {}, &mut |model| {
        if let Err(error) = index.add_model(model) {
            failure = Some(error);
        }
    })
    .expect("validated");
    assert_eq!(failure, None);
    index.add_customs().expect("custom blobs keyed");
    index.finish();
    index
}

#[test]
fn single_bundle_answers_drop_replaces_and_skips() {
    let index = index();
    let bundle = index.bundle("p", "c", "b").expect("found");
    assert_eq!((bundle.replaces.as_str(), bundle.skips.len()), ("", 0));
    assert_eq!(bundle.version, "1.1.0");
    assert_eq!(bundle.dependencies.len(), 1);
    assert_eq!(
        bundle.dependencies[0].value,
        r#"{"packageName":"q","version":">=1 <2"}"#
    );
    let listed = index.listed_bundle(1).expect("two entries").expect("made");
    assert_eq!(listed.replaces, "a");
    assert_eq!(listed.skips, ["a", "a", "x"]);
}

#[test]
fn missing_names_get_opm_texts() {
    let index = index();
    let error = |result: Result<api::Bundle, String>| result.expect_err("not found");
    assert_eq!(
        error(index.bundle("q", "c", "a")),
        r#"package "q" not found"#
    );
    assert_eq!(
        error(index.bundle("p", "d", "a")),
        r#"package "p", channel "d" not found"#
    );
    assert_eq!(
        error(index.bundle("p", "c", "z")),
        r#"package "p", channel "c", bundle "z" not found"#
    );
    assert_eq!(
        error(index.bundle_that_replaces("a", "q", "c")),
        "package q not found"
    );
    assert_eq!(
        error(index.bundle_that_replaces("b", "p", "c")),
        r#"no entry found for package "p", channel "c""#
    );
    assert_eq!(
        index.entries_that_replace("z").expect_err("none"),
        "no channel entries found that replace z"
    );
}

#[test]
fn skips_listed_twice_give_two_entries() {
    let index = index();
    // Replaced once; the skips equal to `replaces` add nothing.
    assert_eq!(index.entries_that_replace("a").map(|e| e.len()), Ok(1));
    assert_eq!(index.entries_that_replace("x").map(|e| e.len()), Ok(1));
    let gvk = Gvk {
        group: "g",
        version: "v1",
        kind: "K",
    };
    // The entry, then `x` (any skip); the latest only skips that are entries.
    let all = index.entries_that_provide(&gvk).expect("provided");
    assert_eq!(
        all.iter().map(|e| e.replaces.as_str()).collect::<Vec<_>>(),
        ["a", "x"]
    );
    let latest = index.latest_entries_that_provide(&gvk).expect("provided");
    assert_eq!(latest.len(), 1);
    assert_eq!(
        index.default_bundle_that_provides(&gvk).map(|b| b.csv_name),
        Ok("b".to_owned())
    );
    let none = Gvk {
        group: "g",
        version: "v2",
        kind: "K",
    };
    assert_eq!(
        index.default_bundle_that_provides(&none).expect_err("none"),
        r#"no channel entries found that provide group:"g" version:"v2" kind:"K""#
    );
}

#[test]
fn custom_blobs_by_schema_and_package() {
    let index = index();
    assert_eq!(index.customs("io.example.note", "p").map(<[_]>::len), Ok(1));
    assert_eq!(index.customs("io.example.note", "").map(<[_]>::len), Ok(0));
    assert_eq!(
        index.customs("../x", ""),
        Err(InvalidQuery(
            r#"invalid custom schema query: invalid schema "../x": must match ^[a-zA-Z0-9][a-zA-Z0-9._-]*$"#
                .to_owned()
        ))
    );
    assert!(index.customs("io.example.note", "-p").is_err());
}
