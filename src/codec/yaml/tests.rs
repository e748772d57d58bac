//! Conversion tests: yaml.v2's rules end to end, its error texts, and the corpus.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Implicit, YamlError, catalog_document};

fn document_to_json(text: &str) -> Result<Option<Value>, YamlError> {
    catalog_document(text).map(|(value, _)| value)
}

#[test]
fn plain_booleans_and_numbers_under_string_fields_are_noted() {
    let text = "name: yes\nversion: 1.0\nskips:\n- 010\nquoted: '1.0'\nsupported: true\nimage: \"1\"\nreplaces: foo\n";
    let (_, implicit) = catalog_document(text).expect("valid");
    let noted: Vec<(&str, &str, &str, usize, usize)> = implicit
        .iter()
        .map(
            |Implicit {
                 key,
                 text,
                 kind,
                 line,
                 column,
             }| { (key.as_str(), text.as_str(), *kind, *line, *column) },
        )
        .collect();
    assert_eq!(
        noted,
        [
            ("name", "yes", "boolean", 1, 7),
            ("version", "1.0", "number", 2, 10),
            ("skips", "010", "number", 4, 3),
        ]
    );
}

fn convert(text: &str) -> Value {
    match document_to_json(text) {
        Ok(Some(value)) => value,
        other => panic!("{text:?} gave {other:?}"),
    }
}

fn error(text: &str) -> String {
    match document_to_json(text) {
        Err(error) => error.to_string(),
        Ok(value) => panic!("{text:?} converted to {value:?}"),
    }
}

fn yaml_error(detail: &str) -> String {
    format!("error converting YAML to JSON: yaml: {detail}")
}

#[test]
fn yaml_1_1_booleans_as_values_and_keys() {
    let value = convert("a: yes\nb: Off\nc: y\nd: N\ne: TRUE\nf: false\ng: yES\n");
    assert_eq!(
        value,
        json!({"a": true, "b": false, "c": true, "d": false, "e": true, "f": false, "g": "yES"})
    );
    // `y` and `on` both become the key "true": the last one wins.
    assert_eq!(
        convert("y: 2\nn: 3\non: 4\noff: 5\n"),
        json!({"true": 4.0, "false": 5.0})
    );
}

#[test]
fn nulls() {
    assert_eq!(
        convert("a: ~\nb: null\nc: NULL\nd:\ne: ''\n"),
        json!({"a": null, "b": null, "c": null, "d": null, "e": ""})
    );
    assert_eq!(convert("~"), Value::Null);
}

#[test]
fn integers_become_float64() {
    let value = convert(
        "a: 010\nb: 0x1F\nc: 0o17\nd: +1\ne: 1_000\nf: -0\ng: 0b11\nh: 12345678901234567890\n",
    );
    assert_eq!(value["a"], json!(8.0));
    assert_eq!(value["b"], json!(31.0));
    assert_eq!(value["c"], json!(15.0));
    assert_eq!(value["d"], json!(1.0));
    assert_eq!(value["e"], json!(1000.0));
    assert_eq!(value["f"], json!(0.0));
    assert_eq!(value["g"], json!(3.0));
    assert_eq!(value["h"].as_f64(), Some(12_345_678_901_234_567_890_f64));
    // Every number is stored as f64, as after Go's JSON round trip.
    assert!(value["b"].is_f64());
}

#[test]
fn floats() {
    let value = convert("a: 1.0\nb: .5\nc: 1e3\nd: -1.5E-2\ne: 1.2.3\nf: 1e400\n");
    assert_eq!(
        value,
        json!({"a": 1.0, "b": 0.5, "c": 1000.0, "d": -0.015, "e": "1.2.3", "f": "1e400"})
    );
}

#[test]
fn non_finite_numbers_fail_like_json_marshal() {
    assert_eq!(
        error("a: .inf\n"),
        "error converting YAML to JSON: json: unsupported value: +Inf"
    );
    assert_eq!(
        error("b: .nan\na: [1, -.Inf]\n"),
        "error converting YAML to JSON: json: unsupported value: -Inf"
    );
    // As a key a non-finite float is only text.
    assert_eq!(convert(".inf: 1\n"), json!({".inf": 1.0}));
}

