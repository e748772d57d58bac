//! The end of every command's `--help` and man page: its exit statuses, the
//! environment variables it reads and a few examples. One table, so that help and
//! man pages say the same.

/// What ends one command's help.
pub(crate) struct Footer {
    /// Exit statuses and what they mean (usage errors are 2 everywhere, as clap's).
    pub(crate) exit: &'static [(u8, &'static str)],
    /// Groups of environment variables (see [`ENVIRONMENT`]).
    pub(crate) environment: &'static [&'static [&'static str]],
    /// Command lines, runnable from a checkout, and what each does.
    pub(crate) examples: &'static [(&'static str, &'static str)],
}

/// Every variable fbc reads, with what it changes.
pub(crate) const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "FBC_MAX_FILE_SIZE",
        "largest catalog or bundle file read (default 512MiB)",
    ),
    (
        "FBC_MAX_ALIAS_EXPANSION",
        "most bytes the YAML aliases of one document may copy (default 64MiB)",
    ),
    (
        "FBC_FINDINGS_IN_MEMORY",
        "bytes of findings validate holds before the rest wait in a temporary file (default 4MiB)",
    ),
    (
        "FBC_MAX_IMAGE_SIZE",
        "most bytes an image may download and unpack (default 8GiB)",
    ),
    (
        "FBC_PULL_TIMEOUT",
        "seconds a registry request may take (default 60)",
    ),
    (
        "FBC_RESOLVE_STEPS",
        "most steps one dependency resolution may take before it gives up (default 20000000)",
    ),
    (
        "REGISTRY_AUTH_FILE",
        "registry credentials, read before the files below",
    ),
    (
        "XDG_RUNTIME_DIR",
        "credentials in $XDG_RUNTIME_DIR/containers/auth.json",
    ),
    (
        "DOCKER_CONFIG",
        "directory of config.json with credentials (default ~/.docker)",
    ),
    (
        "CONTAINERS_REGISTRIES_CONF",
        "registries.conf with mirrors and blocked registries",
    ),
    (
        "XDG_CONFIG_HOME",
        "where containers/registries.conf is looked for (default ~/.config)",
    ),
    (
        "XDG_CACHE_HOME",
        "the image cache, $XDG_CACHE_HOME/fbc (default ~/.cache/fbc)",
    ),
    (
        "SOURCE_DATE_EPOCH",
        "build: the time stamped on the image's files and config (default: the newest commit's)",
    ),
    (
        "TMPDIR",
        "where images are unpacked and validate's findings wait",
    ),
    (
        "NO_COLOR",
        "not empty: no colours or snippets (see --color)",
    ),
    ("CLICOLOR", "0: no colours or snippets"),
    (
        "CLICOLOR_FORCE",
        "set and not 0: colours and snippets even when stderr is not a terminal",
    ),
    ("TERM", "dumb: no colours or snippets"),
];

const FILES: &[&str] = &["FBC_MAX_FILE_SIZE", "FBC_MAX_ALIAS_EXPANSION"];
const FINDINGS: &[&str] = &["FBC_FINDINGS_IN_MEMORY", "TMPDIR"];
const RESOLVE: &[&str] = &["FBC_RESOLVE_STEPS"];
const PULLS: &[&str] = &[
    "FBC_MAX_IMAGE_SIZE",
    "FBC_PULL_TIMEOUT",
    "REGISTRY_AUTH_FILE",
    "XDG_RUNTIME_DIR",
    "DOCKER_CONFIG",
    "CONTAINERS_REGISTRIES_CONF",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "TMPDIR",
];
const COLOUR: &[&str] = &["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"];

const INTERRUPTED: (u8, &str) = (
    130,
    "interrupted (SIGINT or SIGTERM); nothing is left behind",
);
const FAILED: (u8, &str) = (2, "it could not run: bad arguments or unreadable input");

