"""``results/<system>/system_power.json`` (R§4.5.2): both shapes, parsed into one neutral structure.

* Appendix E (the published shape, POWER.md): ``node_sets[]`` with a power method each
  (component_sum, published_system, node_scaling), sourced values (exactly one of value_w /
  value_kw / value_pj, a source_type and an http(s) source, or an Appendix D subsection for
  mlc_default), and a ``scale_out`` fabric of NICs and switches. Parsed in ``power_appendix_e``.
* The older flat group shape (``provisioned_power_w``, ``cpu``/``accelerator``/``compute``/
  ``scale_up_network`` groups, ``overhead_fraction``), still read, flagged as superseded
  (``power_flat``).

Parsing never raises: each problem is recorded with its path so findings point at the line. Absent
values stay None; ``rules/power_calc.py`` fills Appendix D defaults and does the arithmetic.
"""
from __future__ import annotations

import math
from typing import Any

import msgspec

from checker.core.spellings import bool_words, near as closest_words
from checker.core.values import show
from checker.load.models.lenient import dotted
from checker.load.models.urls import is_http_url

FLAT_KEYS = ("provisioned_power_w", "rack_power_w", "rack_nodes", "submitted_nodes", "cpu", "accelerator",
             "compute", "scale_up_network", "scale_out_network")
SOURCED_KEYS = ("value_w", "value_kw", "value_pj", "source_type", "source")
_UNSET = object()
_MAX = 2 ** 53  # beyond this a number is not exact as a float: not a figure anyone means


class Problem(msgspec.Struct):
    """One finding about the file; ``check`` names the rule that reports it (see rules/power*.py)."""

    path: tuple
    message: str
    check: str = "descriptor"
    observed: Any = None
    expected: Any = None
    fix: str | None = None


class Sourced(msgspec.Struct):
    """A sourced value: watts (from value_w or value_kw) or picojoules per bit (value_pj)."""

    path: tuple
    watts: float | None = None
    pj: float | None = None
    source_type: str | None = None
    source: str | None = None
    ok: bool = True  # False: malformed (its problem is recorded); the figure cannot be used

    @property
    def is_default(self) -> bool:
        return self.source_type == "mlc_default"


class Component(msgspec.Struct):
    """A counted part: Appendix E cpu/accelerator (per node) or a flat-shape group (per system)."""

    name: str
    path: tuple
    count: int | None = None
    unit: Sourced | None = None  # power per unit
    model: str | None = None


class ScaleUp(msgspec.Struct):
    """E.3 ``scale_up_network``: declared_tdp | bandwidth_estimate | none."""

    path: tuple
    method: str | None = None
    switch_count: int | None = None
    tdp_per_switch: Sourced | None = None
    aggregate_tbps: float | None = None  # read as terabytes per second (E.3)
    energy: Sourced | None = None  # energy_per_bit_pj
    legacy: dict = msgspec.field(default_factory=dict)  # earlier-draft key -> Appendix E name, as written


class NodeSet(msgspec.Struct):
    path: tuple
    node_set_id: Any = None
    ensemble_id: Any = None
    nodes: int | None = None
    method: str | None = None
    published: Sourced | None = None
    nodes_in_published: int | None = None
    components: dict = msgspec.field(default_factory=dict)  # "cpu" / "accelerator" -> Component
    combined: Sourced | None = None  # combined_cpu_accelerator, per node
    scale_up: ScaleUp | None = None
    complete: bool = True  # False: a structural problem leaves the set without a figure


class Nics(msgspec.Struct):
    path: tuple
    count_per_node: int | None = None
    bandwidth_gbps: float | None = None
    counted: bool | None = None
    tdp: Sourced | None = None
    excluded: str | None = None  # excluded_from_published_power: the evidence


class Switch(msgspec.Struct):
    path: tuple
    model: str | None = None
    count: int | None = None
    bandwidth_tbps: float | None = None
    power: Sourced | None = None


class ScaleOut(msgspec.Struct):
    path: tuple
    present: bool | None = None
    cabling: str | None = None
    required_tbps: float | None = None
    nics: Nics | None = None
    switches: list | None = None  # [Switch]; None when absent
    complete: bool = True  # present: true with every required part well formed


