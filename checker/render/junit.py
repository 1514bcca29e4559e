"""JUnit XML for CI dashboards: a <testsuite> per subject (submission, system, model), a <testcase> per
evaluated rule; FAIL -> <failure>, SKIP -> <skipped message=reason>, a crashed rule -> <error>."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby

from checker.core.findings import Status
from checker.render.as_written import spell


def _suite_key(f):
    s = f.subject
    return (s.submission, s.system, s.model)


def _suite_name(key) -> str:
    parts = [p for p in key if p]
    return "/".join(parts) if parts else "package"


def _week0_properties(week0: dict | None) -> list[tuple[str, str]]:
    """The Week-0 verdict as suite properties (tool, verdict, points, rules, source: official or model, version;
    nothing without a submission)."""
    if week0 is None:
        return []
    return [("week0_tool", week0["tool"]), ("week0_verdict", week0["verdict"]),
            ("week0_points", ",".join(week0["points"])), ("week0_rules", ",".join(week0["rules"])),
            ("week0_source", week0.get("source", "model")), ("week0_version", week0.get("version", ""))]


def render(report, **_options) -> str:
    root = ET.Element("testsuites", name="endpoints-checker")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    findings = sorted(report.findings, key=lambda f: (_suite_key(f), f.sort_key()))
    for key, items in groupby(findings, key=_suite_key):
        items = list(items)
        suite = ET.SubElement(root, "testsuite", name=_suite_name(key))
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="policy", value=f"{report.policy_edition} {report.policy_version}")
        ET.SubElement(props, "property", name="rules_verdict", value=report.rules_verdict)
        for name, value in _week0_properties(report.week0):
            ET.SubElement(props, "property", name=name, value=value)
        for f in items:
            name = f.rule_id + "".join(f" [{x}]" for x in (f.subject.point, f.subject.entry) if x)
            case = ET.SubElement(suite, "testcase", name=name, classname=f"endpoints-checker.{f.family}",
                                 time="0")
            counts["tests"] += 1
            if f.status is Status.FAIL:
                where = f" at {f.location.short()}" if f.location else ""
                said = "".join(f"\nthe automated check says: {w}" for w in (f.extra.get("official") or ()))
                body = (f"{f.message}{where}\nobserved: {spell(f.observed)}\nexpected: {spell(f.expected)}{said}"
                        f"\nfix: {f.fix or ''}")
                if f.reason == "rule-error":
                    counts["errors"] += 1
                    el = ET.SubElement(case, "error", message=f.message, type="rule-error")
                else:
                    counts["failures"] += 1
                    el = ET.SubElement(case, "failure", message=f.message, type=f.severity.value)
                el.text = body
            elif f.status is Status.SKIP:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"{f.reason or 'skipped'}: {f.message}")
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
        suite.set("time", "0")
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
