"""The R§5.5 region algorithm, exactly as the authoritative reference computes it.

C_min is derived from the curve (lowest fixed-concurrency point, capped at 32) or taken from
``c_min_override``; boundaries use Python's half-to-even ``round`` and the margin ends at
``math.ceil(1.10 * C_max)`` in floating point. Float arithmetic makes that end one higher than
exact arithmetic for 925 values of C_max in 33..20,000 (C_max = 100 gives 111, exact gives 110):
we follow the reference, and ``float_only_margin`` tells a rule when a point sits on such a value.
"""
from __future__ import annotations

import math
from fractions import Fraction

import msgspec

from checker.core.values import is_int

ULTRA_LOW_MAX = 32
REGION_ORDER = ("low_latency", "low_concurrency", "med_concurrency", "high_concurrency", "margin")


class RegionInputError(ValueError):
    """(C_max, C_min) outside the algorithm's domain: 1 <= C_min <= 32 < C_max."""


class Regions(msgspec.Struct, frozen=True):
    c_max: int
    c_min: int
    bounds: dict  # region -> (start, end), inclusive; start > end means empty

    @property
    def margin_end(self) -> int:
        return self.bounds["margin"][1]

    def region_of(self, concurrency: int) -> str | None:
        """The computed region of a concurrency, or None when above the margin (out of range)."""
        for name in REGION_ORDER:
            lo, hi = self.bounds[name]
            if lo <= concurrency <= hi:
                return name
        return None

    def empty_regions(self) -> list[str]:
        return [n for n in REGION_ORDER if self.bounds[n][0] > self.bounds[n][1]]

    def float_only_margin(self, concurrency: int) -> bool:
        """True when ``concurrency`` is in the margin only because of the float ceil (exact gives one less)."""
        return concurrency == self.margin_end and exact_margin_end(self.c_max) < self.margin_end

    def as_rows(self) -> list[dict]:
        return [{"region": n, "start": lo, "end": hi, "empty": lo > hi} for n, (lo, hi) in self.bounds.items()]


def compute_regions(c_max: int, c_min: int) -> Regions:
    """R§5.5: raise RegionInputError unless 1 <= c_min <= 32 and c_max > 32."""
    if isinstance(c_max, bool) or isinstance(c_min, bool) or not isinstance(c_max, int) or not isinstance(c_min, int):
        raise RegionInputError("C_max and C_min must be integers")
    if not (1 <= c_min <= ULTRA_LOW_MAX):
        raise RegionInputError(f"C_min must be in 1..32, got {c_min}")
    if c_max <= ULTRA_LOW_MAX:
        raise RegionInputError(f"C_max must be greater than 32, got {c_max}")
    interval = math.log2(c_max - c_min) / 3
    low_end = round(c_min + 2 ** interval)
    med_end = round(c_min + 2 ** (2 * interval))
    bounds = {
        "low_latency": (1, c_min),
        "low_concurrency": (c_min + 1, low_end),
        "med_concurrency": (low_end + 1, med_end),
        "high_concurrency": (med_end + 1, c_max),
        "margin": (c_max + 1, math.ceil(1.10 * c_max)),
    }
    return Regions(c_max=c_max, c_min=c_min, bounds=bounds)


def exact_margin_end(c_max: int) -> int:
    """ceil(11/10 * C_max) in exact arithmetic (what the rules' prose means)."""
    return math.ceil(Fraction(11, 10) * c_max)


def derive_c_min(concurrencies) -> int | None:
    """C_min = the lowest fixed-concurrency point, capped at 32 (RULES.md §4.2)."""
    vals = [c for c in concurrencies if is_int(c) and c > 0]
    return min(min(vals), ULTRA_LOW_MAX) if vals else None


# ---------------------------------------------------------------------------------------------
# Curve level: where C_max and C_min come from, computed once per curve and shared by every rule.
# ---------------------------------------------------------------------------------------------


class Declaration(msgspec.Struct, frozen=True):
    """One value a file declares (C_max or c_min_override), with where it sits."""

    point: str  # point directory name, e.g. r64
    kind: str  # "system_desc" | "point_yaml"
    value: object
    file: object  # the LoadedFile

    @property
    def where(self) -> str:
        """'r64/system_desc.json line 12'."""
        name = self.file.rel.replace("\\", "/").rsplit("/", 1)[-1]
        line, _col = self.file.position((self.key,))
        return f"{self.point}/{name} line {line}" if line else f"{self.point}/{name}"

    @property
    def key(self) -> str:
        return "c_min_override" if self.kind == "override" else "max_supported_concurrency"


