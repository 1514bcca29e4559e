"""The R§5.5 region function and the `regions` command: RULES.md §4.2 tables and the invariants."""
import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.cli.main import main
from checker.domain.regions import (REGION_ORDER, RegionInputError, as_dict, as_text, compute_regions, derive_c_min,
                             exact_margin_end)

# RULES.md §4.2 Appendix B: (C_max, C_min, Low, Medium, High, Margin)
APPENDIX_B = [
    (64, 2, (3, 6), (7, 18), (19, 64), (65, 71)),
    (128, 2, (3, 7), (8, 27), (28, 128), (129, 141)),
    (256, 2, (3, 8), (9, 42), (43, 256), (257, 282)),
    (256, 8, (9, 14), (15, 47), (48, 256), (257, 282)),
    (512, 8, (9, 16), (17, 71), (72, 512), (513, 564)),
    (1024, 8, (9, 18), (19, 109), (110, 1024), (1025, 1127)),
    (512, 16, (17, 24), (25, 79), (80, 512), (513, 564)),
    (1024, 16, (17, 26), (27, 117), (118, 1024), (1025, 1127)),
    (2048, 16, (17, 29), (30, 176), (177, 2048), (2049, 2253)),
    (1024, 32, (33, 42), (43, 131), (132, 1024), (1025, 1127)),
    (2048, 32, (33, 45), (46, 192), (193, 2048), (2049, 2253)),
    (4096, 32, (33, 48), (49, 287), (288, 4096), (4097, 4506)),
    (8192, 32, (33, 52), (53, 437), (438, 8192), (8193, 9012)),
    (16384, 32, (33, 57), (58, 676), (677, 16384), (16385, 18023)),
]

# RULES.md §4.2 worked examples (Example C per the algorithm, B14) and OFFICIAL-CHECKER.md §2.8.
WORKED = [
    (8192, 32, (33, 52), (53, 437), (438, 8192), (8193, 9012)),
    (256, 1, (2, 7), (8, 41), (42, 256), (257, 282)),
    (1024, 16, (17, 26), (27, 117), (118, 1024), (1025, 1127)),
    (1024, 1, (2, 11), (12, 103), (104, 1024), (1025, 1127)),
]


@pytest.mark.parametrize("c_max,c_min,low,med,high,margin", APPENDIX_B + WORKED,
                         ids=[f"{r[0]}-{r[1]}" for r in APPENDIX_B + WORKED])
def test_table_rows(c_max, c_min, low, med, high, margin):
    r = compute_regions(c_max, c_min)
    assert r.bounds == {"low_latency": (1, c_min), "low_concurrency": low, "med_concurrency": med,
                        "high_concurrency": high, "margin": margin}


def test_example_c_slip_is_not_reproduced():
    """R§5.4 Example C's prose puts 117 in High; the algorithm (authoritative) puts it in Medium."""
    r = compute_regions(1024, 16)
    assert r.region_of(117) == "med_concurrency" and r.region_of(118) == "high_concurrency"


def _reference(c_max, c_min):
    """R§5.5 as printed in RULES.md §4.2 (Python round() is half-to-even)."""
    i = math.log2(c_max - c_min) / 3
    low_end = round(c_min + 2 ** i)
    med_end = round(c_min + 2 ** (2 * i))
    return {"low_latency": (1, c_min), "low_concurrency": (c_min + 1, low_end),
            "med_concurrency": (low_end + 1, med_end), "high_concurrency": (med_end + 1, c_max),
            "margin": (c_max + 1, math.ceil(1.10 * c_max))}


def test_matches_reference_formula_exhaustively():
    for c_max in range(33, 2049):
        for c_min in range(1, 33):
            assert compute_regions(c_max, c_min).bounds == _reference(c_max, c_min), (c_max, c_min)


def test_float_margin_discrepancy():
    r = compute_regions(100, 1)
    assert r.margin_end == 111 and exact_margin_end(100) == 110
    assert r.float_only_margin(111) and not r.float_only_margin(110)
    assert r.region_of(111) == "margin" and r.region_of(112) is None
    differ = [c for c in range(33, 20001) if math.ceil(1.10 * c) != exact_margin_end(c)]
    assert len(differ) == 925  # RULES.md §12
    assert not compute_regions(1024, 1).float_only_margin(1127)


@pytest.mark.parametrize("c_max,c_min", [(32, 1), (33, 0), (33, 33), (10, 5), (True, 1), (100, 1.0), ("100", 1)])
def test_bad_input(c_max, c_min):
    with pytest.raises(RegionInputError):
        compute_regions(c_max, c_min)


