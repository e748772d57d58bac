//! Where the boxes and arrows of a [`Drawing`] go: a layered layout read left to
//! right, the way installations move. Every box gets a column one past the
//! furthest box that leads to it (arrows that close a cycle are left out of that
//! count), boxes in a column are ordered by where their neighbours are (a few
//! barycentre sweeps), and arrows are cubic curves: to the next column straight
//! across, over several columns bowed off the row, backwards as an arch above.
//! Cost: linear in boxes and arrows per sweep, times a log for sorting.

use super::Drawing;

/// The width of a character of the 12 px monospace font labels are set in.
pub(crate) const CHARACTER: f64 = 7.3;
pub(crate) const FONT: f64 = 12.0;
const PADDING: f64 = 10.0;
const HEIGHT: f64 = 26.0;
const COLUMN_GAP: f64 = 56.0;
const ROW_GAP: f64 = 18.0;
const MARGIN: f64 = 12.0;
const SWEEPS: usize = 4;

/// A point in the picture, y growing downwards.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Point {
    pub(crate) x: f64,
    pub(crate) y: f64,
}

/// A box's place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Place {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

/// An arrow's cubic curve; the arrowhead sits at `end`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Curve {
    pub(crate) start: Point,
    pub(crate) first: Point,
    pub(crate) second: Point,
    pub(crate) end: Point,
}

/// A drawing laid out: a place per node and a curve per edge, in their order,
/// within `width` x `height` from the origin.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    pub(crate) places: Vec<Place>,
    pub(crate) curves: Vec<Curve>,
    pub(crate) width: f64,
    pub(crate) height: f64,
}

/// The width of `text` set in the label font.
pub(crate) fn text_width(text: &str) -> f64 {
    f64::from(u32::try_from(text.chars().count()).unwrap_or(u32::MAX)) * CHARACTER
}

pub(crate) fn lay_out(drawing: &Drawing) -> Layout {
    let count = drawing.nodes.len();
    let arrows: Vec<(usize, usize)> = drawing
        .edges
        .iter()
        .map(|edge| (edge.from, edge.to))
        .filter(|&(from, to)| from < count && to < count)
        .collect();
    let forward = acyclic(count, &arrows);
    let column = columns(count, &forward);
    let rows = rows(count, &column, &forward);
    let widths: Vec<f64> = drawing
        .nodes
        .iter()
        .map(|node| text_width(&crate::text::shown::text(&node.label)) + 2.0 * PADDING)
        .collect();
    let columns = column.iter().max().map_or(0, |last| last + 1);
    let mut column_width = vec![0.0_f64; columns];
    let mut tallest = 0;
    for (node, &c) in column.iter().enumerate() {
        column_width[c] = column_width[c].max(widths[node]);
    }
    for rows in &rows {
        tallest = tallest.max(rows.len());
    }
    let mut column_x = Vec::with_capacity(columns);
    let mut x = 0.0;
    for width in &column_width {
        column_x.push(x);
        x += width + COLUMN_GAP;
    }
    let mut places = vec![
        Place {
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: HEIGHT,
        };
        count
    ];
    for (c, nodes) in rows.iter().enumerate() {
        let offset = count_f64(tallest - nodes.len()) * (HEIGHT + ROW_GAP) / 2.0;
        for (row, &node) in nodes.iter().enumerate() {
            places[node] = Place {
                x: column_x[c] + (column_width[c] - widths[node]) / 2.0,
                y: offset + count_f64(row) * (HEIGHT + ROW_GAP),
                width: widths[node],
                height: HEIGHT,
            };
        }
    }
    let curves: Vec<Curve> = arrows
        .iter()
        .map(|&(from, to)| {
            curve(
                &places[from],
                &places[to],
                column[to].abs_diff(column[from]),
            )
        })
        .collect();
    fit(places, curves)
}

