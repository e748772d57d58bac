//! Builds the JSON value of one YAML document from saphyr's events with yaml.v2's
//! decoding rules: anchors and aliases (with the "excessive aliasing" bound), `<<`
//! merge keys, stringified non-string keys, last duplicate wins.
//!
//! The tree is built with an explicit stack, so nesting depth costs heap, not stack.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use saphyr_parser::{Event, ScalarStyle, Span};
use serde_json::{Map, Value};

use super::keys;
use super::long_scalars;
use super::messages::{Context, alias_name, byte_offset, line_and_column};
use super::resolve::{self, CORE_PREFIX, Scalar};

mod capture;
mod values;

use capture::{Capture, Uncapturable};
pub(super) use values::first_non_finite;
use values::{allowed_alias_ratio, key, ratio, to_value};

/// Deepest nesting accepted. saphyr stops flow collections at 255 levels; block
/// collections get the same bound so that every later recursive walk of the value
/// (dropping it, writing it) stays far from the stack limit. yaml.v2 allows 10,000.
pub(super) const MAX_DEPTH: usize = 255;

/// Marks a NaN or infinite number, which JSON cannot hold, until the value is
/// checked the way Go's `json.Marshal` would.
pub(super) const NON_FINITE: &str = "\u{0}fbc:non-finite:";

/// An error found while building, with its 1-based position.
#[derive(Debug)]
pub(super) struct Failure {
    pub(super) detail: String,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// Why building stopped at once.
#[derive(Debug)]
pub(super) enum Stop {
    Trailing { line: usize, column: usize },
    TooDeep { line: usize, column: usize },
}

/// A plain scalar that YAML 1.1 reads as a boolean or a number where a catalog field
/// wants a string (`version: 1.0`, `name: yes`): opm reads it as yaml.v2 does, which
/// is rarely what the author meant. Recorded for a lint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Implicit {
    pub(crate) key: String,
    pub(crate) text: String,
    /// `boolean` or `number`.
    pub(crate) kind: &'static str,
    /// 1-based, within the document.
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// The catalog fields that hold strings (top-level, channel entries, properties,
/// related images, deprecations): a boolean or number there is a mistake.
const STRING_FIELDS: [&str; 14] = [
    "schema",
    "name",
    "package",
    "defaultChannel",
    "description",
    "image",
    "replaces",
    "skips",
    "skipRange",
    "type",
    "packageName",
    "version",
    "release",
    "message",
];

/// A finished node on its way to its parent.
#[derive(Clone)]
enum Node<'a> {
    Scalar(Scalar<'a>),
    Sequence(Value),
    Mapping(Value),
}

/// What a mapping holds between its key and its value.
enum Slot {
    Empty,
    Key(String),
    Unsupported {
        type_name: &'static str,
        text: String,
    },
    Merge,
    /// The key failed; its value is dropped.
    Broken,
}

enum Frame {
    Sequence {
        items: Vec<Value>,
        anchor: usize,
        cost: u64,
        /// The value of a `<<` key: a list of maps to merge.
        merge: bool,
    },
    Mapping {
        map: Map<String, Value>,
        anchor: usize,
        cost: u64,
        slot: Slot,
    },
}

/// An anchored node and how many yaml.v2 decode steps one expansion takes.
struct Anchored<'a> {
    node: Node<'a>,
    cost: u64,
    /// About how many bytes one expansion copies.
    bytes: u64,
}

/// The bytes a node holds, roughly (its strings, and 8 per other value), counted up
/// to `limit`.
fn node_bytes(node: &Node<'_>, limit: u64) -> u64 {
    let value = match node {
        Node::Scalar(Scalar::Str(text)) => return text.len() as u64 + 8,
        Node::Scalar(_) => return 8,
        Node::Sequence(value) | Node::Mapping(value) => value,
    };
    let mut total: u64 = 0;
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        total = total.saturating_add(8);
        match value {
            Value::String(text) => total = total.saturating_add(text.len() as u64),
            Value::Array(items) => pending.extend(items),
            Value::Object(map) => {
                for (key, item) in map {
                    total = total.saturating_add(key.len() as u64);
                    pending.push(item);
                }
            }
            _ => {}
        }
        if total > limit {
            break;
        }
    }
    total
}

