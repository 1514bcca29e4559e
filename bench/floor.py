"""The floor a checker is measured against: a fresh Python process that only reads and parses every
file of a package with C loaders (msgspec for JSON, PyYAML's C loader for YAML) and does nothing
else. ``bench/run.py`` times it beside endpoints-checker and the official tool.

Usage: python bench/floor.py PACKAGE_DIR
"""
import os
import sys

import msgspec
import yaml

_LOADER = yaml.CSafeLoader  # the C YAML loader: fails here if PyYAML was built without libyaml


def main(root: str) -> int:
    decode = msgspec.json.decode
    n = 0
    for top, _dirs, files in os.walk(root):
        for fn in files:
            path = os.path.join(top, fn)
            if fn.endswith(".json"):
                with open(path, "rb") as fh:
                    decode(fh.read())
            elif fn.endswith((".yaml", ".yml")):
                with open(path, "rb") as fh:
                    yaml.load(fh.read(), Loader=_LOADER)
            else:
                continue
            n += 1
    return 0 if n else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
