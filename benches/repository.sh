#!/usr/bin/env bash
# Benchmark: the pull-request check of a whole catalog repository (issue 33).
# Usage: benches/repository.sh [runs]   (default 5 runs per case; needs ../shared/corpus)
# Generates a repository shaped like community-operators-prod: 11 catalogs
# (catalogs/v4.12 ... catalogs/v4.22, each a copy of community-v4.18, 143 MB of
# YAML in all) and 30 commits of history, each adding a deprecation to one package
# of every catalog. Measures `fbc validate catalogs/*`, `fbc diff --base HEAD~30
# catalogs/*` and the two together (the whole check), each as the best and median
# wall time and the largest peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
# shellcheck source=benches/measure.sh
source benches/measure.sh
bin=$(realpath "$bin")

repo=$(mktemp -d)
trap '[ -n "${FBC_BENCH_KEEP:-}" ] || rm -rf "$repo"' EXIT
versions=(v4.12 v4.13 v4.14 v4.15 v4.16 v4.17 v4.18 v4.19 v4.20 v4.21 v4.22)
for version in "${versions[@]}"; do
  mkdir -p "$repo/catalogs"
  cp -r "$corpus/catalogs/community-v4.18" "$repo/catalogs/$version"
done
mapfile -t packages < <(ls "$corpus/catalogs/community-v4.18")
commit() {
  git -C "$repo" add -A
  git -C "$repo" -c user.name=bench -c user.email=bench@example.com commit -q -m "$1"
}
git -C "$repo" init -q -b main
commit "catalogs"
for change in $(seq 1 30); do
  package=${packages[$(( change % ${#packages[@]} ))]}
  for version in "${versions[@]}"; do
    printf -- '---\nschema: olm.deprecations\npackage: %s\nentries:\n- reference:\n    schema: olm.package\n  message: %s is deprecated (change %d)\n' \
      "$package" "$package" "$change" >>"$repo/catalogs/$version/$package/catalog.yaml"
  done
  commit "deprecate $package"
done

cd "$repo"
measure "validate 11 catalogs (143 MB)" validate catalogs/*
measure "diff --base HEAD~30, 11 catalogs" diff --base HEAD~30 catalogs/*
# The whole check, as a pull-request job runs it: both commands, one after the other.
check=$(mktemp)
printf '#!/usr/bin/env bash\n"%s" validate catalogs/* && "%s" diff --base HEAD~30 catalogs/* >/dev/null\n' "$bin" "$bin" >"$check"
chmod +x "$check"
bin=$check measure "validate + diff (the whole check)"
rm -f "$check"
