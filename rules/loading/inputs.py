"""Loader refusals and policy health: one rule per kind of hostile or broken file.

The loader never raises; it records a refusal code per file. These rules turn each refusal into
one FAIL per offending file (subject = the point/system/submission that owns it, entry = the
file), and one PASS per run when there is none.
"""
from __future__ import annotations

from checker.core.findings import Location, Subject
from checker.core.rule import Fail, Pass, rule


def _refusals(pkg, code: str):
    for subject, entry, err in getattr(pkg, "refused", None) or ():
        if err.code == code:
            yield subject, entry, err, ""
    for sub in pkg.submissions:
        for subject, entry, err in sub.refused:
            if err.code == code:
                yield subject, entry, err, sub.rel
    for rf in pkg.run_folders:
        for subject, entry, err in rf.refused:
            if err.code == code:
                yield subject, entry, err, rf.rel


def _refusal_rule(code: str, pass_msg: str, fix: str):
    def check(pkg, ctx):
        outs = []
        for subject, entry, err, _root in _refusals(pkg, code):
            where = _display(pkg, subject, entry)
            at = Location(where, err.line, err.column) if err.line else where
            outs.append(Fail(err.message if err.line else f"{where}: {err.message}", file=at, subject=subject,
                             entry=entry or "(directory)", observed=err.message, expected=pass_msg, fix=fix,
                             extra={"line": err.line, "column": err.column} if err.line else {}))
        return outs or Pass(pass_msg)

    return check


def _display(pkg, subject: Subject, entry: str) -> str:
    """Best display path for an entry inside a subject."""
    for sub in pkg.submissions:
        if sub.name != subject.submission:
            continue
        base = sub.rel
        for s in sub.systems:
            if s.name == subject.system:
                base = s.rel
                for c in s.curves:
                    if c.name == subject.model:
                        base = c.rel
                        for p in c.points:
                            if p.name == subject.point:
                                base = p.rel
        return f"{base}/{entry}".rstrip("/") if entry else base
    for rf in pkg.run_folders:
        if rf.name == subject.point:
            return f"{rf.rel}/{entry}".rstrip("/") if entry else rf.rel
    return entry


def _declare(code, title, clause, pass_msg, fix, doc, severity="reject"):
    func = _refusal_rule(code, pass_msg, fix)
    func.__doc__ = doc
    func.__name__ = code.replace("-", "_")
    globals()[func.__name__] = rule(id=code, title=title, clause=clause, severity=severity, scope="package")(func)


