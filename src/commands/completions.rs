//! `fbc completions <shell>`: a completion script for the CLI as this binary defines it.

use crate::ExitStatus;
use crate::cli::CompletionsArgs;

#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("write <stdout>: {0}")]
#[diagnostic(code(fbc::write))]
pub(crate) struct WriteError(pub(crate) std::io::Error);

pub(crate) fn run(args: &CompletionsArgs) -> miette::Result<ExitStatus> {
    super::write_stdout(&script(args.shell)).map_err(WriteError)?;
    Ok(ExitStatus::Success)
}

/// The script for one shell, generated from the clap definition of `fbc`.
pub(crate) fn script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut command = crate::cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "fbc", &mut script);
    script
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shell_completes_the_subcommands() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
            clap_complete::Shell::PowerShell,
            clap_complete::Shell::Elvish,
        ] {
            let script = String::from_utf8(script(shell)).expect("scripts are text");
            for word in ["render", "dockerfile", "extra-labels", "completions"] {
                assert!(script.contains(word), "{shell}: no {word}");
            }
        }
    }
}