/// What the place of an event counts.
#[derive(Clone, Copy)]
pub(super) enum Marks {
    /// Characters, as saphyr counts.
    Characters,
    /// Bytes, as the direct reader counts.
    Bytes,
}

impl Marks {
    fn offset(self, text: &str, at: usize) -> usize {
        match self {
            Marks::Characters => byte_offset(text, at),
            Marks::Bytes => at,
        }
    }
}

pub(super) struct Builder<'a> {
    text: &'a str,
    /// The long values `text` holds as placeholders (see `long_scalars`).
    runs: &'a [&'a str],
    stack: Vec<Frame>,
    pub(super) marks: Marks,
    /// Where each open collection starts (as events are marked), for error texts.
    starts: Vec<usize>,
    anchors: HashMap<usize, Anchored<'a>>,
    open_anchors: HashSet<usize>,
    root: Option<Value>,
    /// The document is an empty plain scalar: no content at all.
    empty: bool,
    /// The first yaml.v2 decode error; parsing goes on, as a later syntax error wins.
    pub(super) decode_error: Option<Failure>,
    /// The first sigs.k8s.io/yaml conversion error (unsupported key type).
    pub(super) convert_error: Option<Failure>,
    pub(super) non_finite: bool,
    /// Plain booleans and numbers under string fields, in document order.
    pub(super) implicit: Vec<Implicit>,
    /// Keep integers exact (bundle manifests, which Kubernetes decodes with
    /// integers preserved) instead of making every number a `float64`.
    pub(super) integers: bool,
    /// yaml.v2's `decodeCount` and `aliasCount`.
    decodes: u64,
    aliased: u64,
    /// Bytes copied by aliases so far, and how many they may copy.
    expanded: u64,
    expansion_budget: u64,
    /// Whether the value of each item of the root's `properties` list is written
    /// as its compact JSON text (see `capture`): the value becomes a string
    /// holding that text.
    pub(super) capturing: Capturing,
    /// The value being captured, if one is.
    capture: Capture<'a>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Capturing {
    Off,
    On,
    /// On, and a value was captured.
    Captured,
    /// A value could not be: the document must be read again without capturing.
    Failed,
}

