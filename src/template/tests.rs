//! The failure modes and rules of spec §10.1-§10.5, each with opm's text, on a
//! renderer that makes bundles up instead of pulling them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::*;
use crate::model::property::Property;
use crate::output::catalog::{Format, write_catalog};

/// Bundles by image reference: name, package, version and release; any other
/// reference fails as a missing image.
#[derive(Default)]
struct Fake {
    bundles: HashMap<String, (String, String, String, String, Option<Value>)>,
    asked: Mutex<Vec<Vec<String>>>,
}

impl Fake {
    fn with(mut self, image: &str, name: &str, package: &str, version: &str) -> Fake {
        self.bundles.insert(
            image.to_owned(),
            (
                name.to_owned(),
                package.to_owned(),
                version.to_owned(),
                String::new(),
                None,
            ),
        );
        self
    }

    fn release(mut self, image: &str, name: &str, version: &str, release: &str) -> Fake {
        self.bundles.insert(
            image.to_owned(),
            (
                name.to_owned(),
                "foo".to_owned(),
                version.to_owned(),
                release.to_owned(),
                None,
            ),
        );
        self
    }

    fn csv(mut self, image: &str, csv: Value) -> Fake {
        if let Some(bundle) = self.bundles.get_mut(image) {
            bundle.4 = Some(csv);
        }
        self
    }
}

impl BundleRenderer for Fake {
    fn render_all(&self, references: &[&str]) -> Vec<Result<Arc<RenderedBundle>, String>> {
        self.asked
            .lock()
            .expect("not poisoned")
            .push(references.iter().map(|r| (*r).to_owned()).collect());
        references
            .iter()
            .map(|reference| {
                let Some((name, package, version, release, csv)) = self.bundles.get(*reference)
                else {
                    return Err(format!(
                        "render reference {}: failed to pull image {}: not found",
                        crate::go::fmt::quote(reference),
                        crate::go::fmt::quote(reference)
                    ));
                };
                let mut value = json!({"packageName": package, "version": version});
                if !release.is_empty() {
                    value["release"] = json!(release);
                }
                Ok(Arc::new(RenderedBundle {
                    bundle: crate::model::Bundle {
                        name: name.clone().into(),
                        package: package.clone().into(),
                        image: (*reference).to_owned().into(),
                        properties: vec![Property::new("olm.package", Some(&value))].into(),
                        related_images: Vec::new().into(),
                    },
                    csv: csv.clone(),
                }))
            })
            .collect()
    }
}

fn render_with(kind: Option<TemplateType>, text: &str, fake: &Fake) -> Result<String, String> {
    let kind = template_type(kind, text).map_err(|error| error.message)?;
    let catalog = render(kind, text, Path::new("t.yaml"), fake).map_err(|error| error.message)?;
    let mut out = Vec::new();
    write_catalog(&catalog, Format::Json, &mut out).expect("written");
    // One line per blob (the test data has no spaces inside strings).
    let compact: Vec<String> = String::from_utf8(out)
        .expect("UTF-8")
        .split_inclusive("\n}\n")
        .map(|blob| blob.split_whitespace().collect::<Vec<_>>().concat())
        .collect();
    Ok(compact.join("\n"))
}

fn message(kind: Option<TemplateType>, text: &str, fake: &Fake) -> String {
    render_with(kind, text, fake).expect_err("the template fails")
}

const BASIC: Option<TemplateType> = Some(TemplateType::Basic);
const SEMVER: Option<TemplateType> = Some(TemplateType::Semver);
const SUBSTITUTES: Option<TemplateType> = Some(TemplateType::Substitutes);

