//! Go's `text/tabwriter` as opm's `alpha list` configures it (minimum width 0,
//! padding 2, spaces, no flags): tab-terminated cells are aligned in columns; a
//! column spans the consecutive lines that have a cell in it; widths count runes;
//! a line's last cell (after its last tab) is written as it is.

const PADDING: usize = 2;

/// Formats `text`, whose lines end with `\n` and whose cells end with `\t`.
pub(crate) fn format(text: &str) -> String {
    let lines: Vec<Vec<&str>> = text
        .split_terminator('\n')
        .map(|line| line.split('\t').collect())
        .collect();
    let mut out = String::with_capacity(text.len() * 2);
    let mut widths = Vec::new();
    write_block(&lines, 0, lines.len(), &mut widths, &mut out);
    out
}

fn width(cell: &str) -> usize {
    cell.chars().count()
}

/// tabwriter's `format`: finds the blocks of the next column within the lines
/// `start..end` and formats each with that column's width.
fn write_block(
    lines: &[Vec<&str>],
    start: usize,
    end: usize,
    widths: &mut Vec<usize>,
    out: &mut String,
) {
    let column = widths.len();
    let mut first = start;
    let mut index = start;
    while index < end {
        if column + 1 >= lines[index].len() {
            index += 1;
            continue;
        }
        write_lines(&lines[first..index], widths, out);
        let block_start = index;
        let mut column_width = 0;
        while index < end && column + 1 < lines[index].len() {
            column_width = column_width.max(width(lines[index][column]) + PADDING);
            index += 1;
        }
        widths.push(column_width);
        write_block(lines, block_start, index, widths, out);
        widths.pop();
        first = index;
    }
    write_lines(&lines[first..end], widths, out);
}

fn write_lines(lines: &[Vec<&str>], widths: &[usize], out: &mut String) {
    for line in lines {
        for (index, cell) in line.iter().enumerate() {
            out.push_str(cell);
            if let Some(column_width) = widths.get(index)
                && index + 1 < line.len()
            {
                out.extend(std::iter::repeat_n(
                    ' ',
                    column_width.saturating_sub(width(cell)),
                ));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns_align_by_runes_and_tabs_in_cells_shift_their_row() {
        let text = "NAME\tDISPLAY NAME\tDEFAULT CHANNEL\naa\t\tstable\ntab\tA\tB\tstable\nwide\t日本語\tstable\nzz\tÜnïcödé Operator\tstable\n";
        assert_eq!(
            super::format(text),
            "NAME  DISPLAY NAME      DEFAULT CHANNEL\naa                      stable\ntab   A                 B  stable\nwide  日本語               stable\nzz    Ünïcödé Operator  stable\n"
        );
    }

    #[test]
    fn a_last_empty_cell_leaves_the_padding_of_the_columns_before() {
        assert_eq!(
            super::format("A\tB\tC\nlong\t\t\n"),
            "A     B  C\nlong     \n"
        );
    }
}
