#!/usr/bin/env python3
"""Asks a running catalog server every request of ../shared/corpus/serve/README.md
with a client fbc did not write (grpcio, stubs generated from proto/registry.proto,
grpcio-health-checking, grpcio-reflection), writes each answer in the README's
canonical record form, and compares the records with opm's (`expected/<catalog>/
regprobe/`). Exit status 0 when every file matches, 1 otherwise (the differing
lines are printed), 2 when the client could not run.

Usage: probe.py ADDRESS EXPECTED_DIR [--schema SCHEMA]... [--write DIR]
       probe.py ADDRESS --health          one health check, SERVING or exit 1
       probe.py ADDRESS --concurrent N    N clients stream ListBundles at once and
                                          must all get the same answer
       probe.py ADDRESS --stall SECONDS   opens a ListBundles stream, reads one
                                          message and holds the stream unread
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile

import grpc
from google.protobuf import json_format


def generate_stubs(proto_dir, out_dir):
    """The registry API's Python stubs, from the project's own .proto."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    status = protoc.main(
        [
            "protoc",
            f"-I{proto_dir}",
            f"-I{well_known}",
            f"--python_out={out_dir}",
            f"--grpc_python_out={out_dir}",
            os.path.join(proto_dir, "registry.proto"),
        ]
    )
    if status != 0:
        sys.exit(f"probe: protoc failed on {proto_dir}/registry.proto")
    sys.path.insert(0, out_dir)


# ChannelEntry's fields in field-number order.
ENTRY_FIELDS = ["packageName", "channelName", "bundleName", "replaces"]