/// The arrows that keep the graph acyclic: a depth-first walk (in node order,
/// without recursion) drops each arrow back to a box still on its path.
fn acyclic(count: usize, arrows: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let successors = adjacency(count, arrows.iter().copied());
    let mut state = vec![0_u8; count]; // 0 unseen, 1 on the path, 2 done
    let mut back = std::collections::HashSet::new();
    for root in 0..count {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        let mut stack = vec![(root, 0_usize)];
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            if let Some(&successor) = successors[node].get(*next) {
                *next += 1;
                match state[successor] {
                    0 => {
                        state[successor] = 1;
                        stack.push((successor, 0));
                    }
                    1 => {
                        back.insert((node, successor));
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    arrows
        .iter()
        .copied()
        .filter(|arrow| !back.contains(arrow))
        .collect()
}

fn adjacency(count: usize, arrows: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut lists = vec![Vec::new(); count];
    for (from, to) in arrows {
        lists[from].push(to);
    }
    lists
}

/// Each box's column: one past its furthest predecessor; a box nothing leads to
/// stands just before its nearest successor.
fn columns(count: usize, forward: &[(usize, usize)]) -> Vec<usize> {
    let successors = adjacency(count, forward.iter().copied());
    let mut incoming = vec![0_usize; count];
    for &(_, to) in forward {
        incoming[to] += 1;
    }
    let sources: Vec<usize> = (0..count).filter(|&node| incoming[node] == 0).collect();
    let mut column = vec![0_usize; count];
    let mut ready = sources.clone();
    let mut order = Vec::with_capacity(count);
    while let Some(node) = ready.pop() {
        order.push(node);
        for &successor in &successors[node] {
            column[successor] = column[successor].max(column[node] + 1);
            incoming[successor] -= 1;
            if incoming[successor] == 0 {
                ready.push(successor);
            }
        }
    }
    for source in sources {
        if let Some(nearest) = successors[source].iter().map(|&s| column[s]).min() {
            column[source] = nearest.saturating_sub(1);
        }
    }
    column
}

/// The boxes of each column, top to bottom: first in node order, then sorted by
/// the mean row of their neighbours in the columns before (sweeping right) and
/// after (sweeping left).
fn rows(count: usize, column: &[usize], forward: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let columns = column.iter().max().map_or(0, |last| last + 1);
    let mut rows = vec![Vec::new(); columns];
    for (node, &c) in column.iter().enumerate() {
        rows[c].push(node);
    }
    let predecessors = adjacency(count, forward.iter().map(|&(from, to)| (to, from)));
    let successors = adjacency(count, forward.iter().copied());
    let mut row = vec![0.0_f64; count];
    let number = |rows: &[Vec<usize>], row: &mut [f64]| {
        for nodes in rows {
            for (index, &node) in nodes.iter().enumerate() {
                row[node] = count_f64(index);
            }
        }
    };
    number(&rows, &mut row);
    for sweep in 0..SWEEPS {
        let (neighbours, order): (&[Vec<usize>], Vec<usize>) = if sweep % 2 == 0 {
            (&predecessors, (0..columns).collect())
        } else {
            (&successors, (0..columns).rev().collect())
        };
        for c in order {
            let mut keyed: Vec<(f64, usize)> = rows[c]
                .iter()
                .map(|&node| {
                    let around = &neighbours[node];
                    let key = if around.is_empty() {
                        row[node]
                    } else {
                        around.iter().map(|&n| row[n]).sum::<f64>() / count_f64(around.len())
                    };
                    (key, node)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
            rows[c] = keyed.into_iter().map(|(_, node)| node).collect();
            for (index, &node) in rows[c].iter().enumerate() {
                row[node] = count_f64(index);
            }
        }
    }
    rows
}

/// The curve of an arrow between two placed boxes `span` columns apart.
fn curve(from: &Place, to: &Place, span: usize) -> Curve {
    let right = |p: &Place| Point {
        x: p.x + p.width,
        y: p.y + p.height / 2.0,
    };
    let left = |p: &Place| Point {
        x: p.x,
        y: p.y + p.height / 2.0,
    };
    let top = |p: &Place, shift: f64| Point {
        x: p.x + p.width / 2.0 + shift,
        y: p.y,
    };
    if from == to {
        let (start, end) = (top(from, -8.0), top(from, 8.0));
        return Curve {
            start,
            first: Point {
                x: start.x - 16.0,
                y: start.y - 30.0,
            },
            second: Point {
                x: end.x + 16.0,
                y: end.y - 30.0,
            },
            end,
        };
    }
    if to.x <= from.x {
        // Backwards: an arch above both boxes.
        let (start, end) = (top(from, 0.0), top(to, 0.0));
        let raise = HEIGHT + 12.0 * count_f64(span.min(8));
        let above = start.y.min(end.y) - raise;
        return Curve {
            start,
            first: Point {
                x: start.x,
                y: above,
            },
            second: Point { x: end.x, y: above },
            end,
        };
    }
    let (start, end) = (right(from), left(to));
    let reach = ((end.x - start.x) / 2.0).min(COLUMN_GAP * 1.5);
    // Over more than one column the straight way runs through the boxes between:
    // bow below the row, further for longer arrows so that they do not coincide.
    let bow = if span > 1 {
        (HEIGHT / 2.0 + ROW_GAP / 2.0) * (1.0 + count_f64(span.min(6)) / 3.0)
    } else {
        0.0
    };
    Curve {
        start,
        first: Point {
            x: start.x + reach,
            y: start.y + bow,
        },
        second: Point {
            x: end.x - reach,
            y: end.y + bow,
        },
        end,
    }
}

/// Moves everything so that boxes and curves (within their control points) lie
/// inside the margins, and measures the whole.
fn fit(mut places: Vec<Place>, mut curves: Vec<Curve>) -> Layout {
    let mut low = Point {
        x: f64::INFINITY,
        y: f64::INFINITY,
    };
    let mut high = Point {
        x: f64::NEG_INFINITY,
        y: f64::NEG_INFINITY,
    };
    let mut extend = |point: Point| {
        low = Point {
            x: low.x.min(point.x),
            y: low.y.min(point.y),
        };
        high = Point {
            x: high.x.max(point.x),
            y: high.y.max(point.y),
        };
    };
    for place in &places {
        extend(Point {
            x: place.x,
            y: place.y,
        });
        extend(Point {
            x: place.x + place.width,
            y: place.y + place.height,
        });
    }
    for curve in &curves {
        for point in [curve.start, curve.first, curve.second, curve.end] {
            extend(point);
        }
    }
    if places.is_empty() {
        return Layout {
            places,
            curves,
            width: 0.0,
            height: 0.0,
        };
    }
    let shift = |point: &mut Point| {
        point.x += MARGIN - low.x;
        point.y += MARGIN - low.y;
    };
    for place in &mut places {
        place.x += MARGIN - low.x;
        place.y += MARGIN - low.y;
    }
    for curve in &mut curves {
        for point in [
            &mut curve.start,
            &mut curve.first,
            &mut curve.second,
            &mut curve.end,
        ] {
            shift(point);
        }
    }
    Layout {
        places,
        curves,
        width: high.x - low.x + 2.0 * MARGIN,
        height: high.y - low.y + 2.0 * MARGIN,
    }
}

/// A count as a coordinate (exact below 2^53, far beyond any drawing).
fn count_f64(count: usize) -> f64 {
    f64::from(u32::try_from(count).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drawing::{Edge, Line, Node};

    fn drawing(nodes: usize, edges: &[(usize, usize)]) -> Drawing {
        Drawing {
            title: String::new(),
            nodes: (0..nodes)
                .map(|n| Node {
                    label: format!("b{n}"),
                    marks: Vec::new(),
                })
                .collect(),
            edges: edges
                .iter()
                .map(|&(from, to)| Edge {
                    from,
                    to,
                    line: Line::Replaces,
                    mark: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_chain_reads_left_to_right_on_one_row() {
        let layout = lay_out(&drawing(3, &[(0, 1), (1, 2)]));
        let [a, b, c] = [layout.places[0], layout.places[1], layout.places[2]];
        assert!(a.x + a.width < b.x && b.x + b.width < c.x);
        assert!((a.y - b.y).abs() < 0.01 && (b.y - c.y).abs() < 0.01);
        let arrow = layout.curves[0];
        assert_eq!((arrow.start.x, arrow.end.x), (a.x + a.width, b.x));
    }

    #[test]
    fn a_box_nothing_leads_to_stands_before_its_successor() {
        // 0 -> 1 -> 2, and 3 (a skipped bundle) -> 2.
        let columns = columns(4, &[(0, 1), (1, 2), (3, 2)]);
        assert_eq!(columns, [0, 1, 2, 1]);
    }

    #[test]
    fn cycles_are_laid_out_with_an_arch_back() {
        let layout = lay_out(&drawing(2, &[(0, 1), (1, 0), (1, 1)]));
        let (a, b) = (layout.places[0], layout.places[1]);
        assert!(a.x < b.x);
        let back = layout.curves[1];
        assert!(back.first.y < a.y && back.second.y < a.y);
        assert!(
            back.first.y >= 0.0,
            "everything is moved inside the picture"
        );
        assert!(layout.curves[2].first.y < b.y, "a loop sits above its box");
    }

    #[test]
    fn long_arrows_bow_off_the_row_and_the_picture_holds_them() {
        let layout = lay_out(&drawing(3, &[(0, 1), (1, 2), (0, 2)]));
        let long = layout.curves[2];
        assert!(long.first.y > long.start.y);
        assert!(layout.height >= long.first.y);
    }

    #[test]
    fn boxes_follow_their_neighbours_rows() {
        // Two chains crossing at the start: 0->3, 1->2 with 2 first in node order.
        let rows = rows(4, &[0, 0, 1, 1], &[(0, 3), (1, 2)]);
        assert_eq!(rows[1], [3, 2]);
    }

    #[test]
    fn an_empty_drawing_is_empty() {
        let layout = lay_out(&drawing(0, &[]));
        assert_eq!((layout.width, layout.height), (0.0, 0.0));
    }

    #[test]
    fn a_long_chain_is_laid_out_without_recursion() {
        let edges: Vec<(usize, usize)> = (0..100_000).map(|n| (n, n + 1)).collect();
        let layout = lay_out(&drawing(100_001, &edges));
        assert!(layout.places[100_000].x > layout.places[0].x);
    }
}
