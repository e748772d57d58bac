# shellcheck shell=bash
# Shared by the benchmark scripts (sourced, not run): checks the corpus and GNU
# time, builds the release binary, and defines `measure NAME ARGS...`, which prints
# the best and median wall time and the largest peak RSS (in MB of 10^6 bytes, as
# input sizes are given) of `fbc ARGS...` over $runs runs. Exit status 1 is an
# answer (findings, a resolution that fails); a command that cannot run (exit 2)
# is reported as skipped.
# Expects: runs (the number of runs); sets corpus and bin.
: "${runs:?set runs before sourcing benches/measure.sh}"
corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
  echo "skipped: $corpus is not present" >&2
  exit 0
fi
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-target}/release/fbc

measure() {
  local name=$1; shift
  local times=() peak=0 status=0
  "$bin" "$@" >/dev/null 2>&1 || status=$?
  if (( status > 1 )); then
    printf '%-60s skipped: the command fails\n' "$name"
    return
  fi
  for _ in $(seq "$runs"); do
    local out
    out=$( { /usr/bin/time -f '%e %M' "$bin" "$@" >/dev/null || true; } 2>&1 | tail -1)
    times+=("${out% *}")
    local rss=${out#* }
    (( rss > peak )) && peak=$rss
  done
  local sorted
  sorted=$(printf '%s\n' "${times[@]}" | sort -n)
  printf '%-60s best %5ss  median %5ss  peak %4d MB\n' "$name" \
    "$(echo "$sorted" | head -1)" "$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")" $(( peak * 1024 / 1000000 ))
}
