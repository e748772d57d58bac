//! Whole-document tests of the YAML writer. Expected texts are worked out by hand from
//! yaml.v2's encoder, resolver and emitter rules (and the spec's §4.7 example).

use std::borrow::Cow;

use super::order::key_less;
use super::{YamlWriteError, check, write_document};
use crate::codec::node::Node;

fn object<'a>(fields: Vec<(&'a str, Node<'a>)>) -> Node<'a> {
    Node::Object(
        fields
            .into_iter()
            .map(|(key, value)| (Cow::Borrowed(key), value))
            .collect(),
    )
}

fn yaml(node: &Node<'_>) -> String {
    let mut out = Vec::new();
    write_document(node, &mut out).expect("writable");
    String::from_utf8(out).expect("UTF-8")
}

/// The document for `{"k": value}` without its `---` line.
fn value(text: &str) -> String {
    let document = yaml(&object(vec![("k", Node::str(text))]));
    document
        .strip_prefix("---\nk:")
        .expect("a one-key document")
        .to_owned()
}

#[test]
fn spec_example() {
    let package = object(vec![
        ("schema", Node::str("olm.package")),
        ("name", Node::str("anakin")),
        ("defaultChannel", Node::str("dark")),
        (
            "icon",
            object(vec![
                (
                    "base64data",
                    Node::str(
                        "PHN2ZyB2aWV3Qm94PSIwIDAgMTAwIDEwMCI+PGNpcmNsZSBjeD0iMjUiIGN5PSIyNSIgcj0iMjUiLz48L3N2Zz4=",
                    ),
                ),
                ("mediatype", Node::str("image/svg+xml")),
            ]),
        ),
        ("description", Node::str("anakin operator")),
    ]);
    assert_eq!(
        yaml(&package),
        "---\ndefaultChannel: dark\ndescription: anakin operator\nicon:\n  base64data: PHN2ZyB2aWV3Qm94PSIwIDAgMTAwIDEwMCI+PGNpcmNsZSBjeD0iMjUiIGN5PSIyNSIgcj0iMjUiLz48L3N2Zz4=\n  mediatype: image/svg+xml\nname: anakin\nschema: olm.package\n"
    );
    let channel = object(vec![
        ("schema", Node::str("olm.channel")),
        ("name", Node::str("light")),
        ("package", Node::str("anakin")),
        (
            "entries",
            Node::Array(vec![
                object(vec![("name", Node::str("anakin.v0.0.1"))]),
                object(vec![
                    ("name", Node::str("anakin.v0.1.0")),
                    ("replaces", Node::str("anakin.v0.0.1")),
                ]),
            ]),
        ),
    ]);
    assert_eq!(
        yaml(&channel),
        "---\nentries:\n- name: anakin.v0.0.1\n- name: anakin.v0.1.0\n  replaces: anakin.v0.0.1\nname: light\npackage: anakin\nschema: olm.channel\n"
    );
}

#[test]
fn keys_follow_the_natural_order_not_bytes() {
    let node = object(
        ["a10", "x9", "a2", "a", "_x", "B", "x:", "x.y", "x-y"]
            .into_iter()
            .map(|key| (key, Node::Null))
            .collect(),
    );
    assert_eq!(
        yaml(&node),
        "---\n_x: null\nB: null\na: null\na2: null\na10: null\nx-y: null\nx.y: null\n'x:': null\nx9: null\n"
    );
    assert!(key_less("a1", "a01"));
    assert!(!key_less("a01", "a1"));
    assert!(key_less("10", "1a"));
    assert!(key_less("a.", "a0"));
}

#[test]
fn more_than_twelve_keys_sort_the_same_way() {
    let keys: Vec<String> = (1..=15).rev().map(|number| format!("k{number}")).collect();
    let node = Node::Object(
        keys.iter()
            .map(|key| (Cow::Borrowed(key.as_str()), Node::Null))
            .collect(),
    );
    let expected = (1..=15).fold(String::new(), |text, number| {
        text + &format!("k{number}: null\n")
    });
    assert_eq!(yaml(&node), format!("---\n{expected}"));
}