#[test]
fn strings_stay_strings() {
    let value = convert(
        "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: '1'\nd: \"true\"\ne: !!str 1\nf: v1.2.3\ng: ! 12\n",
    );
    assert_eq!(
        value,
        json!({"a": "2001-12-14", "b": "2001-12-14t21:59:43.10-05:00", "c": "1", "d": "true", "e": "1", "f": "v1.2.3", "g": "12"})
    );
}

#[test]
fn explicit_tags() {
    let value = convert(
        "a: !!int '7'\nb: !!float 1\nc: !!binary aGVsbG8=\nd: !!bool 'yes'\ne: !!map x\nf: !custom 3\n",
    );
    assert_eq!(
        value,
        json!({"a": 7.0, "b": 1.0, "c": "hello", "d": true, "e": "x", "f": "3"})
    );
    assert_eq!(
        error("v: !!float 'error'"),
        yaml_error("cannot decode !!str `error` as a !!float")
    );
    assert_eq!(
        error("a: !!binary =="),
        yaml_error("!!binary value contains invalid base64 data")
    );
}

#[test]
fn block_scalars() {
    let value = convert("a: |\n  x\n  y\nb: >\n  folded\n  text\n\n  para\nc: |-\n  kept\n");
    assert_eq!(
        value,
        json!({"a": "x\ny\n", "b": "folded text\npara\n", "c": "kept"})
    );
}

#[test]
fn anchors_and_aliases() {
    let value = convert("a: &x [1, {b: c}]\nd: *x\ne: &s yes\nf: *s\n*s : key\n");
    assert_eq!(
        value,
        json!({"a": [1.0, {"b": "c"}], "d": [1.0, {"b": "c"}], "e": true, "f": true, "true": "key"})
    );
    // An anchor may be redefined; an alias refers to the latest definition.
    assert_eq!(
        convert("a: &x 1\nb: *x\nc: &x 2\nd: *x\n"),
        json!({"a": 1.0, "b": 1.0, "c": 2.0, "d": 2.0})
    );
    assert_eq!(
        error("a: *b\n"),
        yaml_error("unknown anchor 'b' referenced")
    );
    assert_eq!(
        error("b: *a\na: &a {c: 1}"),
        yaml_error("unknown anchor 'a' referenced")
    );
    assert_eq!(
        error("a: &a\n  b: *a\n"),
        yaml_error("anchor 'a' value contains itself")
    );
}

#[test]
fn merge_keys() {
    let value = convert("base: &b {a: 1, b: 2}\nx:\n  <<: *b\n  b: 3\n");
    assert_eq!(value["x"], json!({"a": 1.0, "b": 3.0}));
    // In a list, earlier maps win.
    let value = convert("p: &p {a: 1}\nq: &q {a: 2, c: 3}\nx:\n  <<: [*p, *q]\n  d: 4\n");
    assert_eq!(value["x"], json!({"a": 1.0, "c": 3.0, "d": 4.0}));
    // yaml.v2 merges into the map as it goes, so a merge overrides earlier keys.
    assert_eq!(
        convert("{a: 1, <<: {a: 2, b: 3}}"),
        json!({"a": 2.0, "b": 3.0})
    );
    // A quoted `<<` is an ordinary key.
    assert_eq!(convert("'<<': {a: 1}\n"), json!({"<<": {"a": 1.0}}));
    let merge_error = yaml_error("map merge requires map or sequence of maps as the value");
    assert_eq!(error("a: &x null\n<<:\n- *x\nb: &x {}\n"), merge_error);
    assert_eq!(error("<<: 1\n"), merge_error);
    assert_eq!(error("a: &l [1]\n<<: *l\n"), merge_error);
}

