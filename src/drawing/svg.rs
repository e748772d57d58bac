//! Drawings as one SVG element: a legend of the marks and lines used, then each
//! drawing under its title, laid out by [`super::layout`], styled by one
//! stylesheet of classes (so that an HTML page of many pictures looks the same
//! as a lone file). Text is escaped for XML and control characters are shown, so
//! no label can end an element or carry a character XML forbids.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::layout::{self, Curve, Layout, Place, Point};
use super::{Drawing, Line, Mark, Node};
use crate::text::markup::escape;

const STYLE: &str = "\
.fbc-graph text{fill:#24292f}\
.fbc-graph .title{font-weight:bold}\
.fbc-graph .node rect{fill:#ffffff;stroke:#57606a;stroke-width:1.5}\
.fbc-graph .edge path{fill:none;stroke:#57606a;stroke-width:1.5}\
.fbc-graph .edge polygon{fill:#57606a}\
.fbc-graph .skips path{stroke-dasharray:3 3}\
.fbc-graph .skipRange path{stroke-dasharray:9 4}\
.fbc-graph .deprecated rect{fill:#e8960f}\
.fbc-graph .outside rect{stroke-dasharray:4 3}\
.fbc-graph .skipped rect{stroke:#ff0000;stroke-width:2}\
.fbc-graph .added rect,.fbc-graph .added path{stroke:#1a7f37;stroke-width:3}\
.fbc-graph .added polygon{fill:#1a7f37}\
.fbc-graph .added text{fill:#1a7f37}\
.fbc-graph .removed rect,.fbc-graph .removed path{stroke:#cf222e;stroke-dasharray:5 3}\
.fbc-graph .removed polygon{fill:#cf222e}\
.fbc-graph .removed text{fill:#cf222e;text-decoration:line-through}\
.fbc-graph .broken rect{fill:#ffebe9;stroke:#cf222e;stroke-width:3}\
.fbc-graph .head text{font-weight:bold}";

const FONTS: &str = "DejaVu Sans Mono,Menlo,Consolas,monospace";
const TITLE: f64 = 26.0;
const SAMPLE: f64 = 28.0;
const SPACE: f64 = 16.0;
const LEFT: f64 = 12.0;

/// Writes `drawings`, one under the other, each under its title (if it has
/// one), as one `<svg>` element.
pub(crate) fn write(out: &mut String, drawings: &[Drawing]) {
    let layouts: Vec<Layout> = drawings.iter().map(layout::lay_out).collect();
    let mut body = String::new();
    let (legend_width, mut y) = legend(&mut body, drawings);
    let mut width = legend_width;
    for (drawing, layout) in drawings.iter().zip(&layouts) {
        if !drawing.title.is_empty() {
            let _ = writeln!(
                body,
                "<text class=\"title\" x=\"{LEFT}\" y=\"{}\">{}</text>",
                number(y + TITLE - 8.0),
                escape(&drawing.title)
            );
            y += TITLE;
        }
        let _ = writeln!(body, "<g transform=\"translate(0 {})\">", number(y));
        for (edge, curve) in drawing.edges.iter().zip(&layout.curves) {
            let mut classes = vec!["edge", edge.line.name()];
            classes.extend(edge.mark.map(Mark::class));
            arrow(&mut body, &classes.join(" "), curve);
        }
        for (node, place) in drawing.nodes.iter().zip(&layout.places) {
            write_node(&mut body, node, place);
        }
        body.push_str("</g>\n");
        y += layout.height;
        width = width
            .max(layout.width)
            .max(LEFT * 2.0 + layout::text_width(&crate::text::shown::text(&drawing.title)) * 1.1);
    }
    let (width, height) = (number(width), number(y + LEFT));
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fbc-graph\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"{FONTS}\" \
         font-size=\"{}\">\n<style>{STYLE}</style>\n<rect width=\"100%\" height=\"100%\" \
         fill=\"#ffffff\"/>\n{body}</svg>\n",
        layout::FONT
    );
}