/// The natural order is not transitive, so the result depends on the sort's steps
/// (and, in opm, on Go's random map iteration order): from the loaded order, Go's
/// insertion sort swaps `10` before `1a` and leaves `9` last.
#[test]
fn intransitive_keys_sort_as_go_does() {
    assert!(key_less("9", "10") && key_less("10", "1a") && key_less("1a", "9"));
    let node = object(vec![
        ("1a", Node::Null),
        ("10", Node::Null),
        ("9", Node::Null),
    ]);
    assert_eq!(yaml(&node), "---\n\"10\": null\n1a: null\n\"9\": null\n");
}

#[test]
fn numbers_take_the_round_trip_forms() {
    let cases = [
        (1.0, "1"),
        (-0.0, "0"),
        (-3.0, "-3"),
        (1.5, "1.5"),
        (0.0001, "0.0001"),
        (1e-7, "1e-07"),
        (1e20, "1e+20"),
        (1e21, "1e+21"),
        (12_345_678_901_234_567_890.0, "12345678901234567000"),
        (-1e19, "-1e+19"),
        (123_456_789.5, "1.234567895e+08"),
        (9_007_199_254_740_993.0, "9007199254740992"),
    ];
    for (number, expected) in cases {
        let document = yaml(&object(vec![("v", Node::Number(number))]));
        assert_eq!(document, format!("---\nv: {expected}\n"), "{number:e}");
    }
    let scalars = object(vec![
        ("t", Node::Bool(true)),
        ("f", Node::Bool(false)),
        ("z", Node::Null),
        ("e", Node::Array(vec![])),
        ("o", object(vec![])),
    ]);
    assert_eq!(
        yaml(&scalars),
        "---\ne: []\nf: false\no: {}\nt: true\nz: null\n"
    );
}

#[test]
fn strings_that_read_back_as_other_types_are_double_quoted() {
    for text in [
        "",
        "yes",
        "Yes",
        "YES",
        "y",
        "N",
        "on",
        "Off",
        "true",
        "False",
        "~",
        "null",
        "NULL",
        ".inf",
        "-.Inf",
        "+.INF",
        ".nan",
        ".5",
        "1",
        "+1",
        "-1",
        "1.0",
        "1.",
        "1e5",
        "1_000",
        "0x1F",
        "0o17",
        "0b101",
        "0b-101",
        "00",
        "08",
        "0755",
        "1:20",
        "-1:30:00.5",
        "2021-01-01",
        "2021-06-02T12:00:00Z",
        "2021-06-02 12:00:00",
        "18446744073709551615",
        "-9223372036854775808",
    ] {
        assert_eq!(value(text), format!(" \"{text}\"\n"), "{text:?}");
    }
}

#[test]
fn strings_that_stay_strings_are_plain_when_the_emitter_allows() {
    for text in [
        "<0.1.0",
        "1.2.3",
        "0.1.0",
        "v1",
        "tRue",
        "nULL",
        "yess",
        "1e999",
        "0x",
        "0x1G",
        "+",
        ".",
        "1:60",
        "<<",
        "2021-13-01",
        "a#b",
        "a:b",
        "-a",
        "?x",
        "a,b",
        "café",
        "0xFFFFFFFFFFFFFFFFF",
        "a'b",
        "a\"b",
        "x\u{A0}y",
    ] {
        assert_eq!(value(text), format!(" {text}\n"), "{text:?}");
    }
}

#[test]
fn indicators_and_edge_spaces_need_single_quotes() {
    let cases = [
        (">=0.9.0 <=0.9.1", "'>=0.9.0 <=0.9.1'"),
        ("*", "'*'"),
        (" x", "' x'"),
        ("x ", "'x '"),
        ("a: b", "'a: b'"),
        ("a:", "'a:'"),
        ("a #b", "'a #b'"),
        ("- a", "'- a'"),
        ("-", "'-'"),
        ("?", "'?'"),
        ("---", "'---'"),
        ("...x", "'...x'"),
        ("'x", "'''x'"),
        ("\"x", "'\"x'"),
        ("@x", "'@x'"),
        ("%x", "'%x'"),
        ("[x", "'[x'"),
        ("{x}", "'{x}'"),
        ("a\u{2028}b", "'a\u{2028}  b'"),
    ];
    for (text, expected) in cases {
        assert_eq!(value(text), format!(" {expected}\n"), "{text:?}");
    }
}