impl<'a> Builder<'a> {
    pub(super) fn new(text: &'a str, runs: &'a [&'a str]) -> Self {
        Builder {
            text,
            runs,
            stack: Vec::new(),
            marks: Marks::Characters,
            starts: Vec::new(),
            anchors: HashMap::new(),
            open_anchors: HashSet::new(),
            root: None,
            empty: false,
            decode_error: None,
            convert_error: None,
            non_finite: false,
            implicit: Vec::new(),
            integers: false,
            // The document node itself.
            decodes: 1,
            aliased: 0,
            expanded: 0,
            expansion_budget: crate::files::limits::get()
                .max_alias_expansion
                .max((text.len() as u64).saturating_mul(16)),
            capturing: Capturing::Off,
            capture: Capture::default(),
        }
    }

    /// The byte offset of the place an event was marked with.
    fn offset(&self, at: usize) -> usize {
        self.marks.offset(self.text, at)
    }

    /// The 1-based line and column of the place an event was marked with.
    fn position(&self, at: usize) -> (usize, usize) {
        line_and_column(self.text, self.offset(at))
    }

    /// Whether the first node is complete: anything after it is trailing content.
    pub(super) fn root_done(&self) -> bool {
        self.root.is_some()
    }

    /// The kind of the innermost open collection, for error texts.
    pub(super) fn context(&self) -> Context {
        let Some(&start) = self.starts.last() else {
            return Context::Root;
        };
        match self.text[self.offset(start)..].chars().next() {
            Some(bracket @ ('[' | '{')) => Context::Flow(bracket),
            _ if matches!(self.stack.last(), Some(Frame::Mapping { .. })) => Context::BlockMapping,
            _ => Context::BlockSequence,
        }
    }

    /// Whether the only open collection is a flow collection: saphyr may fail on what
    /// follows its closing bracket before reporting its end.
    pub(super) fn only_flow_root(&self) -> bool {
        self.stack.len() == 1 && matches!(self.context(), Context::Flow(_))
    }

    /// The finished value: `None` for a document without content.
    pub(super) fn into_root(self) -> Option<Value> {
        if self.empty { None } else { self.root }
    }

    pub(super) fn event(&mut self, event: Event<'a>, span: Span) -> Result<(), Stop> {
        let at = span.start.index();
        let starts_node = matches!(
            event,
            Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(_)
        );
        if self.root_done() && (starts_node || matches!(event, Event::DocumentStart(_))) {
            return Err(Stop::Trailing {
                line: span.start.line(),
                column: span.start.col() + 1,
            });
        }
        if self.capture.active() || (starts_node && self.at_property_value()) {
            self.capture_event(event, at);
            return Ok(());
        }
        match event {
            Event::Scalar(text, style, anchor, tag) => {
                let tag = tag.map(|tag| format!("{}{}", tag.handle, tag.suffix));
                self.scalar(text, style, anchor, tag.as_deref(), at);
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.stack.len() >= MAX_DEPTH {
                    return Err(Stop::TooDeep {
                        line: span.start.line(),
                        column: span.start.col() + 1,
                    });
                }
                let mapping = matches!(event, Event::MappingStart(..));
                self.open(mapping, anchor, at);
            }
            Event::SequenceEnd | Event::MappingEnd => self.close(at),
            Event::Alias(id) => self.alias(id, at),
            _ => {}
        }
        Ok(())
    }

    fn scalar(
        &mut self,
        text: Cow<'a, str>,
        style: ScalarStyle,
        anchor: usize,
        tag: Option<&str>,
        at: usize,
    ) {
        let text = long_scalars::restore(text, self.runs);
        let plain = style == ScalarStyle::Plain;
        if plain && text == "<<" && self.expects_key() {
            let merge_tag =
                tag.is_none_or(|tag| tag == "!" || tag.strip_prefix(CORE_PREFIX) == Some("merge"));
            if merge_tag {
                // A merged mapping is not captured, and may bring its own
                // `properties`: the document is read again without capturing.
                if self.capturing != Capturing::Off {
                    self.capturing = Capturing::Failed;
                }
                // yaml.v2 never decodes the `<<` key itself.
                self.set_slot(Slot::Merge);
                return;
            }
        }
        self.count(1, 0, at);
        if self.stack.is_empty() && plain && tag.is_none() && text.is_empty() && anchor == 0 {
            self.empty = true;
        }
        // Booleans and numbers are short; only those under string fields are kept.
        let watched = (plain && tag.is_none() && text.len() <= 64).then(|| text.clone());
        let scalar = match resolve::scalar(text, plain && tag.is_none(), tag) {
            Ok(scalar) => scalar,
            Err(detail) => {
                self.fail(detail, at);
                Scalar::Null
            }
        };
        if let Some(text) = watched
            && let Some(kind) = implicit_kind(&scalar)
            && let Some(field) = self.string_field()
        {
            self.note_implicit(kind, field, &text, at);
        }
        if anchor != 0 {
            let node = Node::Scalar(scalar.clone());
            let bytes = node_bytes(&node, u64::MAX);
            self.anchors.insert(
                anchor,
                Anchored {
                    node,
                    cost: 1,
                    bytes,
                },
            );
        }
        self.attach(Node::Scalar(scalar), 1, at);
    }

    fn open(&mut self, mapping: bool, anchor: usize, at: usize) {
        let merge = !mapping
            && matches!(
                self.stack.last(),
                Some(Frame::Mapping {
                    slot: Slot::Merge,
                    ..
                })
            );
        if !merge {
            self.count(1, 0, at);
        }
        if anchor != 0 {
            self.open_anchors.insert(anchor);
        }
        self.starts.push(at);
        self.stack.push(if mapping {
            Frame::Mapping {
                map: Map::new(),
                anchor,
                cost: 1,
                slot: Slot::Empty,
            }
        } else {
            Frame::Sequence {
                items: Vec::new(),
                anchor,
                cost: 1,
                merge,
            }
        });
    }

    fn close(&mut self, at: usize) {
        let frame = self.stack.pop().expect("saphyr balances collection events");
        self.starts.pop();
        let (node, anchor, cost) = match frame {
            Frame::Mapping {
                map, anchor, cost, ..
            } => (Node::Mapping(Value::Object(map)), anchor, cost),
            Frame::Sequence {
                items,
                anchor,
                cost,
                merge: true,
            } => {
                if anchor != 0 {
                    self.open_anchors.remove(&anchor);
                    let node = Node::Sequence(Value::Array(items.clone()));
                    let bytes = node_bytes(&node, self.expansion_budget);
                    self.anchors.insert(anchor, Anchored { node, cost, bytes });
                }
                self.merge_all(items);
                // The merge list itself is not a decode step, its entries are.
                self.add_cost(cost - 1);
                return;
            }
            Frame::Sequence {
                items,
                anchor,
                cost,
                ..
            } => (Node::Sequence(Value::Array(items)), anchor, cost),
        };
        if anchor != 0 {
            self.open_anchors.remove(&anchor);
            let bytes = node_bytes(&node, self.expansion_budget);
            self.anchors.insert(
                anchor,
                Anchored {
                    node: node.clone(),
                    cost,
                    bytes,
                },
            );
        }
        self.attach(node, cost, at);
    }

    fn alias(&mut self, id: usize, at: usize) {
        if self.open_anchors.contains(&id) {
            let name = alias_name(self.text, self.offset(at));
            self.fail(format!("anchor '{name}' value contains itself"), at);
            self.attach(Node::Scalar(Scalar::Null), 1, at);
            return;
        }
        let cost = self.anchors.get(&id).map_or(0, |anchored| anchored.cost);
        self.count(1, 0, at);
        self.count(cost, cost, at);
        // yaml.v2 counts nodes only: a large value aliased many times passes its
        // ratio and can fill memory. Bound the bytes copied, before copying them.
        let bytes = self.anchors.get(&id).map_or(0, |anchored| anchored.bytes);
        self.expanded = self.expanded.saturating_add(bytes);
        if self.expanded > self.expansion_budget {
            self.fail(
                format!(
                    "aliases copy more than {} in this document (FBC_MAX_ALIAS_EXPANSION raises the limit)",
                    crate::files::limits::show_size(self.expansion_budget)
                ),
                at,
            );
        }
        let node = match self.anchors.get(&id) {
            // Once an error is recorded nothing is kept, so nothing is copied.
            Some(anchored) if self.decode_error.is_none() => anchored.node.clone(),
            _ => Node::Scalar(Scalar::Null),
        };
        self.attach(node, cost.saturating_add(1), at);
    }

    /// The string field whose value comes next (directly, or as an item of a list
    /// under it, such as `skips`).
    fn string_field(&self) -> Option<String> {
        let mut frames = self.stack.iter().rev();
        let key = match frames.next()? {
            Frame::Mapping {
                slot: Slot::Key(key),
                ..
            } => key,
            Frame::Sequence { .. } => match frames.next()? {
                Frame::Mapping {
                    slot: Slot::Key(key),
                    ..
                } => key,
                Frame::Mapping { .. } | Frame::Sequence { .. } => return None,
            },
            Frame::Mapping { .. } => return None,
        };
        STRING_FIELDS.contains(&key.as_str()).then(|| key.clone())
    }

    /// Records a plain boolean or number (`kind`, see [`implicit_kind`]) where a
    /// string field (`field`, see [`Builder::string_field`]) wanted a string.
    fn note_implicit(&mut self, kind: &'static str, field: String, text: &str, at: usize) {
        let (line, column) = self.position(at);
        self.implicit.push(Implicit {
            key: field,
            text: text.to_owned(),
            kind,
            line,
            column,
        });
    }

    /// Whether the next node is the value of an item of the root's `properties`
    /// list, to be captured.
    fn at_property_value(&self) -> bool {
        matches!(self.capturing, Capturing::On | Capturing::Captured)
            && self.decode_error.is_none()
            && matches!(
                self.stack.as_slice(),
                [
                    Frame::Mapping { slot: Slot::Key(list), .. },
                    Frame::Sequence { merge: false, .. },
                    Frame::Mapping { slot: Slot::Key(field), .. },
                ] if list == "properties" && field == "value"
            )
    }

    /// One event of a captured value. The direct reader gives no anchors, aliases
    /// or tags; a merge key, a key that is not a string or a number, or a number
    /// that JSON cannot hold leaves the value to the builder
    /// ([`Capturing::Failed`]).
    fn capture_event(&mut self, event: Event<'a>, at: usize) {
        let capture = &mut self.capture;
        // A boolean or number where a string field wants a string.
        let mut implicit = None;
        let result = match event {
            Event::Scalar(text, style, 0, None) => {
                let plain = style == ScalarStyle::Plain;
                if capture.expects_key() {
                    if plain && text == "<<" {
                        Err(Uncapturable)
                    } else {
                        resolve::scalar(text, plain, None)
                            .map_err(|_| Uncapturable)
                            .and_then(|key| capture.key(key))
                    }
                } else {
                    match resolve::scalar(Cow::Borrowed(&text), plain, None) {
                        Ok(scalar) => {
                            if plain
                                && text.len() <= 64
                                && let Some(kind) = implicit_kind(&scalar)
                                && let Some(field) = capture.field()
                                && STRING_FIELDS.contains(&field)
                            {
                                implicit = Some((kind, field.to_owned(), text.to_string()));
                            }
                            capture.scalar(&scalar)
                        }
                        Err(_) => Err(Uncapturable),
                    }
                }
            }
            Event::SequenceStart(0, None) | Event::MappingStart(0, None) => {
                capture.open(matches!(event, Event::MappingStart(..)));
                Ok(())
            }
            Event::SequenceEnd | Event::MappingEnd => capture.close(),
            Event::Scalar(..)
            | Event::SequenceStart(..)
            | Event::MappingStart(..)
            | Event::Alias(_) => Err(Uncapturable),
            _ => Ok(()),
        };
        if let Some((kind, field, text)) = implicit {
            self.note_implicit(kind, field, &text, at);
        }
        if result.is_err() {
            self.capturing = Capturing::Failed;
        } else if self.capture.done() {
            self.capturing = Capturing::Captured;
            let text = self.capture.finish();
            self.attach(Node::Scalar(Scalar::Str(Cow::Owned(text))), 1, at);
        }
    }

    fn expects_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Mapping {
                slot: Slot::Empty,
                ..
            })
        )
    }

    fn set_slot(&mut self, new: Slot) {
        if let Some(Frame::Mapping { slot, .. }) = self.stack.last_mut() {
            *slot = new;
        }
    }

    fn add_cost(&mut self, extra: u64) {
        match self.stack.last_mut() {
            Some(Frame::Mapping { cost, .. } | Frame::Sequence { cost, .. }) => {
                *cost = cost.saturating_add(extra);
            }
            None => {}
        }
    }

    /// Counts decode steps like yaml.v2 and applies its "excessive aliasing" rule.
    /// Checking after a whole alias expansion is equivalent to checking at each of
    /// its steps: within one expansion the alias ratio only grows and the allowed
    /// ratio only shrinks.
    fn count(&mut self, decodes: u64, aliased: u64, at: usize) {
        self.decodes = self.decodes.saturating_add(decodes);
        self.aliased = self.aliased.saturating_add(aliased);
        if self.aliased > 100
            && self.decodes > 1000
            && ratio(self.aliased, self.decodes) > allowed_alias_ratio(self.decodes)
        {
            self.fail("document contains excessive aliasing".to_owned(), at);
        }
    }

    fn fail(&mut self, detail: String, at: usize) {
        if self.decode_error.is_none() {
            let (line, column) = self.position(at);
            self.decode_error = Some(Failure {
                detail,
                line,
                column,
            });
        }
    }

    /// Hands a finished node to its parent (or makes it the root).
    fn attach(&mut self, node: Node<'a>, node_cost: u64, at: usize) {
        if self.decode_error.is_some() {
            // Keep the structure (for trailing-content detection), drop the data.
            self.add_cost(node_cost);
            if self.stack.is_empty() {
                self.root = Some(Value::Null);
            } else if let Some(Frame::Mapping { slot, .. }) = self.stack.last_mut() {
                *slot = if matches!(slot, Slot::Empty) {
                    Slot::Broken
                } else {
                    Slot::Empty
                };
            }
            return;
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some(to_value(node, self.integers, &mut self.non_finite));
            return;
        };
        match frame {
            Frame::Sequence {
                items, cost, merge, ..
            } => {
                *cost = cost.saturating_add(node_cost);
                if crate::files::limits::room_for_one(items).is_err() {
                    self.fail(crate::files::limits::OUT_OF_MEMORY.to_owned(), at);
                } else if !*merge {
                    items.push(to_value(node, self.integers, &mut self.non_finite));
                } else if let Node::Mapping(value) = node {
                    items.push(value);
                } else {
                    self.fail(MERGE_NEEDS_MAP.to_owned(), at);
                }
            }
            Frame::Mapping {
                map, cost, slot, ..
            } => {
                *cost = cost.saturating_add(node_cost);
                match std::mem::replace(slot, Slot::Empty) {
                    Slot::Empty => {
                        let (text, marks) = (self.text, self.marks);
                        let position = move || line_and_column(text, marks.offset(text, at));
                        *slot = self::key(node, &mut self.decode_error, position);
                    }
                    Slot::Key(key) => {
                        map.insert(key, to_value(node, self.integers, &mut self.non_finite));
                    }
                    Slot::Merge => match node {
                        Node::Mapping(Value::Object(entries)) => map.extend(entries),
                        _ => self.fail(MERGE_NEEDS_MAP.to_owned(), at),
                    },
                    Slot::Unsupported { type_name, text } => {
                        let value = to_value(node, self.integers, &mut self.non_finite);
                        if self.convert_error.is_none() {
                            let detail = format!(
                                "unsupported map key of type: {type_name}, key: {text}, value: {}",
                                keys::go_syntax(&value, true)
                            );
                            let (line, column) = self.position(at);
                            self.convert_error = Some(Failure {
                                detail,
                                line,
                                column,
                            });
                        }
                    }
                    Slot::Broken => {}
                }
            }
        }
    }

    /// Applies the maps of a `<<: [...]` list: earlier maps take precedence.
    fn merge_all(&mut self, items: Vec<Value>) {
        if let Some(Frame::Mapping { map, slot, .. }) = self.stack.last_mut() {
            *slot = Slot::Empty;
            for item in items.into_iter().rev() {
                if let Value::Object(entries) = item {
                    map.extend(entries);
                }
            }
        }
    }
}

/// What the implicit-type lint calls a plain scalar that is not a string.
fn implicit_kind(scalar: &Scalar<'_>) -> Option<&'static str> {
    match scalar {
        Scalar::Bool(_) => Some("boolean"),
        Scalar::Int(_) | Scalar::Uint(_) | Scalar::Float(_) => Some("number"),
        Scalar::Null | Scalar::Str(_) => None,
    }
}

const MERGE_NEEDS_MAP: &str = "map merge requires map or sequence of maps as the value";