def integral(value):
    """Go's protojson writes 3.0 as 3."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list):
        return [integral(item) for item in value]
    if isinstance(value, dict):
        return {key: integral(item) for key, item in value.items()}
    return value


def message(msg):
    return integral(json_format.MessageToDict(msg))


def line(record):
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def error_of(err):
    # The canonical name: grpc's StatusCode names are upper snake case.
    code = err.code().name.title().replace("_", "")
    return {"code": code, "message": err.details() or ""}


class Probe:
    def __init__(self, channel, api, stubs):
        self.api = api
        self.registry = stubs.RegistryStub(channel)
        self.experimental = stubs.ExperimentalRegistryStub(channel)
        self.channel = channel

    def unary(self, method, request_fields, request):
        record = {"request": request_fields}
        try:
            record["response"] = message(getattr(self.registry, method)(request, timeout=60))
        except grpc.RpcError as err:
            record["error"] = error_of(err)
        return record

    def stream(self, call, request_fields, request, metadata=None, sort=False):
        record = {"request": request_fields}
        items = []
        try:
            for item in call(request, timeout=120, metadata=metadata):
                items.append(message(item))
        except grpc.RpcError as err:
            record["error"] = error_of(err)
        if sort:
            # By the fields in field-number order, as opm's records are.
            items.sort(key=lambda item: tuple(item.get(key, "") for key in ENTRY_FIELDS))
        if items or "error" not in record or metadata is not None:
            record["response"] = items
        return record


def run(address, expected, schemas, write):
    with tempfile.TemporaryDirectory() as stubs_dir:
        api, stubs = stubs_in(stubs_dir)
        from grpc_health.v1 import health_pb2, health_pb2_grpc
        from grpc_reflection.v1alpha import reflection_pb2 as refl_v1alpha

        conn = grpc.insecure_channel(
            address, options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]
        )
        grpc.channel_ready_future(conn).result(timeout=30)
        probe = Probe(conn, api, stubs)
        files = {}

        # Health.
        health = health_pb2_grpc.HealthStub(conn)
        records = []
        for service in ["", "Registry"]:
            answer = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
            records.append(
                {
                    "request": {"service": service},
                    "response": {"status": health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)},
                }
            )
        answer = health.Check(health_pb2.HealthCheckRequest(service="Registry"), timeout=10)
        records.append(
            {"request": {"pkg/client.HealthCheck": True}, "response": answer.status == health_pb2.HealthCheckResponse.SERVING}
        )
        files["Health"] = records

        # ListPackages: the names, sorted (opm sends them in Go's map order).
        packages = sorted(
            (message(item) for item in probe.registry.ListPackages(api.ListPackageRequest(), timeout=60)),
            key=line,
        )
        files["ListPackages"] = packages
        names = sorted(item["name"] for item in packages)

        files["GetPackage"] = [
            probe.unary("GetPackage", {"name": name}, api.GetPackageRequest(name=name))
            for name in names + ["olmref-does-not-exist", ""]
        ]

        bundles = [message(item) for item in probe.registry.ListBundles(api.ListBundlesRequest(), timeout=120)]
        files["ListBundles"] = [{"response": bundle} for bundle in bundles]

        channels = sorted(
            {
                (package["request"]["name"], channel["name"])
                for package in files["GetPackage"]
                if "response" in package
                for channel in package["response"].get("channels", [])
            }
        )
        missing = "olmref-does-not-exist"
        pairs = channels + [(names[0], missing), (missing, missing)]
        files["GetBundleForChannel"] = [
            probe.unary(
                "GetBundleForChannel",
                {"channelName": channel, "pkgName": package},
                api.GetBundleInChannelRequest(pkgName=package, channelName=channel),
            )
            for package, channel in pairs
        ]

        triples = sorted({(b.get("packageName", ""), b.get("channelName", ""), b.get("csvName", "")) for b in bundles})
        first = triples[0]
        not_found = [(first[0], first[1], missing), (first[0], missing, first[2]), (missing, missing, missing)]
        files["GetBundle"] = [
            probe.unary(
                "GetBundle",
                {"channelName": channel, "csvName": csv, "pkgName": package},
                api.GetBundleRequest(pkgName=package, channelName=channel, csvName=csv),
            )
            for package, channel, csv in triples + not_found
        ]

        csv_names = sorted({b.get("csvName", "") for b in bundles})
        files["GetChannelEntriesThatReplace"] = [
            probe.stream(
                probe.registry.GetChannelEntriesThatReplace,
                {"csvName": csv},
                api.GetAllReplacementsRequest(csvName=csv),
                sort=True,
            )
            for csv in csv_names + [missing]
        ]

        records = []
        for package, channel, csv in triples + not_found:
            fields = {"channelName": channel, "csvName": csv, "pkgName": package}
            record = probe.unary(
                "GetBundleThatReplaces",
                fields,
                api.GetReplacementRequest(csvName=csv, pkgName=package, channelName=channel),
            )
            candidates = sorted(
                b["csvName"]
                for b in bundles
                if b.get("packageName") == package
                and b.get("channelName") == channel
                and (b.get("replaces") == csv or csv in b.get("skips", []))
            )
            if len(candidates) > 1:
                answer = record.get("response", {}).get("csvName")
                record = {
                    "request": fields,
                    "ambiguous": {"candidates": candidates, "answerIsCandidate": answer in candidates},
                }
            records.append(record)
        files["GetBundleThatReplaces"] = records

        gvks = sorted(
            {
                (gvk.get("group", ""), gvk.get("version", ""), gvk.get("kind", ""))
                for b in bundles
                for gvk in b.get("providedApis", [])
            }
        )
        gvks.append(("olmref-does-not-exist.io", "v1", "Nope"))

        def gvk_fields(group, version, kind):
            return {"group": group, "kind": kind, "version": version}

        for method, request in [
            ("GetChannelEntriesThatProvide", api.GetAllProvidersRequest),
            ("GetLatestChannelEntriesThatProvide", api.GetLatestProvidersRequest),
        ]:
            files[method] = [
                probe.stream(
                    getattr(probe.registry, method),
                    gvk_fields(*gvk),
                    request(group=gvk[0], version=gvk[1], kind=gvk[2]),
                    sort=True,
                )
                for gvk in gvks
            ]
        files["GetDefaultBundleThatProvides"] = [
            probe.unary(
                "GetDefaultBundleThatProvides",
                gvk_fields(*gvk),
                api.GetDefaultProviderRequest(group=gvk[0], version=gvk[1], kind=gvk[2]),
            )
            for gvk in gvks
        ]

        records = []
        ack = [("x-acknowledge-experimental", "true")]

        def custom(schema, package, acknowledged):
            record = probe.stream(
                probe.experimental.ExperimentalListPackageCustomSchemas,
                {"ack": acknowledged, "packageName": package, "schema": schema},
                api.ExperimentalListPackageCustomSchemasRequest(schema=schema, packageName=package),
                metadata=ack if acknowledged else [],
            )
            record.setdefault("response", [])
            return record

        records.append(custom("olm.package", "", False))
        for schema, package in [("", ""), ("olm.package", ""), ("olmref-does-not-exist.schema", ""), ("olmref-does-not-exist.schema", names[0])]:
            records.append(custom(schema, package, True))
        for schema in schemas:
            records.append(custom(schema, "", True))
            for name in names:
                records.append(custom(schema, name, True))
        files["ExperimentalListPackageCustomSchemas"] = records

        # Reflection: ListServices over v1 and v1alpha.
        records = []
        for version in ["v1", "v1alpha"]:
            # grpcio-reflection has v1alpha messages only; v1's are the same on the wire.
            call = conn.stream_stream(
                f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
                request_serializer=refl_v1alpha.ServerReflectionRequest.SerializeToString,
                response_deserializer=refl_v1alpha.ServerReflectionResponse.FromString,
            )
            answers = call(iter([refl_v1alpha.ServerReflectionRequest(list_services="")]), timeout=10)
            services = sorted(s.name for a in answers for s in a.list_services_response.service)
            records.append({"request": {"listServices": True, "reflection": version}, "response": services})
        files["Reflection"] = records
        conn.close()

    failed = 0
    for name, records in files.items():
        lines = [line(record) for record in records]
        if write:
            os.makedirs(write, exist_ok=True)
            with open(os.path.join(write, name + ".jsonl"), "w", encoding="utf-8") as out:
                out.write("".join(l + "\n" for l in lines))
        if expected is None:
            continue
        jsonl = os.path.join(expected, name + ".jsonl")
        sha = os.path.join(expected, name + ".sha256")
        if os.path.exists(jsonl):
            with open(jsonl, encoding="utf-8") as f:
                want = f.read().splitlines()
            got = lines
        elif os.path.exists(sha):
            with open(sha, encoding="utf-8") as f:
                want = f.read().split()
            got = [hashlib.sha256(l.encode("utf-8")).hexdigest() for l in lines]
        else:
            print(f"{name}: no expected file in {expected}")
            failed += 1
            continue
        if got == want:
            print(f"{name}: {len(got)} records equal")
            continue
        failed += 1
        print(f"{name}: {len(got)} records, {len(want)} expected")
        shown = 0
        for index in range(max(len(got), len(want))):
            a = got[index] if index < len(got) else "<none>"
            b = want[index] if index < len(want) else "<none>"
            if a != b:
                print(f"  record {index + 1}:\n    fbc: {lines[index][:600] if index < len(lines) else a}\n    opm: {b[:600]}")
                shown += 1
                if shown == 3:
                    break
    return 1 if failed else 0


def stubs_in(directory):
    proto_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "proto")
    generate_stubs(os.path.abspath(proto_dir), directory)
    import registry_pb2 as api
    import registry_pb2_grpc as stubs

    return api, stubs


def health(address):
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with grpc.insecure_channel(address) as conn:
        answer = health_pb2_grpc.HealthStub(conn).Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
        return 0 if answer.status == health_pb2.HealthCheckResponse.SERVING else 1


def concurrent(address, clients):
    import threading

    with tempfile.TemporaryDirectory() as directory:
        api, stubs = stubs_in(directory)
        answers = [None] * clients

        def list_bundles(at):
            with grpc.insecure_channel(address, options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]) as conn:
                stream = stubs.RegistryStub(conn).ListBundles(api.ListBundlesRequest(), timeout=300)
                answers[at] = hashlib.sha256(b"".join(b.SerializeToString() for b in stream)).hexdigest()

        threads = [threading.Thread(target=list_bundles, args=(at,)) for at in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    distinct = set(answers)
    print(f"{clients} clients, {len(distinct)} distinct answers")
    return 0 if len(distinct) == 1 and None not in distinct else 1


def stall(address, seconds):
    import time

    with tempfile.TemporaryDirectory() as directory:
        api, stubs = stubs_in(directory)
        with grpc.insecure_channel(address, options=[("grpc.max_receive_message_length", 64 * 1024 * 1024)]) as conn:
            stream = stubs.RegistryStub(conn).ListBundles(api.ListBundlesRequest())
            next(stream)
            print("stalled", flush=True)
            time.sleep(seconds)
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("address")
    parser.add_argument("expected", nargs="?")
    parser.add_argument("--schema", action="append", default=[])
    parser.add_argument("--write")
    parser.add_argument("--health", action="store_true")
    parser.add_argument("--concurrent", type=int)
    parser.add_argument("--stall", type=float)
    args = parser.parse_args()
    try:
        if args.health:
            status = health(args.address)
        elif args.concurrent:
            status = concurrent(args.address, args.concurrent)
        elif args.stall:
            status = stall(args.address, args.stall)
        else:
            status = run(args.address, args.expected, args.schema, args.write)
    except grpc.RpcError as err:
        print(f"probe: {err}", file=sys.stderr)
        status = 1
    sys.exit(status)


if __name__ == "__main__":
    main()
