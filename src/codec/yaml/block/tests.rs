//! The direct reader against the full one: equal values wherever the direct reader
//! answers, on hand-written cases, on every document of the corpus and on generated
//! documents (mutated to reach the edges of the subset).

use super::read;
use crate::codec::yaml::read_fully;
use crate::codec::yaml::tests::corpus_yaml_files;

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

/// Where the direct reader answers, the full reader gives the same value.
fn agrees(text: &str) -> bool {
    let Some(direct) = read(text, false) else {
        return false;
    };
    match read_fully(text, false) {
        Ok(full) => assert_eq!(direct, full, "{text:?}"),
        Err(error) => panic!("read directly, refused by the full reader ({error}): {text:?}"),
    }
    true
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
    let (mut read_directly, mut left_valid) = (0, 0);
    for _ in 0..4000 {
        let mut text = String::new();
        generate_mapping(&mut random, &mut text, 0, 0);
        if agrees(&text) {
            read_directly += 1;
        } else if read_fully(&text, false).is_ok() {
            left_valid += 1;
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
