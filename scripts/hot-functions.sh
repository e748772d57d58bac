#!/usr/bin/env bash
# Writes link/hot-functions.txt: the functions fbc runs in its everyday commands
# (render, validate, serve), command by command. build.rs hands the list
# to the linker for release builds on x86_64 Linux, which places those functions
# side by side. The kernel reads code into memory in blocks of 64 KiB or more
# around each page a run touches: scattered over 10 MB of code, the 900 KB a
# render runs kept 5.3 MB of the binary resident; side by side, about 1 MB.
#
# Run it again when the list has gone stale (new dependencies, a new compiler, or
# large changes to the code a render runs): names the binary no longer has are
# skipped by the linker, and their code is placed as if unlisted.
#
# Needs valgrind (callgrind), curl, ../shared/corpus, and takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus/catalogs
cargo build --release --locked
bin=target/release/fbc
work="$(mktemp -d)"
server=
cleanup() {
    if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

profile() {
    local name="$1"
    shift
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.out" \
        "$bin" "$@" >/dev/null 2>&1 || true
}
profile render render "$corpus/community-v4.18"
profile render-yaml render -o yaml "$corpus/kueue-v4.18"
profile validate validate "$corpus/community-v4.18"
profile validate-json validate -o json "$corpus/certified-v4.16"

# The server: start-up, one request to each API, and a SIGTERM.
grpc_port=$((20000 + RANDOM % 20000))
http_port=$((grpc_port + 1))
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/serve.out" \
    "$bin" serve -p "$grpc_port" --http-port "$http_port" \
    --termination-log "$work/termination-log" "$corpus/kueue-v4.18" >/dev/null 2>&1 &
server=$!
all="http://127.0.0.1:$http_port/catalogs/kueue-v4.18/api/v1/all"
for _ in $(seq 240); do
    curl -sf -o /dev/null "$all" && break
    sleep 0.5
done
curl -sf -o /dev/null "$all"
# A gRPC call over HTTP/2 (its answer is not read): the server's request path.
curl -s -o /dev/null --http2-prior-knowledge -H 'content-type: application/grpc' \
    -X POST --data-binary @/dev/null "http://127.0.0.1:$grpc_port/api.Registry/ListPackages" || true
kill -TERM "$server"
wait "$server" || true
server=

python3 - "$bin" "$work"/render.out "$work"/render-yaml.out "$work"/validate.out \
    "$work"/validate-json.out "$work"/serve.out >link/hot-functions.txt <<'PY'
import re
import subprocess
import sys

binary, outputs = sys.argv[1], sys.argv[2:]
defined = set()
for line in subprocess.run(["nm", "--defined-only", binary], capture_output=True,
                           text=True, check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[1] in "tTwW":
        defined.add(parts[2])
# Grouped by the first command that runs them (render first, so that its code is
# one run of pages), sorted by name within a group so that a list written again
# differs only where the code did.
listed = set()
for output in outputs:
    names = {}
    group = set()
    for line in open(output):
        # callgrind names a function once in full, as `fn=(id) name`, then by id.
        match = re.match(r"c?fn=\((\d+)\) (.+)$", line.rstrip("\n"))
        if match and match[1] not in names:
            names[match[1]] = match[2]
            if match[2] in defined and match[2] not in listed:
                group.add(match[2])
    for name in sorted(group):
        print(name)
    listed |= group
PY
echo "link/hot-functions.txt: $(wc -l <link/hot-functions.txt) functions" >&2
