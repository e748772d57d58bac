//! A validation problem as data: which rule, how severe, opm's message, what it
//! concerns and where the blobs involved start. Every output format reads these.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::RwLock;

use super::spool::{Merge, Sorter};

use crate::catalog::{Location, SharedPath};
use crate::model::Text;

/// How bad a finding is. Every rule opm enforces makes a catalog invalid; lints
/// beyond opm warn, unless `--strict` makes them errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem in a catalog, in 56 bytes and two allocations: a catalog of many
/// small blobs can have a finding or two per blob. The message, the package,
/// channel and bundle concerned, a help made for it and the catalog are one
/// string; a help written once in the program is not copied but numbered.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub(crate) rule: Rule,
    pub(crate) severity: Severity,
    /// Which of package, channel, bundle, help and catalog are present (bits 0-4).
    present: u8,
    /// Where the message, package, channel, bundle and help end in `texts` (the
    /// catalog is the rest).
    ends: [u32; 5],
    /// The parts, one after the other (read with [`Finding::message`] and its
    /// siblings).
    texts: Text,
    /// Where each blob involved starts, the most relevant first.
    pub(crate) locations: Box<[Location]>,
    /// The number of a help text written once in the program (see
    /// [`help_number`]), or 0.
    static_help: u8,
}

/// Help texts written once in the program, numbered from 1 in the order findings
/// first use them: a finding keeps a number in a byte of its padding instead of
/// the text or a pointer to it.
static HELPS: RwLock<Vec<&'static str>> = RwLock::new(Vec::new());

/// The number of a help text (the same text at the same address), given one if it
/// has none; `None` once 255 are numbered (the finding then keeps a copy).
fn help_number(help: &'static str) -> Option<u8> {
    number_in(&HELPS, usize::from(u8::MAX), help)
}

/// [`help_number`] in `helps`, which numbers at most `capacity` texts.
fn number_in(helps: &RwLock<Vec<&'static str>>, capacity: usize, help: &'static str) -> Option<u8> {
    let same = |known: &&'static str| std::ptr::eq(*known, help);
    let known = helps.read().ok()?.iter().position(same);
    let index = if let Some(index) = known {
        index
    } else {
        let mut helps = helps.write().ok()?;
        match helps.iter().position(same) {
            Some(index) => index,
            None if helps.len() < capacity => {
                helps.push(help);
                helps.len() - 1
            }
            None => return None,
        }
    };
    u8::try_from(index + 1).ok()
}

fn numbered_help(number: u8) -> Option<&'static str> {
    let index = usize::from(number.checked_sub(1)?);
    HELPS.read().ok()?.get(index).copied()
}

impl PartialEq for Finding {
    fn eq(&self, other: &Self) -> bool {
        self.rule == other.rule
            && self.severity == other.severity
            && self.locations == other.locations
            && PARTS_BUT_HELP.map(|part| self.part(part))
                == PARTS_BUT_HELP.map(|part| other.part(part))
            && self.help_text() == other.help_text()
    }
}

impl Eq for Finding {}

/// The parts of a finding's text, in their order in it.
const MESSAGE: usize = 0;
const PACKAGE: usize = 1;
const CHANNEL: usize = 2;
const BUNDLE: usize = 3;
const HELP: usize = 4;
const CATALOG: usize = 5;
/// The parts compared as they are (a help compares by its text, kept or numbered).
const PARTS_BUT_HELP: [usize; 5] = [MESSAGE, PACKAGE, CHANNEL, BUNDLE, CATALOG];

impl Finding {
    pub(crate) fn new(rule: Rule, message: String) -> Finding {
        let end = u32::try_from(message.len()).unwrap_or(u32::MAX);
        Finding {
            rule,
            severity: rule.default_severity(),
            present: 0,
            ends: [end; 5],
            texts: message.into(),
            locations: Box::default(),
            static_help: 0,
        }
    }

    pub(crate) fn package(self, name: &str) -> Finding {
        self.with(PACKAGE, Some(name))
    }

    pub(crate) fn channel(self, name: &str) -> Finding {
        self.with(CHANNEL, Some(name))
    }

    pub(crate) fn bundle(self, name: &str) -> Finding {
        self.with(BUNDLE, Some(name))
    }

