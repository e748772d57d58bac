#!/usr/bin/env bash
# Benchmark: `fbc alpha resolve --every-package` over certified-v4.16 with
# community-v4.18 as a second source (issue 19), against the time to load both
# catalogs (`fbc render` of the two), and the community-v4.18 survey.
# Usage: benches/resolve.sh [runs]   (default 5 runs per case; needs ../shared/corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
# shellcheck source=benches/measure.sh
source benches/measure.sh
catalogs=$corpus/catalogs

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

# Many packages: each resolution looks its package up, so the cost stays linear
# (it was quadratic: 20,000 packages took 60 s).
many=$(mktemp -d)
trap 'rm -rf "$many"' EXIT
awk -v file="$many/catalog.json" 'BEGIN {
  for (i = 0; i < 20000; i++) {
    printf "{\"schema\":\"olm.package\",\"name\":\"pkg%d\",\"defaultChannel\":\"stable\"}\n", i > file
    printf "{\"schema\":\"olm.channel\",\"name\":\"stable\",\"package\":\"pkg%d\",\"entries\":[{\"name\":\"pkg%d.v1.0.0\"}]}\n", i, i > file
    printf "{\"schema\":\"olm.bundle\",\"name\":\"pkg%d.v1.0.0\",\"package\":\"pkg%d\",\"image\":\"quay.io/x/y:v1\",\"properties\":[{\"type\":\"olm.package\",\"value\":{\"packageName\":\"pkg%d\",\"version\":\"1.0.0\"}}]}\n", i, i, i > file
  }
}'
measure "resolve --every-package, 20,000 packages" \
  alpha resolve --every-package --catalog "many=$many" -o json
measure "validate --check-dependencies, 20,000 packages" validate --check-dependencies "$many"

# Package after package: each changed package's graph is read through an index of
# the blobs by package (a scan of the catalog per package was quadratic).
changed=$(mktemp -d)
trap 'rm -rf "$many" "$changed"' EXIT
sed 's/v1\.0\.0/v1.0.1/g; s/"version":"1.0.0"/"version":"1.0.1"/g' "$many/catalog.json" > "$changed/catalog.json"
measure "diff, 20,000 changed packages" diff "$many" "$changed"
measure "upgrade-path --every-bundle, 20,000 packages" alpha upgrade-path --every-bundle "$many"
measure "graph -o json, 20,000 packages" graph -o json "$many"