#[test]
fn basic_templates_fail_with_opms_texts() {
    let fake = Fake::default().with("q.io/foo:1", "foo.v1.0.0", "foo", "1.0.0");
    for (text, expected) in [
        ("", "rendering template: decoding template schema: EOF"),
        (
            "schema: olm.template.basic\nentries: {}\n",
            "rendering template: unmarshalling template: json: cannot unmarshal object into Go struct field BasicTemplateData.entries of type []*declcfg.Meta",
        ),
        (
            "schema: olm.template.basic\nentries: [abc]\n",
            "rendering template: unmarshalling template: json: cannot unmarshal string into Go value of type map[string]interface {} at offset 5 (indicated by <==)\n\"…\" <==",
        ),
        (
            "schema: olm.template.basik\n",
            "rendering template: template has unknown schema (\"olm.template.basik\"), should be \"olm.template.basic\"",
        ),
        (
            "schema: olm.template.basic\nentries:\n- schema: olm.channel\n  entries: 5\n",
            "rendering template: parse channel: json: cannot unmarshal number into Go struct field Channel.entries of type []declcfg.ChannelEntry",
        ),
        (
            "schema: olm.template.basic\nentries:\n- name: x\n",
            "rendering template: object '{\"name\":…}\n' is missing root schema field",
        ),
        (
            "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: q.io/foo:1\n- schema: olm.bundle\n  image: q.io/foo:2\n  package: foo\n",
            "rendering template: unexpected fields present in basic template bundle",
        ),
        (
            "schema: olm.template.basic\nentries:\n- schema: olm.bundle\n  image: q.io/bar:1\n",
            "rendering template: render reference \"q.io/bar:1\": failed to pull image \"q.io/bar:1\": not found",
        ),
    ] {
        assert_eq!(message(BASIC, text, &fake), expected, "{text:?}");
    }
    assert!(
        message(
            BASIC,
            "schema: olm.template.basic\nentries: [null]\n",
            &fake
        )
        .contains("opm cannot load")
    );
    // Nothing after the first bundle that is more than an image is fetched.
    let asked = fake.asked.lock().expect("not poisoned");
    assert!(
        asked
            .iter()
            .all(|batch| !batch.contains(&"q.io/foo:2".to_owned())),
        "{asked:?}"
    );
}

#[test]
fn basic_templates_pass_blobs_through_and_render_duplicates_twice() {
    let fake = Fake::default().with("q.io/foo:1", "foo.v1.0.0", "foo", "1.0.0");
    assert_eq!(
        render_with(BASIC, "schema: olm.template.basic\n", &fake),
        Ok(String::new())
    );
    let text = "schema: olm.template.basic\nentries:\n- schema: my.notes\n  text: kept\n- schema: olm.bundle\n  image: q.io/foo:1\n- schema: olm.bundle\n  image: q.io/foo:1\n  name: ignored\n- schema: olm.package\n  name: foo\n";
    let rendered = render_with(BASIC, text, &fake).expect("rendered");
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(lines.len(), 4, "{rendered}");
    assert!(lines[0].contains("\"schema\":\"olm.package\""));
    assert_eq!(lines[1], lines[2]);
    assert!(lines[1].contains("\"name\":\"foo.v1.0.0\""));
    assert!(lines[3].contains("\"schema\":\"my.notes\""));
}

fn semver_fake() -> Fake {
    Fake::default()
        .with("q.io/foo:1.0.0", "foo.v1.0.0", "foo", "1.0.0")
        .with("q.io/foo:1.0.1", "foo.v1.0.1", "foo", "1.0.1")
        .with("q.io/foo:1.1.0", "foo.v1.1.0", "foo", "1.1.0")
        .with("q.io/foo:dup", "foo.v1.0.0", "foo", "1.0.0")
        .with("q.io/foo:build", "foo.v1.0.0-b", "foo", "1.0.0+2")
        .with("q.io/foo:bad", "foo.vbad", "foo", "v1.0.0")
        .with("q.io/foo:none", "foo.nover", "foo", "")
        .with("q.io/bar:1", "bar.v1.0.0", "bar", "1.0.0")
}

fn stable(images: &[&str]) -> String {
    let list: Vec<String> = images
        .iter()
        .map(|image| format!("  - image: {image}\n"))
        .collect();
    format!("schema: olm.semver\nstable:\n  bundles:\n{}", list.concat())
}

