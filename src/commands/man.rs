//! `fbc man <dir>`: manual pages for `fbc` and every visible subcommand, named as
//! `man` looks them up (`fbc.1`, `fbc-render.1`, `fbc-generate-dockerfile.1`).

use std::path::{Path, PathBuf};

use crate::ExitStatus;
use crate::cli::ManArgs;

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
enum ManError {
    #[error("create directory {}: {error}", path.display())]
    #[diagnostic(code(fbc::man::directory))]
    Directory {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("write {}: {error}", path.display())]
    #[diagnostic(code(fbc::man::write))]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

pub(crate) fn run(args: &ManArgs) -> miette::Result<ExitStatus> {
    write_pages(&args.directory)?;
    Ok(ExitStatus::Success)
}

fn write_pages(directory: &Path) -> Result<(), ManError> {
    std::fs::create_dir_all(directory).map_err(|error| ManError::Directory {
        path: directory.to_path_buf(),
        error,
    })?;
    for (name, page) in pages() {
        let path = directory.join(name);
        crate::atomic::replace(&path, &page).map_err(|error| ManError::Write { path, error })?;
    }
    Ok(())
}

/// Every page as (file name, roff text), the root first.
pub(crate) fn pages() -> Vec<(String, Vec<u8>)> {
    // The committed pages must not change with every commit, so they carry the package
    // version only, not the commit that `--version` adds.
    let mut command = <crate::cli::Cli as clap::CommandFactory>::command()
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    collect(command, &mut pages);
    pages
}

fn collect(command: clap::Command, pages: &mut Vec<(String, Vec<u8>)>) {
    let subcommands: Vec<clap::Command> = command
        .get_subcommands()
        .filter(|subcommand| !subcommand.is_hide_set())
        .cloned()
        .collect();
    // Every page names the package and its version, as the root page does by default.
    let man = clap_mangen::Man::new(command).source(concat!("fbc ", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    man.render(&mut page)
        .expect("rendering into memory cannot fail");
    pages.push((man.get_filename(), page));
    for subcommand in subcommands {
        collect(subcommand, pages);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_page_per_command_named_for_man() {
        let names: Vec<String> = pages().into_iter().map(|(name, _)| name).collect();
        for expected in [
            "fbc.1",
            "fbc-render.1",
            "fbc-generate.1",
            "fbc-generate-dockerfile.1",
        ] {
            assert!(
                names.iter().any(|name| name == expected),
                "{expected} in {names:?}"
            );
        }
        assert!(!names.iter().any(|name| name.contains("help")), "{names:?}");
    }

    #[test]
    fn pages_carry_the_package_version_without_the_commit() {
        let (_, root) = &pages()[0];
        let root = String::from_utf8_lossy(root);
        assert!(
            root.contains(concat!("fbc ", env!("CARGO_PKG_VERSION"), "\"")),
            "{root}"
        );
        assert!(!root.contains(env!("FBC_GIT_COMMIT")));
    }
}
