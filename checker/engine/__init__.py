"""The check itself: discover, evaluate every rule over every subject, decide, build the Report.

catalogue.py is the one importer of ``rules`` (with --select only the selected families; the others from
rules/index.json). config.py (RunConfig: what one check is asked to do) and check_settings.py (a check's
settings: the configuration file's keys derived from ``check``'s click options, and the RunConfig they make).
pipeline.py runs a check: evaluate.py (one finding per rule and subject, needs enforced, a raising rule isolated),
run_folders.py (run-folder context and audits), assemble.py + bundle_writer.py (run folders checked as the bundle
they become), week0.py with official/ (the Week-0 verdict: the installed official checker's answer, else the
model's prediction), waivers.py, baseline.py + baseline_file.py, path_ignores.py, causes.py (each consequence FAIL
linked to its root cause, as the rules declare), report.py, tally.py and problems.py (the Report; verdicts, counts
and the problem lines, one per root cause, computed once for every output). A cohort runs its units in workers:
cohort_units.py, pool.py, lifetime.py (children die with the run), executors/ (local processes or Dask),
progress.py. policy.py and policy_age.py load the policy edition (fail closed) and say how old it is;
request.py is the entry a long-running server calls per request (it never raises).
"""