class PowerDoc(msgspec.Struct):
    shape: str  # "appendix-e" | "flat"
    problems: list = msgspec.field(default_factory=list)
    warnings: list = msgspec.field(default_factory=list)
    system_desc_id: Any = None
    cooling: Any = None  # Appendix E: liquid | air, None when not valid; flat: as written
    node_sets: list = msgspec.field(default_factory=list)
    scale_out: ScaleOut | None = None
    declared: Sourced | None = None  # declared_provisioned_power
    computed: dict = msgspec.field(default_factory=dict)  # Appendix E computed figure -> (path, value)
    provisioned_kw: tuple | None = None  # (path, value) of provisioned_power_kw
    # flat shape
    overhead_fraction: float | None = None
    flat_declared: list = msgspec.field(default_factory=list)  # [(path, label, watts)]
    groups: dict = msgspec.field(default_factory=dict)  # name -> Component (counts per system)
    rack: tuple | None = None  # (rack_power_w, rack_nodes, submitted_nodes)


class _P:
    """Field readers that record a problem instead of raising."""

    def __init__(self, source_types: list[str], subsections: list[str]):
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.source_types = source_types
        self.subsections = subsections

    def bad(self, path: tuple, msg: str, observed: Any = _UNSET, expected: Any = None, fix: str | None = None,
            check: str = "descriptor") -> None:
        self.problems.append(Problem(path, msg, check, None if observed is _UNSET else observed, expected, fix))

    def warn(self, path: tuple, msg: str, observed: Any = None, expected: Any = None, fix: str | None = None,
             check: str = "descriptor") -> None:
        self.warnings.append(Problem(path, msg, check, observed, expected, fix))

    def missing(self, d: dict, key: str, path: tuple, known: tuple, what: str, fix: str | None = None,
                at: str | None = None) -> None:
        """Record that ``key`` is missing from ``d``, located at ``at`` (a key standing for it) or at a
        misspelling of it (did you mean), else at the object."""
        extra = [k for k in d if isinstance(k, str) and k not in known]
        near = [] if at else closest_words(key, extra, n=1)
        hint = f" (`{near[0]}` is not an Appendix E field; did you mean `{key}`?)" if near else ""
        where = at or (near[0] if near else None)
        self.problems.append(Problem(path + ((where,) if where else ()), f"`{dotted(path + (key,))}` is missing: "
                                     f"{what}{hint}", "descriptor", observed=where, expected=key, fix=fix))

    def mapping(self, v: Any, path: tuple) -> dict | None:
        if v is None:
            return None
        if not isinstance(v, dict):
            self.bad(path, f"`{dotted(path)}` must be an object, got {brief(v)}", observed=v, expected="an object")
            return None
        return v

    def _spelled(self, d: dict, key: str, path: tuple, value: Any, plain: str) -> Any:
        """A value written as a string that reads unambiguously as ``value``: accepted, with a warning."""
        self.warn(path + (key,), f"`{dotted(path + (key,))}` is written as the string {brief(d[key])}; read as "
                  f"{plain} (the published schema writes it without quotes)", observed=d[key], expected=value,
                  fix=f"Write {plain}.")
        return value

    def num(self, d: dict, key: str, path: tuple, minimum: float | None = 0) -> float | None:
        v = d.get(key)
        if v is None:
            return None
        if isinstance(v, str):
            x = _float(v)
            v = v if x is None else self._spelled(d, key, path, x, f"{x:g}")
        ok = not isinstance(v, bool) and isinstance(v, (int, float)) and abs(v) <= _MAX and math.isfinite(v)
        if not ok or (minimum is not None and v < minimum):
            what = "a number" + (f" >= {minimum:g}" if minimum is not None else "")
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be {what}, got {brief(d[key])}", observed=d[key],
                     expected=what)
            return None
        return float(v)

    def whole(self, d: dict, key: str, path: tuple, minimum: int = 0) -> int | None:
        """A whole number (66840.0 is 66840; "2" is read as 2 with a warning; a bool is not a number)."""
        v = d.get(key)
        if v is None:
            return None
        if isinstance(v, str):
            x = _float(v)
            if x is not None and x.is_integer() and abs(x) <= _MAX:
                v = self._spelled(d, key, path, int(x), str(int(x)))
        if isinstance(v, float) and math.isfinite(v) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum or v > _MAX:
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be a whole number >= {minimum}, got "
                     f"{brief(d[key])}", observed=d[key], expected=f"a whole number >= {minimum}")
            return None
        return v

    def boolean(self, d: dict, key: str, path: tuple) -> bool | None:
        v = d.get(key)
        if v is None:
            return None
        if isinstance(v, str) and v.strip().lower() in _BOOL_WORDS:
            b = _BOOL_WORDS[v.strip().lower()]
            v = self._spelled(d, key, path, b, str(b).lower())
        if not isinstance(v, bool):
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be true or false, got {brief(v)}", observed=v,
                     expected="true or false")
            return None
        return v

    def string(self, d: dict, key: str, path: tuple, nonempty: bool = False) -> str | None:
        """A string (``nonempty``: at least one character); an empty one reads as absent."""
        v = d.get(key)
        if v is None:
            return None
        if not isinstance(v, str) or (nonempty and not v):
            what = "a non-empty string" if nonempty else "a string"
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be {what}, got {brief(v)}", observed=v,
                     expected=what)
            return None
        return v or None

    def sourced(self, d: dict, key: str, path: tuple, want: str = "power") -> Sourced | None:
        """E.1 sourced value at ``d[key]`` (None when absent). ``want``: "power" (W/kW) or "energy" (pJ/bit)."""
        p = path + (key,)
        if d.get(key) is None:
            return None
        v = self.mapping(d.get(key), p)
        if v is None:
            return Sourced(p, ok=False)
        out = Sourced(p)
        n = len(self.problems)
        extra = [k for k in v if k not in SOURCED_KEYS]
        if extra:
            self.bad(p + (extra[0],), f"`{dotted(p)}` has key(s) {', '.join(map(str, extra))} that a sourced value "
                     "does not take (E.1: one of value_w/value_kw/value_pj, source_type, source)",
                     observed=extra, expected="value_w | value_kw | value_pj, source_type, source")
        vals = [k for k in ("value_w", "value_kw", "value_pj") if v.get(k) is not None]
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
        st, src = v.get("source_type"), v.get("source")
        out.source_type = st if isinstance(st, str) else None
        out.source = src if isinstance(src, str) else None
        if st not in self.source_types:
            self.bad(p + (("source_type",) if "source_type" in v else ()),
                     f"`{dotted(p)}.source_type` must be one of {', '.join(self.source_types)}, got {brief(st)}",
                     observed=st, expected=" | ".join(self.source_types))
        elif st == "mlc_default":
            if src not in self.subsections:
                self.bad(p + (("source",) if "source" in v else ()), f"`{dotted(p)}.source` must name the Appendix D "
                         f"subsection ({', '.join(self.subsections)}) for mlc_default, got {brief(src)}",
                         observed=src, expected=" | ".join(self.subsections))
        elif not is_http_url(src):
            self.bad(p + (("source",) if "source" in v else ()), f"`{dotted(p)}.source` must be an http(s) URL of "
                     f"the public evidence, got {brief(src)}", observed=src, expected="an http(s) URL",
                     fix="Link the vendor specification or publication; or leave the figure out so the Appendix D "
                         "default applies (MLC Estimated Power).")
        out.ok = len(self.problems) == n
        return out


