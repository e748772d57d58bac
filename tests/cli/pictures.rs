//! The pictures fbc lays out itself: `fbc graph -o svg` and `fbc diff -o html`
//! are well-formed XML (read by roxmltree), hold a picture per channel, keep
//! hostile names inside their text, and show a picture when a real browser draws
//! them (headless Chromium, which .ci/run installs).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{fbc, stdout, testdata};

/// A package whose name would end an element, an attribute or a line.
const NAME: &str = "odd\"<b>&\u{1b}\nname";

/// A catalog of `NAME` with two channels: `stable` a chain of `count` bundles
/// whose last skips the one before and covers the rest by `skipRange`, and
/// `loop` whose two entries replace each other.
fn catalog(count: usize) -> String {
    let name = serde_json::to_string(NAME).expect("a JSON string");
    let mut blobs = vec![format!(
        r#"{{"schema":"olm.package","name":{name},"defaultChannel":"stable"}}"#
    )];
    let mut entries = Vec::new();
    for number in 0..count {
        let mut entry = format!(r#"{{"name":"b.v1.0.{number}""#);
        if number > 0 {
            let _ = write!(entry, r#","replaces":"b.v1.0.{}""#, number - 1);
        }
        if number + 1 == count && number > 1 {
            let _ = write!(
                entry,
                r#","skips":["b.v1.0.{}"],"skipRange":"<1.0.{number}""#,
                number - 2
            );
        }
        entry.push('}');
        entries.push(entry);
        blobs.push(format!(
            r#"{{"schema":"olm.bundle","name":"b.v1.0.{number}","package":{name},"image":"q.io/b:{number}","properties":[{{"type":"olm.package","value":{{"packageName":{name},"version":"1.0.{number}"}}}}]}}"#
        ));
    }
    blobs.push(format!(
        r#"{{"schema":"olm.channel","name":"stable","package":{name},"entries":[{}]}}"#,
        entries.join(",")
    ));
    blobs.push(format!(
        r#"{{"schema":"olm.channel","name":"loop","package":{name},"entries":[{{"name":"b.v1.0.0","replaces":"b.v1.0.1"}},{{"name":"b.v1.0.1","replaces":"b.v1.0.0"}}]}}"#
    ));
    blobs.join("\n")
}

/// Writes `catalog(count)` into `dir/side` and returns that directory.
fn write_catalog(dir: &Path, side: &str, count: usize) -> PathBuf {
    let path = dir.join(side);
    std::fs::create_dir(&path).expect("mkdir");
    std::fs::write(path.join("catalog.json"), catalog(count)).expect("write");
    path
}

fn parse(text: &str) -> roxmltree::Document<'_> {
    // The HTML page starts with `<!DOCTYPE html>`, a DTD without declarations.
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    roxmltree::Document::parse_with_options(text, options)
        .unwrap_or_else(|error| panic!("not XML: {error}\n{text}"))
}

fn elements<'a>(
    document: &'a roxmltree::Document,
    tag: &'a str,
    class: &'a str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'a>> + 'a {
    document.descendants().filter(move |node| {
        node.has_tag_name(tag)
            && node
                .attribute("class")
                .is_some_and(|classes| classes.split(' ').any(|c| c == class))
    })
}

/// Every coordinate of every drawn shape is a finite number inside its `<svg>`.
fn assert_inside(svg: roxmltree::Node) {
    let size = |name| {
        svg.attribute(name)
            .and_then(|value| value.parse::<f64>().ok())
            .expect("a width and height")
    };
    let (width, height) = (size("width"), size("height"));
    for node in svg.descendants().filter(roxmltree::Node::is_element) {
        for (name, limit) in [("x", width), ("y", height)] {
            if let Some(value) = node.attribute(name) {
                let value: f64 = value.parse().expect("a number");
                assert!(
                    value.is_finite() && (0.0..=limit).contains(&value),
                    "{name}={value}"
                );
            }
        }
        let points = node.attribute("d").or_else(|| node.attribute("points"));
        for number in points.into_iter().flat_map(|d| {
            d.split(|c: char| c.is_ascii_alphabetic() || c == ' ')
                .filter(|s| !s.is_empty())
        }) {
            let value: f64 = number.parse().expect("a number");
            assert!(value.is_finite() && (0.0..=width.max(height)).contains(&value));
        }
    }
}

#[test]
fn graph_svg_is_xml_with_a_picture_per_channel() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let catalog = write_catalog(dir.path(), "catalog", 5);
    let output = fbc()
        .args(["graph", "-o", "svg"])
        .arg(&catalog)
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(0), "{}", crate::stderr(&output));
    let text = stdout(&output);
    let document = parse(&text);
    let root = document.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    assert_inside(root);
    let titles: Vec<&str> = elements(&document, "text", "title")
        .map(|node| node.text().expect("a title"))
        .collect();
    let shown = "odd\"<b>&\\u{1b}\\nname";
    assert_eq!(
        titles,
        [format!("{shown} / loop"), format!("{shown} / stable")]
    );
    // Five bundles in stable, two in loop; edges: four replaces, a skip and four
    // skipRange edges in stable, two in loop; the legend's samples.
    assert_eq!(
        elements(&document, "g", "node").count(),
        7 + 1,
        "the legend's too"
    );
    assert_eq!(elements(&document, "g", "edge").count(), 11 + 3);
    assert_eq!(elements(&document, "g", "skipRange").count(), 4 + 1);
    let head = elements(&document, "g", "head")
        .filter_map(|node| node.children().find(|c| c.has_tag_name("title")))
        .filter_map(|title| title.text())
        .collect::<Vec<_>>();
    assert_eq!(
        head,
        ["head", "b.v1.0.4"],
        "the legend's box, then stable's head"
    );
}

