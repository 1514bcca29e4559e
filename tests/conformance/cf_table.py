"""The reviewed disagreement table (disagreements.yaml): what must be listed, comparison, rendering.

A variant must be listed when the two tools' verdicts differ, or when ours differs from what the
rules say (its ``expect``; both tools may be wrong together). Its status follows from that:
``known-bug`` when our verdict is not the expected one, ``decision`` otherwise (ours is right, or
the rules leave the verdict to the tool and ours chose). A listed entry must still occur exactly:
same verdicts and the same rule ids behind them, so a fix or a new failure forces the table update.
"""
from __future__ import annotations

import json
import os
import re

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE_FILE = os.path.join(HERE, "disagreements.yaml")
STATUSES = ("decision", "known-bug")
COMPARED = ("ours", "official", "ours_rules", "ours_flags", "ours_warns", "official_rules")
REQUIRED = ("variant", "status", "clause", "reason") + COMPARED


def observed(variant: dict, result: dict) -> dict:
    """The facts of one variant's runs, in the table's vocabulary."""
    ours, official = result["ours"], result["official"]
    return {"variant": variant["name"], "expect": variant["expect"],
            "ours": ours["verdict"], "official": official["verdict"],
            "ours_rules": list(ours["rules"]), "ours_flags": list(ours["flags"]), "ours_warns": list(ours["warns"]),
            "official_rules": list(official["rules"])}


def must_list(fact: dict) -> bool:
    """Listed when the verdicts differ, or ours is not what the rules say (expect)."""
    wrong = fact["expect"] != "either" and fact["ours"] != fact["expect"]
    return fact["ours"] != fact["official"] or wrong


def status_of(fact: dict) -> str:
    """known-bug when our verdict is not the expected one, else decision."""
    return "known-bug" if fact["expect"] != "either" and fact["ours"] != fact["expect"] else "decision"


def current(variants: list[dict], results: dict[str, dict]) -> dict[str, dict]:
    """{variant: facts} for every variant that must be in the table."""
    out = {}
    for v in variants:
        fact = observed(v, results[v["name"]])
        if must_list(fact):
            fact["status"] = status_of(fact)
            out[v["name"]] = fact
    return out