#[test]
fn non_string_keys_are_stringified() {
    let value = convert("1: one\n1.5: x\n0x10: hex\ntrue: t\n1.0: f\n1.23456789: f32\n1e6: m\n");
    assert_eq!(
        value,
        json!({"1": "f", "1.5": "x", "16": "hex", "true": "t", "1.2345679": "f32", "1e+06": "m"})
    );
    assert_eq!(
        error("~: a\n"),
        "error converting YAML to JSON: unsupported map key of type: %!s(<nil>), key: <nil>, value: \"a\""
    );
    assert_eq!(
        error("18446744073709551615: 1\n"),
        "error converting YAML to JSON: unsupported map key of type: uint64, key: 0xffffffffffffffff, value: 1"
    );
    assert_eq!(
        error("{[.]}"),
        yaml_error("invalid map key: []interface {}{\".\"}")
    );
    assert_eq!(
        error("{{.}}"),
        yaml_error("invalid map key: map[interface {}]interface {}{\".\":interface {}(nil)}")
    );
}

#[test]
fn duplicate_keys_last_wins() {
    assert_eq!(convert("a: 1\nb: 2\na: 3\n"), json!({"a": 3.0, "b": 2.0}));
}

#[test]
fn empty_documents_have_no_value() {
    for text in ["", "\n", "# only a comment\n", "---\n", "--- # c\n\n"] {
        assert_eq!(document_to_json(text).expect(text), None, "{text:?}");
    }
}

#[test]
fn line_endings_and_byte_order_mark() {
    assert_eq!(
        convert("a: 1\r\nb: [x,\r\n  z]\r\n"),
        json!({"a": 1.0, "b": ["x", "z"]})
    );
    assert_eq!(convert("\u{feff}a: 1\n"), json!({"a": 1.0}));
}

#[test]
fn syntax_errors_read_like_yaml_v2() {
    let cases = [
        ("a: b: c", "mapping values are not allowed in this context"),
        (
            "a: 1\nb: c: d\n",
            "line 2: mapping values are not allowed in this context",
        ),
        ("a:\n  b: 1\n c: 2\n", "line 2: did not find expected key"),
        ("a: [1, 2}\n", "did not find expected ',' or ']'"),
        (
            "a: 1\nb: {c: 1, d\n",
            "line 2: did not find expected ',' or '}'",
        ),
        ("v: [A,", "line 1: did not find expected node content"),
        ("v:\n- [A,", "line 2: did not find expected node content"),
        (
            "a:\n- b: *,",
            "line 2: did not find expected alphabetic or numeric character",
        ),
        (
            "value: -",
            "block sequence entries are not allowed in this context",
        ),
        ("x: @foo\n", "found character that cannot start any token"),
        (
            "a:\n\tb: 1\n",
            "line 2: found character that cannot start any token",
        ),
        ("a: 1\nb\nc: 2\n", "line 3: could not find expected ':'"),
        ("a: \"abc\n", "line 2: found unexpected end of stream"),
        ("a: 'abc", "found unexpected end of stream"),
        ("a: 1\nb: 'abc", "line 2: found unexpected end of stream"),
        ("a: \"x\" y\n", "did not find expected key"),
        (
            "- 1\n- 'x' y\n",
            "line 1: did not find expected '-' indicator",
        ),
        ("a: {b: 1}}\n", "did not find expected key"),
        ("a:\n  - 1\n  -2\n", "line 4: could not find expected ':'"),
        ("- a\nb: 1\n", "line 1: did not find expected '-' indicator"),
        ("a: 1\n- b\n", "line 1: did not find expected key"),
        (
            "x:\n  - a\n  b: 1\n",
            "line 2: did not find expected '-' indicator",
        ),
        (
            "a: b\n\tc: d\n",
            "line 2: found a tab character that violates indentation",
        ),
        ("a: b #c\n  d: 1\n", "line 1: did not find expected key"),
        (
            "a: 1\nb: \"\\q\"\n",
            "line 2: found unknown escape character",
        ),
        ("a: \u{1}\n", "control characters are not allowed"),
    ];
    for (text, detail) in cases {
        assert_eq!(error(text), yaml_error(detail), "{text:?}");
    }
}