    pub(crate) fn help(self, help: impl Into<Cow<'static, str>>) -> Finding {
        match help.into() {
            Cow::Borrowed(help) if let Some(number) = help_number(help) => {
                let mut finding = self.without(HELP);
                finding.static_help = number;
                finding
            }
            help => {
                let mut finding = self.with(HELP, Some(&help));
                finding.static_help = 0;
                finding
            }
        }
    }

    /// Names the catalog directory, when one run validates several.
    pub(crate) fn in_catalog(self, catalog: &str) -> Finding {
        self.with(CATALOG, Some(catalog))
    }

    /// opm's text for the problem, word for word.
    pub(crate) fn message(&self) -> &str {
        self.part(MESSAGE).unwrap_or_default()
    }

    pub(crate) fn package_name(&self) -> Option<&str> {
        self.part(PACKAGE)
    }

    pub(crate) fn channel_name(&self) -> Option<&str> {
        self.part(CHANNEL)
    }

    pub(crate) fn bundle_name(&self) -> Option<&str> {
        self.part(BUNDLE)
    }

    /// What opm's message leaves unsaid, where its words could mislead.
    pub(crate) fn help_text(&self) -> Option<&str> {
        self.part(HELP).or_else(|| numbered_help(self.static_help))
    }

    /// The catalog directory, when one run validates several.
    pub(crate) fn catalog(&self) -> Option<&str> {
        self.part(CATALOG)
    }

    fn without(self, index: usize) -> Finding {
        if self.part(index).is_some() {
            self.with(index, None)
        } else {
            self
        }
    }

    /// Sets or removes one part (the string is made again: findings are built
    /// once).
    fn with(mut self, index: usize, text: Option<&str>) -> Finding {
        let mut parts = [0, 1, 2, 3, 4, 5].map(|part| self.part(part));
        parts[index] = text;
        let mut joined = String::with_capacity(parts.iter().flatten().map(|p| p.len()).sum());
        let (mut ends, mut present) = ([0; 5], 0);
        for (part, text) in parts.into_iter().enumerate() {
            if let Some(text) = text {
                joined.push_str(text);
                if part != MESSAGE {
                    present |= 1 << (part - 1);
                }
            }
            if let Some(end) = ends.get_mut(part) {
                *end = u32::try_from(joined.len()).unwrap_or(u32::MAX);
            }
        }
        self.texts = joined.into();
        self.ends = ends;
        self.present = present;
        self
    }

    fn part(&self, part: usize) -> Option<&str> {
        if part != MESSAGE && self.present & (1 << (part - 1)) == 0 {
            return None;
        }
        let start = part.checked_sub(1).map_or(0, |before| self.ends[before]);
        let end = self.ends.get(part).copied();
        let end = end.map_or(self.texts.len(), |end| end as usize);
        // Texts past 4 GiB (not loadable) would read as missing rather than panic.
        self.texts.get(start as usize..end)
    }

    pub(crate) fn at(mut self, location: &Location) -> Finding {
        if !self.locations.contains(location) {
            let mut locations = std::mem::take(&mut self.locations).into_vec();
            locations.push(location.clone());
            self.locations = locations.into_boxed_slice();
        }
        self
    }

