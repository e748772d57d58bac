//! Arguments of `fbc validate`.

use std::path::PathBuf;

/// Output formats of `fbc validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ValidateFormat {
    /// Findings grouped by package on stderr, with source snippets on a terminal
    Text,
    /// opm's `{"passed", "error": {"message"}}` object plus every finding
    Json,
    /// The same as YAML, in opm's shape (keys sorted)
    Yaml,
    /// SARIF 2.1.0, for GitHub code scanning and other SARIF viewers
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::...`)
    Github,
    /// GitLab Code Quality JSON, one entry per finding
    Gitlab,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Validate a catalog directory, as `opm validate` does, reporting every problem",
    long_about = "Validate a catalog directory, as `opm validate` does, reporting every problem.\n\n\
The verdict is opm's, and each problem opm knows is reported in opm's words, but all \
of them at once, each with a rule id and the file and line of the blobs involved. \
Lints beyond opm (unpinned images, extra heads from a skipRange, ...) are warnings \
unless --strict is given.\n\n\
Several directories are validated in parallel and reported together, each finding with \
its catalog; the exit status is the worst of them. A file that cannot be read or decoded is \
a finding of rule `catalog-file-unreadable` in every machine-readable format."
)]
pub struct ValidateArgs {
    /// Catalog directories to validate (several are validated in parallel)
    #[arg(value_name = "DIR", required = true)]
    pub directories: Vec<PathBuf>,

    /// Output format (text goes to stderr, the others to stdout)
    #[arg(short, long, value_enum, default_value_t = ValidateFormat::Text)]
    pub output: ValidateFormat,

    /// Treat warnings from lints as errors
    #[arg(long)]
    pub strict: bool,

    /// Text output: errors and the verdict only, no warnings
    #[arg(short, long)]
    pub quiet: bool,

    /// Disable a lint by its rule id (repeatable)
    #[arg(long, value_name = "RULE", value_parser = clap::builder::PossibleValuesParser::new(crate::validate::lint_ids()))]
    pub allow: Vec<String>,

    /// Check that OLM classic can install every channel head with its dependencies from
    /// the catalog alone (lint dependency-unsatisfiable)
    #[arg(long)]
    pub check_dependencies: bool,

    /// As --check-dependencies, with this catalog beside it (NAME=DIR|IMAGE, repeatable)
    #[arg(long = "with-catalog", value_name = "NAME=REF")]
    pub with_catalogs: Vec<String>,

    #[command(flatten)]
    pub registry: super::render::RegistryArgs,
}