/// Each command's footer, by its path below `fbc` (`"alpha upgrade-path"`; `""` is
/// `fbc` itself).
const FOOTERS: &[(&[&str], Footer)] = &[
    (
        &["", "alpha"],
        Footer {
            exit: &[
                (0, "success"),
                (
                    1,
                    "the command ran and found problems (validate, diff, upgrade-path, resolve, --check)",
                ),
                FAILED,
                INTERRUPTED,
            ],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc render testdata/examples/hello-catalog",
                    "print a catalog as opm does",
                ),
                (
                    "fbc validate testdata/examples/hello-catalog",
                    "check it as opm does",
                ),
            ],
        },
    ),
    (
        &["render"],
        Footer {
            exit: &[(0, "rendered"), FAILED, INTERRUPTED],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc render testdata/examples/hello-catalog -o yaml",
                    "a catalog directory as YAML",
                ),
                (
                    "fbc render testdata/examples/hello-bundle --migrate",
                    "a bundle directory as an olm.bundle with olm.csv.metadata",
                ),
                (
                    "fbc render quay.io/operatorhubio/catalog:latest > catalog.json",
                    "a catalog image",
                ),
            ],
        },
    ),
    (
        &["validate"],
        Footer {
            exit: &[
                (0, "every catalog is valid"),
                (
                    1,
                    "some catalog is invalid (or has a warning, with --strict)",
                ),
                (2, "some catalog could not be loaded, or bad arguments"),
            ],
            environment: &[FILES, FINDINGS, RESOLVE, COLOUR],
            examples: &[
                (
                    "fbc validate testdata/examples/hello-catalog --allow image-not-pinned",
                    "opm's verdict, every problem with its file and line",
                ),
                (
                    "fbc validate -o sarif catalogs/v4.17 catalogs/v4.18 > fbc.sarif",
                    "several catalogs, for code scanning",
                ),
            ],
        },
    ),
    (
        &["graph", "alpha render-graph"],
        Footer {
            exit: &[(0, "drawn"), FAILED, INTERRUPTED],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[(
                "fbc graph testdata/examples/hello-catalog -o dot | dot -Tsvg > graph.svg",
                "draw the upgrade graph with Graphviz",
            )],
        },
    ),
    (
        &["diff"],
        Footer {
            exit: &[
                (
                    0,
                    "nothing breaks (allowed problems and warnings do not count)",
                ),
                (1, "the change breaks an installation"),
                (2, "a catalog cannot be read, or bad arguments"),
                INTERRUPTED,
            ],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc diff testdata/diff/kinds/old testdata/diff/kinds/new",
                    "what the change does to every installation",
                ),
                (
                    "fbc diff -o markdown origin/main:catalogs/v4.18 catalogs/v4.18",
                    "a pull-request comment, the base read from git",
                ),
            ],
        },
    ),
    (
        &["generate", "generate dockerfile"],
        Footer {
            exit: &[
                (0, "written"),
                (2, "not written: the file exists, or bad input"),
            ],
            environment: &[COLOUR],
            examples: &[(
                "fbc generate dockerfile catalog",
                "write catalog.Dockerfile beside the catalog",
            )],
        },
    ),
    (
        &["serve"],
        Footer {
            exit: &[
                (
                    0,
                    "stopped by SIGTERM or SIGINT, or the cache written (--cache-only)",
                ),
                (
                    1,
                    "the catalog is invalid or unreadable, or the cache changed",
                ),
                (2, "the port could not be opened, or bad arguments"),
            ],
            environment: &[&["FBC_MAX_FILE_SIZE", "FBC_MAX_ALIAS_EXPANSION"]],
            examples: &[
                (
                    "fbc serve testdata/examples/hello-catalog --cache-dir /tmp/fbc-cache --cache-only",
                    "check a catalog and write its cache, as an image build does",
                ),
                (
                    "fbc serve /configs --cache-dir=/tmp/cache",
                    "serve on port 50051, as a catalog image runs it",
                ),
            ],
        },
    ),
    (
        &["build"],
        Footer {
            exit: &[
                (0, "built, and written or pushed"),
                (1, "the catalog is invalid"),
                (
                    2,
                    "the catalog could not be loaded, the base not pulled, the image not written or pushed, or bad arguments",
                ),
            ],
            environment: &[&["SOURCE_DATE_EPOCH"], FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc build catalog --base quay.io/operator-framework/opm:latest --tag quay.io/example/catalog:v1",
                    "an opm-based catalog image, pushed",
                ),
                (
                    "SOURCE_DATE_EPOCH=0 fbc build catalog --output oci:catalog-image:v1 --print-digest",
                    "fbc's own image (from a static fbc) as an OCI layout, with its digest",
                ),
            ],
        },
    ),
    (
        &["init"],
        Footer {
            exit: &[(0, "printed"), FAILED],
            environment: &[COLOUR],
            examples: &[(
                "fbc init hello -c stable -i icon.svg",
                "an olm.package blob with an icon",
            )],
        },
    ),
    (
        &["alpha upgrade-path"],
        Footer {
            exit: &[
                (
                    0,
                    "a path is printed (or the bundle is already at the head or target)",
                ),
                (
                    1,
                    "no path to the head or target (--every-bundle: from some bundle)",
                ),
                FAILED,
                INTERRUPTED,
            ],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc alpha upgrade-path testdata/upgrade-path/semantics-split --package example --from 1.0.0",
                    "how a cluster on 1.0.0 gets to the head, under OLM classic and v1",
                ),
                (
                    "fbc alpha upgrade-path testdata/examples/hello-catalog --every-bundle",
                    "whether every bundle reaches its channel head",
                ),
            ],
        },
    ),
    (
        &["alpha resolve"],
        Footer {
            exit: &[
                (0, "every Subscription resolves"),
                (1, "some Subscription does not (OLM's error is printed)"),
                FAILED,
                INTERRUPTED,
            ],
            environment: &[FILES, RESOLVE, PULLS, COLOUR],
            examples: &[
                (
                    "fbc alpha resolve app --catalog main=testdata/resolve/shapes/catalog",
                    "what a new Subscription to app installs, and why",
                ),
                (
                    "fbc alpha resolve -f testdata/resolve/shapes/cluster.yaml --catalog main=testdata/resolve/shapes/catalog",
                    "every Subscription of a GitOps repository's manifests",
                ),
                (
                    "fbc alpha resolve --every-package --catalog main=testdata/resolve/shapes/catalog -o json",
                    "which packages of a catalog install on their own",
                ),
            ],
        },
    ),
    (
        &["alpha render-template"],
        Footer {
            exit: &[
                (0, "rendered (with --check: identical to the file)"),
                (1, "--check found differences"),
                (2, "the template could not be rendered (opm's message)"),
                INTERRUPTED,
            ],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[
                (
                    "fbc alpha render-template testdata/examples/hello-semver.yaml -o yaml",
                    "render a semver template",
                ),
                (
                    "fbc alpha render-template templates/v4.18.yaml --check catalogs/v4.18/op/catalog.yaml",
                    "fail when the committed rendering drifted",
                ),
            ],
        },
    ),
    (
        &[
            "alpha convert-template",
            "alpha convert-template basic",
            "alpha convert-template substitutes",
        ],
        Footer {
            exit: &[(0, "converted"), FAILED],
            environment: &[FILES, COLOUR],
            examples: &[(
                "fbc alpha convert-template basic testdata/examples/hello-catalog/hello/bundles.yaml -o yaml",
                "catalog blobs as a basic template",
            )],
        },
    ),
    (
        &[
            "alpha list",
            "alpha list packages",
            "alpha list channels",
            "alpha list bundles",
        ],
        Footer {
            exit: &[(0, "listed"), FAILED, INTERRUPTED],
            environment: &[FILES, PULLS, COLOUR],
            examples: &[(
                "fbc alpha list bundles testdata/examples/hello-catalog",
                "the bundles of every package, as opm lists them",
            )],
        },
    ),
    (
        &["completions"],
        Footer {
            exit: &[(0, "printed"), FAILED],
            environment: &[],
            examples: &[(
                "fbc completions bash > ~/.local/share/bash-completion/completions/fbc",
                "install bash completion",
            )],
        },
    ),
    (
        &["version"],
        Footer {
            exit: &[(0, "printed")],
            environment: &[],
            examples: &[(
                "fbc version",
                "the version and the commit fbc was built from",
            )],
        },
    ),
    (
        &["man"],
        Footer {
            exit: &[(0, "written"), (2, "the directory cannot be written")],
            environment: &[],
            examples: &[(
                "fbc man ~/.local/share/man/man1",
                "install the manual pages",
            )],
        },
    ),
];

