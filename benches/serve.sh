#!/usr/bin/env bash
# Benchmark of `fbc serve` (issue 30): time from exec to a SERVING health answer,
# and peak memory after every request of the serve corpus has been asked, for
# community-v4.18 and certified-v4.16, without and with a cache built by
# --cache-only. Needs a release build and python3 with grpcio (see .ci/run).
#
#   cargo build --release && benches/serve.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
corpus=../shared/corpus
for catalog in community-v4.18 certified-v4.16; do
  for cache in none prebuilt; do
    python3 benches/serve.py target/release/fbc "$corpus/catalogs/$catalog" "$cache" "$runs"
  done
done
