#!/usr/bin/env python3
"""One line of benches/serve.sh: starts `fbc serve` RUNS times on a free port,
waits from the exec for the port to open and gRPC health to answer SERVING, then asks every request of the
serve corpus (tests/serve/probe.py's requests, answers not compared) and reads the
server's peak resident memory (VmHWM) before stopping it with SIGTERM."""

import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "serve"))
import probe  # noqa: E402


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def peak_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def once(binary, catalog, cache_dir):
    port = free_port()
    args = [binary, "serve", catalog, "-p", str(port), "-t", "/dev/null"]
    if cache_dir:
        args.append(f"--cache-dir={cache_dir}")
    started = time.monotonic()
    server = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    address = f"127.0.0.1:{port}"
    # The port opens once the catalog is loaded: wait for it with plain TCP
    # connects (a gRPC channel per attempt costs Python several milliseconds of
    # the two cores the server is loading on), then ask health until SERVING.
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.002)
    while True:
        try:
            with grpc.insecure_channel(address) as conn:
                answer = health_pb2_grpc.HealthStub(conn).Check(health_pb2.HealthCheckRequest(), timeout=1)
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    break
        except grpc.RpcError:
            time.sleep(0.005)
    serving = time.monotonic() - started
    at_start = peak_kb(server.pid)
    # Every request; the answers are compared by the tests, not here.
    probe.run(address, None, [], None)
    probed = peak_kb(server.pid)
    server.send_signal(signal.SIGTERM)
    server.wait(timeout=30)
    return serving, at_start, probed


def main():
    binary, catalog, cache, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    cache_dir = None
    with tempfile.TemporaryDirectory() as scratch:
        if cache == "prebuilt":
            cache_dir = os.path.join(scratch, "cache")
            subprocess.run([binary, "serve", catalog, f"--cache-dir={cache_dir}", "--cache-only", "-t", "/dev/null"], check=True)
        results = [once(binary, catalog, cache_dir) for _ in range(runs)]
    serving = [r[0] for r in results]
    print(
        f"{os.path.basename(catalog):16} cache={cache:8} SERVING after {statistics.median(serving):.3f} s "
        f"(min {min(serving):.3f}, max {max(serving):.3f}); peak RSS {max(r[1] for r in results) / 1024:.0f} MB "
        f"at start, {max(r[2] for r in results) / 1024:.0f} MB after every request",
        flush=True,
    )


if __name__ == "__main__":
    main()
