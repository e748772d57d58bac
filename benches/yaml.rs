//! Benchmark (not a test): how fast catalog YAML is read, against the floor.
//!
//! Run with `cargo bench --bench yaml` (needs `../shared/corpus`). For each catalog,
//! on one thread, best of five passes over files already in memory:
//! - floor: finding the document boundaries (opm's `---` rule), the least any
//!   reader does;
//! - direct: the direct reader (`codec::yaml::block`) on every document it reads;
//! - captured: the same, as the catalog loader reads (property values written
//!   straight to their compact JSON text, not built as values);
//! - saphyr: the full reader on the same documents, as every document was read
//!   before the direct reader.

use std::path::Path;
use std::time::{Duration, Instant};

use fbc::bench::{documents, read_capturing, read_directly, read_fully, yaml_files};

/// The binary's allocator, so that building values costs what it costs in `fbc`.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/catalogs");
    assert!(
        corpus.is_dir(),
        "the corpus is needed at {}",
        corpus.display()
    );
    for catalog in ["community-v4.18", "certified-v4.16"] {
        let texts: Vec<String> = yaml_files(&corpus.join(catalog))
            .iter()
            .map(|path| std::fs::read_to_string(path).expect("UTF-8 catalog file"))
            .collect();
        let bytes: usize = texts.iter().map(String::len).sum();
        let floor = best(|| {
            texts
                .iter()
                .map(|text| documents(text).len())
                .sum::<usize>()
        });
        let all: Vec<_> = texts.iter().flat_map(|text| documents(text)).collect();
        let direct: Vec<&str> = all
            .iter()
            .map(|d| &**d)
            .filter(|d| read_directly(d))
            .collect();
        let direct_bytes: usize = direct.iter().map(|d| d.len()).sum();
        let direct_time = best(|| direct.iter().filter(|d| read_directly(d)).count());
        let captured_time = best(|| direct.iter().filter(|d| read_capturing(d)).count());
        let saphyr_time = best(|| direct.iter().filter(|d| read_fully(d)).count());
        println!(
            "{catalog}: {:.1} MB, {} documents, {} read directly ({:.1} MB)",
            mb(bytes),
            all.len(),
            direct.len(),
            mb(direct_bytes)
        );
        for (step, time, size) in [
            ("floor (split)", floor, bytes),
            ("direct reader", direct_time, direct_bytes),
            ("captured", captured_time, direct_bytes),
            ("saphyr reader", saphyr_time, direct_bytes),
        ] {
            println!(
                "  {step:14} {:7.1} ms  {:6.0} MB/s",
                time.as_secs_f64() * 1000.0,
                mb(size) / time.as_secs_f64()
            );
        }
        println!(
            "  direct reader: {:.1}x faster than saphyr's",
            saphyr_time.as_secs_f64() / direct_time.as_secs_f64()
        );
    }
}

/// The best of five runs.
fn best(mut run: impl FnMut() -> usize) -> Duration {
    (0..5)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(run());
            start.elapsed()
        })
        .min()
        .expect("five runs")
}

#[allow(clippy::cast_precision_loss)] // megabytes for a report
fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}
