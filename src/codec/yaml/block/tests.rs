//! The direct reader against the full one: equal values wherever the direct reader
//! answers, on hand-written cases, on every document of the corpus and on generated
//! documents (mutated to reach the edges of the subset).

use serde_json::Value;

use crate::codec::json_write::write_compact_value;
use crate::codec::yaml::tests::corpus_yaml_files;
use crate::codec::yaml::{Converted, read_fully};

fn read(text: &str, integers: bool) -> Option<Converted> {
    super::read(text, integers, false).map(|(converted, _)| converted)
}

/// The direct reader answers, and as the full reader does.
fn same(text: &str) {
    let direct = read(text, false).unwrap_or_else(|| panic!("left to the full reader: {text:?}"));
    let full = read_fully(text, false).unwrap_or_else(|error| panic!("{text:?}: {error}"));
    assert_eq!(direct, full, "{text:?}");
}

/// The direct reader leaves the document to the full reader.
fn left(text: &str) {
    assert!(read(text, false).is_none(), "read directly: {text:?}");
}

/// Where the direct reader answers, the full reader gives the same value, and
/// capturing property values changes nothing but them.
fn agrees(text: &str) -> bool {
    let Some(direct) = read(text, false) else {
        return false;
    };
    match read_fully(text, false) {
        Ok(full) => assert_eq!(direct, full, "{text:?}"),
        Err(error) => panic!("read directly, refused by the full reader ({error}): {text:?}"),
    }
    captures_agree(text, &direct);
    true
}

/// Read with property values captured, `text` gives `read`'s value and notes,
/// except that each value of the root's `properties` items is the compact text of
/// `read`'s value there; whether any was captured.
fn captures_agree(text: &str, read: &Converted) -> bool {
    let Some(((mut value, implicit), captured)) = super::read(text, false, true) else {
        panic!("read directly without capturing, not with it: {text:?}");
    };
    assert_eq!(implicit, read.1, "{text:?}");
    let expected = read.0.as_ref().and_then(|root| root.get("properties"));
    let found = value.as_mut().and_then(|root| root.get_mut("properties"));
    if let (Some(Value::Array(expected)), Some(Value::Array(found)), true) =
        (expected, found, captured)
    {
        for (expected, found) in expected.iter().zip(found) {
            let (Some(expected), Some(found)) = (expected.get("value"), found.get_mut("value"))
            else {
                continue;
            };
            let mut compact = Vec::new();
            write_compact_value(expected, &mut compact);
            let compact = String::from_utf8(compact).expect("UTF-8");
            assert_eq!(found.as_str(), Some(compact.as_str()), "{text:?}");
            *found = expected.clone();
        }
    }
    assert_eq!(value, read.0, "{text:?}");
    captured
}

#[test]
fn mappings_sequences_and_plain_scalars() {
    same("schema: olm.package\nname: etcd\ndefaultChannel: alpha\n");
    same("---\na: 1\nb: yes\nc: ~\nd:\ne: 1.0\nversion: 0.10\nname: on\n");
    same("--- # comment\n# another\na:\n  b:\n    c: d\n  e: f\ng: h\n");
    same("entries:\n- name: a.v1\n  skips:\n  - a.v0\n- name: a.v2\n  replaces: a.v1\n");
    same("l:\n  - 1\n  -\n  -   x: y\n      z: w\n");
    same("k: a#b # comment\nm: a:b\nn: -1\nurl: http://x.io:80/a\n");
    same("a: []\nb: {}\nc: [] # empty\n");
    same("  a: 1\n  b: 2\n");
    same("- a\n- b: c\n  d: e\n");
    same("1: a\ntrue: b\n");
}

#[test]
fn quoted_scalars_on_one_line() {
    same("a: 'it''s'\nb: \"x: y # z\"\nc: ''\nd: \"\"\ne: '1.0'\nf: \"yes\" # c\n");
    same("- 'a'\n- \"b\"\n");
}

#[test]
fn scalars_over_several_lines() {
    same("a: plain\n  continued\n\n  after empty\nb: 'single\n  quoted ''x''\n\n\n  end '\n");
    same("a: \"double \\\"q\\\" \\n\n    \\t\\x41\\u00e9 \"\nb: x\n");
    same("- plain\n  more  \n- '\n  starts empty'\n");
    same("a: \"escaped \\\n  line break\\\n\n  and empty\\\\\n  \\  kept\"\n");
    for start in [
        "- x", "\"q\" x", "`x`", "[a] b", "{b}", "? x", "! x", "& x", "* x", "| x", "> x", "% x",
        "@x", "'q'", ",x", "]",
    ] {
        same(&format!("a: plain\n  {start}\n  end\nb: 1\n"));
    }
}

