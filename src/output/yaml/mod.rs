//! YAML exactly as opm writes it: each blob goes through Go's JSON encoder, then
//! `sigs.k8s.io/yaml.JSONToYAML`, i.e. yaml.v2 reads the JSON text back into generic
//! values and its emitter writes them. This module emulates that pipeline straight
//! from a [`Node`] into the output buffer, without an intermediate tree.
//!
//! - `decode`: what reading the JSON text back does (errors, folded line breaks);
//! - `order`/`sort`: yaml.v2's "natural" key order, sorted as Go's `sort.Sort` does;
//! - `resolve`: which strings yaml.v2 must quote (timestamps: `go::timestamp`);
//! - `scalar`: the emitter's style choice and scalar writers;
//! - this file: the emitter's block layout (indentation, sequences, mappings).

mod decode;
mod order;
mod resolve;
mod scalar;

use std::borrow::Cow;

use crate::codec::node::{self, Node};
use crate::codec::sink::Sink;

/// yaml.v2's `best_width`: plain and quoted scalars fold at spaces beyond it.
const BEST_WIDTH: usize = 80;
/// yaml.v2's `best_indent`.
const BEST_INDENT: i32 = 2;

/// Why yaml.v2 would refuse a blob. The texts are the ones opm prints.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum YamlWriteError {
    /// The JSON text holds a character yaml.v2's reader rejects (DEL, C1 controls
    /// other than NEL, U+FFFE, U+FFFF).
    #[error("yaml: control characters are not allowed")]
    ControlCharacters,
    /// A string holds a NEL line break followed by `--- ` or `... `, which ends the
    /// document in the middle of the quoted scalar.
    #[error("yaml: line {line}: found unexpected document indicator")]
    DocumentIndicator { line: usize },
    /// A key yaml.v2 cannot read as a simple key: it spans lines (NEL) or its JSON
    /// text is longer than 1024 characters.
    #[error("yaml: {}did not find expected ',' or '}}'", line_prefix(*line))]
    KeyNotSimple { line: usize },
}

fn line_prefix(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

/// Checks that opm could write `node` as YAML, without writing anything.
pub(crate) fn check(node: &Node<'_>) -> Result<(), YamlWriteError> {
    decode::check(node)
}

/// Appends `node` as opm writes one blob: a `---` line, then yaml.v2's output.
/// Nothing is appended when the blob cannot be written.
pub(crate) fn write_document(node: &Node<'_>, out: &mut impl Sink) -> Result<(), YamlWriteError> {
    decode::check(node)?;
    out.extend_from_slice(b"---\n");
    emit(node, out);
    Ok(())
}

/// Appends `node` as `sigs.k8s.io/yaml.Marshal` writes a value (no `---` line).
/// Nothing is appended when it cannot be written.
pub(crate) fn write_value(node: &Node<'_>, out: &mut impl Sink) -> Result<(), YamlWriteError> {
    decode::check(node)?;
    emit(node, out);
    Ok(())
}

fn emit(node: &Node<'_>, out: &mut impl Sink) {
    let mut emitter = Emitter {
        out,
        indent: -1,
        column: 0,
        whitespace: true,
        indention: true,
    };
    emitter.node(node, Context::default());
    // The implicit document end: finish the last line.
    emitter.write_indent();
}

/// Where a node sits, as the emitter's `mapping_context`/`simple_key_context`.
#[derive(Debug, Clone, Copy, Default)]
struct Context {
    mapping: bool,
    simple_key: bool,
}

/// The emitter's layout state, with the meaning libyaml gives these fields:
/// `whitespace` says the last character written was whitespace, `indention` that
/// only indentation (and indicators such as `-`) has been written on the line.
struct Emitter<'o, S: Sink> {
    out: &'o mut S,
    indent: i32,
    column: usize,
    whitespace: bool,
    indention: bool,
}

