"""Pure algorithms from the rules text, no I/O: regions.py (R§5.5), cohort_ids.py, point_metrics.py (per-point
metrics), benchmark.py (which model a curve measures, whether it is agentic), steady_state.py (the steady-state
detector's output in R§4.4's words, read by the rules and by ``draft``)."""