class CurveRegions(msgspec.Struct):
    """C_max, C_min and the regions of one curve, with every problem met while deriving them."""

    c_max: int | None = None
    c_max_source: str = ""  # "system_desc.json" | "point.yaml" | ""
    c_max_decl: list = msgspec.field(default_factory=list)  # integer declarations of max_supported_concurrency
    c_max_bad: list = msgspec.field(default_factory=list)  # Declarations whose value is not an integer
    c_min: int | None = None
    c_min_basis: str = ""  # "derived" | "override"
    c_min_derived: int | None = None  # what derivation gives, even when an override wins
    lowest_point: str | None = None  # the point whose concurrency gave the derived C_min
    basis_points: list = msgspec.field(default_factory=list)  # [(point, concurrency)] non-dedicated points
    unreadable: list = msgspec.field(default_factory=list)  # points whose point.yaml did not load (dir N used)
    override_decl: list = msgspec.field(default_factory=list)  # every c_min_override Declaration (any value)
    override_missing: list = msgspec.field(default_factory=list)  # loaded system_desc.json without an override
    override_problems: list = msgspec.field(default_factory=list)  # [(message, Declaration | None)]
    regions: Regions | None = None
    error: str | None = None  # why regions is None

    @property
    def c_max_disagreements(self) -> list:
        return [d for d in self.c_max_decl if d.value != self.c_max] if self.c_max is not None else []

    def c_max_where(self):
        """The first Declaration of the C_max in use (to locate findings about it)."""
        for kind in ("system_desc", "point_yaml"):
            for d in self.c_max_decl:
                if d.kind == kind and d.value == self.c_max:
                    return d
        return None


def _declarations(points, kind: str, key: str, tag: str | None = None) -> tuple[list, list]:
    """Declarations of ``key`` in each point's ``kind`` file: (all present values, points without it)."""
    found, absent = [], []
    for p in points:
        lf = p.files.get(kind)
        if lf is None or not lf.ok or not isinstance(lf.data, dict):
            continue
        if key in lf.data and lf.data[key] is not None:
            found.append(Declaration(p.name, tag or kind, lf.data[key], lf))
        else:
            absent.append(p.name)
    return found, absent


def _choose(decls: list):
    """The value most declarations agree on; ties go to the lowest-concurrency point's value."""
    counts: dict = {}
    for d in decls:
        counts[d.value] = counts.get(d.value, 0) + 1
    best = max(counts.values())
    for d in decls:
        if counts[d.value] == best:
            return d.value
    return None


def derive_curve_regions(curve) -> CurveRegions:
    """Derive C_max (system_desc.json first, else point.yaml), C_min and the regions of ``curve``."""
    points = list(curve.points)
    cr = CurveRegions()
    for kind in ("system_desc", "point_yaml"):
        decls, _ = _declarations(points, kind, "max_supported_concurrency")
        cr.c_max_decl += [d for d in decls if is_int(d.value)]
        cr.c_max_bad += [d for d in decls if not is_int(d.value)]
    for kind, source in (("system_desc", "system_desc.json"), ("point_yaml", "point.yaml")):
        own = [d for d in cr.c_max_decl if d.kind == kind]
        if own:
            cr.c_max, cr.c_max_source = _choose(own), source
            break

    # C_min: the lowest fixed-concurrency point (the dedicated Offline run never counts), capped at 32.
    for p in points:
        if p.is_dedicated_offline:
            continue
        if p.yaml is None:
            cr.unreadable.append(p.name)
        c = p.concurrency
        if is_int(c) and c > 0:
            cr.basis_points.append((p.name, c))
    if cr.basis_points:
        name, low = min(cr.basis_points, key=lambda t: t[1])
        cr.lowest_point, cr.c_min_derived = name, min(low, ULTRA_LOW_MAX)
    cr.c_min, cr.c_min_basis = cr.c_min_derived, "derived"

    override = _check_override(cr, points)
    if override is not None:
        cr.c_min, cr.c_min_basis = override, "override"

    if cr.c_max is None:
        cr.error = "no point declares an integer max_supported_concurrency (C_max)"
    elif cr.c_min is None:
        cr.error = "no point has a readable concurrency, so C_min cannot be derived"
    else:
        try:
            cr.regions = compute_regions(cr.c_max, cr.c_min)
        except RegionInputError as exc:
            cr.error = str(exc)
        except (OverflowError, ValueError) as exc:
            cr.error = f"C_max {cr.c_max} cannot be computed with: {exc}"
    return cr


