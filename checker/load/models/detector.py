"""``steady_state.json``: what the client's steady-state detector writes into a run folder (R§4.4).

The detector (``scripts/steady_state_diagnostics.py``, later in the client itself) groups the tracked
samples into super-passes by issue order, drops its ``warmup`` first super-passes and looks for the
first plateau of the gated metrics. Its headline is the ``steady_state`` block; the rest (trajectories,
CoV tables, drift tests) is diagnostics no rule reads, kept as written. None of the R§8.3 point.yaml
fields (``status``, ``verdict``, per-metric ``state``, ``window.duration_s``) is in the file: the rules
derive them (``rules.steady_state.detector``) and ``draft`` writes them.

The window counts super-passes after the detector's warmup, ``sp_hi`` exclusive.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import Field

from checker.load.models.common import FileModel


class DetectorWindow(FileModel):
    """steady_state.window: the first plateau, in post-warmup super-passes."""

    sp_lo: Optional[int] = Field(None, description="first super-pass of the window, counted after the warmup ones")
    sp_hi: Optional[int] = Field(None, description="super-pass after the window's last (exclusive)")
    n_super_passes: Optional[int] = Field(None, description="super-passes in the window")
    n_samples: Optional[int] = Field(None, description="samples issued in the window")


class DetectorAnomaly(FileModel):
    """steady_state.anomaly: a later level shift of the gated metrics (a change point)."""

    detected: Optional[bool] = Field(None, description="a level shift after the first plateau was confirmed")
    change_point_sp: Optional[int] = Field(None, description="the post-warmup super-pass where the level shifts")
    delta_pct: Optional[float] = Field(None, description="signed change of the later TPOT level, percent")


class DetectorBlock(FileModel):
    """steady_state: the detector's headline."""

    found: Optional[bool] = Field(None, description="a steady plateau was found")
    reason: Optional[str] = Field(None, description="why none was found")
    window: Optional[DetectorWindow] = Field(None, description="the plateau's extent (null when none was found)")
    ttft: Any = Field(None, description="TTFT over the window (ns): count, mean, min, max, p50, p90, p95, p99")
    tpot: Any = Field(None, description="TPOT over the window (ns), as ttft")
    tps: Any = Field(None, description="per-user and system output tokens per second over the window")
    anomaly: Optional[DetectorAnomaly] = Field(None, description="a later level shift, when detected")
    global_trend: Optional[dict[str, Optional[str]]] = Field(
        None, description="gated metric -> its trend from the plateau to the end of the run: steady, up, down or "
                          "insufficient")
    drifting_up: Optional[list[Optional[str]]] = Field(
        None, description="gated metrics drifting up over the rest of the run")


class DetectorOutput(FileModel):
    """steady_state.json: the steady-state detector's output for one run folder's events.jsonl."""

    n_super_passes: Optional[int] = Field(None, description="super-passes in the tracked run, warmup ones included")
    superpass_size: Optional[int] = Field(None, description="samples per super-pass (one dataset pass by default)")
    warmup: Optional[int] = Field(None, description="leading super-passes the detector dropped (its warmup option)")
    n_post_warmup: Optional[int] = Field(None, description="super-passes after the dropped ones")
    gated_metrics: Optional[list[Optional[str]]] = Field(
        None, description="the metrics whose trend gates the plateau (ttft_p50, ttft_p95, tpot_p50, tpot_p95)")
    steady_state: Optional[DetectorBlock] = Field(None, description="the headline: the first plateau")
