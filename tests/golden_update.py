"""Regenerate every golden file under tests/golden/ (``make golden``)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import golden_render  # noqa: E402

if __name__ == "__main__":
    golden_render.main()