#[test]
fn errors_carry_their_position() {
    let error = document_to_json("a: 1\nb: c: d\n").expect_err("invalid");
    assert_eq!(error.position(), Some((2, 5)));
    let error = document_to_json("a: \"abc\n").expect_err("invalid");
    assert_eq!(error.position(), Some((2, 1)));
}

#[test]
fn trailing_content_is_refused() {
    let cases = [
        ("{a: 1} {b: 2}", (1, 8)),
        ("{a: 1}\n{b: 2}\n", (2, 1)),
        ("a: 1\n...\nb: 2\n", (3, 1)),
        (" a: 1\nb: 2\n", (2, 1)),
        ("a\n# c\nb: 1\n", (3, 1)),
        ("[a]]\n", (1, 4)),
        ("{a: 1}}\n", (1, 7)),
    ];
    for (text, position) in cases {
        let error = document_to_json(text).expect_err(text);
        assert!(
            matches!(error, YamlError::TrailingContent { .. }),
            "{text:?}: {error:?}"
        );
        assert_eq!(error.position(), Some(position), "{text:?}");
    }
    // A document end marker followed by nothing but comments is fine.
    assert_eq!(convert("a: 1\n...\n# done\n"), json!({"a": 1.0}));
}

#[test]
fn alias_bombs_are_stopped() {
    let mut text = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for (name, previous) in ["b", "c", "d", "e", "f", "g", "h", "i"]
        .iter()
        .zip(["a", "b", "c", "d", "e", "f", "g", "h"])
    {
        let aliases = vec![format!("*{previous}"); 9].join(",");
        writeln!(text, "{name}: &{name} [{aliases}]").expect("writing to a String");
    }
    assert_eq!(
        error(&text),
        yaml_error("document contains excessive aliasing")
    );
    // Moderate reuse is fine.
    let value = convert("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n");
    assert_eq!(value["b"][2], json!([1.0, 2.0, 3.0]));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let flow = "[".repeat(100_000);
    let error = document_to_json(&flow).expect_err("too deep");
    assert!(
        matches!(error, YamlError::TooDeep { limit: 255, .. }),
        "{error:?}"
    );
    let block = format!("{}x\n", "- ".repeat(300));
    let error = document_to_json(&block).expect_err("too deep");
    assert!(
        error.to_string().contains("nesting deeper than 255 levels"),
        "{error}"
    );
    let nested = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    assert!(document_to_json(&nested).is_ok());
}

/// Every document of every YAML catalog file in the corpus converts.
#[test]
fn corpus_catalogs_convert() {
    convert_corpus("catalogs");
}

/// Every document of every YAML file of the corpus's bundle directories (manifests
/// and metadata) converts too.
#[test]
fn corpus_bundles_convert() {
    convert_corpus("bundles");
}

fn convert_corpus(folder: &str) {
    let Some(files) = corpus_yaml_files(folder) else {
        return;
    };
    let mut documents = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("UTF-8 YAML");
        for document in crate::catalog::split_documents(&text) {
            if let Err(error) = document_to_json(&document) {
                panic!("{}: {error} at {:?}", path.display(), error.position());
            }
            documents += 1;
        }
    }
    assert!(documents > 0, "no YAML documents found in the corpus");
}

/// The YAML files of a folder of the shared corpus; `None` (with a note) when the
/// corpus is missing outside CI, which needs it.
pub(super) fn corpus_yaml_files(folder: &str) -> Option<Vec<std::path::PathBuf>> {
    Some(crate::bench::yaml_files(&crate::testing::corpus(folder)?))
}