#[test]
fn literal_and_folded_scalars() {
    same("a: |\n  line 1\n\n  line 3\n    indented\nb: x\n");
    same(
        "a: |-\n  one\n  two\n\n\nb: |+\n  keep\n\n\nc: >\n  folded\n  text\n\n  para\n    more\n  back\n",
    );
    same("a: >-\n  x\n\n\n  y\n   z\n  w\nb: >+\n  k\n\n");
    same("a: |\n\n  after empty\n  \n     \n  x\n# comment\nb: 1\n");
    same("- |\n  in a list\n- >\n  folded in a list\n");
    same("a:\n- b: |\n    nested\n  c: d\n");
    same("a: | # comment\n  x\n");
}

#[test]
fn everything_else_is_left_to_the_full_reader() {
    for text in [
        "a: &x 1\nb: *x\n",
        "a: !!str 1\n",
        "a: [1, 2]\n",
        "a: {b: c}\n",
        "a: >\n   deeper\n  shallower\n",
        "l:\n- - a\n",
        "a: 'two\nlines'\n",
        "k:\n  deeper: text\n    goes on # and a comment\n  next: 1\n",
        "a: plain\n  continued: no\n",
        "a: \"cut \\ \n  escape\"\n",
        "a: \"\\/\"\n",
        "a: b: c\n",
        "a:\tb\n",
        "a: b\r\n",
        "? a\n: b\n",
        "'a': b\n",
        "a: |2\n   x\n",
        "a: |\nb: c\n",
        "a: 1\n b: 2\n",
        "a: 1\n...\nb: 2\n",
        "a: 1\n- b\n",
        "plain\n",
        "# only a comment\n",
        "",
        "a: -\n",
        "a: - b\n",
        "a: ? b\n",
        "a: x\u{85}y\n",
        "a: |\n    x\n  y\n",
        "a: |\n      \n    x\n",
    ] {
        left(text);
    }
}

/// Every YAML document of the corpus (catalogs and bundle directories): where the
/// direct reader answers it agrees, and it answers nearly all catalog documents.
#[test]
fn corpus_documents_agree() {
    for (folder, least) in [("catalogs", 0.95), ("bundles", 0.0)] {
        let Some(files) = corpus_yaml_files(folder) else {
            return;
        };
        let (mut read_directly, mut documents) = (0_u32, 0_u32);
        for path in files {
            let text = std::fs::read_to_string(&path).expect("UTF-8 YAML");
            for document in crate::catalog::split_documents(&text) {
                documents += 1;
                read_directly += u32::from(agrees(&document));
            }
        }
        let share = f64::from(read_directly) / f64::from(documents.max(1));
        eprintln!("{folder}: {read_directly} of {documents} documents read directly");
        assert!(
            documents > 0 && share >= least,
            "{folder}: {read_directly} of {documents}"
        );
    }
}

