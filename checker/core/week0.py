"""The Week-0 prediction: what the official automated check (endpoints-submission-cli 1.5.3.0) decides.

A value type only: rules/week0/predict.py computes it from the loaded package (a model of the
official tool's own error conditions, not of our rules), the engine attaches it to the report and
marks each reject-level finding with whether the official rejects on that rule at that subject.
"""
from __future__ import annotations

import msgspec

from checker.core.findings import Subject, point_sort_key

TOOL = "endpoints-submission-cli 1.5.3.0"
VERDICTS = ("accept", "reject", "reject-points")
#: who decided: the installed official checker itself, or the model of it (a prediction)
SOURCES = ("official", "model")
#: --week0: auto (the official where installed, else the model), model (always predict), official (required)
MODES = ("auto", "model", "official")
#: the official version the model predicts
MODEL_VERSION = "1.5.3.0"


class Hit(msgspec.Struct, frozen=True):
    """One ERROR the official would report: its rule id, where, and why in plain words.

    ``why`` says what the file holds and what the automated check wants (e.g. config_summary "DP8"
    has 3 characters; the automated check wants 4 or more). ``file`` is the relative path of the file
    the user edits (a LoadedFile's ``rel``), ``path`` the data path in it, ``fix`` what to change: the
    engine turns a Hit that no FAIL of ours explains into a located finding from these.
    """

    rule: str
    subject: Subject
    why: str = ""
    file: str = ""
    path: tuple = ()
    fix: str = ""


class Week0(msgspec.Struct):
    """The official's verdict on one submission, with the ERRORs that decide it."""

    hits: list[Hit] = msgspec.field(default_factory=list)
    tool: str = TOOL
    #: "official" when the installed official checker decided, "model" when predicted
    source: str = "model"
    #: the official's version (the one run, or the one the model predicts)
    version: str = MODEL_VERSION

    @property
    def verdict(self) -> str:
        """accept (no ERROR), reject-points (every ERROR names a point), reject (any other ERROR)."""
        if not self.hits:
            return "accept"
        return "reject-points" if all(h.subject.point for h in self.hits) else "reject"

    @property
    def points(self) -> list[str]:
        """system/model/r<N> of the points a reject-points verdict rejects (empty otherwise)."""
        if self.verdict != "reject-points":
            return []
        return sorted({point_label(h.subject) for h in self.hits}, key=_label_key)

    @property
    def rules(self) -> list[str]:
        return sorted({h.rule for h in self.hits})

    def rejects(self, rule_id: str, subject: Subject) -> bool:
        """Does the official reject on ``rule_id`` at (or inside, or around) this subject?"""
        return any(h.rule == rule_id and overlap(h.subject, subject) for h in self.hits)

    def as_dict(self) -> dict:
        return {"tool": self.tool, "verdict": self.verdict, "points": self.points, "rules": self.rules,
                "source": self.source, "version": self.version}


class Feed(msgspec.Struct):
    """What the engine hands the ``week0-check`` rule for one submission: the verdict, the ERRORs no FAIL of
    ours explains, and (when the official decided) the model's hits, whose plain words and fixes say the
    same reason more plainly where the model predicted it too."""

    week0: Week0
    unexplained: list[Hit] = msgspec.field(default_factory=list)
    plain: list[Hit] = msgspec.field(default_factory=list)


def point_label(s: Subject) -> str:
    """A point's name inside its submission: system/model/r<N>."""
    return "/".join(p for p in (s.system, s.model, s.point) if p)


def _label_key(label: str) -> tuple:
    head, _, point = label.rpartition("/")
    return head, point_sort_key(point)


def overlap(a: Subject, b: Subject) -> bool:
    """One subject lies inside the other (the official names a point where we name its curve, or back)."""
    if a.submission and b.submission and a.submission != b.submission:
        return False
    for x, y in ((a.system, b.system), (a.model, b.model), (a.point, b.point)):
        if x and y and x != y:
            return False
    return True


def combine(units: list[tuple[str, dict]]) -> dict | None:
    """summary.week0 of several submissions [(label, its week0 dict)]: the worst verdict, the rules of
    all, and (for reject-points) every rejected point prefixed by its submission's label. The source is
    "official" only when the official decided every one (a single prediction makes the whole "model")."""
    if not units:
        return None
    order = {"accept": 0, "reject-points": 1, "reject": 2}
    worst = max((w["verdict"] for _l, w in units), key=order.__getitem__)
    rules = sorted({r for _l, w in units for r in w["rules"]})
    many = len(units) > 1
    points = [f"{label}/{p}" if many else p for label, w in sorted(units) for p in w["points"]] \
        if worst == "reject-points" else []
    sources = {w.get("source", "model") for _l, w in units}
    source = "official" if sources == {"official"} else "model"
    versions = sorted({w.get("version", MODEL_VERSION) for _l, w in units if w.get("source", "model") == source})
    tool = units[0][1].get("tool", TOOL) if len({w.get("tool", TOOL) for _l, w in units}) == 1 else TOOL
    return {"tool": tool, "verdict": worst, "points": points, "rules": rules, "source": source,
            "version": ", ".join(versions) or MODEL_VERSION}