#[test]
fn semver_templates_fail_with_opms_texts() {
    let fake = semver_fake();
    let prefix = "rendering template: render: unable to post-process bundle info: ";
    for (text, expected) in [
        (
            "schema: olm.semver\n".to_owned(),
            "rendering template: render: no bundles specified or no bundles could be rendered".to_owned(),
        ),
        (stable(&["q.io/foo:bad"]), format!("{prefix}bundle \"foo.vbad\" has invalid version \"v1.0.0\": Invalid character(s) found in major number \"v1\"")),
        (stable(&["q.io/foo:none"]), format!("{prefix}bundle \"foo.nover\" has invalid version \"\": Version string empty")),
        (stable(&["q.io/foo:1.0.0", "q.io/bar:1"]), format!("{prefix}bundle \"bar\" does not belong to this package: \"foo\"")),
        (stable(&["q.io/foo:1.0.0", "q.io/foo:dup"]), format!("{prefix}duplicate bundle name \"foo.v1.0.0\"")),
        (
            stable(&["q.io/foo:build", "q.io/foo:1.0.0"]),
            format!("{prefix}encountered bundle versions which differ only by build metadata, which cannot be ordered: bundle version \"1.0.0\" cannot be compared to \"1.0.0\""),
        ),
        (
            stable(&["q.io/foo:missing"]),
            "rendering template: render reference \"q.io/foo:missing\": failed to pull image \"q.io/foo:missing\": not found".to_owned(),
        ),
        (
            "schema: olm.semver\nstable:\n  bundles:\n  - image: a\n    name: b\n".to_owned(),
            "rendering template: render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field \"name\"".to_owned(),
        ),
    ] {
        assert_eq!(message(SEMVER, &text, &fake), expected, "{text:?}");
    }
    // The same bundle in two archetypes is fine.
    let both = "schema: olm.semver\ncandidate:\n  bundles:\n  - image: q.io/foo:1.0.0\nstable:\n  bundles:\n  - image: q.io/foo:1.0.0\n";
    assert!(render_with(SEMVER, both, &fake).is_ok());
}

