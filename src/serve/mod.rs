//! `fbc serve`: a catalog directory served to OLM over gRPC as `opm serve`
//! serves it. The catalog is loaded and checked as opm's cache build does
//! (opm's verdict, fbc's located findings), converted once into the index the
//! queries answer from, and only then is the port opened.

pub(crate) mod api;
mod cache;
mod csv;
mod grpc;
mod http;
pub(crate) mod index;
mod log;

use std::net::{Ipv6Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ExitStatus;
use crate::catalog::{self, Catalog};
use crate::validate::{Finding, Severity};

/// What `fbc serve` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub(crate) directory: PathBuf,
    pub(crate) port: String,
    pub(crate) termination_log: PathBuf,
    pub(crate) debug: bool,
    pub(crate) cache_dir: Option<PathBuf>,
    pub(crate) cache_only: bool,
    /// `None`: opm's default (enforced when a cache directory is given to a server).
    pub(crate) cache_enforce_integrity: Option<bool>,
    /// OLM v1's HTTP view on this port, when given.
    pub(crate) http_port: Option<u16>,
    /// The catalog's name in the HTTP view's paths (default: the directory's).
    pub(crate) catalog_name: Option<String>,
}

/// Why the server stopped before serving.
#[derive(Debug)]
pub(crate) enum Stop {
    /// A fatal error, logged as opm logs it (exit 1).
    Fatal(String),
    /// The catalog could not be loaded (exit 1), reported with its locations.
    Load(catalog::LoadErrors),
    /// The port could not be opened (exit 2).
    Listen(String),
    /// The command line asks for what cannot be done (exit 2).
    Usage(String),
}

/// Writes fbc's serve cache of the catalog `directory` (checked already) into
/// `dir`, as `--cache-only` writes it (`fbc build --cache`).
pub(crate) fn write_cache(directory: &Path, dir: &Path) -> Result<(), String> {
    cache::Cache::open(dir, directory).write()
}

/// Loads, checks and serves until SIGTERM or SIGINT.
pub(crate) fn run(options: &Options) -> Result<ExitStatus, Stop> {
    log::set_debug(options.debug);
    if let Err(error) = log::set_termination_log(&options.termination_log) {
        log::warn(
            "unable to set termination log path",
            &[("error", &error.to_string())],
        );
    }
    let outcome = start(options);
    match &outcome {
        Err(Stop::Fatal(message) | Stop::Listen(message) | Stop::Usage(message)) => {
            log::fatal(message);
        }
        Err(Stop::Load(errors)) => log::fatal(&errors.to_string()),
        Ok(_) => {}
    }
    outcome
}

fn start(options: &Options) -> Result<ExitStatus, Stop> {
    let enforce = match (options.cache_enforce_integrity, &options.cache_dir) {
        (Some(true), None) => {
            return Err(Stop::Fatal(
                "--cache-dir must be specified with --cache-enforce-integrity".to_owned(),
            ));
        }
        (Some(enforce), _) => enforce,
        (None, dir) => dir.is_some() && !options.cache_only,
    };
    let directory = &options.directory;
    if !directory.is_dir() {
        return Err(Stop::Fatal(format!(
            "open {}: not a directory",
            directory.display()
        )));
    }
    let cache = options
        .cache_dir
        .as_deref()
        .map(|dir| cache::Cache::open(dir, directory));
    let mut snapshot = None;
    if let Some(cache) = &cache {
        match cache.check() {
            cache::Check::Current(current) => snapshot = Some(current),
            cache::Check::Absent(why) => {
                if !options.cache_only {
                    log::warn(
                        "no fbc cache to check: serving from the catalog",
                        &[("cache", &cache.dir_text()), ("reason", &why)],
                    );
                }
            }
            cache::Check::Stale(changes) if enforce => {
                return Err(Stop::Fatal(format!(
                    "integrity check failed: cache requires rebuild: {changes}"
                )));
            }
            cache::Check::Stale(changes) => {
                log::info("cache requires rebuild", &[("changes", &changes)]);
            }
        }
    }
    let catalog_name = match options.http_port {
        Some(_) => Some(http_name(options)?),
        None => None,
    };
    // A server holds its catalog for as long as it runs: the large values
    // (embedded manifests) wait in a temporary file until a client asks for them.
    if let Err(error) =
        crate::model::property::spill::start(crate::validate::properties::fits_known)
    {
        log::warn(
            "no temporary file for large catalog values: they stay in memory",
            &[("error", &error.to_string())],
        );
    }
    let (catalog, from_snapshot) = load(directory, snapshot.as_ref())?;
    let index = build_index(&Arc::new(catalog))?;
    if let Some(failure) = crate::model::property::spill::failure() {
        return Err(Stop::Fatal(failure));
    }
    if let Some(cache) = cache.as_ref().filter(|_| !from_snapshot) {
        match cache.write() {
            Ok(()) => {}
            Err(error) if options.cache_only => {
                return Err(Stop::Fatal(format!("write cache: {error}")));
            }
            Err(error) => log::warn(
                "cannot write the cache: serving without it",
                &[("cache", &cache.dir_text()), ("error", &error)],
            ),
        }
    }
    if options.cache_only {
        return Ok(ExitStatus::Success);
    }
    for (package, bundle, size) in index.oversized() {
        log::warn(
            "bundle message larger than OLM's clients accept (4 MiB): they will fail to read it",
            &[
                ("package", &package),
                ("bundle", &bundle),
                ("bytes", &size.to_string()),
            ],
        );
    }
    let view = match (catalog_name, snapshot.filter(|_| from_snapshot)) {
        (Some(name), Some(snapshot)) => {
            Some(http::View::from_snapshot(&snapshot.files, directory, name))
        }
        (Some(name), None) => Some(http::View::build(directory, name)),
        (None, _) => None,
    };
    let view = view.transpose().map_err(Stop::Fatal)?.map(Arc::new);
    serve(options, &Arc::new(index), view)
}

