"""The submission's cli_metadata.json: written by `submissions create`, carried by the bundle, read by no rule."""
from __future__ import annotations

from checker.core.rule import Fail, Pass, rule


@rule(id="cli-metadata-valid", title="cli_metadata.json is a JSON object", clause="R§8.1", severity="warn",
      scope="submission", needs=("maybe-read:cli_metadata",))
def cli_metadata_valid(sub, ctx):
    """`cli_metadata.json`, when the submission root holds one, parses as a JSON object.

    What it checks: the file `submissions create` writes beside results/ (RULES.md §1.3: `command`,
    `cli_version`, `most_recent_cli_used`, `created_at`) is JSON and holds an object. Its fields are
    not checked (the official checker ignores the file); an unreadable or special file is
    file-unreadable's, a link out of the package symlink-escape's.
    Why: the bundle carries it to MLCommons; an empty or truncated copy says the bundle was not
    assembled by the CLI, or was damaged on the way.
    How to fix: Rebuild the bundle with `submissions create`, or delete the damaged file.
    """
    lf = sub.files.get("cli_metadata")
    if lf is None or not lf.exists:
        return Pass("no cli_metadata.json (written by `submissions create`)")
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        return Fail(f"cli_metadata.json does not parse: {lf.error.message}", file=lf, observed=lf.error.message,
                    expected="a JSON object")
    if not isinstance(lf.data, dict):
        return Fail(f"cli_metadata.json holds {type(lf.data).__name__}, not a JSON object", file=lf,
                    observed=type(lf.data).__name__, expected="a JSON object")
    return Pass("cli_metadata.json is a JSON object")