/// yaml.v2 skips tabs after a key's `:` as white space; saphyr refuses them before
/// some values (YAML 1.2), so they are read as spaces there.
#[test]
fn tabs_after_a_value_indicator_are_white_space() {
    assert_eq!(
        convert("schema:\tolm.package\nname:\t\t-5x\nm:\n  k: \tv\n"),
        json!({"schema": "olm.package", "name": "-5x", "m": {"k": "v"}})
    );
    // A tab inside a value stays.
    assert_eq!(convert("a:\tb\tc\n"), json!({"a": "b\tc"}));
    // A block sequence after a simple key is refused with tabs as with spaces.
    assert_eq!(
        error("x: 1\na:\t- b\n"),
        yaml_error("line 2: block sequence entries are not allowed in this context")
    );
}

/// yaml.v2 does not check the indentation of a quoted scalar's continuation lines
/// (their leading white space is folded away); saphyr does, so they are indented.
#[test]
fn quoted_scalars_may_continue_at_any_indentation() {
    assert_eq!(
        convert("a: \"x\ny\"\nb: 'p\n\nq'\nm:\n  c: \"1 \\\"2\\\"\n 3\"\nl:\n- 'it''s\nok'\n"),
        json!({"a": "x y", "b": "p\nq", "m": {"c": "1 \"2\" 3"}, "l": ["it's ok"]})
    );
    // An unterminated scalar is still an error.
    assert_eq!(
        error("a: 1\nb: 'abc"),
        yaml_error("line 2: found unexpected end of stream")
    );
}

/// `\/` is a JSON and YAML 1.2 escape, not a yaml.v2 one.
#[test]
fn an_escaped_slash_is_unknown_to_yaml_v2() {
    assert_eq!(
        error("a: 1\nb: \"http:\\/\\/x\"\n"),
        yaml_error("line 2: found unknown escape character")
    );
    assert_eq!(
        error("b: \"\\/\"\n"),
        yaml_error("found unknown escape character")
    );
    // An escaped backslash before a slash, and single quotes, are fine.
    assert_eq!(
        convert("a: \"x\\\\/y\"\nb: '\\/'\n"),
        json!({"a": "x\\/y", "b": "\\/"})
    );
}

/// A `...` before any content ends no document in yaml.v2: it expects a node.
#[test]
fn a_leading_document_end_marker_is_an_error() {
    assert_eq!(
        error("...\n"),
        yaml_error("did not find expected node content")
    );
    assert_eq!(
        error("# c\n\n...\nschema: x\n"),
        yaml_error("line 2: did not find expected node content")
    );
    // After content, or after `---`, it ends the document.
    assert_eq!(convert("a: x\n...\n"), json!({"a": "x"}));
    assert_eq!(
        document_to_json("---\n...\n").expect("an empty document"),
        None
    );
}

/// Tabs yaml.v2 refuses in block context: at the start of a blank or comment line,
/// and after a `-` entry indicator; each with yaml.v2's message for what it was
/// scanning.
#[test]
fn tabs_where_yaml_v2_expects_indentation_are_errors() {
    let cases = [
        (
            "a: b\n\t\nc: d\n",
            "line 2: found a tab character that violates indentation",
        ),
        (
            "a: 'b'\n\t\nc: d\n",
            "line 2: found character that cannot start any token",
        ),
        ("\t\na: b\n", "found character that cannot start any token"),
        (
            "  \n\t\n",
            "line 2: found character that cannot start any token",
        ),
        (
            "a: b\nl:\n-\tc\n",
            "line 3: found character that cannot start any token",
        ),
        (
            "a: b\n\t# note\n",
            "line 2: found a tab character that violates indentation",
        ),
        (
            "a: |\n  b\n\t\n",
            "line 3: found a tab character where an indentation space is expected",
        ),
        // After a quoted scalar or a key, any tab in a blank line's indentation.
        (
            "a: 'b'\n  \t\nc: d\n",
            "line 2: found character that cannot start any token",
        ),
        (
            "l:\n  \t\n  - a\n",
            "line 2: found character that cannot start any token",
        ),
        // Within a plain scalar's indentation.
        (
            "m:\n  a: b\n  \t\n",
            "line 3: found a tab character that violates indentation",
        ),
        // Within a block scalar's indentation.
        (
            "a: |\n    b\n  \t# c\n",
            "line 3: found a tab character where an indentation space is expected",
        ),
        // After a flow collection, and after a block scalar's last line.
        (
            "s:\n- [a, b]\n- \t1\n",
            "line 3: found character that cannot start any token",
        ),
        (
            "s:\n- |\n    x\n-\t|\n    y\n",
            "line 4: found character that cannot start any token",
        ),
    ];
    for (text, detail) in cases {
        assert_eq!(error(text), yaml_error(detail), "{text:?}");
    }
}

