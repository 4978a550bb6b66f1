#!/usr/bin/env python3
"""Lists the public symbols of the given symbol-graph files that have no doc comment.

Counted: every public or open symbol a user can reach, including extensions of other
modules' types (Defaults@Foundation, ...). Not counted: names starting with `_` (hidden
by DocC), symbols the compiler synthesized, and members a type inherits from a protocol
of another module (they carry that protocol's documentation).
Exits 1 when any symbol is undocumented.
"""
import json
import sys

undocumented = []
total = 0
for path in sys.argv[1:]:
    with open(path) as file:
        graph = json.load(file)
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        identifier = symbol["identifier"]["precise"]
        if "::SYNTHESIZED::" in identifier:
            continue
        components = symbol["pathComponents"]
        if any(component.startswith("_") for component in components):
            continue
        # Default implementations from other modules' protocols are reported with the
        # protocol's module as their source; ours carry a location in this package.
        if "location" not in symbol:
            continue
        total += 1
        if not symbol.get("docComment", {}).get("lines"):
            location = symbol["location"]
            file_name = location["uri"].rsplit("/", 1)[-1]
            line = location["position"]["line"] + 1
            undocumented.append(f"{file_name}:{line}: {'.'.join(components)} ({symbol['kind']['displayName']})")

for entry in sorted(undocumented):
    print(entry)
print(f"{len(undocumented)} of {total} public symbols have no doc comment")
sys.exit(1 if undocumented else 0)
