//! The Dockerfile text, line for line as opm's template renders it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The label opm sets so that tools find the catalog inside the image.
const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

/// What serves the catalog in the image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runtime {
    /// opm's text exactly: `/bin/opm serve`.
    Opm,
    /// `/fbc serve`, on the image of fbc's Containerfile.
    Fbc,
}

impl Runtime {
    fn binary(self) -> &'static str {
        match self {
            Runtime::Opm => "/bin/opm",
            Runtime::Fbc => "/fbc",
        }
    }

    /// What the builder image must hold.
    fn builder_needs(self) -> &'static str {
        match self {
            Runtime::Opm => "/bin/opm (with serve subcommand)",
            Runtime::Fbc => "/fbc (fbc's image, from its Containerfile)",
        }
    }

    /// What the base image must hold.
    fn base_needs(self) -> &'static str {
        match self {
            Runtime::Opm => "/bin/opm (with serve subcommand) and /bin/grpc_health_probe",
            Runtime::Fbc => "/fbc (fbc's image, from its Containerfile)",
        }
    }
}

/// What goes into the Dockerfile; every field is already validated.
pub(crate) struct Dockerfile<'a> {
    pub(crate) runtime: Runtime,
    pub(crate) builder_image: &'a str,
    pub(crate) base_image: &'a str,
    /// The catalog directory's own name: the build context is its parent.
    pub(crate) directory_name: &'a str,
    /// Sorted by key, byte-wise, as Go's templates range over maps.
    pub(crate) extra_labels: &'a BTreeMap<String, String>,
}

impl Dockerfile<'_> {
    pub(crate) fn render(&self) -> String {
        let mut text = String::with_capacity(1024);
        let binary = self.runtime.binary();
        let _ = write!(
            text,
            "# The builder image is expected to contain\n\
             # {}\n\
             FROM {} as builder\n\
             \n\
             # Copy FBC root into image at /configs and pre-populate serve cache\n\
             ADD {} /configs\n\
             RUN [\"{binary}\", \"serve\", \"/configs\", \"--cache-dir=/tmp/cache\", \"--cache-only\"]\n\
             \n\
             FROM {}\n",
            self.runtime.builder_needs(),
            self.builder_image,
            self.directory_name,
            self.base_image
        );
        // A binary-less image cannot run `opm serve`: OLM extracts the content instead.
        if self.base_image == "scratch" {
            text.push_str(
                "# OLMv0 CatalogSources that use binary-less images must set:\n\
                 # spec:\n\
                 #   grpcPodConfig:\n\
                 #     extractContent:\n\
                 #       catalogDir: /configs\n\
                 #       cacheDir: /tmp/cache\n",
            );
        } else {
            let _ = write!(
                text,
                "# The base image is expected to contain\n\
                 # {}\n\
                 \n\
                 # Configure the entrypoint and command\n\
                 ENTRYPOINT [\"{binary}\"]\n\
                 CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n",
                self.runtime.base_needs()
            );
        }
        let _ = write!(
            text,
            "\n\
             COPY --from=builder /configs /configs\n\
             COPY --from=builder /tmp/cache /tmp/cache\n\
             \n\
             # Set FBC-specific label for the location of the FBC root directory\n\
             # in the image\n\
             LABEL {CONFIGS_LABEL}=/configs\n"
        );
        if !self.extra_labels.is_empty() {
            text.push_str("\n# Set other custom labels\n");
            // opm quotes without escaping; a quote inside a label passes through as is.
            for (key, value) in self.extra_labels {
                let _ = writeln!(text, "LABEL \"{key}\"=\"{value}\"");
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(base_image: &str, labels: &[(&str, &str)]) -> String {
        render_for(Runtime::Opm, base_image, labels)
    }

    fn render_for(runtime: Runtime, base_image: &str, labels: &[(&str, &str)]) -> String {
        let extra_labels = labels
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect();
        Dockerfile {
            runtime,
            builder_image: "foo",
            base_image,
            directory_name: "bar",
            extra_labels: &extra_labels,
        }
        .render()
    }

    #[test]
    fn the_base_stage_runs_opm_serve() {
        let text = render("quay.io/x/opm:v1", &[]);
        assert!(text.contains("FROM foo as builder\n"));
        assert!(text.contains("ADD bar /configs\n"));
        assert!(text.contains("FROM quay.io/x/opm:v1\n# The base image is expected to contain\n"));
        assert!(text.contains("CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n\nCOPY"));
        assert!(text.ends_with("LABEL operators.operatorframework.io.index.configs.v1=/configs\n"));
        assert!(!text.contains("OLMv0"));
    }

    #[test]
    fn the_fbc_runtime_runs_fbc_serve() {
        let text = render_for(Runtime::Fbc, "fbc:v1", &[]);
        assert!(text.contains(
            "RUN [\"/fbc\", \"serve\", \"/configs\", \"--cache-dir=/tmp/cache\", \"--cache-only\"]\n"
        ));
        assert!(text.contains("FROM fbc:v1\n# The base image is expected to contain\n# /fbc "));
        assert!(text.contains(
            "ENTRYPOINT [\"/fbc\"]\nCMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n"
        ));
        assert!(!text.contains("opm"));
        assert!(text.ends_with("LABEL operators.operatorframework.io.index.configs.v1=/configs\n"));
    }

    #[test]
    fn scratch_replaces_the_entrypoint_with_extraction_advice() {
        let text = render("scratch", &[]);
        assert!(text.contains("FROM scratch\n# OLMv0 CatalogSources"));
        assert!(text.contains("#       cacheDir: /tmp/cache\n\nCOPY --from=builder"));
        assert!(!text.contains("ENTRYPOINT"));
    }

    #[test]
    fn labels_come_last_in_key_order_without_escaping() {
        let text = render("foo", &[("b", "x=\"y\""), ("B", ""), ("a", "1")]);
        assert!(text.ends_with(
            "=/configs\n\n# Set other custom labels\nLABEL \"B\"=\"\"\nLABEL \"a\"=\"1\"\nLABEL \"b\"=\"x=\"y\"\"\n"
        ));
    }
}