/// The footer of a command, named by its path below `fbc`.
pub(crate) fn footer(path: &str) -> Option<&'static Footer> {
    FOOTERS
        .iter()
        .find(|(paths, _)| paths.contains(&path))
        .map(|(_, footer)| footer)
}

impl Footer {
    /// The variables, in [`ENVIRONMENT`]'s order, each with its meaning.
    pub(crate) fn variables(&self) -> Vec<(&'static str, &'static str)> {
        ENVIRONMENT
            .iter()
            .copied()
            .filter(|(name, _)| self.environment.iter().any(|group| group.contains(name)))
            .collect()
    }

    /// As `--help` prints it, after the options.
    pub(crate) fn help(&self) -> String {
        use std::fmt::Write as _;
        let mut text = String::from("Exit status:\n");
        for (status, meaning) in self.exit {
            let _ = writeln!(text, "  {status:<3} {meaning}");
        }
        let variables = self.variables();
        if !variables.is_empty() {
            text.push_str("\nEnvironment:\n");
            let width = variables
                .iter()
                .map(|(name, _)| name.len())
                .max()
                .unwrap_or(0);
            for (name, meaning) in variables {
                let _ = writeln!(text, "  {name:<width$}  {meaning}");
            }
        }
        text.push_str("\nExamples:\n");
        for (command, what) in self.examples {
            let _ = writeln!(text, "  # {what}\n  {command}");
        }
        text.trim_end().to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_of_a_footer_is_described() {
        let mut paths = vec![String::new()];
        let command = <super::super::Cli as clap::CommandFactory>::command();
        collect(&command, "", &mut paths);
        for path in paths {
            let footer = footer(&path).unwrap_or_else(|| panic!("no footer for `fbc {path}`"));
            let named: usize = footer.environment.iter().map(|group| group.len()).sum();
            assert_eq!(footer.variables().len(), named, "fbc {path}");
            assert!(!footer.examples.is_empty(), "fbc {path}");
        }
    }

    fn collect(command: &clap::Command, path: &str, paths: &mut Vec<String>) {
        for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
            let name = format!("{path} {}", sub.get_name()).trim().to_owned();
            paths.push(name.clone());
            collect(sub, &name, paths);
        }
    }
}