#[test]
fn specials_are_escaped_in_double_quotes() {
    let cases = [
        ("a\tb", r#""a\tb""#),
        ("a\rb", r#""a\rb""#),
        ("\u{1}\u{1B}\u{7}\u{0}", r#""\x01\e\a\0""#),
        ("a\u{FEFF}b", r#""a\uFEFFb""#),
        ("\u{FEFF}a b", r#""\uFEFF\x61\x20\x62""#),
        ("😀", r#""\U0001F600""#),
        ("a\"\\\u{A0}\tb", "\"a\\\"\\\\\u{A0}\\tb\""),
        ("a \nb", r#""a \nb""#),
        ("a\nb ", r#""a\nb ""#),
        ("a\tb\nc", r#""a\tb\nc""#),
    ];
    for (text, expected) in cases {
        assert_eq!(value(text), format!(" {expected}\n"), "{text:?}");
    }
}

#[test]
fn nel_is_read_back_as_a_space() {
    assert_eq!(value("a\u{85}b"), " a b\n");
    assert_eq!(value("a\u{85}\u{85}b"), " |-\n  a\n  b\n");
}

#[test]
fn newlines_make_literal_blocks_with_chomping_and_indentation_hints() {
    let cases = [
        ("a\nb", " |-\n  a\n  b\n"),
        ("a\n", " |\n  a\n"),
        ("a\n\n", " |+\n  a\n\n"),
        ("\n", " |2+\n\n"),
        ("a\n\nb", " |-\n  a\n\n  b\n"),
        (" a\nb", " |2-\n   a\n  b\n"),
        ("\na", " |2-\n\n  a\n"),
        ("a\n b", " |-\n  a\n   b\n"),
    ];
    for (text, expected) in cases {
        assert_eq!(value(text), expected, "{text:?}");
    }
    let item = Node::Array(vec![Node::str("a\nb")]);
    assert_eq!(yaml(&item), "---\n- |-\n  a\n  b\n");
    let nested = object(vec![(
        "k",
        Node::Array(vec![object(vec![("d", Node::str("x\n"))])]),
    )]);
    assert_eq!(yaml(&nested), "---\nk:\n- d: |\n    x\n");
}

const WORD: &str = "abcdefghi";

fn words(count: usize) -> String {
    vec![WORD; count].join(" ")
}

#[test]
fn long_plain_text_folds_beyond_column_80() {
    let document = yaml(&object(vec![("description", Node::str(&words(20)))]));
    let expected = format!(
        "---\ndescription: {}\n  {}\n  {}\n",
        words(7),
        words(8),
        words(5)
    );
    assert_eq!(document, expected);
    // No fold at a space followed by another one.
    let doubled = format!("{}  {WORD}", words(7));
    assert_eq!(
        yaml(&object(vec![("description", Node::str(&doubled))])),
        format!("---\ndescription: {doubled}\n")
    );
    let long = "x".repeat(300);
    assert_eq!(value(&long), format!(" {long}\n"));
}

#[test]
fn long_quoted_text_folds_too() {
    let text = format!("{}\t", words(20));
    let expected = format!(" \"{}\n  {}\n  {}\\t\"\n", words(8), words(8), words(4));
    assert_eq!(value(&text), expected);
    let spaced = format!("{}  {}\t", words(8), words(2));
    let expected = format!(" \"{}\n  \\ {}\\t\"\n", words(8), words(2));
    assert_eq!(value(&spaced), expected);
    let single = format!("'{}", words(20));
    let expected = format!(" '''{}\n  {}\n  {}'\n", words(8), words(8), words(4));
    assert_eq!(value(&single), expected);
}

#[test]
fn keys_are_never_folded_and_long_ones_become_complex() {
    let spaced = words(12);
    assert_eq!(
        yaml(&object(vec![(spaced.as_str(), Node::Null)])),
        format!("---\n{spaced}: null\n")
    );
    let long = "k".repeat(129);
    assert_eq!(
        yaml(&object(vec![(long.as_str(), Node::Null)])),
        format!("---\n? {long}\n: null\n")
    );
    assert_eq!(
        yaml(&object(vec![("a\nb", object(vec![("c", Node::Null)]))])),
        "---\n? |-\n  a\n  b\n: c: null\n"
    );
    assert_eq!(
        yaml(&object(vec![
            ("yes", Node::Null),
            ("", Node::Null),
            ("a: b", Node::Null)
        ])),
        "---\n\"\": null\n'a: b': null\n\"yes\": null\n"
    );
}

#[test]
fn nested_collections_are_laid_out_as_yaml_v2_does() {
    let node = object(vec![
        (
            "a",
            Node::Array(vec![
                Node::Array(vec![Node::Number(1.0), Node::Number(2.0)]),
                Node::Array(vec![]),
            ]),
        ),
        ("b", object(vec![])),
        (
            "c",
            Node::Array(vec![object(vec![
                ("x", Node::Null),
                ("y", Node::Array(vec![Node::Bool(true), Node::Bool(false)])),
            ])]),
        ),
        (
            "d",
            Node::Array(vec![object(vec![(
                "e",
                object(vec![("f", Node::Number(1.0))]),
            )])]),
        ),
    ]);
    assert_eq!(
        yaml(&node),
        "---\na:\n- - 1\n  - 2\n- []\nb: {}\nc:\n- x: null\n  \"y\":\n  - true\n  - false\nd:\n- e:\n    f: 1\n"
    );
    assert_eq!(yaml(&object(vec![])), "---\n{}\n");
    assert_eq!(yaml(&Node::str("x")), "---\nx\n");
}

#[test]
fn rejected_blobs_write_nothing() {
    let node = object(vec![("a", Node::str("ok")), ("b", Node::str("x\u{7F}"))]);
    assert_eq!(check(&node), Err(YamlWriteError::ControlCharacters));
    let mut out = b"before".to_vec();
    let error = write_document(&node, &mut out).expect_err("DEL is rejected");
    assert_eq!(
        error.to_string(),
        "yaml: control characters are not allowed"
    );
    assert_eq!(out, b"before");
}

/// A text handed over in pieces of `size` characters.
struct InPieces(Vec<String>);

impl crate::codec::node::TextSource for InPieces {
    fn chunks(&self, visit: &mut dyn FnMut(&str)) {
        self.0.iter().for_each(|piece| visit(piece));
    }
}

fn in_pieces(text: &str, size: usize) -> InPieces {
    let characters: Vec<char> = text.chars().collect();
    InPieces(
        characters
            .chunks(size)
            .map(|piece| piece.iter().collect())
            .collect(),
    )
}

/// A string given in pieces is written (and refused) as the same string whole, in
/// a mapping and in a sequence, whether it makes a literal block or not.
#[test]
fn pieces_write_as_the_whole_string() {
    let texts = [
        "invalid index:\n├── invalid package \"a\":\n│   └── x\n└── y",
        "ends with a newline\n",
        "ends with two\n\n",
        "\n",
        " starts with a space\nand breaks",
        "\nstarts with a break",
        "carriage\r\nreturn\u{2028}and\u{2029}separators\nhere",
        "trailing space \nbefore a break",
        "a trailing space\n ",
        "no newline at all, but long enough to fold somewhere after eighty columns of text yes",
        "tab\tand\nnewline",
        "nel\u{85}--- x\nhere",
        "rejected \u{7F}\n",
        "",
        "- a: b\n# c",
    ];
    for text in texts {
        for size in [1, 2, 3, 7, 1000] {
            let pieces = in_pieces(text, size);
            let chunks = Node::Chunks(crate::codec::node::Chunks(&pieces));
            for (whole, given) in [
                (
                    object(vec![("k", Node::str(text))]),
                    object(vec![("k", chunks.clone())]),
                ),
                (
                    Node::Array(vec![Node::str(text), Node::str("z")]),
                    Node::Array(vec![chunks.clone(), Node::str("z")]),
                ),
            ] {
                let write = |node: &Node<'_>| {
                    let mut out = Vec::new();
                    write_document(node, &mut out).map(|()| out)
                };
                assert_eq!(write(&given), write(&whole), "{text:?} in pieces of {size}");
            }
        }
    }
}

/// Strings yaml.v2 would read back as timestamps are quoted, by the same rule the
/// reader applies to `!!timestamp` (`go::timestamp`).
#[test]
fn strings_that_look_like_go_timestamps_are_quoted() {
    for text in [
        "2021-06-02   12:00:00",
        "2021-06-02T12:00:00,5Z",
        "2021-06-02T12:00:00+01:60",
    ] {
        assert_eq!(value(text), format!(" \"{text}\"\n"), "{text}");
    }
    assert_eq!(value("2021-06-02T12:60:00Z"), " 2021-06-02T12:60:00Z\n");
}