_declare(
    "file-unreadable", "File or directory readable", "R§8.1",
    "every file and directory could be read", "Make the entry a regular, readable file or directory inside the package.",
    """A file or directory of the package cannot be read.

    What it checks: every directory of the layout can be listed and every file the checker reads is a
    regular file that can be opened: not a FIFO, device or directory in a file's place, not a
    dangling or looping symlink, not blocked by permissions. The entries no rule reads but the bundle
    carries (everything under docs/ and src/, a point's server_configs/ and other files, the
    submission's cli_metadata.json) are inspected the same way without being opened: a directory
    that cannot be listed or searched (mode 000, 111, 444), a file that cannot be read, a FIFO,
    socket or device, a dangling or looping symlink.
    Why: MLCommons' pipeline reads the same files; an entry nobody can read makes the submission
    incomplete (R§9.1 "Submission completeness"). The official checker crashes or hangs here.
    How to fix: Replace the entry with a regular file (or directory) with read permission, and
    remove symlinks that point at themselves or at a parent directory.
    """,
)
_declare(
    "symlink-escape", "Symlinks stay inside the package", "R§8.1",
    "no symlink leaves the submission root", "Copy the target into the package instead of linking to it.",
    """A symlink inside the package resolves to a path outside the submission root.

    What it checks: every symlinked file or directory that the layout uses, or that the bundle
    carries (docs/, src/, a point's other entries), resolves (after every link) to a path inside the
    submission root. The target is never opened, only its path resolved.
    Why: the uploaded bundle carries only the package; a link to /etc or to a home directory
    checks something reviewers will never see.
    How to fix: Copy the target into the package instead of linking to it.
    """,
)
_declare(
    "file-too-large", "File size within the limit", "R§8.1",
    "every YAML/JSON file is within the size limit", "Remove the bulk: these files hold summaries, not logs.",
    """A YAML or JSON file is larger than the loader's cap (8 MiB by default, --max-file-size), or a
    directory holds more systems or models than the checker loads.

    What it checks: the size of every point.yaml, system_desc.json, result_summary.json,
    accuracy_results.json, config.yaml and system_power.json before it is read; and the number of
    system and model directories of a submission (256 each: the rest are named once, never loaded).
    Why: those files are small summaries; a huge one is a mistake (a log pasted in) or an attack,
    and reading it costs memory (the official checker takes 12 s on a 20 MiB point.yaml).
    How to fix: Remove the bulk; raw logs belong in the run archive, not in the summary files.
    """,
)
_declare(
    "file-encoding", "Files are UTF-8 text", "R§8.1",
    "every file is UTF-8 text", "Re-save the file as UTF-8 without binary content.",
    """A file is not UTF-8 text (an invalid byte, or binary content with NUL bytes).

    What it checks: each file decodes as UTF-8; the finding names the first bad byte and its offset.
    Why: YAML and JSON are UTF-8; a Latin-1 byte in a comment crashes the official checker.
    How to fix: Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`), and make sure the
    right file was copied (not a binary).
    """,
)
_declare(
    "nesting-too-deep", "Nesting depth within the limit", "R§8.1",
    "no file nests deeper than 64 levels", "Flatten the structure; no submission file needs this depth.",
    """A YAML or JSON file nests mappings/lists deeper than 64 levels.

    What it checks: nesting depth while parsing, so a 100,000-deep file is refused at level 65.
    Why: no legitimate submission file is this deep; deep input crashes recursive parsers.
    How to fix: Flatten the structure.
    """,
)
_declare(
    "alias-budget", "YAML aliases within budget", "R§8.1",
    "YAML aliases expand to a bounded size", "Write the values out instead of aliasing them repeatedly.",
    """YAML anchors and aliases expand to more than 10,000 nodes or 1 Mi characters of text ("billion laughs").

    What it checks: the total size of every alias expansion while parsing, in nodes and in the
    characters of the scalars it repeats; the file is refused as soon as a budget is exceeded, in
    milliseconds and without building the expansion.
    Why: an alias bomb in a typed field grows the official checker to 16 GB of memory.
    How to fix: Write the values out, or use aliases sparingly.
    """,
)
_declare(
    "duplicate-key", "No duplicate keys", "R§8.3",
    "no mapping repeats a key", "Keep one occurrence of the key, with the value you mean.",
    """A mapping repeats a key.

    What it checks: every mapping in every YAML/JSON file; the finding is at the repeat's line:col
    and names the first occurrence's line. The file's other rules SKIP, saying the file was not
    loaded because of this key.
    Why: YAML and JSON loaders silently keep one of the two values (the official checker takes the
    last); a duplicated `concurrency` or `seed_set` makes the file say two things.
    How to fix: Keep one occurrence of the key, with the value you mean.
    """,
)
_declare(
    "integer-too-long", "Integers of sane length", "R§8.1",
    "no integer is longer than 64 digits", "Write the real value; seeds fit in 20 digits.",
    """An integer literal has more than 64 digits.

    What it checks: integer length while parsing (seeds up to 2^64 have 20 digits and are exact).
    Why: a 5,000-digit integer crashes the official checker (Python's int-digit limit) and is never
    a real value.
    How to fix: Write the real value.
    """,
)


_declare(
    "empty-file", "Documentation files hold something", "R§8.4",
    "no documentation file is empty", "Write the document, or remove the empty file.",
    """A file under docs/ is empty (0 bytes).

    What it checks: every file the bundle publishes under docs/ (calibration.adoc, software
    disclosures, any other documentation), except hidden placeholders such as .gitkeep, holds at
    least one byte. An empty src/<impl>/README.md is src-readme's warning.
    Why: docs/ is published with the results (R§8.4 disclosures, R§3.3 calibration); an empty file
    there is usually a failed copy or a placeholder left behind, and discloses nothing.
    How to fix: Write the document, copy the right file, or remove the empty one.
    """,
    severity="warn",
)


@rule(id="policy-registry", title="Policy data loads", clause="R§9.1", severity="reject",
      scope="package")
def policy_registry(pkg, ctx):
    """The policy data the rules need (rules/policy/<edition>/*.yaml or --policy DIR) loads and fits its schema.

    What it checks: every policy file (allowed models, datasets, thresholds, seed sets...) exists,
    parses and validates against its schema (schemas/policy/).
    Why: fail closed. A rule family whose table cannot be read would otherwise pass silently (the
    official checker does exactly that with its seed and drafter registries).
    How to fix: Restore the policy file, or point --policy / the override flag at a valid one.
    """
    outs = []
    ctx.policy.load_all()
    for name, prob in sorted(ctx.policy.problems.items()):
        if name in ctx.policy.reporters:  # e.g. seed_sets: seed-set-registry reports it
            continue
        where = f"{prob.file}:{prob.line}" if prob.line else prob.file
        outs.append(Fail(f"policy {name!r} cannot be used: {prob.message} ({where})", file=prob.file,
                         entry=f"policy:{name}", observed=prob.message, expected="a valid policy file"))
    return outs or Pass(f"{len(ctx.policy.data)} policy files loaded ({ctx.policy.edition}, {ctx.policy.version})")
