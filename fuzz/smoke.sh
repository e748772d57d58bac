#!/usr/bin/env bash
# Runs every fuzz target for a bounded time, starting from the inputs kept under
# testdata/fuzz/<target>/. Usage: fuzz/smoke.sh [seconds per target, default 60]
# Needs cargo-fuzz (`cargo install cargo-fuzz`). Runs on stable Rust without a
# sanitizer (`-s none`): fbc forbids unsafe code, so libFuzzer looks for panics,
# hangs (-timeout) and memory blow-ups (-rss_limit_mb). A crash leaves its input in
# fuzz/artifacts/<target>/; fix it and keep the input in testdata/fuzz/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
command -v cargo-fuzz >/dev/null || { echo "needs cargo-fuzz: cargo install cargo-fuzz" >&2; exit 2; }
# Build every target first, so that a build failure is not taken for a crash.
cargo fuzz build -s none >/dev/null 2>fuzz/build.log || { cat fuzz/build.log >&2; echo "the fuzz targets do not build" >&2; exit 2; }
status=0
for target in catalog_file index_ignore skip_range bundle_directory image_layer; do
  corpus=fuzz/corpus/$target
  mkdir -p "$corpus"
  log=fuzz/corpus/$target.log
  if cargo fuzz run -s none "$target" "$corpus" "testdata/fuzz/$target" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 >"$log" 2>&1; then
    outcome=ok
  else
    outcome="CRASH (see $log and fuzz/artifacts/$target/)"
    status=1
  fi
  runs=$(grep -Eo '^Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || echo "?")
  printf '%-18s %4ss  %12s executions  %s\n' "$target" "$seconds" "$runs" "$outcome"
done
exit $status
