//! Where one channel entry stands inside its blob, for findings about a single entry
//! (a duplicate). Blobs keep only their own position, so the file is read again:
//! this runs on the error path only, and falls back to the blob when it cannot tell.

use super::Location;

/// The `name` key of the `occurrence`-th (from 0) entry named `entry` at or after
/// the start of the blob at `blob`.
pub(crate) fn entry(blob: &Location, entry: &str, occurrence: usize) -> Option<Location> {
    if entry.is_empty() {
        return None;
    }
    let bytes = crate::files::limits::read_file(&blob.file).ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    let start = super::decode::line_offset(text, blob.line as usize, blob.column as usize);
    let key = memchr::memmem::find_iter(&text.as_bytes()[start..], entry.as_bytes())
        .map(|found| start + found)
        .filter(|&at| ends_value(&text[at + entry.len()..]))
        .filter_map(|at| name_key_before(&text[..at]))
        .nth(occurrence)?;
    let line_start = text[..key].rfind('\n').map_or(0, |newline| newline + 1);
    Some(Location::new(
        &blob.file,
        text[..key].matches('\n').count() + 1,
        text[line_start..key].chars().count() + 1,
    ))
}

/// Whether a value ends here: a closing quote, a separator or the end of the line.
fn ends_value(after: &str) -> bool {
    after
        .chars()
        .next()
        .is_none_or(|next| matches!(next, '"' | '\'' | ',' | '}' | ' ' | '\t' | '\r' | '\n'))
}

/// The offset of the key when the text before a value ends with a `name` key:
/// `"name": "`, `name: ` or `name: '`.
fn name_key_before(before: &str) -> Option<usize> {
    let before = before.strip_suffix(['"', '\'']).unwrap_or(before);
    let before = before.trim_end_matches([' ', '\t']).strip_suffix(':')?;
    let before = before.trim_end_matches([' ', '\t']);
    let (before, quoted) = match before.strip_suffix(['"', '\'']) {
        Some(unquoted) => (unquoted, true),
        None => (before, false),
    };
    let key = before.strip_suffix("name")?;
    let whole_word = !key
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-');
    // A quoted key starts at its quote.
    whole_word.then_some(key.len() - usize::from(quoted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str, name: &str, occurrence: usize) -> Option<(usize, usize)> {
        let dir = tempfile::tempdir().expect("temporary directory");
        let path = dir.path().join("catalog");
        std::fs::write(&path, text).expect("write");
        let blob = Location::start_of(path);
        entry(&blob, name, occurrence).map(|at| (at.line as usize, at.column as usize))
    }

    #[test]
    fn entries_are_found_in_json_and_yaml() {
        let json = "{\"schema\": \"olm.channel\", \"name\": \"a\",\n \"entries\": [\n  {\"name\": \"a.v1\"},\n  {\"replaces\": \"a.v1\", \"name\": \"a.v1\"}]}\n";
        assert_eq!(find(json, "a.v1", 0), Some((3, 4)));
        assert_eq!(find(json, "a.v1", 1), Some((4, 24)));
        assert_eq!(find(json, "a.v1", 2), None);
        let yaml = "schema: olm.channel\nname: a\nentries:\n  - name: a.v1\n  - name: 'a.v1'\n    replaces: a.v1\n  - name: a.v10\n  - displayname: a.v1\n";
        assert_eq!(find(yaml, "a.v1", 0), Some((4, 5)));
        assert_eq!(find(yaml, "a.v1", 1), Some((5, 5)));
        assert_eq!(
            find(yaml, "a.v1", 2),
            None,
            "a.v10 and displayname do not count"
        );
    }
}