    pub(crate) fn at_all<'a>(self, locations: impl IntoIterator<Item = &'a Location>) -> Finding {
        locations.into_iter().fold(self, Finding::at)
    }

    /// About the memory the finding takes: itself, its text and its locations,
    /// with an allocation's overhead for each of the two.
    pub(crate) fn size(&self) -> usize {
        std::mem::size_of::<Finding>()
            + self.texts.len()
            + std::mem::size_of_val(&*self.locations)
            + 32
    }

    /// Appends the finding as bytes [`Finding::decode`] reads back, its files
    /// written as the numbers `file_number` gives them.
    pub(crate) fn encode(
        &self,
        out: &mut Vec<u8>,
        mut file_number: impl FnMut(&SharedPath) -> u32,
    ) {
        let put = |out: &mut Vec<u8>, value: u32| out.extend_from_slice(&value.to_le_bytes());
        out.extend_from_slice(&[
            self.rule as u8,
            self.severity as u8,
            self.present,
            self.static_help,
        ]);
        for end in self.ends {
            put(out, end);
        }
        put(out, u32::try_from(self.texts.len()).unwrap_or(u32::MAX));
        out.extend_from_slice(self.texts.as_bytes());
        put(out, u32::try_from(self.locations.len()).unwrap_or(u32::MAX));
        for location in &self.locations {
            put(out, file_number(&location.file));
            put(out, location.line);
            put(out, location.column);
        }
    }

    /// A finding [`Finding::encode`] wrote, its files numbered in `files`; `None`
    /// when the bytes are not one.
    pub(crate) fn decode(bytes: &[u8], files: &[SharedPath]) -> Option<Finding> {
        let mut cursor = Cursor(bytes);
        let [rule, severity, present, static_help] = cursor.take(4)?.try_into().ok()?;
        let rule = *Rule::ALL.get(usize::from(rule))?;
        let severity = [Severity::Error, Severity::Warning]
            .into_iter()
            .find(|known| *known as u8 == severity)?;
        let mut ends = [0; 5];
        for end in &mut ends {
            *end = cursor.number()?;
        }
        let length = cursor.number()? as usize;
        let texts = std::str::from_utf8(cursor.take(length)?).ok()?.into();
        let count = cursor.number()? as usize;
        let locations = (0..count)
            .map(|_| {
                let file = files.get(cursor.number()? as usize)?;
                Some(Location {
                    file: std::sync::Arc::clone(file),
                    line: cursor.number()?,
                    column: cursor.number()?,
                })
            })
            .collect::<Option<_>>()?;
        cursor.0.is_empty().then_some(Finding {
            rule,
            severity,
            present,
            ends,
            texts,
            locations,
            static_help,
        })
    }

    /// The order findings are reported in: by package (catalog-wide ones first),
    /// then where they are, then by rule.
    pub(crate) fn sort_key(&self) -> impl Ord + '_ {
        (
            self.package_name(),
            self.locations.first(),
            self.rule,
            self.channel_name(),
            self.bundle_name(),
            self.message(),
        )
    }
}

/// The bytes of an encoded finding not read yet.
struct Cursor<'a>(&'a [u8]);

impl<'a> Cursor<'a> {
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.0.split_at_checked(count)?;
        self.0 = rest;
        Some(taken)
    }

    fn number(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

/// Where opm meets a problem in its run over the catalog: the step (0 packages, 1
/// channels, 2 bundles, 3 channel entries, 4 deprecations), then the position in
/// that step (the blob's index in its list, 0; or for channel entries, checked per
/// package in name order, the package's group and its place in the group).
/// fbc checks a few packages at a time; the problem of least rank is the one opm
/// stops at.
pub(crate) type Rank = (u8, usize, usize);

/// The findings of the packages being checked, sorted when handed over, and the
/// one error opm would stop at.
pub(crate) struct Collector {
    sorter: Sorter,
    /// Whether findings are kept (opm's verdict alone needs none of them).
    keep: bool,
    /// The package and bundle of each error no longer in memory (see
    /// [`FailedBundles`]), until the part is handed over.
    failed: HashSet<Box<str>>,
    /// The first problem opm's `ConvertToModel` reports (it checks nothing after
    /// it), with its rank.
    pub(crate) opm_error: Option<(Rank, String)>,
}

impl Collector {
    /// A collector keeping findings up to `budget` bytes in memory (beyond it in a
    /// temporary file), or, with `None`, none at all.
    pub(crate) fn new(budget: Option<usize>) -> Collector {
        Collector {
            sorter: Sorter::new(budget.unwrap_or(usize::MAX)),
            keep: budget.is_some(),
            failed: HashSet::new(),
            opm_error: None,
        }
    }

    /// A problem opm stops at when nothing before it (a lesser rank, or the same
    /// rank found earlier) fails.
    pub(crate) fn fail_fast(&mut self, rank: Rank, finding: Finding) {
        if self
            .opm_error
            .as_ref()
            .is_none_or(|(first, _)| rank < *first)
        {
            self.opm_error = Some((rank, finding.message().to_owned()));
        }
        self.push(finding);
    }

    /// A problem opm reports elsewhere, differently, or not at all.
    pub(crate) fn push(&mut self, finding: Finding) {
        if !self.keep {
            remember_failure(&mut self.failed, &finding);
            return;
        }
        self.sorter.push(finding);
        if self.sorter.over_budget() {
            for finding in self.sorter.held() {
                remember_failure(&mut self.failed, finding);
            }
            self.sorter.spill();
        }
    }

    pub(crate) fn extend(&mut self, findings: impl IntoIterator<Item = Finding>) {
        findings.into_iter().for_each(|finding| self.push(finding));
    }

    /// Room for `count` more findings (as far as the budget goes).
    pub(crate) fn reserve(&mut self, count: usize) {
        if self.keep {
            self.sorter.reserve(count);
        }
    }

    /// The bundles an error of this part concerns.
    pub(crate) fn failed_bundles(&self) -> FailedBundles<'_> {
        FailedBundles {
            held: self
                .sorter
                .held()
                .iter()
                .filter(|finding| finding.severity == Severity::Error)
                .filter_map(|finding| Some((finding.package_name()?, finding.bundle_name()?)))
                .collect(),
            written: &self.failed,
        }
    }

    /// The findings since the last part, sorted, equal neighbours dropped.
    pub(crate) fn part(&mut self) -> Merge<'_> {
        self.failed.clear();
        self.sorter.part()
    }

    /// Why reading findings back from their file failed, if it did.
    pub(crate) fn failure(&self) -> Option<String> {
        self.sorter.failure()
    }
}