#[test]
fn semver_package_metadata_comes_from_the_default_channels_head() {
    let fake = semver_fake().csv(
        "q.io/foo:1.1.0",
        json!({"spec": {"description": "the-head", "icon": [{"base64data": "PHN2Zz48L3N2Zz4=", "mediatype": "image/svg+xml"}, {"mediatype": "x"}]}}),
    );
    let rendered = render_with(
        SEMVER,
        &stable(&["q.io/foo:1.1.0", "q.io/foo:1.0.0", "q.io/foo:1.0.1"]),
        &fake,
    )
    .expect("rendered");
    let package = rendered.lines().next().expect("a package blob");
    assert_eq!(
        package,
        r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable-v1.1","icon":{"base64data":"PHN2Zz48L3N2Zz4=","mediatype":"image/svg+xml"},"description":"the-head"}"#
    );
    let no_data = semver_fake().csv(
        "q.io/foo:1.0.0",
        json!({"spec": {"icon": [{"mediatype": "image/png"}], "description": 5}}),
    );
    let rendered = render_with(SEMVER, &stable(&["q.io/foo:1.0.0"]), &no_data).expect("rendered");
    assert!(
        rendered.starts_with(r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable-v1.0","icon":{"base64data":null,"mediatype":"image/png"}}"#),
        "{rendered}"
    );
}

const SUBSTITUTES_ENTRIES: &str = "schema: olm.template.substitutes\nentries:\n- schema: olm.package\n  name: foo\n  defaultChannel: stable\n- schema: olm.channel\n  package: foo\n  name: stable\n  entries:\n  - name: foo.v1.0.0\n  - name: foo.v1.0.1\n    replaces: foo.v1.0.0\n- schema: olm.bundle\n  name: foo.v1.0.0\n  package: foo\n  image: q.io/foo:1.0.0\n  properties:\n  - type: olm.package\n    value: {packageName: foo, version: 1.0.0}\n- schema: olm.bundle\n  name: foo.v1.0.1\n  package: foo\n  image: q.io/foo:1.0.1\n  properties:\n  - type: olm.package\n    value: {packageName: foo, version: 1.0.1}\n";

fn substitutions(list: &[(&str, &str)]) -> String {
    let items: Vec<String> = list
        .iter()
        .map(|(name, base)| format!("- name: \"{name}\"\n  base: \"{base}\"\n"))
        .collect();
    format!("{SUBSTITUTES_ENTRIES}substitutions:\n{}", items.concat())
}

#[test]
fn substitutes_templates_fail_with_opms_texts() {
    let fake = Fake::default()
        .release("q.io/foo:r1", "foo-v1.0.0-1", "1.0.0", "1")
        .release("q.io/foo:old", "foo-v0.9.0-1", "0.9.0", "1")
        .with("q.io/bar:r1", "bar-v1.0.1-1", "bar", "1.0.1");
    let processing = |base: &str, name: &str| {
        format!(
            "rendering template: render: error processing substitution \"{base}\" -> \"{name}\": "
        )
    };
    for (text, expected) in [
        (
            "schema: olm.template.substitutes\nsubstitutions: {}\n".to_owned(),
            "rendering template: render: unable to parse template: unmarshalling template: json: cannot unmarshal object into Go struct field SubstitutesTemplateData.substitutions of type []substitutes.Substitute".to_owned(),
        ),
        (
            "schema: olm.template.basic\n".to_owned(),
            "rendering template: render: unable to parse template: template has unknown schema (\"olm.template.basic\"), should be \"olm.template.substitutes\"".to_owned(),
        ),
        (
            "schema: olm.template.substitutes\nentries:\n- schema: olm.bundle\n  name: x\n  package: nope\n".to_owned(),
            "rendering template: render: entries are not valid FBC: unknown package \"nope\" for bundle \"x\"".to_owned(),
        ),
        (
            substitutions(&[("q.io/foo:r1", "foo.v1.0.0"), ("q.io/foo:r2", "foo.v1.0.0")]),
            "rendering template: render: cannot reuse the same substitution base \"foo.v1.0.0\"".to_owned(),
        ),
        (
            substitutions(&[("q.io/foo:r1", "foo.v1.0.0"), ("q.io/foo:r1", "foo.v1.0.1")]),
            "rendering template: render: cannot reuse the same substitution \"q.io/foo:r1\" for different bases (\"foo.v1.0.0\" and \"foo.v1.0.1\")".to_owned(),
        ),
        (substitutions(&[("", "foo.v1.0.0")]), format!("{}substitution name cannot be empty", processing("foo.v1.0.0", ""))),
        (substitutions(&[("q.io/foo:r1", "")]), format!("{}substitution base cannot be empty", processing("", "q.io/foo:r1"))),
        (substitutions(&[("same", "same")]), format!("{}substitution name and base cannot be the same", processing("same", "same"))),
        (
            substitutions(&[("q.io/foo:nope", "foo.v9")]),
            format!("{}failed to render bundle image reference \"q.io/foo:nope\": render reference \"q.io/foo:nope\": failed to pull image \"q.io/foo:nope\": not found", processing("foo.v9", "q.io/foo:nope")),
        ),
        (substitutions(&[("q.io/foo:r1", "foo.v9")]), format!("{}base bundle \"foo.v9\" does not exist in catalog", processing("foo.v9", "q.io/foo:r1"))),
        (
            substitutions(&[("q.io/foo:old", "foo.v1.0.0")]),
            format!("{}base bundle \"foo.v1.0.0\" is not less than substitute bundle \"q.io/foo:old\"", processing("foo.v1.0.0", "q.io/foo:old")),
        ),
        (
            substitutions(&[("q.io/bar:r1", "foo.v1.0.0")]),
            format!("{}resulting config is not valid FBC: unknown package \"bar\" for bundle \"bar-v1.0.1-1\"", processing("foo.v1.0.0", "q.io/bar:r1")),
        ),
    ] {
        assert_eq!(message(SUBSTITUTES, &text, &fake), expected, "{text}");
    }
}

#[test]
fn a_substitute_takes_over_its_base_as_in_the_spec() {
    let fake = Fake::default().release("q.io/foo:r1", "foo-v1.0.0-1", "1.0.0", "1");
    let rendered = render_with(
        SUBSTITUTES,
        &substitutions(&[("q.io/foo:r1", "foo.v1.0.0")]),
        &fake,
    )
    .expect("rendered");
    let lines: Vec<&str> = rendered.lines().collect();
    assert_eq!(
        lines[1],
        r#"{"schema":"olm.channel","name":"stable","package":"foo","entries":[{"name":"foo.v1.0.0"},{"name":"foo.v1.0.1","replaces":"foo-v1.0.0-1","skips":["foo.v1.0.0"]},{"name":"foo-v1.0.0-1","skips":["foo.v1.0.0"]}]}"#
    );
    assert!(
        lines[2].contains(r#""name":"foo-v1.0.0-1""#) && lines[2].contains(r#""release":"1""#),
        "{}",
        lines[2]
    );
    assert_eq!(lines.len(), 5);
}

#[test]
fn detection_picks_the_type_from_the_schema() {
    let fake = Fake::default();
    assert_eq!(
        message(None, "schema: olm.package\nname: x\n", &fake),
        "auto-detecting template type: unknown template schema: olm.package"
    );
    assert_eq!(
        message(SEMVER, "schema: olm.template.basic\nentries: []\n", &fake),
        "rendering template: render: unable to read file: error unmarshaling JSON: while decoding JSON: json: unknown field \"entries\""
    );
    assert_eq!(
        render_with(None, "schema: olm.template.basic\n", &fake),
        Ok(String::new())
    );
}