def test_empty_and_single_level_regions():
    r = compute_regions(34, 32)
    assert r.bounds["low_concurrency"] == (33, 33) and r.bounds["med_concurrency"] == (34, 34)
    assert r.bounds["high_concurrency"] == (35, 34)
    assert r.empty_regions() == ["high_concurrency"]
    assert r.region_of(34) == "med_concurrency" and r.region_of(35) == "margin"
    assert "high_concurrency is empty" in as_text(r)


def test_derive_c_min():
    assert derive_c_min([64, 8, 1024]) == 8
    assert derive_c_min([64, 128]) == 32
    assert derive_c_min([True, "4", None, 0, -3]) is None


@settings(max_examples=1000, deadline=None)
@given(st.integers(33, 20000), st.integers(1, 32))
@pytest.mark.slow
def test_invariants(c_max, c_min):
    r = compute_regions(c_max, c_min)
    b = [r.bounds[n] for n in REGION_ORDER]
    assert b[0][0] == 1 and b[-1][1] == math.ceil(1.10 * c_max)
    for (_lo1, hi1), (lo2, _hi2) in zip(b, b[1:]):
        assert lo2 == hi1 + 1  # contiguous, in order
    ends = [hi for _lo, hi in b]
    assert ends == sorted(ends)  # ordered (an empty region's end equals the previous end)
    assert r.bounds["high_concurrency"][1] == c_max and r.bounds["margin"][0] == c_max + 1
    assert r.empty_regions() == [n for n in REGION_ORDER if r.bounds[n][0] > r.bounds[n][1]]
    assert "low_concurrency" not in r.empty_regions() and "margin" not in r.empty_regions()
    for c in {1, c_min, c_min + 1, r.bounds["med_concurrency"][0], c_max, c_max + 1, r.margin_end}:
        name = r.region_of(c)
        assert name is not None and name not in r.empty_regions()
        lo, hi = r.bounds[name]
        assert lo <= c <= hi
    assert r.region_of(r.margin_end + 1) is None
    for c in {c_max + 1, (c_max + 1 + r.margin_end) // 2, r.margin_end}:
        assert r.region_of(c) == "margin"  # the margin never counts for high_concurrency
    # C_max itself is High unless rounding emptied High (then it is the top of a lower region)
    assert r.region_of(c_max) in (("med_concurrency", "low_concurrency") if "high_concurrency" in r.empty_regions()
                                  else ("high_concurrency",))


def test_every_level_has_exactly_one_region_small_domain():
    for c_max in range(33, 200):
        for c_min in range(1, 33):
            r = compute_regions(c_max, c_min)
            for c in range(1, r.margin_end + 1):
                assert sum(1 for n in REGION_ORDER if r.bounds[n][0] <= c <= r.bounds[n][1]) == 1


# ---- the `regions` command -------------------------------------------------------------------

def _run(*args):
    return CliRunner().invoke(main, ["regions", *args])


def test_cli_text_matches_appendix_b():
    res = _run("--max-concurrency", "1024", "--min-concurrency", "16")
    assert res.exit_code == 0, res.output
    lines = {ln.split()[0]: ln.split() for ln in res.output.splitlines() if ln.split() and "_" in ln.split()[0]}
    assert lines["low_concurrency"][1:3] == ["17", "26"]
    assert lines["med_concurrency"][1:3] == ["27", "117"]
    assert lines["high_concurrency"][1:3] == ["118", "1024"]


def test_cli_default_min_is_32_and_json():
    res = _run("-M", "8192", "--format", "json")
    assert res.exit_code == 0
    d = json.loads(res.output)
    assert d == as_dict(compute_regions(8192, 32))
    rows = {x["region"]: (x["start"], x["end"]) for x in d["regions"]}
    assert rows["med_concurrency"] == (53, 437) and rows["margin"] == (8193, 9012)


def test_cli_float_note():
    res = _run("-M", "100", "-m", "1")
    assert res.exit_code == 0 and "exact arithmetic gives 110" in res.output


@pytest.mark.parametrize("args,text", [
    (("-M", "32"), "C_max must be greater than 32"),
    (("-M", "100", "-m", "0"), "C_min must be in 1..32"),
    (("-M", "100", "-m", "33"), "C_min must be in 1..32"),
    (("-M", "1" + "0" * 400), "too large"),
    (("-M", "abc"), "not a valid integer"),
    ((), "Missing option"),
])
def test_cli_bad_bounds_exit_2(args, text):
    res = _run(*args)
    assert res.exit_code == 2
    assert text in res.output
