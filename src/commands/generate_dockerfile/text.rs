//! The Dockerfile text, line for line as opm's template renders it.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The label opm sets so that tools find the catalog inside the image.
const CONFIGS_LABEL: &str = "operators.operatorframework.io.index.configs.v1";

/// What goes into the Dockerfile; every field is already validated.
pub(crate) struct Dockerfile<'a> {
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
        let _ = write!(
            text,
            "# The builder image is expected to contain\n\
             # /bin/opm (with serve subcommand)\n\
             FROM {} as builder\n\
             \n\
             # Copy FBC root into image at /configs and pre-populate serve cache\n\
             ADD {} /configs\n\
             RUN [\"/bin/opm\", \"serve\", \"/configs\", \"--cache-dir=/tmp/cache\", \"--cache-only\"]\n\
             \n\
             FROM {}\n",
            self.builder_image, self.directory_name, self.base_image
        );
        // A binary-less image cannot run `opm serve`: OLM extracts the content instead.
        text.push_str(if self.base_image == "scratch" {
            "# OLMv0 CatalogSources that use binary-less images must set:\n\
             # spec:\n\
             #   grpcPodConfig:\n\
             #     extractContent:\n\
             #       catalogDir: /configs\n\
             #       cacheDir: /tmp/cache\n"
        } else {
            "# The base image is expected to contain\n\
             # /bin/opm (with serve subcommand) and /bin/grpc_health_probe\n\
             \n\
             # Configure the entrypoint and command\n\
             ENTRYPOINT [\"/bin/opm\"]\n\
             CMD [\"serve\", \"/configs\", \"--cache-dir=/tmp/cache\"]\n"
        });
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
        let extra_labels = labels
            .iter()
            .map(|(key, value)| ((*key).to_owned(), (*value).to_owned()))
            .collect();
        Dockerfile {
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
