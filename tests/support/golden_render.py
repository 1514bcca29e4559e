"""Golden HTML and Markdown reports: the packages they are made from, and regeneration.

``python tests/support/golden_render.py`` (or ``make golden``) rewrites ``tests/golden/report-*.html|md``;
``tests/render/test_render_golden.py`` compares a fresh rendering with them. The generation time is
fixed to a placeholder so the files only change when the report really changes.

The goldens test the renderers, so they are made with a pinned rule set (the foundation's rule
modules, ``GOLDEN_RULE_MODULES``) and the base point metrics: a rule family landing elsewhere
does not change them. Whole-report coverage of every family is the JSON golden's job.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
REPO = os.path.dirname(HERE)
for p in (REPO, HERE):
    if p not in sys.path:
        sys.path.insert(0, p)

GOLDEN = os.path.join(HERE, "golden")
SCRUBBED_TIME = "1970-01-01T00:00:00+00:00"

#: a copy of fixtures/valid with a handful of failures across families and severities
FAILING_PATCHES = [
    {"remove": "src/trtllm/README.md"},
    {"remove": "{curve}/r8/result_summary.json"},
    {"set": {"file": "{curve}/r64/point.yaml", "path": ["concurrency"], "value": 65}},
    {"set": {"file": "{curve}/r256/result_summary.json", "path": ["n_samples_completed"], "value": "many"}},
    {"write": {"file": "notes.txt", "text": "left over\n"}},
]

#: submitter strings that must render as text (see tests/render/test_render_html.py)
HOSTILE_DIR = '"><img src=x onerror=document.body.setAttribute(\'data-pwned\',1)>'
HOSTILE_MODEL_DIR = '<svg onload=document.body.setAttribute(\'data-pwned\',2)><script>alert(1)'
HOSTILE_TEXT = ("<script>alert(1)</script><script>document.body.setAttribute('data-pwned',3)</script>"
                "\"><img src=x onerror=document.body.setAttribute('data-pwned',4)>")


def make_failing(tmp: str, name: str = "failing") -> str:
    from casefixtures import materialise

    return materialise({"base": "valid", "name": name, "patch": FAILING_PATCHES}, tmp)


def make_hostile(tmp: str, name: str = "hostile") -> str:
    """The valid package with hostile system and model directory names and hostile YAML/JSON strings."""
    import json

    import yaml
    from casefixtures import MODEL_NAME, SYSTEM_NAME, materialise

    root = materialise({"base": "valid", "name": name, "patch": []}, tmp)
    res = os.path.join(root, "results")
    os.rename(os.path.join(res, SYSTEM_NAME, MODEL_NAME), os.path.join(res, SYSTEM_NAME, HOSTILE_MODEL_DIR))
    os.rename(os.path.join(res, SYSTEM_NAME), os.path.join(res, HOSTILE_DIR))
    curve = os.path.join(res, HOSTILE_DIR, HOSTILE_MODEL_DIR)
    for point in sorted(os.listdir(curve)):
        py = os.path.join(curve, point, "point.yaml")
        with open(py, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        data["model_name"] = HOSTILE_TEXT
        data["region"] = HOSTILE_TEXT if point == "r8" else data["region"]
        with open(py, "w", encoding="utf-8") as fh:
            yaml.safe_dump(data, fh, sort_keys=False, allow_unicode=True)
        sd = os.path.join(curve, point, "system_desc.json")
        with open(sd, encoding="utf-8") as fh:
            desc = json.load(fh)
        desc["system_name"] = HOSTILE_TEXT
        with open(sd, "w", encoding="utf-8") as fh:
            json.dump(desc, fh, indent=2)
    with open(os.path.join(curve, "r4", "point.yaml"), "a", encoding="utf-8") as fh:
        fh.write("concurrency: 4\n")  # a duplicate key: a loader finding whose message quotes the file
    return root


GOLDEN_RULE_MODULES = ("rules.loading.inputs", "rules.structure.layout", "rules.parsing.files")
GOLDEN_METRICS = ("concurrency", "region_declared", "offline", "duration_s", "samples", "system_tps",
                  "tps_per_user", "ttft_p90_ms")


def run(path_in_cwd: str):
    from checker.engine.pipeline import run_check

    report = run_check([path_in_cwd])
    report.generated_at = SCRUBBED_TIME
    return report


def run_pinned(path_in_cwd: str):
    """``run`` with only the pinned rules and metrics registered (restored afterwards)."""
    from checker.engine.catalogue import load_catalogue

    cat = load_catalogue()
    saved_rules, saved_ids, saved_metrics = cat.rules, cat.by_id, cat.point_metrics
    try:
        cat.rules = [r for r in saved_rules if r.module in GOLDEN_RULE_MODULES]
        cat.by_id = {r.id: r for r in cat.rules}
        cat.point_metrics = [m for m in saved_metrics if m[0] in GOLDEN_METRICS]
        return run(path_in_cwd)
    finally:
        cat.rules, cat.by_id = saved_rules, saved_ids
        cat.point_metrics = saved_metrics


def outputs() -> dict[str, str]:
    """name -> rendered text, for every golden file."""
    from checker.render import render

    out = {}
    cwd = os.getcwd()
    tmp = tempfile.mkdtemp(prefix="golden-")
    try:
        shutil.copytree(os.path.join(REPO, "fixtures", "valid"), os.path.join(tmp, "valid"), symlinks=True)
        make_failing(tmp)
        os.chdir(tmp)
        from golden import scrub_uris

        for name in ("valid", "failing"):
            report = run_pinned(name)
            out[f"report-{name}.html"] = scrub_uris(render("html", report))
            out[f"report-{name}.md"] = scrub_uris(render("markdown", report))
    finally:
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def main() -> None:
    os.makedirs(GOLDEN, exist_ok=True)
    for name, text in sorted(outputs().items()):
        with open(os.path.join(GOLDEN, name), "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"wrote tests/golden/{name}")


if __name__ == "__main__":
    main()
