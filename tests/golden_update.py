"""Regenerate tests/golden/*: whole-package reports of the fixtures (``make golden``)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from golden import GOLDEN, golden_cases, render_case  # noqa: E402

if __name__ == "__main__":
    os.makedirs(GOLDEN, exist_ok=True)
    for name, fmt, paths in golden_cases():
        out = os.path.join(GOLDEN, name)
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(render_case(fmt, paths))
        print(f"wrote {os.path.relpath(out)}")
