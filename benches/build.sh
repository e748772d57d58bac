#!/usr/bin/env bash
# Benchmark of `fbc build` (issue 34): community-v4.18 built into an OCI layout,
# then pushed to a loopback docker-registry, cold (a new repository) and with the
# base already there (the catalog layer new: another SOURCE_DATE_EPOCH each run),
# on the repository's small test base. Prints the wall time and peak memory of
# each, and the catalog layer's size.
# Needs a release build, GNU time and docker-registry (see .ci/run).
#
#   cargo build --release && benches/build.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-3}"
fbc=target/release/fbc
catalog=../shared/corpus/catalogs/community-v4.18
base="oci:testdata/examples/hello-bundle-oci:v0.3.0"
work=$(mktemp -d)
registry=
trap 'rm -rf "$work"; [ -z "$registry" ] || kill "$registry" 2>/dev/null || true' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$work/registry.yml" <<YAML
version: 0.1
log:
  level: error
storage:
  filesystem:
    rootdirectory: $work/registry
http:
  addr: 127.0.0.1:$port
YAML
/usr/bin/docker-registry serve "$work/registry.yml" >/dev/null 2>&1 &
registry=$!
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# One run of `fbc build ARGS`: "seconds peak-KB".
measure() {
  /usr/bin/time -f '%e %M' -o "$work/time" "$fbc" build "$catalog" --base "$base" "$@" \
    >/dev/null 2>"$work/log" || { cat "$work/log" >&2; exit 1; }
  cat "$work/time"
}
report() {
  sort -n | awk -v what="$1" '{t[NR]=$1; m[NR]=$2} END {
    printf "%-34s median %.2f s (min %.2f, max %.2f), peak RSS %d MB\n",
      what, t[int((NR+1)/2)], t[1], t[NR], m[NR]/1024 }'
}
for _ in $(seq "$runs"); do
  rm -rf "$work/layout"
  measure --output "oci:$work/layout:v1"
done | report "community-v4.18 -> oci layout"
for run in $(seq "$runs"); do
  measure --use-http --tag "127.0.0.1:$port/cold$run/catalog:v1"
done | report "community-v4.18 -> registry, cold"
for run in $(seq "$runs"); do
  SOURCE_DATE_EPOCH=$((1000 + run)) measure --use-http --tag "127.0.0.1:$port/cold1/catalog:v1"
done | report "community-v4.18 -> registry, base there"
layer=$(jq -r '.layers[-1].size' "$work/layout/blobs/sha256/$(jq -r '.manifests[0].digest' "$work/layout/index.json" | cut -d: -f2)")
echo "catalog layer: $((layer / 1024)) KiB gzip ($(du -sk "$catalog" | cut -f1) KiB of catalog files)"
