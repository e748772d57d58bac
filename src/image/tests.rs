use super::fetch::progress_line;
use super::*;

/// A timeout anywhere in the chain of causes is one.
#[test]
fn timeouts_are_found_among_the_causes() {
    #[derive(Debug, thiserror::Error)]
    #[error("request failed")]
    struct Wrapper(#[source] std::io::Error);
    let timed_out = Wrapper(std::io::Error::new(std::io::ErrorKind::TimedOut, "t"));
    assert!(super::timed_out(&timed_out));
    let refused = Wrapper(std::io::Error::new(
        std::io::ErrorKind::ConnectionRefused,
        "r",
    ));
    assert!(!super::timed_out(&refused));
}

#[test]
fn only_canonical_references_are_pulled() {
    for reference in [
        "quay.io/org/op:1",
        "localhost/x",
        "127.0.0.1:5000/x@sha256:abc",
        "docker.io/library/busybox",
    ] {
        assert!(super::is_canonical(reference), "{reference}");
    }
    for reference in [
        "busybox",
        "foo/bar:1",
        "docker.io/busybox",
        "index.docker.io/library/x",
    ] {
        assert!(!super::is_canonical(reference), "{reference}");
    }
}

fn pulled(labels: &[(&str, &str)]) -> PulledImage {
    PulledImage {
        downloaded: 0,
        root: tempfile::tempdir().expect("a temporary directory"),
        labels: labels
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    }
}

#[test]
fn the_configs_label_stays_inside_the_image() {
    let image = pulled(&[(CONFIGS_LABEL, "/configs/../index/./")]);
    assert_eq!(
        image.kind("x").expect("a catalog"),
        ImageKind::Catalog(image.root.path().join("index"))
    );
    let image = pulled(&[(CONFIGS_LABEL, "/configs/../../etc")]);
    assert_eq!(
        image.kind("x").expect_err("climbs out").to_string(),
        "render \"x\": the configs label \"/configs/../../etc\" leads outside the image"
    );
}

#[test]
fn labels_decide_the_kind_in_opms_order() {
    let image = pulled(&[(CONFIGS_LABEL, "/configs"), (BUNDLE_LABEL, "foo")]);
    assert_eq!(
        image.kind("x").expect("a catalog"),
        ImageKind::Catalog(image.root.path().join("configs"))
    );
    assert_eq!(
        pulled(&[(BUNDLE_LABEL, "foo")])
            .kind("x")
            .expect("a bundle"),
        ImageKind::Bundle
    );
    let sqlite = pulled(&[(DATABASE_LABEL, "/database/index.db")]).kind("img");
    assert_eq!(
        sqlite.expect_err("refused").to_string(),
        "render \"img\": sqlite-based index images are no longer supported, migrate to a file-based catalog: not allowed"
    );
    let unknown = pulled(&[("b", "2"), ("a", "1")]).kind("img");
    assert_eq!(
        unknown.expect_err("unknown").to_string(),
        "render \"img\": image type could not be determined, found labels\n  a=1\n  b=2"
    );
    assert_eq!(
        pulled(&[]).kind("img").expect_err("unknown").to_string(),
        "render \"img\": image type could not be determined: image has no labels"
    );
}

#[test]
fn progress_reads_well() {
    assert_eq!(
        progress_line("quay.io/a/b:v1", 1, 3, 12_345_678),
        "pulling quay.io/a/b:v1: layer 2 of 3, 12.3 MB so far"
    );
}

#[test]
fn config_labels_are_read() {
    let config = r#"{"architecture":"amd64","config":{"Labels":{"a":"1","n":5}}}"#;
    let read = labels(config).expect("valid config");
    assert_eq!(read.len(), 1);
    assert_eq!(read["a"], "1");
    assert!(labels(r#"{"config":{}}"#).expect("valid").is_empty());
}
