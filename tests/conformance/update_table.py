"""Maintainer script: run the conformance variants and print the current disagreements as a table.

usage (from the repository root, with the development venv):
  .venv/bin/python tests/conformance/update_table.py                # what must be listed now (NEW/CHANGED marked)
  .venv/bin/python tests/conformance/update_table.py table power-   # just the variants whose name has "power-"
  .venv/bin/python tests/conformance/update_table.py yaml > draft   # a draft disagreements.yaml
  .venv/bin/python tests/conformance/update_table.py docs           # regenerate docs/conformance.md's table

The draft keeps a reviewed reason only where the facts are unchanged; new or changed entries come
out marked TODO/REVIEW, which the test refuses: a person reads each one and writes the clause and
the reason (or fixes the bug) before the table is committed. Needs the official checker
(`make official`). Builds in a temporary directory that is removed afterwards.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cf_run  # noqa: E402
import cf_table  # noqa: E402
import cf_variants  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """table|yaml [FILTER]: run, then print the table or a draft YAML; docs: rewrite the docs block."""
    args = list(sys.argv[1:] if argv is None else argv)
    mode = args.pop(0) if args and args[0] in ("table", "yaml", "docs") else "table"
    only = args.pop(0) if args else ""
    if args or (mode == "docs" and only):
        print(__doc__, file=sys.stderr)
        return 2
    entries = cf_table.load_table()
    if mode == "docs":
        cf_table.write_docs(entries)
        print(f"wrote {cf_table.DOCS_FILE}")
        return 0
    python, why = cf_run.find_official()
    if not python:
        print(f"cannot run: {why}", file=sys.stderr)
        return 2
    variants = [v for v in cf_variants.all_variants() if only in v["name"]]
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ec-conformance-") as workdir:
        results = cf_run.run_all(cf_variants.build_all(variants, workdir), python, workdir)
    facts = cf_table.current(variants, results)
    entries = [e for e in entries if only in e["variant"]]
    broken = {n: (r["ours"].get("error"), r["official"].get("error")) for n, r in results.items()
              if r["ours"].get("error") or r["official"].get("error")}
    if mode == "yaml":
        print(cf_table.render_yaml(facts, entries), end="")
    else:
        print(cf_table.render_text(facts, entries))
        problems = cf_table.compare(entries, facts)
        counts = {s: sum(f["status"] == s for f in facts.values()) for s in cf_table.STATUSES}
        print(f"\n{len(variants)} variants in {time.monotonic() - start:.0f} s; {len(facts)} must be listed {counts}; "
              f"{len(problems)} differ from disagreements.yaml")
        for p in problems:
            print("  " + p)
    for name, err in sorted(broken.items()):
        print(f"RUN ERROR {name}: {err}", file=sys.stderr)
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
