//! `fbc alpha render-template`: read a template, render its bundle images in
//! parallel, put the catalog together in opm's order and write it (or, with
//! `--check`, compare it with a committed rendering).

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::ExitStatus;
use crate::bundle::migrate::Migrations;
use crate::catalog::Catalog;
use crate::cli::{RenderTemplateArgs, TemplateFormat};
use crate::go::fmt::{os_error, quote};
use crate::graph::deprecations::Deprecations;
use crate::graph::selection::{Filters, select};
use crate::image::PullOptions;
use crate::output::catalog::Format;
use crate::template::images::ImageRenderer;
use crate::template::{self, TemplateError, TemplateType};

/// A template that could not be rendered: opm's message, located in the template
/// when fbc knows where.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
#[error("{message}")]
#[diagnostic(code(fbc::template::render))]
pub(crate) struct RenderTemplateError {
    message: String,
    #[source_code]
    source_code: Option<miette::NamedSource<Arc<str>>>,
    #[label("here")]
    at: Option<miette::SourceSpan>,
    #[help]
    help: Option<String>,
}

impl RenderTemplateError {
    fn new(message: impl Into<String>) -> RenderTemplateError {
        RenderTemplateError {
            message: message.into(),
            source_code: None,
            at: None,
            help: None,
        }
    }

    fn help(mut self, help: impl Into<String>) -> RenderTemplateError {
        self.help = Some(help.into());
        self
    }
}

/// Where the template is read from.
enum Input {
    Stdin,
    File(PathBuf),
}

impl Input {
    fn shown(&self) -> &Path {
        match self {
            Input::Stdin => Path::new("<stdin>"),
            Input::File(path) => path,
        }
    }
}

/// opm's argument rules: a lone TYPE name reads stdin, anything else is a file.
fn arguments(arguments: &[String]) -> Result<(Option<TemplateType>, Input), RenderTemplateError> {
    let input = |name: &str| {
        if name == "-" {
            Input::Stdin
        } else {
            Input::File(PathBuf::from(name))
        }
    };
    match arguments {
        [] => Ok((None, Input::Stdin)),
        [one] => match TemplateType::from_name(one) {
            Some(kind) => Ok((Some(kind), Input::Stdin)),
            None => Ok((None, input(one))),
        },
        [kind, file, ..] => match TemplateType::from_name(kind) {
            Some(kind) => Ok((Some(kind), input(file))),
            None => Err(RenderTemplateError::new(format!(
                "invalid template type {}, must be one of: {}",
                quote(kind),
                TemplateType::NAMES
            ))),
        },
    }
}

/// Reads the whole template; a directory fails at its first read, as in opm.
fn read(input: &Input) -> Result<Result<String, String>, RenderTemplateError> {
    use crate::files::limits::ReadError;
    let shown = input.shown().display();
    let refused = |error: ReadError| RenderTemplateError::new(format!("{shown}: {error}"));
    let bytes = match input {
        Input::Stdin => crate::files::limits::read_stdin().map_err(|error| match error {
            ReadError::Io(error) => {
                RenderTemplateError::new(format!("read <stdin>: {}", os_error(&error)))
            }
            error => refused(error),
        })?,
        Input::File(path) => {
            if std::fs::metadata(path).is_ok_and(|metadata| metadata.is_dir()) {
                return Ok(Err(format!("read {shown}: is a directory")));
            }
            crate::files::limits::read_file(path).map_err(|error| match error {
                ReadError::Io(error) => RenderTemplateError::new(format!(
                    "unable to open {}: open {shown}: {}",
                    quote(&shown.to_string()),
                    os_error(&error)
                )),
                error => refused(error),
            })?
        }
    };
    String::from_utf8(bytes).map(Ok).map_err(|error| {
        RenderTemplateError::new(format!(
            "{}: the template is not valid UTF-8 (at byte {})",
            input.shown().display(),
            error.utf8_error().valid_up_to()
        ))
    })
}

