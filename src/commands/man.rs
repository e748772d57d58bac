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
        crate::files::atomic::replace(&path, &page)
            .map_err(|error| ManError::Write { path, error })?;
    }
    Ok(())
}

/// Every page as (file name, roff text), the root first.
pub(crate) fn pages() -> Vec<(String, Vec<u8>)> {
    // The committed pages must not change with every commit, so they carry the package
    // version only, not the commit that `--version` adds.
    let mut command = crate::cli::command()
        .version(env!("CARGO_PKG_VERSION"))
        .disable_help_subcommand(true);
    command.build();
    let mut pages = Vec::new();
    collect(command, "", &mut pages);
    pages
}

/// The page of `command` (at `path` below `fbc`), then those of its subcommands.
fn collect(mut command: clap::Command, path: &str, pages: &mut Vec<(String, Vec<u8>)>) {
    let subcommands: Vec<clap::Command> = command
        .get_subcommands()
        .filter(|subcommand| !subcommand.is_hide_set())
        .cloned()
        .collect();
    let usage = command.render_usage().to_string();
    let sections = Sections {
        arguments: command.get_arguments().any(|arg| !arg.is_hide_set()),
        subcommands: !subcommands.is_empty(),
        version: command.get_version().is_some(),
    };
    // Every page names the package and its version, as the root page does by default.
    let man = clap_mangen::Man::new(command).source(concat!("fbc ", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    render(&man, &usage, &sections, path, &mut page).expect("rendering into memory cannot fail");
    pages.push((man.get_filename(), page));
    for subcommand in subcommands {
        let sub_path = format!("{path} {}", subcommand.get_name())
            .trim()
            .to_owned();
        collect(subcommand, &sub_path, pages);
    }
}

/// `clap_mangen`'s sections, with clap's usage as the synopsis (it shows `...` after
/// repeatable arguments), then EXIT STATUS, ENVIRONMENT and EXAMPLES from the
/// command's footer.
/// Which of `clap_mangen`'s optional sections a page has.
struct Sections {
    arguments: bool,
    subcommands: bool,
    version: bool,
}

fn render(
    man: &clap_mangen::Man,
    usage: &str,
    sections: &Sections,
    path: &str,
    page: &mut Vec<u8>,
) -> std::io::Result<()> {
    use clap_mangen::roff::{Roff, bold, roman};
    man.render_title(page)?;
    man.render_name_section(page)?;
    let mut synopsis = Roff::new();
    synopsis.control("SH", ["SYNOPSIS"]);
    for line in usage.trim_start_matches("Usage:").lines() {
        synopsis.text([roman(line.trim())]).control("br", []);
    }
    synopsis.to_writer(page)?;
    man.render_description_section(page)?;
    if sections.arguments {
        man.render_options_section(page)?;
    }
    if sections.subcommands {
        man.render_subcommands_section(page)?;
    }
    if let Some(footer) = crate::cli::footer(path) {
        let mut roff = Roff::new();
        roff.control("SH", ["EXIT STATUS"]);
        for (status, meaning) in footer.exit {
            roff.control("TP", [])
                .text([bold(status.to_string())])
                .text([roman(*meaning)]);
        }
        let variables = footer.variables();
        if !variables.is_empty() {
            roff.control("SH", ["ENVIRONMENT"]);
            for (name, meaning) in variables {
                roff.control("TP", [])
                    .text([bold(name)])
                    .text([roman(meaning)]);
            }
        }
        roff.control("SH", ["EXAMPLES"]);
        for (command, what) in footer.examples {
            roff.text([roman(format!("{what}:"))]);
            roff.control("RS", []).control("nf", []);
            roff.text([roman(*command)]);
            roff.control("fi", []).control("RE", []);
        }
        roff.to_writer(page)?;
    }
    if sections.version {
        man.render_version_section(page)?;
    }
    Ok(())
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
