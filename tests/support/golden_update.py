"""Regenerate every golden file under tests/golden/ (``make golden``): whole-package JSON/text
reports (tests/support/golden.py) and the HTML/Markdown reports (tests/support/golden_render.py)."""
import os
import sys

# the goldens hold the Week-0 prediction, the same on every machine (the suite predicts too: tests/conftest.py)
os.environ["ENDPOINTS_CHECKER_WEEK0"] = "model"

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import golden_render  # noqa: E402
from golden import GOLDEN, golden_cases, render_case  # noqa: E402

if __name__ == "__main__":
    os.makedirs(GOLDEN, exist_ok=True)
    for name, fmt, paths in golden_cases():
        out = os.path.join(GOLDEN, name)
        with open(out, "w", encoding="utf-8") as fh:
            fh.write(render_case(fmt, paths))
        print(f"wrote {os.path.relpath(out)}")
    golden_render.main()
    import tempfile

    import fix_goldens

    with tempfile.TemporaryDirectory() as tmp:
        fix_goldens.main(tmp)