/// Where opm's read of a directory fails, by template type: the message that
/// failing read produces.
fn directory_error(kind: Option<TemplateType>, read_error: &str) -> String {
    match kind {
        None => format!("auto-detecting template type: decoding template input: {read_error}"),
        Some(TemplateType::Basic) => {
            format!("rendering template: decoding template schema: {read_error}")
        }
        Some(TemplateType::Semver) => {
            format!("rendering template: render: unable to read file: {read_error}")
        }
        Some(TemplateType::Substitutes) => format!(
            "rendering template: render: unable to parse template: decoding template schema: {read_error}"
        ),
    }
}

pub(crate) fn run(args: &RenderTemplateArgs) -> miette::Result<ExitStatus> {
    let (given, input) = arguments(&args.arguments)?;
    let text = match read(&input)? {
        Ok(text) => text,
        Err(read_error) => {
            return Err(RenderTemplateError::new(directory_error(given, &read_error)).into());
        }
    };
    let pull = super::pull_options(&args.registry).map_err(|error| {
        RenderTemplateError::new(format!(
            "creating containerd registry: invalid flag combination: {}",
            error.0
        ))
    })?;
    let migrations = match args.migrate_level.as_deref() {
        None | Some("") => None,
        Some(level) => Some(Migrations::up_to(level).map_err(RenderTemplateError::new)?),
    };
    let located = |error: TemplateError| locate(error, &text, input.shown());
    let kind = template::template_type(given, &text).map_err(located)?;
    let progress = Progress::new();
    let on_progress = |done: usize, total: usize, bytes: u64| progress.show(done, total, bytes);
    let renderer = ImageRenderer {
        pull: PullOptions {
            offline: args.offline,
            quiet: true,
            ..pull
        },
        migrations,
        jobs: usize::from(args.jobs),
        on_progress: &on_progress,
        not_cached: Mutex::new(Vec::new()),
    };
    let catalog = template::render(kind, &text, input.shown(), &renderer);
    progress.finish();
    let mut missing = renderer.not_cached.into_inner().unwrap_or_default();
    if !missing.is_empty() {
        // Pulls finish in any order: the list is sorted, so that it reads the same
        // on every run.
        missing.sort_unstable();
        missing.dedup();
        return Err(not_cached(&missing).into());
    }
    let catalog = catalog.map_err(|error| {
        let pull_failed = error.message.contains("failed to pull image");
        let located = located(error);
        if pull_failed && !args.offline {
            located.help(
                "check the image reference and the network; --offline renders from the images \
                 pulled before ($XDG_CACHE_HOME/fbc)",
            )
        } else {
            located
        }
    })?;
    if let Some(committed) = &args.check {
        return check(&catalog, committed);
    }
    write(&catalog, args.output)?;
    Ok(ExitStatus::Success)
}

/// The output, streamed as `render` streams it (a refused YAML output writes
/// nothing); a mermaid graph is drawn whole first.
fn write(catalog: &Catalog, format: TemplateFormat) -> Result<(), RenderTemplateError> {
    let writing = |error: String| RenderTemplateError::new(format!("writing output: {error}"));
    match format {
        TemplateFormat::Json | TemplateFormat::Yaml => {
            let format = if format == TemplateFormat::Json {
                Format::Json
            } else {
                Format::Yaml
            };
            super::stream_catalog(catalog, format).map_err(|error| writing(error.to_string()))
        }
        TemplateFormat::Mermaid => {
            // opm's library default: no filters, OLM classic's semantics drawn.
            let selection =
                select(catalog, &Filters::default()).map_err(|error| writing(error.to_string()))?;
            let names = Deprecations::new(&catalog.deprecations).name_sets();
            let drawn = crate::graph::mermaid::write_mermaid(&selection, &names, true);
            for warning in drawn.warnings {
                eprintln!("{warning}");
            }
            super::write_stdout(drawn.text.as_bytes()).map_err(|error| writing(error.to_string()))
        }
    }
}