def _check_override(cr: CurveRegions, points) -> int | None:
    """Validate ``c_min_override`` (system_desc.json): an int 1..32, on every point or none, equal to
    a submitted non-dedicated concurrency. Returns the override to use, or None."""
    decls, absent = _declarations(points, "system_desc", "c_min_override", tag="override")
    cr.override_decl, cr.override_missing = decls, absent
    if not decls:
        return None
    probs = cr.override_problems
    for d in decls:
        if not is_int(d.value):
            probs.append((f"{d.where}: c_min_override {d.value!r} is not an integer", d))
        elif not 1 <= d.value <= ULTRA_LOW_MAX:
            probs.append((f"{d.where}: c_min_override {d.value} is outside 1..{ULTRA_LOW_MAX}", d))
    values = sorted({repr(d.value) for d in decls})
    if len(values) > 1:
        probs.append((f"points declare different values: {', '.join(values)}", decls[0]))
    if absent:
        probs.append((f"declared at {', '.join(d.point for d in decls)} but not at {', '.join(absent)}", None))
    submitted = {c for _n, c in cr.basis_points}
    first = decls[0]
    if not probs and first.value not in submitted:
        probs.append((f"{first.where}: c_min_override {first.value} is not the concurrency of any submitted "
                      f"point ({', '.join(str(c) for c in sorted(submitted)) or 'none'})", first))
    return None if probs else first.value


def curve_regions(curve, ctx=None) -> CurveRegions:
    """The curve's CurveRegions, derived once and memoised on the curve for every rule and report."""
    return curve.cached("regions", lambda: derive_curve_regions(curve))


# ---------------------------------------------------------------------------------------------
# Presentation, shared by the `regions` command and the rules' messages.
# ---------------------------------------------------------------------------------------------

REGION_LABELS = {
    "low_latency": "Low-latency point",
    "low_concurrency": "Low",
    "med_concurrency": "Medium",
    "high_concurrency": "High",
    "margin": "Margin",
}


def span(bounds: tuple) -> str:
    lo, hi = bounds
    return f"{lo}-{hi}" if lo <= hi else f"empty ({lo} > {hi})"


def describe(regions: Regions) -> str:
    """One line: 'Low 2-11, Medium 12-103, High 104-1024, margin 1025-1127'."""
    b = regions.bounds
    return (f"low-latency 1-{regions.c_min}, Low {span(b['low_concurrency'])}, Medium {span(b['med_concurrency'])}, "
            f"High {span(b['high_concurrency'])}, margin {span(b['margin'])}")


def float_margin_note(regions: Regions) -> str | None:
    """Explain a margin end that is one higher than exact arithmetic gives, or None."""
    exact = exact_margin_end(regions.c_max)
    if exact == regions.margin_end:
        return None
    return (f"the margin ends at {regions.margin_end} because the reference computes ceil(1.10 * {regions.c_max}) "
            f"in floating point (1.10 * {regions.c_max} = {1.10 * regions.c_max!r}); exact arithmetic gives {exact}. "
            f"The reference value is used.")


def empty_region_note(regions: Regions) -> str | None:
    names = [REGION_LABELS[n] for n in regions.empty_regions()]
    if not names:
        return None
    return (f"{' and '.join(names)} {'is' if len(names) == 1 else 'are'} empty for C_max {regions.c_max}, "
            f"C_min {regions.c_min}: rounding leaves no concurrency level, so no point can cover "
            f"{'it' if len(names) == 1 else 'them'} (C_max - C_min is too small; a C_max of 33 or less "
            f"also needs the WG's written justification)")


def as_dict(regions: Regions) -> dict:
    return {
        "c_max": regions.c_max,
        "c_min": regions.c_min,
        "ultra_low": {"start": 1, "end": ULTRA_LOW_MAX},
        "regions": regions.as_rows(),
        "margin_end_exact": exact_margin_end(regions.c_max),
        "float_margin": exact_margin_end(regions.c_max) != regions.margin_end,
        "empty_regions": regions.empty_regions(),
    }


def as_text(regions: Regions) -> str:
    rows = [("Ultra Low (coverage)", 1, ULTRA_LOW_MAX, "any point <= 32 covers it")]
    for name in REGION_ORDER:
        lo, hi = regions.bounds[name]
        note = "empty" if lo > hi else ("single level" if lo == hi else "")
        if name == "margin":
            note = "in range, never counts for High" + (f"; {note}" if note else "")
        rows.append((f"{REGION_LABELS[name]} ({name})", lo, hi, note))
    w = max(len(r[0]) for r in rows)
    lines = [f"Regions for C_max = {regions.c_max}, C_min = {regions.c_min} (R§5.5)", ""]
    lines.append(f"{'region':<{w}}  {'start':>7}  {'end':>7}  note")
    for label, lo, hi, note in rows:
        lines.append(f"{label:<{w}}  {lo:>7}  {hi:>7}  {note}".rstrip())
    for note in (float_margin_note(regions), empty_region_note(regions)):
        if note:
            lines += ["", "note: " + note]
    return "\n".join(lines) + "\n"
