#!/usr/bin/env python3
"""Checks a download of `fbc serve --http-port`'s /api/v1/all against the catalog
directory it serves, without fbc's code: every document of every file, in the
directory walk's order (Go's fs.WalkDir: names sorted byte-wise, depth first), one
per line, each line the document as Go's encoder writes it (keys sorted, compact,
no HTML escaping).

usage: view.py CATALOG_DIR ALL_JSONL
Exits 0 when they agree, 1 with the first difference otherwise. YAML files are read
with PyYAML (a dependency of pre-commit, which .ci/run installs).
"""

import json
import os
import sys

import yaml


class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """YAML 1.1 as yaml.v2 reads it into interface{}: timestamps stay strings."""


Loader.yaml_implicit_resolvers = {
    first: [rule for rule in rules if rule[0] != "tag:yaml.org,2002:timestamp"]
    for first, rules in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def walk(root):
    """Catalog files below root in fs.WalkDir's order (no .indexignore in the corpus)."""
    files = []

    def visit(directory):
        for name in sorted(os.listdir(directory), key=os.fsencode):
            path = os.path.join(directory, name)
            if os.path.isdir(path) and not os.path.islink(path):
                visit(path)
            elif name != ".indexignore":
                files.append(path)

    visit(root)
    return files


def documents(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if text.lstrip().startswith("{"):
        decoder = json.JSONDecoder()
        position = 0
        while True:
            while position < len(text) and text[position].isspace():
                position += 1
            if position == len(text):
                return
            value, position = decoder.raw_decode(text, position)
            yield value
    else:
        for value in yaml.load_all(text, Loader=Loader):
            if value is not None:
                yield value


def go_line(value):
    """The document as Go's json.Encoder with SetEscapeHTML(false) writes it."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def main():
    root, download = sys.argv[1], sys.argv[2]
    with open(download, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines[-1] != "":
        print("the view does not end with a newline")
        return 1
    lines.pop()
    expected = [go_line(value) for path in walk(root) for value in documents(path)]
    for number, (want, have) in enumerate(zip(expected, lines), start=1):
        if json.loads(have) != json.loads(want):
            print(f"line {number}: a different document\n want {want[:200]}\n have {have[:200]}")
            return 1
        if have != want:
            print(f"line {number}: not in Go's form\n want {want[:200]}\n have {have[:200]}")
            return 1
    if len(expected) != len(lines):
        print(f"{len(lines)} lines for {len(expected)} documents")
        return 1
    print(f"{len(lines)} documents in order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
