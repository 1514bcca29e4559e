"""HTML report benchmark: a 32-point curve's report must be under 1 MB and render in under 0.5 s.

``python bench/html_bench.py`` builds the curve with ``fixtures/make_valid.py``
(``build(root, spread_points(32))``), checks it once, then times the HTML rendering alone
(best of 5 and the first, cold call that also loads jinja2 and compiles the templates).
Exit status 1 when a budget is exceeded. ``--json`` prints the figures as JSON.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [REPO, os.path.join(REPO, "fixtures")]

MAX_BYTES = 1_000_000
MAX_SECONDS = 0.5


def measure(points: int = 32, repeat: int = 5) -> dict:
    import make_valid

    from checker.engine.api import run_check

    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "curve32")
        make_valid.build(root, make_valid.spread_points(points))
        t0 = time.perf_counter()
        report = run_check([root])
        check_s = time.perf_counter() - t0
        from checker.render import render

        t0 = time.perf_counter()
        html = render("html", report)
        cold = time.perf_counter() - t0
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            html = render("html", report)
            times.append(time.perf_counter() - t0)
    n_points = sum(len(c.points) for s in report.package.submissions for c in s.curves())
    return {"points": n_points, "findings": len(report.findings), "bytes": len(html.encode("utf-8")),
            "render_s_cold": round(cold, 4), "render_s_best": round(min(times), 4), "check_s": round(check_s, 4),
            "budget_bytes": MAX_BYTES, "budget_s": MAX_SECONDS}


def main() -> int:
    m = measure()
    ok = m["bytes"] < MAX_BYTES and m["render_s_cold"] < MAX_SECONDS
    if "--json" in sys.argv:
        print(json.dumps(m | {"ok": ok}, indent=2))
    else:
        print(f"HTML report of a {m['points']}-point curve ({m['findings']} findings): {m['bytes'] / 1e6:.3f} MB "
              f"(budget 1 MB), rendered in {m['render_s_cold'] * 1000:.0f} ms cold / {m['render_s_best'] * 1000:.0f} ms "
              f"warm (budget {MAX_SECONDS * 1000:.0f} ms); check took {m['check_s'] * 1000:.0f} ms")
        print("OK" if ok else "OVER BUDGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
