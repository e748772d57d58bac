//! Pictures of upgrade graphs that fbc draws itself, for `fbc graph -o svg` and
//! `fbc diff -o html`: a [`Drawing`] of labelled boxes and arrows, laid out in
//! columns ([`layout`]) and written as SVG ([`svg`]). No JavaScript, no fonts to
//! load, no network: one self-contained element that any browser or CI viewer shows.

pub(crate) mod layout;
pub(crate) mod svg;

/// One picture: a title, boxes and the arrows between them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Drawing {
    pub(crate) title: String,
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
}

/// A box: a bundle.
#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) label: String,
    pub(crate) marks: Vec<Mark>,
}

/// An arrow from the bundle an installation runs to the one it moves to.
#[derive(Debug, Clone)]
pub(crate) struct Edge {
    /// Indices into [`Drawing::nodes`].
    pub(crate) from: usize,
    pub(crate) to: usize,
    pub(crate) line: Line,
    /// [`Mark::Added`] or [`Mark::Removed`], when the arrow changed.
    pub(crate) mark: Option<Mark>,
}

/// How an edge is declared, drawn as the line's dashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Line {
    Replaces,
    Skips,
    SkipRange,
}

impl Line {
    /// The CSS class and the legend's word.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Line::Replaces => "replaces",
            Line::Skips => "skips",
            Line::SkipRange => "skipRange",
        }
    }
}

/// What a box or an arrow is, drawn as its colours and strokes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Mark {
    /// NEW adds it.
    Added,
    /// NEW removes it.
    Removed,
    /// Installations of it no longer reach the head.
    Broken,
    /// A channel head, before or after.
    Head,
    Deprecated,
    /// Named by an edge but not an entry of the channel.
    Outside,
    /// Skipped by an entry: OLM classic never offers it.
    Skipped,
}

impl Mark {
    /// The CSS class.
    pub(crate) fn class(self) -> &'static str {
        match self {
            Mark::Added => "added",
            Mark::Removed => "removed",
            Mark::Broken => "broken",
            Mark::Head => "head",
            Mark::Deprecated => "deprecated",
            Mark::Outside => "outside",
            Mark::Skipped => "skipped",
        }
    }

    /// The legend's words.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Mark::Added => "added",
            Mark::Removed => "removed",
            Mark::Broken => "no longer reaches the head",
            Mark::Head => "head",
            Mark::Deprecated => "deprecated",
            Mark::Outside => "not an entry",
            Mark::Skipped => "skipped (never offered by OLM classic)",
        }
    }
}