/// The catalog from the cache's snapshot when it is current (a failure to read
/// it is a warning), else from its directory; whether it came from the snapshot.
fn load(directory: &Path, snapshot: Option<&cache::Snapshot>) -> Result<(Catalog, bool), Stop> {
    if let Some(snapshot) = snapshot {
        let root = snapshot
            .files
            .first()
            .and_then(|file| file.parent())
            .unwrap_or(Path::new(""));
        let names: Vec<PathBuf> = snapshot
            .files
            .iter()
            .filter_map(|file| file.file_name().map(PathBuf::from))
            .collect();
        let loaded = snapshot
            .adopt()
            .and_then(|()| catalog::load_listed(root, &names).map_err(|error| error.to_string()));
        match loaded {
            Ok(catalog) => return Ok((catalog, true)),
            Err(error) => log::warn(
                "cannot read the cache's snapshot: serving from the catalog",
                &[("error", &error)],
            ),
        }
    }
    let catalog = catalog::load_directory(directory).map_err(Stop::Load)?;
    Ok((catalog, false))
}

/// The catalog's name in the HTTP view: `--catalog-name`, else the directory's
/// own; catalogd takes only DNS subdomain names (RFC 1123).
fn http_name(options: &Options) -> Result<String, Stop> {
    let (name, given) = match &options.catalog_name {
        Some(name) => (name.clone(), true),
        None => (
            std::fs::canonicalize(&options.directory)
                .ok()
                .and_then(|path| path.file_name()?.to_str().map(str::to_owned))
                .unwrap_or_default(),
            false,
        ),
    };
    if http::dns1123_subdomain(&name).is_err() {
        let what = if given {
            "--catalog-name"
        } else {
            "the catalog directory's name (give one with --catalog-name)"
        };
        return Err(Stop::Usage(format!(
            "{what}: {name} is not a catalog name OLM takes: lower-case letters, digits, \
             '-' and '.', a letter or digit at each end, at most 253 characters"
        )));
    }
    Ok(name)
}

/// Validates the catalog and builds the index from the same models; an invalid
/// catalog prints its error findings and fails with opm's message.
fn build_index(catalog: &Arc<Catalog>) -> Result<index::Index, Stop> {
    let mut index = index::Index::new(Arc::clone(catalog));
    let mut failure = None;
    let mut errors: Vec<Finding> = Vec::new();
    let verdict = crate::validate::validate_with_models(
        catalog,
        |part| errors.extend(part.filter(|finding| finding.severity == Severity::Error)),
        &mut |model| {
            if failure.is_none()
                && let Err(error) = index.add_model(model)
            {
                failure = Some(error);
            }
        },
    )
    .map_err(Stop::Fatal)?;
    if let Some(message) = verdict {
        let shown = crate::validate::report::text::Shown {
            fancy: crate::output::diagnostics::stderr_is_fancy(),
            quiet: true,
        };
        let mut text = String::new();
        let mut report = crate::validate::report::text::Report::new(shown, &mut text);
        for finding in &errors {
            report.add(finding);
        }
        report.finish(false);
        eprint!("{text}");
        return Err(Stop::Fatal(format!(
            "build package index: {}",
            message.text()
        )));
    }
    if let Some(error) = failure {
        return Err(Stop::Fatal(format!("build package index: {error}")));
    }
    index.add_customs().map_err(Stop::Fatal)?;
    index.finish();
    Ok(index)
}