/// Generated documents of the subset's shapes (many of them invalid), and copies
/// with one byte changed, inserted or removed: the direct reader never disagrees
/// with the full reader, and reads most of the valid ones.
#[test]
fn generated_documents_agree() {
    let mut random = Random(0x9e37_79b9_7f4a_7c15);
    let (mut read_directly, mut left_valid, mut captured) = (0, 0, 0_u32);
    for _ in 0..4000 {
        let mut text = String::new();
        generate_mapping(&mut random, &mut text, 0, 0);
        if agrees(&text) {
            read_directly += 1;
        } else if read_fully(&text, false).is_ok() {
            left_valid += 1;
        }
        let property = as_property_value(&text);
        if let Some(read) = read(&property, false) {
            captured += u32::from(captures_agree(&property, &read));
        }
        for _ in 0..4 {
            let mut bytes = text.clone().into_bytes();
            let at = random.below(bytes.len() + 1);
            let byte = random.pick(b" \n-:#'\"|>ab1");
            match random.below(3) {
                0 if at < bytes.len() => bytes[at] = byte,
                1 => bytes.insert(at, byte),
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
            if let Ok(mutated) = String::from_utf8(bytes) {
                agrees(&mutated);
            }
        }
    }
    // What is left is mostly empty block scalars and invalid documents.
    assert!(
        read_directly > 7 * left_valid,
        "{read_directly} valid documents read directly, {left_valid} left"
    );
    assert!(
        captured > read_directly / 2,
        "{captured} captured of {read_directly}"
    );
}

/// A document whose only property's value is `document`'s mapping.
fn as_property_value(document: &str) -> String {
    let mut text = String::from("schema: olm.bundle\nproperties:\n- type: t\n  value:\n");
    for line in document.lines() {
        if !line.is_empty() {
            text.push_str("    ");
        }
        text.push_str(line);
        text.push('\n');
    }
    text
}

struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        usize::try_from(self.0 % bound.max(1) as u64).expect("small bound")
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

const SCALARS: [&str; 16] = [
    "name",
    "yes",
    "1.0",
    "~",
    "0x1F",
    "-5",
    "a b",
    "x#y",
    "a:b",
    "'q'",
    "'it''s'",
    "\"d\"",
    "[]",
    "{}",
    "2001-12-14",
    "v1.0 # note",
];

fn generate_mapping(random: &mut Random, text: &mut String, indent: usize, depth: usize) {
    for index in 0..=random.below(4) {
        text.push_str(&" ".repeat(indent));
        text.push_str(random.pick(&["name", "version", "a", "b", "skips", "1", "true"]));
        text.push_str(&index.to_string());
        text.push(':');
        generate_value(random, text, indent, depth);
        if random.below(8) == 0 {
            text.push_str(&" ".repeat(random.below(4)));
            text.push_str(random.pick(&["\n", "# comment\n"]));
        }
    }
}

fn generate_value(random: &mut Random, text: &mut String, indent: usize, depth: usize) {
    let choice = if depth > 3 {
        random.below(3)
    } else {
        random.below(6)
    };
    match choice {
        0 | 1 => {
            text.push(' ');
            text.push_str(random.pick(&SCALARS));
            text.push('\n');
        }
        2 => generate_block_scalar(random, text, indent),
        3 => {
            text.push('\n');
            let inner = indent + 1 + random.below(3);
            generate_mapping(random, text, inner, depth + 1);
        }
        _ => {
            text.push('\n');
            let inner = indent + random.below(3);
            for _ in 0..=random.below(3) {
                text.push_str(&" ".repeat(inner));
                text.push('-');
                if random.below(2) == 0 {
                    text.push(' ');
                    let mut entry = String::new();
                    generate_mapping(random, &mut entry, 0, depth + 1);
                    // The entry's later keys line up with its first.
                    let pad = " ".repeat(inner + 2);
                    text.push_str(&entry.replace('\n', &format!("\n{pad}")));
                    text.truncate(text.trim_end_matches(' ').len());
                } else {
                    generate_value(random, text, inner, depth + 1);
                }
            }
        }
    }
}

fn generate_block_scalar(random: &mut Random, text: &mut String, indent: usize) {
    text.push(' ');
    text.push_str(random.pick(&["|", ">", "|-", ">-", "|+", ">+"]));
    text.push('\n');
    let width = indent + 1 + random.below(3);
    for _ in 0..=random.below(5) {
        match random.below(4) {
            0 => text.push_str(&" ".repeat(random.below(width + 3))),
            1 => {
                text.push_str(&" ".repeat(width + 1 + random.below(2)));
                text.push_str("more");
            }
            _ => {
                text.push_str(&" ".repeat(width));
                text.push_str(random.pick(&["word", "two words", "# not a comment", "x: y"]));
            }
        }
        text.push('\n');
    }
}

/// A bundle document with these property values (each indented by four spaces).
fn bundle_with_values(values: &[&str]) -> String {
    let mut text = String::from("schema: olm.bundle\nproperties:\n");
    for value in values {
        text.push_str("- type: t\n  value:");
        text.push_str(value);
    }
    text
}

#[test]
fn property_values_are_captured_as_compact_text() {
    let text = bundle_with_values(&[
        "\n    version: v1\n    kind: K\n    group: g\n    kind: L\n",
        " 1e3\n",
        "\n    - yes\n    - ~\n    - 0x10\n    - 'q\"<'\n    - []\n",
        "\n    1: a\n    true: b\n    nested:\n      z: |\n        two\n        lines\n      a: {}\n",
        "\n    packageName: p\n    version: 1.0\n",
    ]);
    let read = read(&text, false).expect("read directly");
    assert!(captures_agree(&text, &read));
    let ((value, implicit), _) = super::read(&text, false, true).expect("read directly");
    let texts: Vec<&str> = value.as_ref().expect("a value")["properties"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|property| property["value"].as_str().expect("a text"))
        .collect();
    assert_eq!(
        texts,
        [
            r#"{"group":"g","kind":"L","version":"v1"}"#,
            "1000",
            r#"[true,null,16,"q\"<",[]]"#,
            r#"{"1":"a","nested":{"a":{},"z":"two\nlines\n"},"true":"b"}"#,
            r#"{"packageName":"p","version":1}"#,
        ]
    );
    // A number where a string field wants a string is noted inside values too.
    assert_eq!(implicit.len(), 1);
    assert_eq!(
        (implicit[0].key.as_str(), implicit[0].line),
        ("version", 30)
    );
}

#[test]
fn values_the_builder_must_decide_are_not_captured() {
    for value in [
        "\n    <<:\n      a: 1\n    b: 2\n",
        "\n    a: .nan\n",
        "\n    ~: 1\n",
        "\n    0x1: 1\n    18446744073709551615: 2\n",
    ] {
        let text = bundle_with_values(&[" 1\n", value]);
        let captured = super::read(&text, false, true).is_some_and(|(_, captured)| captured);
        assert!(!captured, "{text:?}");
        assert_eq!(read(&text, false).is_some(), agrees(&text), "{text:?}");
    }
    // Elsewhere than in the root's `properties` list, nothing is captured.
    for text in [
        "properties:\n  value: {}\n",
        "a:\n  properties:\n  - value: 1\n",
        "Properties:\n- value: 1\n",
        "properties:\n- Value: 1\n",
    ] {
        let (_, captured) = super::read(text, false, true).expect("read directly");
        assert!(!captured, "{text:?}");
    }
}