_BOOL_WORDS = bool_words("true", "false", "yes", "no", fold_case=True)  # a string read as a boolean, any case


def _float(text: str) -> float | None:
    """The finite number a string spells ("350", " 3.5e2 "), else None."""
    try:
        x = float(text.strip())
    except (ValueError, OverflowError):
        return None
    return x if math.isfinite(x) else None


def parse_power(data: Any, source_types: list[str], subsections: list[str]) -> PowerDoc:
    """Parse either shape; ``problems`` and ``warnings`` hold what was found."""
    r = _P(source_types, subsections)
    if not isinstance(data, dict):
        doc = PowerDoc("appendix-e")
        r.bad((), f"the file must hold a JSON object, not {brief(data)}", observed=brief(data),
              expected="an object (Appendix E)")
    elif "node_sets" not in data and any(k in data for k in FLAT_KEYS):
        from checker.load.models.power_flat import parse_flat

        doc = parse_flat(data, r)
    else:
        from checker.load.models.power_appendix_e import parse_appendix_e

        doc = parse_appendix_e(data, r)
    doc.problems, doc.warnings = r.problems, r.warnings
    return doc


def brief(v: Any) -> str:
    """``checker.core.values.show`` cut at 50 characters, except that JSON null reads "nothing" here."""
    return "nothing" if v is None else show(v, 50)
