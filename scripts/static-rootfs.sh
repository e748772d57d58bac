#!/usr/bin/env bash
# Builds fbc as a static (musl) binary and lays out the root file system of its
# container image in DIR: /fbc, the CA certificates for registries, a /tmp for
# unpacking images and a home for the cache. The Containerfile copies DIR onto an
# empty image; .ci/run runs the binary chrooted into DIR.
# Needs musl-gcc (Debian: musl-tools) and the target (rustup target add).
# FBC_PROFILE names the cargo profile (default: release).
set -euo pipefail
dir=${1:?usage: $0 DIR}
target="$(uname -m)-unknown-linux-musl"
profile=${FBC_PROFILE:-release}
cd "$(dirname "$0")/.."

cargo build --profile "$profile" --locked --target "$target"
mkdir -p "$dir/etc/ssl/certs" "$dir/tmp" "$dir/home/fbc"
chmod 1777 "$dir/tmp"
# The image needs no symbol table.
strip -o "$dir/fbc" "target/$target/$profile/fbc"
cp /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/"
