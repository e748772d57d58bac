#!/usr/bin/env bash
# Benchmark: wall time, CPU time and peak memory of `fbc render` on the shared corpus.
# Usage: benches/render.sh [runs]   (default 5 runs per case; needs ../shared/corpus)
# Prints, per case, the best and median wall time, the median CPU time and the
# largest peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
# shellcheck source=benches/measure.sh
source benches/measure.sh

for catalog in certified-v4.16 community-v4.18; do
  measure "render $catalog (json)" render "$corpus/catalogs/$catalog"
  measure "render $catalog (yaml)" render -o yaml "$corpus/catalogs/$catalog"
  if "$bin" validate --help >/dev/null 2>&1; then
    measure "validate $catalog" validate "$corpus/catalogs/$catalog"
  fi
done

# The 338 corpus bundle directories in one call (opm: 3.9-4.5 s, 165 MB).
mapfile -t bundles < <(sed "s|^|$corpus/bundles/|" "$corpus/expected/bundles/dirs.txt")
template='example.com/{{.Package}}:v{{.Version}}'
measure "render 338 bundle dirs" render --image-ref-template "$template" "${bundles[@]}"
measure "render 338 bundle dirs --migrate" render --migrate --image-ref-template "$template" "${bundles[@]}"

# Generated shapes (issue 17): many small blobs of each kind in one stream (JSON on
# one line, and YAML), and many small files. Peak memory is compared with the
# input's size.
shapes=$(mktemp -d)
trap 'rm -rf "$shapes"' EXIT
mkdir -p "$shapes/stream" "$shapes/files" "$shapes/yaml" "$shapes/channels" "$shapes/bundles" "$shapes/others"
awk 'BEGIN { for (i = 0; i < 490000; i++) printf "{\"schema\":\"olm.package\",\"name\":\"p%06d\"}", i }' \
  > "$shapes/stream/catalog.json"
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "---\nschema: olm.package\nname: p%06d\n", i }' \
  > "$shapes/yaml/catalog.yaml"
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "{\"schema\":\"olm.channel\",\"name\":\"c%06d\",\"package\":\"p\",\"entries\":[{\"name\":\"b%06d\"}]}", i, i }' \
  > "$shapes/channels/catalog.json"
awk 'BEGIN { for (i = 0; i < 300000; i++) printf "{\"schema\":\"olm.bundle\",\"name\":\"b%06d\",\"package\":\"p\",\"image\":\"i\"}", i }' \
  > "$shapes/bundles/catalog.json"
awk 'BEGIN { for (i = 0; i < 490000; i++) printf "{\"schema\":\"x.y\",\"name\":\"p%06d\"}", i }' \
  > "$shapes/others/catalog.json"
seq -f "$shapes/files/p%05g" 0 19999 | xargs mkdir -p
awk -v root="$shapes/files" 'BEGIN {
  for (i = 0; i < 20000; i++) {
    file = sprintf("%s/p%05d/catalog.json", root, i)
    printf "{\"schema\":\"olm.package\",\"name\":\"pkg%d\",\"defaultChannel\":\"stable\"}\n", i > file
    printf "{\"schema\":\"olm.channel\",\"name\":\"stable\",\"package\":\"pkg%d\",\"entries\":[{\"name\":\"pkg%d.v1.0.0\"}]}\n", i, i > file
    printf "{\"schema\":\"olm.bundle\",\"name\":\"pkg%d.v1.0.0\",\"package\":\"pkg%d\",\"image\":\"quay.io/x/y:v1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"pkg%d\",\"version\":\"1.0.0\"}}]}\n", i, i, i > file
    close(file)
  }
}'
megabytes() { awk -v bytes="$1" 'BEGIN { printf "%.1f MB", bytes / 1000000 }'; }
size() { megabytes "$(stat -c %s "$1")"; }
echo "input: package stream $(size "$shapes/stream/catalog.json"), YAML $(size "$shapes/yaml/catalog.yaml")," \
  "channels $(size "$shapes/channels/catalog.json"), bundles $(size "$shapes/bundles/catalog.json")," \
  "other schema $(size "$shapes/others/catalog.json")," \
  "20,000 files $(megabytes "$(find "$shapes/files" -name catalog.json -exec cat {} + | wc -c)")"
for shape in "stream:490,000 blobs on one line" "yaml:400,000 YAML package documents" \
  "channels:300,000 channels on one line" "bundles:300,000 bundles on one line" \
  "others:490,000 blobs of another schema on one line" "files:20,000 one-package files"; do
  measure "render ${shape#*:}" render "$shapes/${shape%%:*}"
  # Every blob of the first four has a problem or two (packages without channels,
  # channels and bundles of a missing package): validation costs what the findings do.
  measure "validate ${shape#*:}" validate "$shapes/${shape%%:*}"
done
# Reports are written as they are made: every format costs about what text does.
for format in json yaml sarif github gitlab; do
  measure "validate -o $format 20,000 one-package files" validate -o "$format" "$shapes/files"
done
# Findings beyond FBC_FINDINGS_IN_MEMORY (4 MiB) and opm's text for -o json wait
# in temporary files: a report of 980,000 errors costs about what text does.
for format in json yaml sarif github gitlab; do
  measure "validate -o $format 490,000 blobs on one line (980,000 errors)" validate -o "$format" "$shapes/stream"
done
# On a terminal each finding is drawn over its line: here none can be (one line).
measure "validate --color always 490,000 blobs on one line" --color always validate "$shapes/stream"
