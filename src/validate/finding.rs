//! A validation problem as data: which rule, how severe, opm's message, what it
//! concerns and where the blobs involved start. Every output format reads these.

use crate::catalog::Location;

/// How bad a finding is. Every rule opm enforces makes a catalog invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
}

impl Severity {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
        }
    }
}

/// One problem in a catalog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub(crate) rule: Rule,
    pub(crate) severity: Severity,
    /// opm's text for the problem, word for word.
    pub(crate) message: String,
    pub(crate) package: Option<String>,
    pub(crate) channel: Option<String>,
    pub(crate) bundle: Option<String>,
    /// Where each blob involved starts, the most relevant first.
    pub(crate) locations: Vec<Location>,
    /// What opm's message leaves unsaid, where its words could mislead.
    pub(crate) help: Option<&'static str>,
}

impl Finding {
    pub(crate) fn new(rule: Rule, message: String) -> Finding {
        Finding {
            rule,
            severity: Severity::Error,
            message,
            package: None,
            channel: None,
            bundle: None,
            locations: Vec::new(),
            help: None,
        }
    }

    pub(crate) fn package(mut self, name: &str) -> Finding {
        self.package = Some(name.to_owned());
        self
    }

    pub(crate) fn channel(mut self, name: &str) -> Finding {
        self.channel = Some(name.to_owned());
        self
    }

    pub(crate) fn bundle(mut self, name: &str) -> Finding {
        self.bundle = Some(name.to_owned());
        self
    }

    pub(crate) fn at(mut self, location: &Location) -> Finding {
        if !self.locations.contains(location) {
            self.locations.push(location.clone());
        }
        self
    }

    pub(crate) fn at_all<'a>(self, locations: impl IntoIterator<Item = &'a Location>) -> Finding {
        locations.into_iter().fold(self, Finding::at)
    }

    pub(crate) fn help(mut self, help: &'static str) -> Finding {
        self.help = Some(help);
        self
    }
}

macro_rules! rules {
    ($($variant:ident => $id:literal, $summary:literal;)*) => {
        /// The rules fbc checks, each with a stable id.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    PackageNameMissing => "package-name-missing", "every olm.package has a name";
    PackageDuplicate => "package-duplicate", "a package is declared once";
    PackageNameInvalid => "package-name-invalid", "package names are RFC 1123 labels";
    PackageDefaultChannelMissing => "package-default-channel-missing", "a package names its default channel";
    PackageDefaultChannelUndefined => "package-default-channel-undefined", "the default channel is a channel of the package";
    PackageWithoutChannels => "package-without-channels", "a package has at least one channel";
    PackageDuplicateVersions => "package-duplicate-versions", "bundles of a package have distinct versions";
    ChannelUnknownPackage => "channel-unknown-package", "a channel belongs to a declared package";
    ChannelNameMissing => "channel-name-missing", "every olm.channel has a name";
    ChannelDuplicate => "channel-duplicate", "a channel is declared once per package";
    ChannelEntryDuplicate => "channel-entry-duplicate", "a channel lists a bundle once";
    ChannelEntryWithoutBundle => "channel-entry-without-bundle", "every channel entry has an olm.bundle blob";
    ChannelEmpty => "channel-empty", "a channel has at least one entry";
    ChannelNoHead => "channel-no-head", "a channel has a head: an entry nothing replaces or skips";
    ChannelMultipleHeads => "channel-multiple-heads", "a channel has exactly one head";
    ChannelReplacesCycle => "channel-replaces-cycle", "the replaces chain from the head has no cycle";
    ChannelStrandedBundles => "channel-stranded-bundles", "every entry is on the replaces chain from the head or skipped";
    BundlePackageMissing => "bundle-package-missing", "every olm.bundle names its package";
    BundleUnknownPackage => "bundle-unknown-package", "a bundle belongs to a declared package";
    BundleDuplicate => "bundle-duplicate", "a bundle is declared once per package";
    BundlePropertyInvalid => "bundle-property-invalid", "bundle properties decode as their type requires";
    BundlePackagePropertyCount => "bundle-package-property-count", "a bundle has exactly one olm.package property";
    BundlePackagePropertyMismatch => "bundle-package-property-mismatch", "the olm.package property names the bundle's package";
    BundleImageInvalid => "bundle-image-invalid", "bundle images are valid image pull specs";
    BundleRelatedImageInvalid => "bundle-related-image-invalid", "related images are valid image pull specs";
    BundleVersionInvalid => "bundle-version-invalid", "bundle versions are semantic versions";
    BundleReleaseInvalid => "bundle-release-invalid", "bundle releases are dot-separated pre-release identifiers of at most 20 characters";
    BundleNotInChannel => "bundle-not-in-channel", "every bundle is an entry of a channel of its package";
    BundleNameMissing => "bundle-name-missing", "every channel entry has a name";
    BundleNameNotNormalized => "bundle-name-not-normalized", "a bundle with a release is named <package>-v<version>-<release>";
    BundleSkipEmpty => "bundle-skip-empty", "skips lists no empty names";
    BundleSkipRangeInvalid => "bundle-skip-range-invalid", "skipRange is a valid semver range";
    BundleImageMissing => "bundle-image-missing", "a bundle has an image or embedded objects";
    BundleBuildMetadataWithRelease => "bundle-build-metadata-with-release", "a version with build metadata has no release";
    DeprecationPackageMissing => "deprecation-package-missing", "every olm.deprecations blob names its package";
    DeprecationUnknownPackage => "deprecation-unknown-package", "deprecations apply to a declared package";
    DeprecationDuplicate => "deprecation-duplicate", "a package has at most one olm.deprecations blob";
    DeprecationSchemaMissing => "deprecation-schema-missing", "every deprecation entry names a schema";
    DeprecationEntryDuplicate => "deprecation-entry-duplicate", "an object is deprecated once";
    DeprecationUnknownBundle => "deprecation-unknown-bundle", "deprecated bundles exist";
    DeprecationUnknownChannel => "deprecation-unknown-channel", "deprecated channels exist";
    DeprecationPackageNameSet => "deprecation-package-name-set", "a package deprecation names no package";
    DeprecationUnknownSchema => "deprecation-unknown-schema", "deprecation entries reference olm.package, olm.channel or olm.bundle";
    DeprecationMessageMissing => "deprecation-message-missing", "every deprecation has a message";
}

#[cfg(test)]
mod tests {
    use super::*;

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
