//! Why a catalog cannot be drawn or walked: opm's `render-graph` messages word for
//! word, and the upgrade-path input errors.

use crate::go::fmt::quote;
use crate::go::semver::SemverError;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub(crate) enum GraphError {
    #[error("parse properties for bundle {}: {error}", quote(.bundle))]
    #[diagnostic(
        code(fbc::graph::bundle_properties),
        help("every property needs a `type` and a `value` of the shape its type defines")
    )]
    Properties { bundle: String, error: String },

    #[error("bundle {} has multiple \"olm.package\" properties, expected exactly 1", quote(.bundle))]
    #[diagnostic(
        code(fbc::graph::package_property_count),
        help(
            "opm reads a bundle's version from its only `olm.package` property (this message is opm's, also when there is none)"
        )
    )]
    PackageCount { bundle: String },

    #[error("bundle {} has invalid version {}: {error}", quote(.bundle), quote(.version))]
    #[diagnostic(
        code(fbc::graph::bundle_version),
        help("versions are semver 2.0.0: MAJOR.MINOR.PATCH[-PRERELEASE][+BUILD]")
    )]
    Version {
        bundle: String,
        version: String,
        error: SemverError,
    },

    #[error("unknown minimum edge name: {}", quote(.name))]
    #[diagnostic(
        code(fbc::graph::unknown_minimum_edge),
        help("--minimum-edge takes the name of a bundle of the catalog")
    )]
    UnknownMinimumEdge { name: String },
}