/// The legend: a sample of each line and mark the drawings use, in a row at the
/// top. Returns its width and height.
fn legend(out: &mut String, drawings: &[Drawing]) -> (f64, f64) {
    let lines: BTreeSet<Line> = drawings
        .iter()
        .flat_map(|d| d.edges.iter().map(|edge| edge.line))
        .collect();
    let marks: BTreeSet<Mark> = drawings
        .iter()
        .flat_map(|d| {
            let nodes = d.nodes.iter().flat_map(|node| node.marks.iter().copied());
            nodes.chain(d.edges.iter().filter_map(|edge| edge.mark))
        })
        .collect();
    if lines.is_empty() && marks.is_empty() {
        return (0.0, LEFT);
    }
    let middle = LEFT + 13.0;
    let mut x = LEFT;
    for line in lines {
        let curve = Curve {
            start: Point { x, y: middle },
            first: Point { x, y: middle },
            second: Point {
                x: x + SAMPLE,
                y: middle,
            },
            end: Point {
                x: x + SAMPLE,
                y: middle,
            },
        };
        arrow(out, &format!("edge {}", line.name()), &curve);
        x += SAMPLE + 6.0;
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\">{}</text>",
            number(x),
            number(middle + 4.0),
            line.name()
        );
        x += layout::text_width(line.name()) + SPACE;
    }
    for mark in marks {
        let node = Node {
            label: mark.meaning().to_owned(),
            marks: vec![mark],
        };
        let width = layout::text_width(&node.label) + 20.0;
        let place = Place {
            x,
            y: LEFT,
            width,
            height: 26.0,
        };
        write_node(out, &node, &place);
        x += width + SPACE;
    }
    (x + LEFT, LEFT + 26.0 + SPACE)
}

fn write_node(out: &mut String, node: &Node, place: &Place) {
    let mut classes = vec!["node"];
    classes.extend(node.marks.iter().map(|mark| mark.class()));
    let label = escape(&node.label);
    let _ = writeln!(
        out,
        "<g class=\"{}\"><title>{label}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" \
         height=\"{}\" rx=\"6\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text></g>",
        classes.join(" "),
        number(place.x),
        number(place.y),
        number(place.width),
        number(place.height),
        number(place.x + place.width / 2.0),
        number(place.y + place.height / 2.0 + 4.0),
    );
}

/// A curve and its arrowhead, a triangle pointing along the curve's last
/// direction.
fn arrow(out: &mut String, classes: &str, curve: &Curve) {
    let Curve {
        start,
        first,
        second,
        end,
    } = *curve;
    let from = if second == end { start } else { second };
    let (dx, dy) = (end.x - from.x, end.y - from.y);
    let length = dx.hypot(dy).max(f64::EPSILON);
    let (ux, uy) = (dx / length, dy / length);
    let base = Point {
        x: end.x - 8.0 * ux,
        y: end.y - 8.0 * uy,
    };
    let (px, py) = (-uy * 4.0, ux * 4.0);
    let _ = writeln!(
        out,
        "<g class=\"{classes}\"><path d=\"M{} {} C{} {} {} {} {} {}\"/><polygon points=\"{} {} {} {} {} {}\"/></g>",
        number(start.x),
        number(start.y),
        number(first.x),
        number(first.y),
        number(second.x),
        number(second.y),
        number(base.x),
        number(base.y),
        number(end.x),
        number(end.y),
        number(base.x + px),
        number(base.y + py),
        number(base.x - px),
        number(base.y - py),
    );
}

/// A coordinate with one decimal, without a trailing `.0`.
fn number(value: f64) -> String {
    let text = format!("{value:.1}");
    match text.strip_suffix(".0") {
        Some(whole) if whole != "-0" => whole.to_owned(),
        Some(_) => "0".to_owned(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::Edge;

    fn picture() -> Drawing {
        Drawing {
            title: "etcd / <alpha>".to_owned(),
            nodes: vec![
                Node {
                    label: "etcd.v1".to_owned(),
                    marks: vec![Mark::Removed],
                },
                Node {
                    label: "etcd.v2\u{1b}\"&".to_owned(),
                    marks: vec![Mark::Added, Mark::Head],
                },
            ],
            edges: vec![Edge {
                from: 0,
                to: 1,
                line: Line::Skips,
                mark: Some(Mark::Added),
            }],
        }
    }

    #[test]
    fn labels_and_titles_are_escaped() {
        let mut out = String::new();
        write(&mut out, &[picture()]);
        assert!(out.contains(">etcd / &lt;alpha&gt;</text>"));
        assert!(out.contains("<title>etcd.v2\\u{1b}&quot;&amp;</title>"));
        assert!(!out.contains('\u{1b}'));
    }

    #[test]
    fn classes_carry_marks_and_lines_and_the_legend_shows_those_used() {
        let mut out = String::new();
        write(&mut out, &[picture()]);
        assert!(out.contains("<g class=\"node added head\">"));
        assert!(out.contains("<g class=\"edge skips added\">"));
        assert!(out.contains(">skips</text>"));
        assert!(!out.contains(">replaces</text>"));
        assert!(out.contains(">removed</text>"));
        assert!(!out.contains(">deprecated</text>"));
    }

    #[test]
    fn numbers_have_one_decimal_at_most() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(-0.01), "0");
        assert_eq!(number(3.26), "3.3");
        assert_eq!(number(7.36), "7.4");
    }
}
