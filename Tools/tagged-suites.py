#!/usr/bin/env python3
"""Prints a `swift test --filter`/`--skip` pattern matching every suite whose
`@Suite(...)` attribute carries `.tags(.TAG)` (TAG from the command line),
read from the test sources, so that `make test` sorts suites into its passes
by the tags written on them (Tests/TestSupport/Tags.swift), not by a list
kept by hand. `swift test` filters by test id only; its tag filter is newer
than the toolchain. Exits 1 when no suite carries the tag: a pass that
would run nothing is a mistake.

Usage: Tools/tagged-suites.py TAG
"""
import re
import sys
from pathlib import Path

SUITE = re.compile(r"^@Suite(\((?P<traits>.*)\))?\s*(?:final\s+)?(?:struct|class|enum|actor)\s+(?P<name>\w+)", re.M)


def tagged_suites(tag, root):
    names = []
    for path in sorted(root.rglob("*.swift")):
        for match in SUITE.finditer(path.read_text()):
            traits = match.group("traits") or ""
            tags = re.findall(r"\.tags\(([^)]*)\)", traits)
            if any(re.search(rf"\.{re.escape(tag)}\b", listed) for listed in tags):
                names.append(match.group("name"))
    return names


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(__file__).resolve().parent.parent / "Tests"
    names = tagged_suites(sys.argv[1], root)
    if not names:
        sys.exit(f"tagged-suites: no suite in {root} is tagged .{sys.argv[1]}")
    print(r"\.(" + "|".join(names) + r")\b")


if __name__ == "__main__":
    main()