/// Keeps the package and bundle of an error as one string.
fn remember_failure(failed: &mut HashSet<Box<str>>, finding: &Finding) {
    if finding.severity == Severity::Error
        && let (Some(package), Some(bundle)) = (finding.package_name(), finding.bundle_name())
    {
        failed.insert(failure_key(package, bundle));
    }
}

fn failure_key(package: &str, bundle: &str) -> Box<str> {
    format!("{}:{package}{bundle}", package.len()).into_boxed_str()
}

/// The bundles (package and name) an error concerns, among the findings in
/// memory and those written away.
pub(crate) struct FailedBundles<'a> {
    held: HashSet<(&'a str, &'a str)>,
    written: &'a HashSet<Box<str>>,
}

impl FailedBundles<'_> {
    pub(crate) fn contains(&self, package: &str, bundle: &str) -> bool {
        self.held.contains(&(package, bundle))
            || (!self.written.is_empty() && self.written.contains(&failure_key(package, bundle)))
    }
}

macro_rules! rules {
    ($($variant:ident => $id:literal, $severity:ident, $summary:literal;)*) => {
        /// The rules fbc checks, each with a stable id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub(crate) enum Rule {
            $($variant,)*
        }

        impl Rule {
            /// Every rule, in the order rule tables list them.
            pub(crate) const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable id users filter on (`channel-multiple-heads`).
            pub(crate) fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// Errors are opm's rules; warnings are lints beyond opm.
            pub(crate) fn default_severity(self) -> Severity {
                match self {
                    $(Rule::$variant => Severity::$severity,)*
                }
            }

            /// The rule with this id.
            pub(crate) fn from_id(id: &str) -> Option<Rule> {
                Rule::ALL.iter().copied().find(|rule| rule.id() == id)
            }

            /// One line saying what the rule requires.
            pub(crate) fn summary(self) -> &'static str {
                match self {
                    $(Rule::$variant => $summary,)*
                }
            }
        }
    };
}

