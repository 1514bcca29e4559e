"""The findings of one ``system_power.json`` so far, and the value checks several readings share.

``Findings`` collects ``power-descriptor`` findings (the model's type problems first) and checks a
number's range, a whole number's, and an E.1 sourced value (exactly one value, the policy's source
types, an Appendix D subsection for mlc_default, else an http(s) source); ``brief`` is how the power
messages quote a value. ``rules/power/reading.py`` and ``flat_reading.py`` read the shapes with it.
"""
from __future__ import annotations

import math
from typing import Any

from checker.core.spellings import near as closest_words
from checker.core.values import show
from checker.load.models.lenient import dotted
from checker.load.models.power_fields import SOURCED_KEYS
from checker.load.models.urls import is_http_url
from rules.power.doc import PowerFinding, Sourced

_MAX = 2 ** 53  # beyond this a number is not exact as a float: not a figure anyone means


def brief(v: Any) -> str:
    """``checker.core.values.show`` cut at 50 characters, except that JSON null reads "nothing" here."""
    return "nothing" if v is None else show(v, 50)


class Findings:
    """The findings of one file so far, and the paths whose value the model refused (present but bad)."""

    def __init__(self, field_errors: list, source_types: list[str], subsections: list[str]):
        self.problems: list[PowerFinding] = [PowerFinding(tuple(p.path), p.message, observed=p.observed)
                                             for p in field_errors]
        self.warnings: list[PowerFinding] = []
        self.refused = {tuple(p.path) for p in field_errors}
        self.source_types = source_types
        self.subsections = subsections

    def bad(self, path: tuple, msg: str, observed: Any = None, expected: Any = None, fix: str | None = None,
            check: str = "descriptor") -> None:
        self.problems.append(PowerFinding(path, msg, check, observed, expected, fix))

    def warn(self, path: tuple, msg: str, observed: Any = None, expected: Any = None, fix: str | None = None,
             check: str = "descriptor") -> None:
        self.warnings.append(PowerFinding(path, msg, check, observed, expected, fix))

    def clean(self, path: tuple) -> bool:
        """No problem recorded at ``path`` or below it."""
        n = len(path)
        return not any(p.path[:n] == path for p in self.problems)

    def given(self, obj, key: str, path: tuple) -> bool:
        """The file writes ``key`` (the model holds it, or refused its value)."""
        return (obj is not None and getattr(obj, key, None) is not None) or path + (key,) in self.refused

    def missing(self, obj, key: str, path: tuple, known: tuple, what: str, fix: str | None = None,
                at: str | None = None) -> None:
        """Record that ``key`` is missing, located at ``at`` (a key standing for it) or at a misspelling
        of it (did you mean), else at the object."""
        extra = [k for k in ((obj.model_extra or {}) if obj is not None else {}) if isinstance(k, str)
                 and k not in known]
        near = [] if at else closest_words(key, extra, n=1)
        hint = f" (`{near[0]}` is not an Appendix E field; did you mean `{key}`?)" if near else ""
        where = at or (near[0] if near else None)
        self.problems.append(PowerFinding(path + ((where,) if where else ()), f"`{dotted(path + (key,))}` is "
                                          f"missing: {what}{hint}", "descriptor", observed=where, expected=key,
                                          fix=fix))

    def num(self, obj, key: str, path: tuple, minimum: float | None = 0) -> float | None:
        v = getattr(obj, key, None)
        if v is None:
            return None
        if not math.isfinite(v) or abs(v) > _MAX or (minimum is not None and v < minimum):
            what = "a number" + (f" >= {minimum:g}" if minimum is not None else "")
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be {what}, got {brief(v)}", observed=v,
                     expected=what)
            return None
        return float(v)

    def whole(self, obj, key: str, path: tuple, minimum: int = 0) -> int | None:
        v = getattr(obj, key, None)
        if v is None:
            return None
        if v < minimum or v > _MAX:
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be a whole number >= {minimum}, got "
                     f"{brief(v)}", observed=v, expected=f"a whole number >= {minimum}")
            return None
        return v

    def sourced(self, obj, key: str, path: tuple, want: str = "power") -> Sourced | None:
        """E.1 sourced value ``obj.key`` (None when absent). ``want``: "power" (W/kW) or "energy" (pJ/bit)."""
        p = path + (key,)
        v = getattr(obj, key, None) if obj is not None else None
        if v is None:
            return Sourced(p, ok=False) if p in self.refused else None
        out = Sourced(p)
        extra = [k for k in (v.model_extra or {}) if k not in SOURCED_KEYS]
        if extra:
            self.bad(p + (extra[0],), f"`{dotted(p)}` has key(s) {', '.join(map(str, extra))} that a sourced value "
                     "does not take (E.1: one of value_w/value_kw/value_pj, source_type, source)",
                     observed=extra, expected="value_w | value_kw | value_pj, source_type, source")
        vals = [k for k in ("value_w", "value_kw", "value_pj") if self.given(v, k, p)]
        if len(vals) != 1:
            self.bad(p, f"`{dotted(p)}` must give exactly one of value_w, value_kw, value_pj (found "
                        f"{', '.join(vals) or 'none'})", observed=vals or None, expected="exactly one value")
        else:
            x = self.num(v, vals[0], p)
            if vals[0] == "value_pj":
                out.pj = x
                if want == "power":
                    self.bad(p + ("value_pj",), f"`{dotted(p)}` is a power: give value_w or value_kw, not an "
                             "energy per bit", observed="value_pj", expected="value_w or value_kw")
            else:
                out.watts = None if x is None else (x * 1000.0 if vals[0] == "value_kw" else x)
                if want == "energy":
                    self.bad(p + (vals[0],), f"`{dotted(p)}` is an energy per bit: give value_pj (picojoules "
                             "per bit)", observed=vals[0], expected="value_pj")
        st, src = v.source_type, v.source
        out.source_type, out.source = st, src
        if p + ("source_type",) in self.refused:
            pass  # its type problem is recorded
        elif st not in self.source_types:
            self.bad(p + (("source_type",) if st is not None else ()),
                     f"`{dotted(p)}.source_type` must be one of {', '.join(self.source_types)}, got {brief(st)}",
                     observed=st, expected=" | ".join(self.source_types))
        elif p + ("source",) in self.refused:
            pass
        elif st == "mlc_default":
            if src not in self.subsections:
                self.bad(p + (("source",) if src is not None else ()), f"`{dotted(p)}.source` must name the "
                         f"Appendix D subsection ({', '.join(self.subsections)}) for mlc_default, got {brief(src)}",
                         observed=src, expected=" | ".join(self.subsections))
        elif not is_http_url(src):
            self.bad(p + (("source",) if src is not None else ()), f"`{dotted(p)}.source` must be an http(s) URL "
                     f"of the public evidence, got {brief(src)}", observed=src, expected="an http(s) URL",
                     fix="Link the vendor specification or publication; or leave the figure out so the Appendix D "
                         "default applies (MLC Estimated Power).")
        out.ok = self.clean(p)
        return out
