#!/usr/bin/env bash
# Benchmark: wall time and peak memory of `fbc render` on the shared corpus.
# Usage: benches/render.sh [runs]   (default 5 runs per case; needs ../shared/corpus)
# Prints, per case, the best and median wall time and the largest peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
  echo "skipped: $corpus is not present" >&2
  exit 0
fi
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=target/release/fbc

measure() {
  local name=$1; shift
  local times=() peak=0
  for _ in $(seq "$runs"); do
    local out
    out=$( { /usr/bin/time -f '%e %M' "$bin" "$@" >/dev/null; } 2>&1 | tail -1)
    times+=("${out% *}")
    local rss=${out#* }
    (( rss > peak )) && peak=$rss
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  printf '%-40s best %5ss  median %5ss  peak %4d MB\n' "$name" \
    "$(echo "$sorted" | head -1)" "$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")" $(( peak / 1024 ))
}

for catalog in certified-v4.16 community-v4.18; do
  measure "render $catalog (json)" render "$corpus/catalogs/$catalog"
  measure "render $catalog (yaml)" render -o yaml "$corpus/catalogs/$catalog"
  if "$bin" validate --help >/dev/null 2>&1; then
    measure "validate $catalog" validate "$corpus/catalogs/$catalog"
  fi
done