#[test]
fn diff_html_is_xml_with_a_picture_per_changed_channel() {
    let output = crate::diff::kinds(&["-o", "html"]);
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let text = stdout(&output);
    let document = parse(&text);
    assert!(document.root_element().has_tag_name("html"));
    let pictures: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name(("http://www.w3.org/2000/svg", "svg")))
        .collect();
    // As many as the markdown report's mermaid blocks.
    assert_eq!(pictures.len(), 6);
    for picture in pictures {
        assert_inside(picture);
    }
    let figure = document
        .descendants()
        .find(|n| {
            n.has_tag_name("figure")
                && n.descendants()
                    .any(|c| c.has_tag_name("title") && c.text() == Some("strand.v1.1.0"))
        })
        .expect("the strand channel's picture");
    let marked = |class| {
        figure
            .descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|c| c == class) && c.starts_with("node"))
            })
            .filter_map(|n| n.children().find(|c| c.has_tag_name("title"))?.text())
            .filter(|label| !label.contains(' ') && *label != class)
            .collect::<Vec<_>>()
    };
    assert_eq!(marked("removed"), ["strand.v1.1.0"]);
    assert_eq!(marked("broken"), ["strand.v1.1.0"]);
    assert_eq!(marked("added"), ["strand.v1.3.0"]);
}

#[test]
fn diff_html_of_several_catalogs_is_one_page() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let old = write_catalog(dir.path(), "old", 5);
    let new = write_catalog(dir.path(), "new", 4);
    let kinds = testdata(crate::diff::KINDS);
    let output = fbc()
        .args(["diff", "-o", "html"])
        .args([&old, &new, &kinds.join("old"), &kinds.join("new")])
        .output()
        .expect("fbc runs");
    assert_eq!(output.status.code(), Some(1), "{}", crate::stderr(&output));
    let text = stdout(&output);
    let document = parse(&text);
    let headings: Vec<String> = document
        .descendants()
        .filter(|n| n.has_tag_name("h1") || n.has_tag_name("h2"))
        .map(|n| {
            n.descendants()
                .filter(roxmltree::Node::is_text)
                .filter_map(|t| t.text())
                .collect()
        })
        .collect();
    assert_eq!(headings.len(), 3, "{headings:?}");
    assert_eq!(headings[0], "Catalog diff: 2 catalog(s)");
    assert!(
        headings[1].contains("/old → ") && headings[1].ends_with("/new"),
        "{headings:?}"
    );
    let first = text.find("<h2>").expect("a part");
    assert!(
        !text[first..].contains("<html") && !text[first..].contains("<head>"),
        "one page"
    );
    // The hostile name stays text: its escapes are shown, its markup is not markup.
    assert!(text.contains("<code>odd&quot;&lt;b&gt;&amp;\\u{1b}\\nname</code>"));
    assert!(!text.contains('\u{1b}'));
}

/// What Chromium draws of `file`, as RGB pixels of a `width` x `height` window.
fn screenshot(file: &Path, dir: &Path) -> Vec<[u8; 3]> {
    let png = dir.join(format!(
        "{}.png",
        file.file_name().expect("a file").to_string_lossy()
    ));
    let mut child = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1200,900",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", file.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium runs (apt-get install chromium)");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took more than 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "chromium: {status}");
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&png).expect("the screenshot"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    let channels = info.color_type.samples();
    assert!(channels >= 3, "an RGB screenshot");
    pixels[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// How many pixels are within a small distance of `colour`.
fn near(pixels: &[[u8; 3]], colour: [u8; 3]) -> usize {
    pixels
        .iter()
        .filter(|p| p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) < 40))
        .count()
}

#[test]
#[cfg_attr(fbc_no_chromium, ignore = "needs chromium (apt-get install chromium)")]
fn pictures_show_in_chromium() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let old = write_catalog(dir.path(), "old", 6);
    let new = write_catalog(dir.path(), "new", 5);
    let graph = fbc()
        .args(["graph", "-o", "svg"])
        .arg(&old)
        .output()
        .expect("fbc runs");
    let diff = fbc()
        .args(["diff", "-o", "html"])
        .args([&old, &new])
        .output()
        .expect("fbc runs");
    assert_eq!(diff.status.code(), Some(1), "{}", crate::stderr(&diff));
    let (svg, html) = (dir.path().join("graph.svg"), dir.path().join("diff.html"));
    std::fs::write(&svg, &graph.stdout).expect("write");
    std::fs::write(&html, &diff.stdout).expect("write");
    let drawn = screenshot(&svg, dir.path());
    let white = near(&drawn, [255, 255, 255]);
    let grey = near(&drawn, [0x57, 0x60, 0x6a]);
    assert!(white > drawn.len() / 2, "a white page: {white}");
    assert!(grey > 2_000, "boxes and arrows: {grey} grey pixels");
    let page = screenshot(&html, dir.path());
    // The removed head's box and arrow in red, the table and text in dark grey.
    let red = near(&page, [0xcf, 0x22, 0x2e]);
    assert!(red > 500, "removed and broken in red: {red}");
    let green = near(&page, [0x1a, 0x7f, 0x37]);
    assert!(green > 100, "the new skip in green: {green}");
    assert!(near(&page, [0x24, 0x29, 0x2f]) > 2_000, "the report's text");
}
