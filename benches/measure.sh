# shellcheck shell=bash
# Shared by the benchmark scripts (sourced, not run): checks the corpus, builds
# the release binary, and defines `measure NAME ARGS...`, which prints the best and
# median wall time, the median CPU time (user and system, to the microsecond) and
# the largest peak RSS (in MB of 10^6 bytes, as input sizes are given) of `fbc
# ARGS...` over $runs runs. Exit status 1 is an answer (findings, a resolution
# that fails); a command that cannot run (exit 2) is reported as skipped.
# Expects: runs (the number of runs); sets corpus and bin.
: "${runs:?set runs before sourcing benches/measure.sh}"
corpus=../shared/corpus
if [ ! -d "$corpus" ]; then
  echo "skipped: $corpus is not present" >&2
  exit 0
fi
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-target}/release/fbc

measure() {
  local name=$1; shift
  local status=0
  "$bin" "$@" >/dev/null 2>&1 || status=$?
  if (( status > 1 )); then
    printf '%-60s skipped: the command fails\n' "$name"
    return
  fi
  python3 - "$name" "$runs" "$bin" "$@" <<'PY'
import os, statistics, subprocess, sys, time

name, runs, command = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
walls, cpus, peak = [], [], 0
for _ in range(runs):
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    walls.append(time.perf_counter() - start)
    cpus.append(usage.ru_utime + usage.ru_stime)
    peak = max(peak, usage.ru_maxrss)
walls.sort()
print(f"{name:<60} best {walls[0]:6.3f}s  median {statistics.median(walls):6.3f}s"
      f"  cpu {statistics.median(cpus):6.3f}s  peak {peak * 1024 // 1000000:4d} MB")
PY
}
