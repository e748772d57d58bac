#!/usr/bin/env bash
# The shell steps of the fbc GitHub Action (action.yml), one subcommand per step:
#   key      cache key for the fbc binary: a hash of the action's sources
#   install  the binary from the cache, or `cargo install --locked` from the action
#   check    validate (annotations + SARIF) and, with diff, the upgrade impact
#   finish   fail the job with the checks' worst exit status
#   build    build and push each catalog image of `build` (action.yml runs it on
#            pushes to the default branch only)
# Inputs come as FBC_ACTION_* variables; results go to $GITHUB_OUTPUT, $GITHUB_PATH
# and $GITHUB_STEP_SUMMARY, as GitHub Actions defines them.
set -euo pipefail

action_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

key() {
  local hash
  hash=$(cd "$action_dir" &&
    find Cargo.toml Cargo.lock build.rs src schemas -type f -print0 |
    LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  echo "key=fbc-$(uname -s)-$(uname -m)-$hash" >>"$GITHUB_OUTPUT"
}

install() {
  local root="${FBC_ACTION_ROOT:?}"
  root="${root/#\~/$HOME}"
  if [ -x "$root/bin/fbc" ] && "$root/bin/fbc" --version >/dev/null 2>&1; then
    echo "fbc from the cache: $("$root/bin/fbc" --version)"
  else
    cargo install --locked --path "$action_dir" --root "$root"
  fi
  echo "$root/bin" >>"$GITHUB_PATH"
}

check() {
  local catalogs=() allowed=() diff_allowed=() status=0 validate_status=0 diff_status=""
  # Inputs are words separated by spaces or new lines, never glob-expanded.
  read -r -d '' -a catalogs <<<"${FBC_ACTION_CATALOGS:-catalog}" || true
  read -r -d '' -a allowed <<<"${FBC_ACTION_ALLOW:-}" || true
  read -r -d '' -a diff_allowed <<<"${FBC_ACTION_DIFF_ALLOW:-}" || true
  if [ ${#catalogs[@]} -eq 0 ]; then
    echo "::error title=fbc::no catalog directory given (input \`catalogs\`)"
    echo "status=2" >>"$GITHUB_OUTPUT"
    return
  fi
  local catalog
  for catalog in "${catalogs[@]}"; do
    if ! inside_repository "$catalog"; then
      echo "::error title=fbc::\`$catalog\` leads outside the repository; the action checks catalogs of the repository only"
      echo "status=2" >>"$GITHUB_OUTPUT"
      return
    fi
  done
  local validate_options=() diff_options=()
  # `--allow=VALUE` and `--` keep every input word a value or a path, never an option.
  for lint in "${allowed[@]}"; do validate_options+=("--allow=$lint"); done
  for rule in "${diff_allowed[@]}"; do diff_options+=("--allow=$rule"); done
  [ "${FBC_ACTION_STRICT:-false}" = true ] && validate_options+=(--strict)
  local sarif="${FBC_ACTION_SARIF:-fbc.sarif}"
  mkdir -p "$(dirname "$sarif")"

  # SARIF first (to a file), then annotations in the log, where GitHub reads them.
  fbc validate -o sarif "${validate_options[@]}" -- "${catalogs[@]}" >"$sarif" || true
  fbc validate -o github "${validate_options[@]}" -- "${catalogs[@]}" || validate_status=$?
  status=$validate_status
  if [ "$validate_status" -eq 0 ]; then
    echo "fbc validate: every catalog is valid (${catalogs[*]})" >>"$GITHUB_STEP_SUMMARY"
  else
    echo "fbc validate: exit status $validate_status for ${catalogs[*]}; see the annotations" >>"$GITHUB_STEP_SUMMARY"
  fi

  if [ "${FBC_ACTION_DIFF:-false}" = true ]; then
    diff_status=0
    local base="${FBC_ACTION_BASE:-}"
    if [ -z "$base" ]; then
      echo "::error title=fbc diff::no base to diff against: set the input \`base-ref\` (it defaults to the pull request's base)"
      diff_status=2
    else
      local revision report
      revision=$(base_revision "$base") || diff_status=2
      if [ -n "$revision" ]; then
        # One run for every catalog: each is compared with its own path at the
        # base, in git's terms (a catalog replaced by a link to a renamed
        # directory is compared with what its path held; one absent from the base
        # is reported as added).
        report=$(mktemp)
        fbc diff -o markdown --base="$revision" "${diff_options[@]}" -- "${catalogs[@]}" >"$report" || diff_status=$?
        cat "$report" >>"$GITHUB_STEP_SUMMARY"
        rm -f "$report"
        if [ "$diff_status" -eq 1 ]; then
          echo "::error title=fbc diff::the change breaks installations; see the job summary"
        elif [ "$diff_status" -ne 0 ]; then
          echo "::error title=fbc diff::fbc diff could not compare every catalog with $revision (exit status $diff_status); see the job summary and the log"
        fi
      fi
    fi
    [ "$diff_status" -gt "$status" ] && status=$diff_status
  fi

  {
    echo "sarif-file=$sarif"
    echo "validate-status=$validate_status"
    echo "diff-status=$diff_status"
    echo "status=$status"
  } >>"$GITHUB_OUTPUT"
}

# The commit to diff against: origin/BASE, fetched (one commit deep) when the
# checkout does not have it.
base_revision() {
  local base=$1
  for candidate in "origin/$base" "$base"; do
    if git rev-parse --verify --quiet "$candidate^{commit}" >/dev/null; then
      echo "$candidate"
      return
    fi
  done
  if git fetch --quiet --no-tags --depth=1 origin "+$base:refs/remotes/origin/$base" >&2; then
    echo "origin/$base"
    return
  fi
  echo "::error title=fbc diff::cannot find or fetch the base \`$base\`" >&2
  return 2
}

# Whether CATALOG, links followed, is inside the repository around the working
# directory (anything goes outside a repository).
inside_repository() {
  local top real
  top=$(git rev-parse --show-toplevel 2>/dev/null) || return 0
  real=$(realpath -m -- "$1")
  [ "$real" = "$top" ] || [ "${real#"$top"/}" != "$real" ]
}

build() {
  # One `DIR=REF` per line; the images' digests go to the output `digests`.
  local line dir ref digest digests=() options=()
  [ -n "${FBC_ACTION_BUILD_BASE:-}" ] && options+=("--base=$FBC_ACTION_BUILD_BASE")
  while IFS= read -r line || [ -n "$line" ]; do
    line="${line#"${line%%[![:space:]]*}"}"
    line="${line%"${line##*[![:space:]]}"}"
    [ -n "$line" ] || continue
    dir="${line%%=*}"
    ref="${line#*=}"
    if [ "$dir" = "$line" ] || [ -z "$dir" ] || [ -z "$ref" ]; then
      echo "::error title=fbc::\`$line\` is not DIR=REF (input \`build\`)"
      exit 2
    fi
    if ! inside_repository "$dir"; then
      echo "::error title=fbc::\`$dir\` leads outside the repository; the action builds catalogs of the repository only"
      exit 2
    fi
    # `--tag=VALUE` and `--` keep every input a value or a path, never an option.
    digest=$(fbc build "${options[@]}" --tag="$ref" --print-digest -- "$dir")
    digests+=("$ref@$digest")
  done <<<"${FBC_ACTION_BUILD:-}"
  echo "digests=${digests[*]}" >>"$GITHUB_OUTPUT"
}

finish() {
  local status="${FBC_ACTION_STATUS:-2}"
  [ -n "$status" ] || status=2
  exit "$status"
}

case "${1:-}" in
  key | install | check | finish | build) "$1" ;;
  *)
    echo "usage: $0 key|install|check|finish|build" >&2
    exit 2
    ;;
esac