/// Tabs yaml.v2 reads: inside quoted scalars (also leading a continuation line),
/// flow collections, block scalar content, within and after plain scalars.
#[test]
fn tabs_yaml_v2_reads_are_read() {
    assert_eq!(
        convert(
            "a: \"x\n\ty\"\nb: 'p\n\t\n  q'\nc: [1,\n\t\n 2]\nd: x\t\ne: |\n  f\n  \tg\nh: i - \tj\n"
        ),
        json!({"a": "x y", "b": "p\nq", "c": [1.0, 2.0], "d": "x", "e": "f\n\tg\n", "h": "i - \tj"})
    );
    // Past a plain or block scalar's indentation, a tab in a blank line is white
    // space (in a block scalar, content).
    assert_eq!(convert("a: b\n  \t\nc: d\n"), json!({"a": "b", "c": "d"}));
    assert_eq!(
        convert("a: |\n  b\n  \t\n  c\n"),
        json!({"a": "b\n\t\nc\n"})
    );
    // A plain value on a line of its own: its block's indentation is less.
    assert_eq!(convert("k:\n  -e\n  \t\n"), json!({"k": "-e"}));
}

/// yaml.v2 does not check indentation inside flow collections either.
#[test]
fn flow_collections_may_continue_at_any_indentation() {
    assert_eq!(
        convert("a: [1,\n2,\n3]\nm:\n  b: {x: 1,\nz: [p,\nq]}\n"),
        json!({"a": [1.0, 2.0, 3.0], "m": {"b": {"x": 1.0, "z": ["p", "q"]}}})
    );
}

/// NEL, LS and PS break lines in yaml.v2 (YAML 1.1).
#[test]
fn unicode_line_breaks_break_lines() {
    assert_eq!(
        convert("a: \"x\u{85}y\"\nb: 'p\u{2028}q'\nc: |\n  r\u{85}  s\n"),
        json!({"a": "x y", "b": "p q", "c": "r\ns\n"})
    );
    assert_eq!(
        error("a: b\u{2028}c\n"),
        yaml_error("line 3: could not find expected ':'")
    );
}

/// Each rewrite costs a parse, so their number is bounded: past it the document is
/// refused with the parser's error instead of being parsed again and again.
#[test]
fn rewrites_are_bounded() {
    let scalars = |count: usize| {
        let mut text = String::new();
        for index in 0..count {
            writeln!(text, "k{index}: \"a\nb\"").expect("writing to a String");
        }
        text
    };
    assert!(document_to_json(&scalars(3)).is_ok());
    assert!(document_to_json(&scalars(100)).is_err());
}

/// An explicit `!!timestamp` accepts what yaml.v2's `parseTimestamp` accepts (Go's
/// `time.Parse`): a run of spaces where the layout has one, a fraction after `,`,
/// a zone offset of 24 hours or 60 minutes. The reader's own copy of the rule
/// refused these three; it now shares `go::timestamp` with the writer.
#[test]
fn explicit_timestamps_follow_go_time_parse() {
    for text in [
        "2021-06-02   12:00:00",
        "2021-06-02T12:00:00,5Z",
        "2021-06-02T12:00:00+01:60",
        "2021-06-02T12:00:00-24:00",
    ] {
        assert_eq!(
            convert(&format!("a: !!timestamp {text}\n")),
            json!({"a": text}),
            "{text}"
        );
    }
    assert_eq!(
        error("a: !!timestamp 2021-06-02T12:60:00Z"),
        yaml_error("cannot decode !!str `2021-06-02T12:60:00Z` as a !!timestamp")
    );
}
