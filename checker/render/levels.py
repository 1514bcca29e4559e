"""Findings and verdicts in words a person knows (error, flag, warning), for the HTML pages.

A FAIL of a warn-level rule is advice, so the pages call it a warning and never count it as a
failure; the big badge follows the Week-0 prediction (what the official automated check decides), not the
``--fail-on`` exit status, which the page states separately. The JSON keeps status and severity.
"""
from __future__ import annotations

from checker.render.words import LEVEL_WORD

#: rule severity value -> the word a FAIL of it is called on the page (one definition: words.LEVEL_WORD)
LEVEL_OF = {sev.value: word for sev, word in LEVEL_WORD.items()}
LEVELS = ("error", "flag", "warning")
PLURAL = {"error": "errors", "flag": "flags", "warning": "warnings", "skipped": "skipped", "passed": "passed"}
#: what each level means, for the page's key and tooltips
MEANING = {
    "error": "a reject or reject-points rule fails: the rules reject the submission or its points",
    "flag": "a reviewer looks at it; the rules still accept",
    "warning": "advice: nothing is rejected or flagged",
}


def level_of(status: str, severity: str) -> str:
    """error / flag / warning for a FAIL, skipped / passed otherwise."""
    if status == "FAIL":
        return LEVEL_OF.get(severity, "error")
    return "skipped" if status == "SKIP" else "passed"


def count(n: int, level: str) -> str:
    """``1 error``, ``3 warnings``, ``5 skipped``."""
    return f"{n} {level if n == 1 else PLURAL[level]}"


def level_counts(rows) -> dict[str, int]:
    """Finding rows (dicts with status and severity) -> {error, flag, warning, skipped, passed: n}."""
    out = dict.fromkeys(LEVELS + ("skipped", "passed"), 0)
    for r in rows:
        out[level_of(r["status"], r["severity"])] += 1
    return out


def from_severity_counts(by_status: dict, fail_by_severity: dict) -> dict[str, int]:
    """The same counts from Report.counts() (no finding rows needed)."""
    out = dict.fromkeys(LEVELS, 0)
    for sev, n in fail_by_severity.items():
        out[LEVEL_OF.get(sev, "error")] += n
    out["skipped"], out["passed"] = by_status.get("SKIP", 0), by_status.get("PASS", 0)
    return out


def problems(counts: dict) -> list[tuple[str, str]]:
    """[(level, "2 errors"), ...] for the non-zero failure levels, most severe first."""
    return [(lv, count(counts[lv], lv)) for lv in LEVELS if counts.get(lv)]


def verdict(counts: dict, week0: dict | None) -> dict:
    """The badge: its class, its words and one sentence saying why; follows the Week-0 prediction and
    says where the rules' errors differ from it."""
    errors = counts.get("error", 0)
    if week0 is not None and week0["verdict"] != "accept":
        key, badge = "reject", "Would be rejected"
        what = f"points {', '.join(week0['points'])}" if week0["verdict"] == "reject-points" else "it"
        why = f"the Week-0 automated check rejects {what} ({', '.join(week0['rules'])})"
        if not errors:
            why += "; the rules do not reject"
    elif errors:
        key, badge = "flag", "Accepted at Week 0, the rules reject"
        why = (f"the Week-0 automated check accepts it; the rules reject: {count(errors, 'error')} "
               "(the automated check does not test this; reviewers can reject for it)")
    elif counts.get("flag"):
        key, badge = "flag", "Would be accepted"
        why = f"the Week-0 automated check accepts it; {count(counts['flag'], 'flag')} for a reviewer"
    else:
        key, badge = ("warning" if counts.get("warning") else "pass"), "Would be accepted"
        why = "the Week-0 automated check accepts it"
    if counts.get("warning") and key != "reject":
        why += f", {count(counts['warning'], 'warning')} (advice)"
    return {"key": key, "badge": badge, "why": why}