impl<S: Sink> Emitter<'_, S> {
    fn node(&mut self, node: &Node<'_>, context: Context) {
        match node {
            Node::Raw(text) => self.node(&Node::from_json(&node::decode_raw(text)), context),
            Node::Chunks(chunks) => {
                // A long text with newlines is written as it comes; anything
                // else is looked at whole.
                let mut pieces = scalar::Pieces::new();
                chunks.for_each(&mut |piece| pieces.feed(piece));
                match pieces.literal(context) {
                    Some(literal) => self.literal_pieces(&literal, |visit| chunks.for_each(visit)),
                    None => self.node(&Node::String(chunks.text().into()), context),
                }
            }
            Node::Null => self.token("null"),
            Node::Bool(true) => self.token("true"),
            Node::Bool(false) => self.token("false"),
            Node::Number(value) => self.token(&resolve::number_text(*value)),
            Node::String(text) => {
                // Quiet texts have no NEL to fold; folded texts need a new analysis.
                let analysis = scalar::analyze(text);
                if !analysis.quiet
                    && let Cow::Owned(folded) = decode::fold_line_breaks(text)
                {
                    self.string(&folded, scalar::analyze(&folded), context);
                } else {
                    self.string(text, analysis, context);
                }
            }
            Node::Array(items) if items.is_empty() => self.empty_flow(*b"[]"),
            Node::Object(fields) if fields.is_empty() => self.empty_flow(*b"{}"),
            Node::Items(items) if items.is_empty() => self.empty_flow(*b"[]"),
            Node::Array(items) => {
                self.sequence(|visit| items.iter().for_each(visit), context);
            }
            Node::Items(items) => self.sequence(|visit| items.for_each(visit), context),
            Node::Object(fields) => self.mapping(fields),
        }
    }

    /// A block sequence; inside a mapping its `-` stay at the key's column.
    fn sequence(&mut self, each: impl FnOnce(&mut dyn for<'n> FnMut(&Node<'n>)), context: Context) {
        let saved = self.indent;
        self.increase_indent(false, context.mapping && !self.indention);
        each(&mut |item| {
            self.write_indent();
            self.write_indicator(b"-", true, false, true);
            self.node(item, Context::default());
        });
        self.indent = saved;
    }

    /// A block mapping, keys in yaml.v2's order. Keys longer than 128 bytes or
    /// holding line breaks are written as complex keys (`? key` then `: value`).
    fn mapping(&mut self, fields: &[(Cow<'_, str>, Node<'_>)]) {
        let saved = self.indent;
        self.increase_indent(false, false);
        for (key, value) in order::sorted(fields) {
            self.write_indent();
            let analysis = scalar::analyze(key);
            let value_context = Context {
                mapping: true,
                simple_key: false,
            };
            if key.len() <= 128 && !analysis.multiline {
                let key_context = Context {
                    mapping: true,
                    simple_key: true,
                };
                self.string(key, analysis, key_context);
                self.write_indicator(b":", false, false, false);
            } else {
                self.write_indicator(b"?", true, false, true);
                self.string(key, analysis, value_context);
                self.write_indent();
                self.write_indicator(b":", true, false, true);
            }
            self.node(value, value_context);
        }
        self.indent = saved;
    }

    /// `[]` or `{}`: empty collections are written in flow style.
    fn empty_flow(&mut self, text: [u8; 2]) {
        self.write_indicator(&text[..1], true, true, false);
        self.write_indicator(&text[1..], false, false, false);
    }

    /// A plain scalar that needs no analysis: null, booleans and numbers.
    fn token(&mut self, text: &str) {
        if !self.whitespace {
            self.put(b' ');
        }
        self.out.extend_from_slice(text.as_bytes());
        self.column += text.len();
        self.whitespace = false;
        self.indention = false;
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    /// Starts a new line at the current indentation unless already there.
    fn write_indent(&mut self) {
        let indent = usize::try_from(self.indent.max(0)).expect("indentation is not negative");
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(b' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(
        &mut self,
        indicator: &[u8],
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(b' ');
        }
        self.out.extend_from_slice(indicator);
        self.column += indicator.len();
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }

    fn put(&mut self, byte: u8) {
        self.out.push(byte);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push(b'\n');
        self.column = 0;
    }

    /// Copies a run of text; the column counts characters, not bytes.
    fn write_run(&mut self, text: &str) {
        self.out.extend_from_slice(text.as_bytes());
        self.column += crate::text::bytes::characters(text.as_bytes());
    }

    fn write_char(&mut self, character: char) {
        let mut buffer = [0; 4];
        self.out
            .extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
        self.column += 1;
    }
}

#[cfg(test)]
mod tests;