/// `--check`: exit 0 when the committed file is what the template renders to,
/// 1 with a summary and a unified diff (on stdout) when not.
fn check(catalog: &Catalog, committed: &Path) -> miette::Result<ExitStatus> {
    // The file's text is printed in the diff: a link could print any file the
    // user can read (`/proc/self/environ`, a credentials file) into a CI log.
    if std::fs::symlink_metadata(committed).is_ok_and(|metadata| metadata.is_symlink()) {
        return Err(RenderTemplateError::new(format!(
            "{}: a symbolic link, which --check does not follow",
            committed.display()
        ))
        .help(
            "--check compares the rendering with a regular file, whose text it may print in a diff",
        )
        .into());
    }
    let bytes = crate::files::limits::read_file(committed).map_err(|error| {
        RenderTemplateError::new(format!("read {}: {error}", committed.display()))
    })?;
    let text = String::from_utf8(bytes).map_err(|error| {
        RenderTemplateError::new(format!(
            "{}: not valid UTF-8 (at byte {})",
            committed.display(),
            error.utf8_error().valid_up_to()
        ))
    })?;
    let drift = template::drift::compare(catalog, &text, committed)
        .map_err(|error| RenderTemplateError::new(format!("writing output: {error}")))?;
    match drift {
        template::drift::Drift::Identical => Ok(ExitStatus::Success),
        template::drift::Drift::Differs { summary, diff } => {
            eprintln!(
                "error: {} is not what the template renders to:\n{summary}",
                committed.display()
            );
            super::write_stdout(diff.as_bytes())
                .map_err(|error| RenderTemplateError::new(format!("writing output: {error}")))?;
            Ok(ExitStatus::Failure)
        }
    }
}

fn locate(error: TemplateError, text: &str, file: &Path) -> RenderTemplateError {
    let mut located = RenderTemplateError::new(error.message);
    if let Some(at) = error.at {
        located.source_code = Some(miette::NamedSource::new(
            file.display().to_string(),
            Arc::from(text),
        ));
        located.at = Some((at.min(text.len()), 0).into());
    }
    located
}

fn not_cached(missing: &[String]) -> RenderTemplateError {
    let list: Vec<String> = missing
        .iter()
        .map(|reference| format!("\n  {reference}"))
        .collect();
    let what = if missing.len() == 1 {
        "1 bundle image is".to_owned()
    } else {
        format!("{} bundle images are", missing.len())
    };
    RenderTemplateError::new(format!("{what} not in the cache:{}", list.concat()))
        .help("run once without --offline to fill the cache ($XDG_CACHE_HOME/fbc)")
}

/// One progress line on stderr while bundles are fetched, on a terminal only.
struct Progress {
    enabled: bool,
    started: std::time::Instant,
    shown: Mutex<bool>,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            enabled: std::io::stderr().is_terminal(),
            started: std::time::Instant::now(),
            shown: Mutex::new(false),
        }
    }

    fn show(&self, done: usize, total: usize, bytes: u64) {
        if !self.enabled || self.started.elapsed() < std::time::Duration::from_millis(300) {
            return;
        }
        #[allow(clippy::cast_precision_loss)] // a display figure
        let megabytes = bytes as f64 / 1_000_000.0;
        eprint!("\r\x1b[Kbundles: {done}/{total} rendered, {megabytes:.1} MB downloaded");
        *self.shown.lock().expect("no thread panics holding it") = true;
    }

    fn finish(&self) {
        if *self.shown.lock().expect("no thread panics holding it") {
            eprint!("\r\x1b[K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_follow_opms_rules() {
        let parse = |args: &[&str]| {
            let owned: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
            arguments(&owned).map(|(kind, input)| {
                (
                    kind,
                    matches!(input, Input::Stdin),
                    input.shown().display().to_string(),
                )
            })
        };
        assert_eq!(parse(&[]).ok(), Some((None, true, "<stdin>".to_owned())));
        assert_eq!(
            parse(&["basic"]).ok(),
            Some((Some(TemplateType::Basic), true, "<stdin>".to_owned()))
        );
        assert_eq!(
            parse(&["./basic"]).ok(),
            Some((None, false, "./basic".to_owned()))
        );
        assert_eq!(
            parse(&["Basic"]).ok(),
            Some((None, false, "Basic".to_owned()))
        );
        assert_eq!(
            parse(&["semver", "-"]).ok(),
            Some((Some(TemplateType::Semver), true, "<stdin>".to_owned()))
        );
        assert_eq!(
            parse(&["x", "t.yaml"])
                .map(|_| ())
                .expect_err("unknown type")
                .message,
            "invalid template type \"x\", must be one of: [basic semver substitutes]"
        );
    }
}
