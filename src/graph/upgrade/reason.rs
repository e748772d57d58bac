//! Why an upgrade path stops where it does, in words and as a stable code for JSON.

use std::fmt;

use crate::go::fmt::quote;
use crate::go::semver::Version;

use super::super::edges::EdgeKind;

/// Why OLM classic cannot order a channel; the texts are OLM's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum OrderError {
    #[error("no channel heads (entries not replaced by another entry) found in channel {} of package {}", quote(.channel), quote(.package))]
    NoHeads { channel: String, package: String },
    #[error("a cycle exists in the chain of replacement beginning with {} in channel {} of package {}", quote(.head), quote(.channel), quote(.package))]
    Cycle {
        head: String,
        channel: String,
        package: String,
    },
    #[error("a unique replacement chain within a channel is required to determine the relative order between channel entries, but {count} replacement chains were found in channel {} of package {}: {chains}", quote(.channel), quote(.package))]
    Chains {
        count: usize,
        channel: String,
        package: String,
        chains: String,
    },
}

/// How an entry covers a bundle, for messages: `Y replaces X`, `Y skips X`,
/// `Y has skipRange "<r>", which covers <v>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cover {
    pub(crate) entry: String,
    pub(crate) kind: EdgeKind,
    pub(crate) bundle: String,
    pub(crate) skip_range: String,
    pub(crate) version: Option<Version>,
}

impl fmt::Display for Cover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (entry, bundle) = (&self.entry, &self.bundle);
        match self.kind {
            EdgeKind::Replaces => write!(f, "{entry} replaces {bundle}"),
            EdgeKind::Skips => write!(f, "{entry} skips {bundle}"),
            EdgeKind::SkipRange => {
                write!(f, "{entry} has skipRange {}", quote(&self.skip_range))?;
                match &self.version {
                    Some(version) => write!(f, ", which covers {version}"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// One reason; several can explain the same stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reason {
    /// OLM classic cannot order a channel it needs, so it resolves nothing.
    ChannelOrder(OrderError),
    /// Nothing in the channels looked at upgrades the bundle.
    NoEdge {
        bundle: String,
        version: Option<Version>,
        channels: Channels,
    },
    /// An entry would upgrade the bundle, but classic leaves it out: it is skipped.
    CandidateSkipped {
        cover: Cover,
        skipped_by: String,
        channel: String,
    },
    /// An entry would upgrade the bundle, but it is not on the replaces chain.
    CandidateOffChain {
        cover: Cover,
        head: String,
        channel: String,
    },
    /// The bundle itself is skipped in a channel (context for the above).
    BundleSkipped {
        bundle: String,
        skipped_by: String,
        channel: String,
    },
    /// The bundle is an entry of the channel but not on its replaces chain.
    BundleOffChain {
        bundle: String,
        head: String,
        channel: String,
    },
    /// The bundle is no entry of the channels looked at.
    NotInChannels { bundle: String, channels: Channels },
    /// OLM v1 ranks the bundle itself above every successor.
    Stays {
        bundle: String,
        successors: Vec<String>,
    },
    /// A step jumps over the target.
    PassedOver {
        target: String,
        from: String,
        to: String,
    },
    /// The path ends before it reaches the target.
    EndsBefore { target: String, end: String },
    /// The next pick is a bundle the path already went through.
    Cycle { bundle: String },
    /// The target is older than the installed bundle.
    Downgrade { target: String, installed: String },
}

/// The channels a rule looked at, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Channels {
    All,
    Named(Vec<String>),
}

impl fmt::Display for Channels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::All => f.write_str("any channel"),
            Self::Named(names) if names.len() == 1 => write!(f, "channel {}", quote(&names[0])),
            Self::Named(names) => {
                let quoted: Vec<String> = names.iter().map(|name| quote(name)).collect();
                write!(f, "channels {}", quoted.join(", "))
            }
        }
    }
}

impl Reason {
    /// A stable identifier for JSON consumers.
    pub(crate) fn code(&self) -> &'static str {
        match self {
            Self::ChannelOrder(_) => "channel-order",
            Self::NoEdge { .. } => "no-edge",
            Self::CandidateSkipped { .. } => "candidate-skipped",
            Self::CandidateOffChain { .. } => "candidate-not-on-chain",
            Self::BundleSkipped { .. } => "bundle-skipped",
            Self::BundleOffChain { .. } => "bundle-not-on-chain",
            Self::NotInChannels { .. } => "not-in-channel",
            Self::Stays { .. } => "stays",
            Self::PassedOver { .. } => "passed-over",
            Self::EndsBefore { .. } => "ends-before-target",
            Self::Cycle { .. } => "cycle",
            Self::Downgrade { .. } => "downgrade",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ChannelOrder(error) => write!(f, "OLM classic cannot order the channel: {error}"),
            Self::NoEdge {
                bundle,
                version,
                channels,
            } => {
                write!(f, "no entry of {channels} replaces or skips {bundle}, ")?;
                match version {
                    Some(version) => write!(f, "and no skipRange covers its version {version}"),
                    None => write!(f, "and its version is unknown, so no skipRange covers it"),
                }
            }
            Self::CandidateSkipped {
                cover,
                skipped_by,
                channel,
            } => write!(
                f,
                "{cover}, but {} is skipped by {skipped_by} in channel {}, so OLM classic leaves it out of the channel order",
                cover.entry,
                quote(channel)
            ),
            Self::CandidateOffChain {
                cover,
                head,
                channel,
            } => write!(
                f,
                "{cover}, but {} is not on the replaces chain from the head {head} of channel {}, so OLM classic leaves it out",
                cover.entry,
                quote(channel)
            ),
            Self::BundleSkipped {
                bundle,
                skipped_by,
                channel,
            } => write!(
                f,
                "{bundle} is skipped by {skipped_by} in channel {}",
                quote(channel)
            ),
            Self::BundleOffChain {
                bundle,
                head,
                channel,
            } => write!(
                f,
                "{bundle} is not on the replaces chain from the head {head} of channel {}",
                quote(channel)
            ),
            Self::NotInChannels { bundle, channels } => {
                write!(f, "{bundle} is not an entry of {channels}")
            }
            Self::Stays { bundle, successors } => write!(
                f,
                "OLM v1 stays on {bundle}, which ranks above its successors (deprecated bundles rank last, then lower versions): {}",
                successors.join(", ")
            ),
            Self::PassedOver { target, from, to } => {
                write!(f, "the step {from} -> {to} passes over the target {target}")
            }
            Self::EndsBefore { target, end } => {
                write!(f, "the path ends at {end}, before the target {target}")
            }
            Self::Cycle { bundle } => write!(f, "the next step would return to {bundle}"),
            Self::Downgrade { target, installed } => write!(
                f,
                "the target {target} is older than the installed bundle {installed}, and OLM does not downgrade"
            ),
        }
    }
}
