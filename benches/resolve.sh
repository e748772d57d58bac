#!/usr/bin/env bash
# Benchmark: `fbc alpha resolve --every-package` over certified-v4.16 with
# community-v4.18 as a second source (issue 19), against the time to load both
# catalogs (`fbc render` of the two), and the community-v4.18 survey.
# Usage: benches/resolve.sh [runs]   (default 5 runs per case; needs ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
catalogs=../shared/corpus/catalogs
if [ ! -d "$catalogs" ]; then
  echo "skipped: $catalogs is not present" >&2
  exit 0
fi
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-target}/release/fbc

measure() {
  local name=$1; shift
  local times=() peak=0
  for _ in $(seq "$runs"); do
    local out
    # Exit 1 (some package does not install) is an answer, not a failure.
    out=$( { /usr/bin/time -f '%e %M' "$bin" "$@" >/dev/null || true; } 2>&1 | tail -1)
    times+=("${out% *}")
    local rss=${out#* }
    (( rss > peak )) && peak=$rss
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  printf '%-60s best %5ss  median %5ss  peak %4d MB\n' "$name" \
    "$(echo "$sorted" | head -1)" "$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")" $(( peak / 1024 ))
}

certified=$catalogs/certified-v4.16
community=$catalogs/community-v4.18
measure "load both (render certified-v4.16 community-v4.18)" render "$certified" "$community"
measure "resolve --every-package certified-v4.16 + community-v4.18" \
  alpha resolve --every-package --catalog "certified-v4.16=$certified" \
  --catalog "community-v4.18=$community" -o json
measure "load community-v4.18 (render)" render "$community"
measure "resolve --every-package community-v4.18" \
  alpha resolve --every-package --catalog "community-v4.18=$community" -o json
measure "validate --check-dependencies community-v4.18" \
  validate --check-dependencies "$community"
