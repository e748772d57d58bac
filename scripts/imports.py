#!/usr/bin/env python3
"""Which way the imports of src/ point: the rooms (top-level modules) and files,
the arrows between them (`crate::`, `super::` and `self::` paths outside test
modules), import circles, and arrows that run up the floors below.

Usage: scripts/imports.py [--list]   (from the repository's top; exit 1 on a
circle or an upward arrow; .ci/run runs it)
"""

import collections
import os
import re
import sys

# The floors, lowest first: a room imports only from its own floor's rooms named
# before it, or from floors below. Utilities, then the codec, the typed model, the
# loader, the writers and sources, the features, and the command line on top.
FLOORS = [
    ["text", "process", "digest", "testing"],
    ["go", "files", "drawing"],
    ["codec"],
    ["model"],
    ["catalog"],
    ["output", "image", "bundle"],
    ["source"],
    ["validate", "graph", "resolve", "list", "init", "template", "diff", "serve", "build"],
    ["cli", "commands", "bench", "fuzzing"],
]

TEST_MODULE = re.compile(r"#\[cfg\(test\)\]\s*mod [a-z_]+\s*\{")
PATH = re.compile(r"\b((?:crate|super|self)(?:::[A-Za-z_0-9]+)+)")
GROUP = re.compile(r"use ((?:crate|super|self)(?:::[a-z_0-9]+)*)::\{([^}]*)\}")


def modules(src):
    """Module path -> file, for every file of src/ but test files."""
    found = {}
    for directory, _, files in os.walk(src):
        for name in files:
            if not name.endswith(".rs") or name == "tests.rs":
                continue
            path = os.path.join(directory, name)
            parts = os.path.relpath(path, src)[:-3].split("/")
            if parts[-1] == "mod":
                parts = parts[:-1]
            if parts in (["lib"], ["main"]):
                continue
            found["::".join(parts)] = path
    return found


def arrows(found):
    """Module -> the modules it imports (not its own ancestors)."""
    def resolve(parts):
        for end in range(len(parts), 0, -1):
            key = "::".join(parts[:end])
            if key in found:
                return key
        return None

    edges = collections.defaultdict(set)
    for module, path in found.items():
        with open(path, encoding="utf-8") as file:
            text = TEST_MODULE.split(file.read())[0]
        me = module.split("::")
        here = me if path.endswith("mod.rs") else me[:-1]
        targets = []
        for reference in PATH.findall(text):
            parts = reference.split("::")
            base = [] if parts[0] == "crate" else me if parts[0] == "self" else here
            rest = parts[1:]
            while rest and rest[0] == "super":
                base, rest = base[:-1], rest[1:]
            targets.append(base + rest)
        for group, items in GROUP.findall(text):
            parts = group.split("::")
            base = parts[1:] if parts[0] == "crate" else me if parts[0] == "self" else here[:-1] if parts[0] == "super" else []
            targets += [base + [item] for item in re.findall(r"([a-z_0-9]+)(?:::|\s*[,}]|\s*$)", items)]
        for target in targets:
            resolved = resolve(target)
            if resolved and resolved != module and not module.startswith(resolved + "::"):
                edges[module].add(resolved)
    return edges


def circles(edges):
    """The strongly connected components of more than one node (Tarjan's)."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(100_000)

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    nodes = set(edges) | {target for targets in edges.values() for target in targets}
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return found


def main():
    found = modules("src")
    files = arrows(found)
    rooms = collections.defaultdict(set)
    for module, targets in files.items():
        for target in targets:
            if target.split("::")[0] != module.split("::")[0]:
                rooms[module.split("::")[0]].add(target.split("::")[0])
    rank = {room: (floor, position) for floor, names in enumerate(FLOORS) for position, room in enumerate(names)}
    unplaced = sorted(({room for room in rooms} | {t for ts in rooms.values() for t in ts}) - set(rank))
    upward = sorted(
        (room, target)
        for room, targets in rooms.items()
        for target in targets
        if room in rank and target in rank and rank[target] > rank[room]
    )
    room_circles, file_circles = circles(rooms), circles(files)
    print(f"{len(rank)} rooms on {len(FLOORS)} floors, {sum(map(len, rooms.values()))} arrows between rooms;"
          f" {len(found)} files, {sum(map(len, files.values()))} arrows between files")
    print(f"circles: {len(room_circles)} between rooms, {len(file_circles)} between files; upward arrows: {len(upward)}")
    for circle in room_circles + file_circles:
        print("  circle:", " <-> ".join(circle))
    for room, target in upward:
        print(f"  upward: {room} -> {target}")
    for room in unplaced:
        print(f"  {room} is on no floor (scripts/imports.py FLOORS)")
    if "--list" in sys.argv:
        for room in sorted(rooms):
            print(f"  {room} -> {' '.join(sorted(rooms[room]))}")
    return 1 if room_circles or file_circles or upward or unplaced else 0


if __name__ == "__main__":
    sys.exit(main())
