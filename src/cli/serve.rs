//! Arguments of `fbc serve`: `opm serve`'s command line, flag for flag.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(
    about = "Serve a catalog directory to OLM over gRPC, as `opm serve` does",
    long_about = "Serve a catalog directory to OLM over gRPC, as `opm serve` does.\n\n\
The catalog is loaded and checked first (an invalid catalog ends the run with its \
findings); then the port opens and answers OLM's registry API (api.Registry, \
api.ExperimentalRegistry), gRPC health (SERVING) and server reflection, as opm does. \
SIGTERM and SIGINT finish the calls in flight and exit 0. Started under the name \
`opm` (a symlink or copy), `opm serve ...` command lines work unchanged."
)]
pub struct ServeArgs {
    /// Catalog directory to serve
    #[arg(value_name = "DIR")]
    pub directory: PathBuf,

    /// Port to listen on, on all interfaces
    #[arg(short = 'p', long, value_name = "PORT", default_value = "50051")]
    pub port: String,

    /// File that fatal errors are also written to (the container's termination message)
    #[arg(
        short = 't',
        long,
        value_name = "FILE",
        default_value = "/dev/termination-log"
    )]
    pub termination_log: PathBuf,

    /// Log every request on stderr
    #[arg(long)]
    pub debug: bool,

    /// Directory of fbc's cache: a digest of the catalog, checked at start-up (see docs/serve.md)
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,

    /// Check the catalog, write the cache to --cache-dir and exit without serving
    #[arg(long)]
    pub cache_only: bool,

    /// Refuse to serve a catalog that changed since the cache was written [default: true with --cache-dir, unless --cache-only]
    #[arg(
        long,
        value_name = "BOOL",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true"
    )]
    pub cache_enforce_integrity: Option<bool>,

    /// Also serve OLM v1's view of the catalog over HTTP on this port, as catalogd does (/catalogs/NAME/api/v1/all and /metas)
    #[arg(long, value_name = "PORT")]
    pub http_port: Option<u16>,

    /// The catalog's name in the HTTP view's paths [default: the directory's name]
    #[arg(long, value_name = "NAME", requires = "http_port")]
    pub catalog_name: Option<String>,

    /// Accepted for opm's command lines; fbc has no Go profiler and opens no pprof endpoint
    #[arg(long, value_name = "ADDR", default_value = "localhost:6060")]
    pub pprof_addr: String,

    /// Accepted for opm's command lines; ignored (see --pprof-addr)
    #[arg(long)]
    pub pprof_capture_profiles: bool,
}