fn serve(
    options: &Options,
    index: &Arc<index::Index>,
    view: Option<Arc<http::View>>,
) -> Result<ExitStatus, Stop> {
    let port: u16 = options.port.parse().map_err(|_| {
        Stop::Listen(format!(
            "failed to listen: listen tcp: address :{}: invalid port",
            options.port
        ))
    })?;
    let routes = grpc::router(Arc::clone(index)).map_err(Stop::Fatal)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| Stop::Fatal(format!("start the server: {error}")))?;
    runtime.block_on(async {
        let listener = listen(port).await.map_err(|error| {
            Stop::Listen(format!(
                "failed to listen: listen tcp :{port}: bind: {error}"
            ))
        })?;
        let bound = listener.local_addr().map_or(port, |address| address.port());
        if let (Some(view), Some(port)) = (view, options.http_port) {
            let listener = listen(port).await.map_err(|error| {
                Stop::Listen(format!(
                    "failed to listen: listen tcp :{port}: bind: {error}"
                ))
            })?;
            let bound = listener.local_addr().map_or(port, |address| address.port());
            log::info(
                "serving the catalog over HTTP",
                &[
                    ("port", &bound.to_string()),
                    ("path", &format!("/catalogs/{}/api/v1/all", view.name())),
                ],
            );
            tokio::spawn(http::serve(listener, view));
        }
        // The handlers are in place before the log line that tells supervisors
        // (and the tests) the server is up: a SIGTERM right after it stops the
        // server gracefully instead of killing it.
        let stopped = stopped();
        log::info(
            "serving registry",
            &[
                ("configs", &options.directory.display().to_string()),
                ("port", &bound.to_string()),
                ("packages", &index.package_count().to_string()),
                ("bundles", &index.entry_count().to_string()),
            ],
        );
        // Without TCP_NODELAY, a small answer waits for the client's delayed
        // acknowledgement (40 ms a call on Linux).
        let incoming =
            tonic::transport::server::TcpIncoming::from(listener).with_nodelay(Some(true));
        let (stop, stopping) = tokio::sync::oneshot::channel::<()>();
        let server = tonic::transport::Server::builder()
            .add_routes(routes)
            .serve_with_incoming_shutdown(incoming, async {
                let _ = stopping.await;
            });
        tokio::pin!(server);
        let outcome = tokio::select! {
            outcome = &mut server => outcome,
            () = stopped => {
                // Calls in flight finish; a connection that never ends (a client
                // that opened one and went silent) is not waited for past GRACE.
                let _ = stop.send(());
                tokio::time::timeout(GRACE, &mut server).await.unwrap_or_else(|_| {
                    log::warn("calls still open after the grace period: stopping", &[]);
                    Ok(())
                })
            }
        };
        outcome.map_err(|error| Stop::Fatal(format!("serve: {error}")))?;
        log::info("stopped serving", &[]);
        Ok(ExitStatus::Success)
    })
}

/// How long calls in flight may take to finish after SIGTERM or SIGINT.
const GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// All interfaces, as opm's `:PORT`: IPv6 and IPv4 where the host has IPv6.
async fn listen(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    match tokio::net::TcpListener::bind(SocketAddr::from((Ipv6Addr::UNSPECIFIED, port))).await {
        Ok(listener) => Ok(listener),
        Err(error) if error.kind() == std::io::ErrorKind::AddrInUse => Err(error),
        Err(_) => tokio::net::TcpListener::bind(("0.0.0.0", port)).await,
    }
}

/// Installs the SIGTERM and SIGINT handlers at once; the future resolves on
/// either signal, and the server then finishes the calls in flight.
fn stopped() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{SignalKind, signal};
    let handlers = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    );
    async move {
        let (Ok(mut term), Ok(mut int)) = handlers else {
            std::future::pending::<()>().await;
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
}