rules! {
    CatalogFileUnreadable => "catalog-file-unreadable", Error, "every catalog file can be read and decoded (a load error: exit status 2)";
    PackageNameMissing => "package-name-missing", Error, "every olm.package has a name";
    PackageDuplicate => "package-duplicate", Error, "a package is declared once";
    PackageNameInvalid => "package-name-invalid", Error, "package names are RFC 1123 labels";
    PackageDefaultChannelMissing => "package-default-channel-missing", Error, "a package names its default channel";
    PackageDefaultChannelUndefined => "package-default-channel-undefined", Error, "the default channel is a channel of the package";
    PackageWithoutChannels => "package-without-channels", Error, "a package has at least one channel";
    PackageDuplicateVersions => "package-duplicate-versions", Error, "bundles of a package have distinct versions";
    ChannelUnknownPackage => "channel-unknown-package", Error, "a channel belongs to a declared package";
    ChannelNameMissing => "channel-name-missing", Error, "every olm.channel has a name";
    ChannelDuplicate => "channel-duplicate", Error, "a channel is declared once per package";
    ChannelEntryDuplicate => "channel-entry-duplicate", Error, "a channel lists a bundle once";
    ChannelEntryWithoutBundle => "channel-entry-without-bundle", Error, "every channel entry has an olm.bundle blob";
    ChannelEmpty => "channel-empty", Error, "a channel has at least one entry";
    ChannelNoHead => "channel-no-head", Error, "a channel has a head: an entry nothing replaces or skips";
    ChannelMultipleHeads => "channel-multiple-heads", Error, "a channel has exactly one head";
    ChannelReplacesCycle => "channel-replaces-cycle", Error, "the replaces chain from the head has no cycle";
    ChannelStrandedBundles => "channel-stranded-bundles", Error, "every entry is on the replaces chain from the head or skipped";
    BundlePackageMissing => "bundle-package-missing", Error, "every olm.bundle names its package";
    BundleUnknownPackage => "bundle-unknown-package", Error, "a bundle belongs to a declared package";
    BundleDuplicate => "bundle-duplicate", Error, "a bundle is declared once per package";
    BundlePropertyInvalid => "bundle-property-invalid", Error, "bundle properties decode as their type requires";
    BundlePackagePropertyCount => "bundle-package-property-count", Error, "a bundle has exactly one olm.package property";
    BundlePackagePropertyMismatch => "bundle-package-property-mismatch", Error, "the olm.package property names the bundle's package";
    BundleImageInvalid => "bundle-image-invalid", Error, "bundle images are valid image pull specs";
    BundleRelatedImageInvalid => "bundle-related-image-invalid", Error, "related images are valid image pull specs";
    BundleVersionInvalid => "bundle-version-invalid", Error, "bundle versions are semantic versions";
    BundleReleaseInvalid => "bundle-release-invalid", Error, "bundle releases are dot-separated pre-release identifiers of at most 20 characters";
    BundleNotInChannel => "bundle-not-in-channel", Error, "every bundle is an entry of a channel of its package";
    BundleNameMissing => "bundle-name-missing", Error, "every channel entry has a name";
    BundleNameNotNormalized => "bundle-name-not-normalized", Error, "a bundle with a release is named <package>-v<version>-<release>";
    BundleSkipEmpty => "bundle-skip-empty", Error, "skips lists no empty names";
    BundleSkipRangeInvalid => "bundle-skip-range-invalid", Error, "skipRange is a valid semver range";
    BundleImageMissing => "bundle-image-missing", Error, "a bundle has an image or embedded objects";
    BundleBuildMetadataWithRelease => "bundle-build-metadata-with-release", Error, "a version with build metadata has no release";
    DeprecationPackageMissing => "deprecation-package-missing", Error, "every olm.deprecations blob names its package";
    DeprecationUnknownPackage => "deprecation-unknown-package", Error, "deprecations apply to a declared package";
    DeprecationDuplicate => "deprecation-duplicate", Error, "a package has at most one olm.deprecations blob";
    DeprecationSchemaMissing => "deprecation-schema-missing", Error, "every deprecation entry names a schema";
    DeprecationEntryDuplicate => "deprecation-entry-duplicate", Error, "an object is deprecated once";
    DeprecationUnknownBundle => "deprecation-unknown-bundle", Error, "deprecated bundles exist";
    DeprecationUnknownChannel => "deprecation-unknown-channel", Error, "deprecated channels exist";
    DeprecationPackageNameSet => "deprecation-package-name-set", Error, "a package deprecation names no package";
    DeprecationUnknownSchema => "deprecation-unknown-schema", Error, "deprecation entries reference olm.package, olm.channel or olm.bundle";
    DeprecationMessageMissing => "deprecation-message-missing", Error, "every deprecation has a message";
    SkipRangeExtraHead => "skip-range-extra-head", Warning, "entries covered by a skipRange of their channel are also replaced or skipped";
    ReplacesUnknownBundle => "replaces-unknown-bundle", Warning, "only the tail of a channel replaces a bundle missing from the catalog";
    ImageNotPinned => "image-not-pinned", Warning, "bundle and related images are pinned by digest";
    BundleObjectPresent => "bundle-object-present", Warning, "bundles carry olm.csv.metadata instead of olm.bundle.object";
    SchemaProperty => "schema-property", Warning, "known property values match their JSON Schema in schemas/";
    YamlImplicitType => "yaml-implicit-type", Warning, "string fields are not plain YAML 1.1 booleans or numbers";
    EmptyCatalog => "empty-catalog", Warning, "a catalog directory holds at least one blob";
    DependencyUnsatisfiable => "dependency-unsatisfiable", Warning, "with --check-dependencies or --with-catalog: OLM classic can install every channel head, dependencies included";
    DependencySearchGaveUp => "dependency-search-gave-up", Warning, "with --check-dependencies or --with-catalog: the dependency search for every channel head ends within FBC_RESOLVE_STEPS";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_channel_and_bundle_are_named_in_any_order() {
        let finding = Finding::new(Rule::ImageNotPinned, "m".to_owned());
        assert_eq!(
            (
                finding.package_name(),
                finding.channel_name(),
                finding.bundle_name()
            ),
            (None, None, None)
        );
        let finding = finding.bundle("b.v1").package("p");
        assert_eq!(
            (
                finding.package_name(),
                finding.channel_name(),
                finding.bundle_name()
            ),
            (Some("p"), None, Some("b.v1"))
        );
        let finding = finding.channel("").package("pé").bundle("b.v2");
        assert_eq!(
            (
                finding.package_name(),
                finding.channel_name(),
                finding.bundle_name()
            ),
            (Some("pé"), Some(""), Some("b.v2"))
        );
        // The same names, given in another order, make an equal finding.
        let other = Finding::new(Rule::ImageNotPinned, "m".to_owned())
            .channel("")
            .bundle("b.v2")
            .package("pé");
        assert_eq!(finding, other);
        assert_ne!(finding, other.channel("c"));
        // Help and catalog are kept beside them, and the message is untouched.
        let helped = finding.clone().help("h").in_catalog("cat").package("q");
        assert_eq!(
            (
                helped.message(),
                helped.package_name(),
                helped.channel_name(),
                helped.bundle_name(),
                helped.help_text(),
                helped.catalog()
            ),
            (
                "m",
                Some("q"),
                Some(""),
                Some("b.v2"),
                Some("h"),
                Some("cat")
            )
        );
        assert_eq!((finding.help_text(), finding.catalog()), (None, None));
        // A finding per blob of a catalog: kept small.
        assert!(std::mem::size_of::<Finding>() <= 56);
        // A help written once in the program is not copied; either kind reads the
        // same and compares equal.
        let owned = finding.clone().help("h".to_owned());
        let fixed = finding.clone().help("h");
        assert_eq!(
            (owned.help_text(), fixed.help_text()),
            (Some("h"), Some("h"))
        );
        assert_eq!(owned, fixed);
        assert_eq!(owned.texts.len(), fixed.texts.len() + 1);
        assert_eq!(fixed.help("other".to_owned()).help_text(), Some("other"));
    }

    /// Helps are numbered once each, up to the registry's capacity; past it a
    /// finding keeps a copy, and reads the same.
    #[test]
    fn helps_beyond_the_numbered_ones_are_copied() {
        let helps = RwLock::new(Vec::new());
        let (first, second) = ("first help", "second help");
        assert_eq!(number_in(&helps, 2, first), Some(1));
        assert_eq!(number_in(&helps, 2, second), Some(2));
        assert_eq!(number_in(&helps, 2, first), Some(1));
        assert_eq!(number_in(&helps, 2, "third help"), None);
        // The same text elsewhere in memory is another help.
        let copy: &'static str = Box::leak(first.to_owned().into_boxed_str());
        assert_eq!(number_in(&helps, 2, copy), None);
        let mut finding = Finding::new(Rule::ImageNotPinned, "m".to_owned());
        finding = finding.help(copy);
        assert_eq!(finding.help_text(), Some(first));
    }

    #[test]
    fn rule_ids_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            assert!(seen.insert(rule.id()), "{} twice", rule.id());
            assert!(
                rule.id()
                    .bytes()
                    .all(|byte| byte.is_ascii_lowercase() || byte == b'-'),
                "{}",
                rule.id()
            );
            assert!(!rule.summary().is_empty());
        }
    }
}