def load_table(path: str = TABLE_FILE) -> list[dict]:
    """The reviewed entries of disagreements.yaml ([] when absent)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh) or {}
    return list(doc.get("entries") or [])


def table_problems(entries: list[dict], variant_names: set[str]) -> list[str]:
    """Well-formedness of the table itself (needs no checker run)."""
    problems, seen = [], set()
    for i, e in enumerate(entries):
        name = e.get("variant", f"entry #{i}")
        missing = [k for k in REQUIRED if k not in e]
        if missing:
            problems.append(f"{name}: missing {missing}")
            continue
        if name in seen:
            problems.append(f"{name}: listed twice")
        seen.add(name)
        if name not in variant_names:
            problems.append(f"{name}: no such variant")
        if e["status"] not in STATUSES:
            problems.append(f"{name}: status must be one of {STATUSES}")
        for key in ("ours", "official"):
            if e[key] not in ("accept", "reject"):
                problems.append(f"{name}: {key} must be accept or reject")
        for key in ("clause", "reason"):
            text = str(e[key]).strip()
            if len(text) < 12 or text.upper().startswith(("TODO", "REVIEW")):
                problems.append(f"{name}: {key} must be written by a reviewer (got {text!r})")
        if e["status"] == "known-bug" and not str(e.get("bug", "")).strip():
            problems.append(f"{name}: a known-bug entry needs a one-line `bug` description")
    return problems


def compare(entries: list[dict], facts: dict[str, dict]) -> list[str]:
    """Differences between the reviewed table and what the tools did: empty when the table is true."""
    problems = []
    listed = {e["variant"]: e for e in entries}
    for name, fact in sorted(facts.items()):
        entry = listed.get(name)
        if entry is None:
            problems.append(f"UNLISTED {name} (expect {fact['expect']}): ours {fact['ours']} {fact['ours_rules']} "
                            f"flags {fact['ours_flags']}, official {fact['official']} {fact['official_rules']}")
            continue
        diffs = [f"{k}: table {entry.get(k)!r}, now {fact[k]!r}" for k in COMPARED if entry.get(k) != fact[k]]
        if entry.get("status") != fact["status"]:
            diffs.append(f"status: table {entry.get('status')!r}, now {fact['status']!r} (expect {fact['expect']})")
        if diffs:
            problems.append(f"CHANGED {name}: " + "; ".join(diffs))
    for name in sorted(set(listed) - set(facts)):
        problems.append(f"GONE {name}: listed ({listed[name]['ours']} vs official {listed[name]['official']}) "
                        "but the tools now agree with each other and with the rules: delete the entry")
    return problems


def render_text(facts: dict[str, dict], entries: list[dict]) -> str:
    """The current disagreements as a plain table, with the reviewed reason where one is listed."""
    listed = {e["variant"]: e for e in entries}
    rows = [("variant", "expect", "ours", "official", "status", "ours rules/flags", "official rules", "reviewed")]
    for name, f in sorted(facts.items()):
        e = listed.get(name)
        same = e is not None and all(e.get(k) == f[k] for k in COMPARED) and e.get("status") == f["status"]
        rows.append((name, f["expect"], f["ours"], f["official"], f["status"],
                     ",".join(f["ours_rules"] + [x + "(flag)" for x in f["ours_flags"]]
                              + [x + "(warn)" for x in f["ours_warns"]]) or "-",
                     ",".join(f["official_rules"]) or "-", "yes" if same else ("CHANGED" if e else "NEW")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    gone = sorted(set(listed) - set(facts))
    if gone:
        lines.append("")
        lines.append("listed but no longer occurring (delete): " + ", ".join(gone))
    return "\n".join(lines)


HEADER = """\
# Reviewed disagreements between endpoints-checker and the official checker (endpoints-submission-cli
# 1.5.3.0) on the conformance variants (tests/conformance/variants.yaml, cf_variants.py). Checked by
# tests/conformance/test_conformance.py; see docs/conformance.md.
#
# A variant is listed when the two verdicts differ, or when ours differs from what the rules say
# (the variant's `expect`). status: decision (ours is right, or the rules leave it to the tool) or
# known-bug (our verdict is wrong; `bug` says how; fixing it makes the entry fail until deleted).
# ours/official: accept | reject. ours_rules: our FAILs of severity reject/reject-points;
# ours_flags/ours_warns: flag/warn FAILs; official_rules: ERROR rule ids (crash:<Type> for a crash).
# clause and reason are written by a reviewer; update_table.py prints the facts, never the reasons.
"""


def _scalar(value: str) -> str:
    """A YAML double-quoted scalar (JSON string syntax)."""
    return json.dumps(str(value), ensure_ascii=False)


def _seq(items: list[str]) -> str:
    """A YAML flow sequence of rule ids (quoted where not a plain id)."""
    return "[" + ", ".join(i if re.fullmatch(r"[a-z0-9-]+", i) else _scalar(i) for i in items) + "]"


def dump_entries(entries: list[dict]) -> str:
    """disagreements.yaml text: one compact block per entry (flow lists, quoted prose)."""
    out = [HEADER, "entries:"]
    for e in entries:
        out.append(f"- variant: {e['variant']}")
        out += [f"  {k}: {e[k]}" for k in ("status", "ours", "official")]
        out += [f"  {k}: {_seq(e[k])}" for k in ("ours_rules", "ours_flags", "ours_warns", "official_rules")]
        out += [f"  {k}: {_scalar(e[k])}" for k in ("clause", "reason", "bug") if k in e]
    return "\n".join(out) + "\n"


def render_yaml(facts: dict[str, dict], entries: list[dict]) -> str:
    """A draft of disagreements.yaml: reviewed text kept where the facts are unchanged, else marked."""
    listed = {e["variant"]: e for e in entries}
    out = []
    for name, f in sorted(facts.items()):
        old = listed.get(name, {})
        same = old and all(old.get(k) == f[k] for k in COMPARED) and old.get("status") == f["status"]
        entry = {"variant": name, "status": f["status"], "ours": f["ours"], "official": f["official"],
                 "ours_rules": f["ours_rules"], "ours_flags": f["ours_flags"], "ours_warns": f["ours_warns"],
                 "official_rules": f["official_rules"],
                 "clause": old.get("clause", "TODO: the clause or field that decides it"),
                 "reason": (old.get("reason") if same else
                            f"REVIEW (facts changed; was: {old.get('reason')})" if old else "TODO: why, written by a reviewer")}
        if f["status"] == "known-bug":
            entry["bug"] = old.get("bug") or "TODO: one line: what ours gets wrong"
        out.append(entry)
    return dump_entries(out)


DOCS_FILE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "conformance.md")
DOCS_START = "<!-- conformance-table:start (generated by: python tests/conformance/update_table.py docs) -->"
DOCS_END = "<!-- conformance-table:end -->"


def _cell(text: str) -> str:
    """One Markdown table cell: whitespace collapsed, pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")


def render_docs(entries: list[dict]) -> str:
    """The generated part of docs/conformance.md: counts, then every reviewed entry."""
    decisions = [e for e in entries if e["status"] == "decision"]
    bugs = [e for e in entries if e["status"] == "known-bug"]
    lines = [DOCS_START, "",
             f"{len(entries)} listed variants: {len(decisions)} decision{'s' * (len(decisions) != 1)}, "
             f"{len(bugs)} known bug{'s' * (len(bugs) != 1)} "
             f"(ours rejects where the official accepts in "
             f"{sum(e['ours'] == 'reject' and e['official'] == 'accept' for e in entries)}, "
             f"accepts where it rejects in {sum(e['ours'] == 'accept' and e['official'] == 'reject' for e in entries)}, "
             f"agrees with it but not with the rules in {sum(e['ours'] == e['official'] for e in entries)}).", ""]
    for title, group in (("Known bugs (our verdict is wrong; fixing one removes its entry)", bugs),
                         ("Decisions (ours differs from the official tool on purpose)", decisions)):
        lines += [f"### {title}", "", "| variant | ours | official | clause | why |", "|---|---|---|---|---|"]
        for e in sorted(group, key=lambda e: e["variant"]):
            why = e.get("bug") if e["status"] == "known-bug" else e["reason"]
            lines.append(f"| {e['variant']} | {e['ours']} | {e['official']} | {_cell(e['clause'])} | {_cell(why)} |")
        lines.append("")
    lines.append(DOCS_END)
    return "\n".join(lines)


def docs_block(path: str = DOCS_FILE) -> str | None:
    """The generated block as it stands in docs/conformance.md (None when absent)."""
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if DOCS_START not in text or DOCS_END not in text:
        return None
    return text[text.index(DOCS_START):text.index(DOCS_END) + len(DOCS_END)]


def write_docs(entries: list[dict], path: str = DOCS_FILE) -> None:
    """Replace the generated block of docs/conformance.md with the table as it is now."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    old = docs_block(path)
    if old is None:
        raise SystemExit(f"{path} has no generated block ({DOCS_START} ... {DOCS_END})")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, render_docs(entries)))
