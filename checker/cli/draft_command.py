"""``draft`` after parsing (click-free): load the policy and the template, draft each folder, say what was written."""
from __future__ import annotations

import os


class DraftUsageError(Exception):
    """A bad option value: the click command shows it as a usage error (exit 2)."""


def run(run_folders, out_dir, force, max_concurrency, dataset_size, template, no_events, policy_dir) -> int:
    from checker.cli.output import warn, write_stdout
    from checker.draft.run import run as draft
    from checker.engine.policy import load_policy

    tmpl = _template(template) if template else None
    if out_dir and os.path.lexists(out_dir) and not os.path.isdir(out_dir):
        raise DraftUsageError(f"-o {out_dir}: not a directory")
    policy = load_policy(policy_dir, {})
    results = draft(list(run_folders), policy, out_dir=out_dir, force=force, c_max=max_concurrency,
                    dataset_size=dataset_size, template=tmpl, events=not no_events)
    lines = []
    for r in results:
        if r.written:
            lines.append(f"wrote {r.target}: {r.values} value(s) from the run, {r.fills} to fill in (<FILL: ...>)")
        else:
            warn(f"error: not drafted: {r.folder}: {r.reason}")
    written = [r for r in results if r.written]
    if written:
        folders = " ".join(r.folder for r in written)
        lines.append(f"next: replace every <FILL: ...>, then run: endpoints-checker check {folders} --fix")
    try:
        if lines:
            write_stdout("text", "\n".join(lines) + "\n")
    except OSError:
        return 1
    return 0 if len(written) == len(results) else 1


def _template(path: str) -> dict:
    from checker.load.reader import read_file

    lf = read_file("point_yaml", path, os.path.abspath(path), os.path.realpath(os.path.dirname(os.path.abspath(path))))
    if lf.error is not None or not isinstance(lf.data, dict):
        why = lf.error.message if lf.error is not None else "not a YAML mapping"
        raise DraftUsageError(f"--template {path}: {why}")
    return lf.data
