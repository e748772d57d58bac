use super::*;
use crate::catalog::Location;
use crate::validate::Rule;

/// Findings of several packages, files and rules, some equal, some with equal
/// keys that differ (their help), in a shuffled order.
fn findings(count: u32) -> Vec<Finding> {
    let files = [
        Location::start_of("a.json"),
        Location::new(&crate::catalog::shared_path("b/c.yaml".as_ref()), 7, 3),
    ];
    (0..count)
        .map(|i| {
            let finding = Finding::new(Rule::ImageNotPinned, format!("m{}", (i * 13) % 5))
                .at(&files[(i % 2) as usize]);
            let finding = match i % 4 {
                0 => finding,
                1 => finding
                    .package(&format!("p{}", (i * 37) % 11))
                    .help("same help"),
                2 => finding
                    .package(&format!("p{}", (i * 7) % 3))
                    .help(format!("{}", i % 3)),
                _ => finding
                    .package("p1")
                    .bundle("b")
                    .channel("c")
                    .in_catalog("k"),
            };
            if i % 6 == 0 {
                finding.at(&files[1])
            } else {
                finding
            }
        })
        .collect()
}

#[test]
fn findings_read_back_as_they_were_written() {
    let written = findings(300);
    let mut store = Store::new().expect("a temporary file");
    let first = store.append(&written[..100]).expect("written");
    let second = store.append(&written[100..]).expect("written");
    let read: Vec<Finding> = store.read(first).chain(store.read(second)).collect();
    assert_eq!(read, written);
    assert!(
        read.iter()
            .zip(&written)
            .all(|(a, b)| a.help_text() == b.help_text())
    );
    assert_eq!(store.failure(), None);
}

#[test]
fn a_spool_hands_over_what_it_was_given_whatever_its_budget() {
    let given = findings(500);
    for budget in [0, 1, 2_000, usize::MAX] {
        let mut spool = Spool::new(budget);
        given
            .iter()
            .cloned()
            .for_each(|finding| spool.push(finding));
        let read: Vec<Finding> = spool.iter().map(Cow::into_owned).collect();
        assert_eq!(read, given, "budget {budget}");
        assert_eq!(spool.len(), given.len());
        assert_eq!(spool.buffer.store.is_some(), budget < usize::MAX);
        // Read twice, as a YAML report is (checked, then written).
        assert_eq!(spool.iter().count(), given.len());
    }
}

/// Runs merged give what sorting all of them at once gives, equal neighbours
/// dropped, for any budget, and a second part starts afresh.
#[test]
fn runs_merge_as_one_stable_sort() {
    let given = findings(700);
    let mut expected = given.clone();
    expected.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    expected.dedup();
    assert!(expected.len() < given.len());
    for budget in [0, 1, 3_000, 40_000, usize::MAX] {
        let mut sorter = Sorter::new(budget);
        for round in 0..2 {
            for finding in given.iter().cloned() {
                sorter.push(finding);
                if sorter.over_budget() {
                    sorter.spill();
                }
            }
            let runs = sorter.runs.len();
            assert_eq!(
                runs > 0,
                budget < usize::MAX,
                "budget {budget}, round {round}"
            );
            let merged: Vec<Finding> = sorter.part().collect();
            assert_eq!(merged, expected, "budget {budget}, round {round}");
            assert!(sorter.held().is_empty() && sorter.runs.is_empty());
        }
        assert_eq!(sorter.failure(), None);
    }
}

#[test]
fn findings_sort_as_a_stable_sort_does() {
    let findings = findings(200);
    let mut expected = findings.clone();
    expected.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let mut sorted = findings;
    sort(&mut sorted);
    assert_eq!(sorted, expected);
}
