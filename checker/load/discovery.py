"""Find what PATH holds (organisation dir, submission root, run folder, cohort) and load it once.

A submission root is loaded by ``checker.load.submission`` (the fixed results/<system>/<model>/r<N>/
shape and its bounds); the walk never follows a symlink that loops or leaves the submission root, and
turns every unreadable directory into a recorded refusal. A URL or a ``.tar.gz`` run archive is
mirrored first (``checker.load.mirror_build``) and the mirror walked by ``add_directory`` like a
local path, so a remote cohort is classified exactly like a local one; cohort planning names a run
archive without opening it (the worker that checks it reads it once).
"""
from __future__ import annotations

import os

from checker.core.findings import Subject
from checker.load import mirror
from checker.load.layout import Options, is_dir, is_file, is_run_folder, is_submission_root, junk_reason, scan_dir
from checker.load.package_tree import Package
from checker.load.placement import is_repository_entry, looks_like_package_point, points_hint, wrong_level
from checker.load.planned import PlannedSet, configs_in, read_config
from checker.load.reader import entry_problem
from checker.load.run_folder_files import load_run_folder
from checker.load.submission import cap_entries, load_submission






def discover(paths: list[str], options: Options | None = None) -> Package:
    options = options or Options()
    pkg = Package(
        paths=list(paths), missing_paths=[], unusable_paths=[], submissions=[], run_folders=[], junk=[],
        assemblies=[], plan=None, refused=[], leftovers=options.leftovers,
    )
    planned: list = []
    for path in paths:
        if path[:7].lower() == "file://":
            path = mirror.file_url_path(path)  # a file URL is a local path, read as one
        if mirror.needs_mirror(path):
            discover_mirrored(pkg, path, options)
            continue
        display = os.path.normpath(path)
        if not os.path.lexists(path):
            pkg.missing_paths.append(display)
            continue
        if not is_dir(path):
            cfg, why = read_config(path, display, options.max_bytes, options.reads) if is_file(path) else (None, "not a directory")
            if cfg is not None:  # a client config to pre-flight
                planned.append(cfg)
            else:
                pkg.unusable_paths.append((display, why))
            continue
        before = len(pkg.unusable_paths)
        if add_directory(pkg, path, display, options, root_real=os.path.realpath(path)):
            cfgs = configs_in(path, display, options.max_bytes, options.reads) if len(pkg.unusable_paths) > before else []
            if cfgs:  # a directory of client configs: nothing else was found there
                del pkg.unusable_paths[before:]
                planned.extend(cfgs)
    if planned and (pkg.submissions or pkg.run_folders):
        pkg.unusable_paths.extend((c.rel, "a client config: pre-flight the configs in a check of their own")
                                  for c in planned)
    elif planned:
        try:
            common = os.path.commonpath([os.path.dirname(c.rel) or "." for c in planned]) or "."
        except ValueError:  # absolute and relative paths mixed
            common = "."
        if len({c.name for c in planned}) < len(planned):  # one file name in two directories: name by path
            for c in planned:
                c.name = c.rel
        pkg.plan = PlannedSet(configs=planned, display=common)
    pkg.junk = cap_entries(pkg.junk)
    return pkg


def add_directory(pkg: Package, path: str, display: str, options: Options, root_real: str) -> bool:
    """A directory given as PATH (or a mirror of one): a path at the wrong level, a run folder, a
    submission root, or else an organisation or cohort directory whose children are walked (True)."""
    hint = None if is_submission_root(path) else wrong_level(path, display)
    if hint:
        pkg.unusable_paths.append((display, hint))
    elif is_run_folder(path):
        pkg.run_folders.append(load_run_folder(path, display, options))
    elif is_submission_root(path):
        pkg.submissions.append(load_submission(path, display, options, org=""))
    else:
        _discover_children(pkg, path, display, options, root_real=root_real)
        return True
    return False


def _discover_children(pkg: Package, path: str, display: str, options: Options, depth: int = 0,
                       root_real: str = "") -> None:
    """An organisation or cohort directory: its submissions and run folders (never one reached through a
    symlink leaving ``root_real``, the PATH given: each such entry is refused and reported)."""
    entries, err = scan_dir(path, options.exclude)
    if err is not None:
        pkg.unusable_paths.append((display, err.message))
        return
    found_before = len(pkg.submissions) + len(pkg.run_folders)
    org = os.path.basename(os.path.normpath(os.path.abspath(path)))
    leftovers = []
    for e in entries:
        child = os.path.join(path, e.name)
        cdisplay = os.path.join(display, e.name)
        # above the submission roots: the repository's (.git, CI, a README or LICENSE file, scripts/), not the
        # package's; a directory named readme-* is a submission like any other
        if is_repository_entry(e.name, is_dir(child)):
            continue
        why = junk_reason(e.name)
        if why:
            pkg.junk.append((cdisplay, why))
            continue
        if root_real and e.is_symlink():
            problem = entry_problem(child, root_real)
            if problem is not None:
                pkg.refused.append((Subject(), cdisplay, problem))
                continue
        if not is_dir(child):
            if mirror.is_archive(e.name) and is_file(child):
                add_archive(pkg, child, cdisplay, options)
            elif e.name != "cli_metadata.json":
                leftovers.append((cdisplay, "file"))
            continue
        if looks_like_package_point(child):  # a bundle point is not a flat run folder
            leftovers.append((cdisplay, "a point directory of a submission package, outside results/<system>/<model>/"))
        elif is_run_folder(child):
            pkg.run_folders.append(load_run_folder(child, cdisplay, options))
        elif is_submission_root(child):
            pkg.submissions.append(load_submission(child, cdisplay, options, org=org))
        elif depth == 0:
            before = len(pkg.submissions) + len(pkg.run_folders)
            _discover_children(pkg, child, cdisplay, options, depth + 1, root_real)
            if len(pkg.submissions) + len(pkg.run_folders) == before:
                leftovers.append((cdisplay, "directory holding no submission or run folder"))
        else:
            leftovers.append((cdisplay, "directory holding no submission or run folder"))
    if len(pkg.submissions) + len(pkg.run_folders) > found_before:
        pkg.junk.extend((d, f"unexpected {w}") for d, w in leftovers)
    elif depth == 0:
        why = points_hint(path, entries) or "holds no submission (results/, docs/) and no run folder"
        pkg.unusable_paths.append((display, why))


def discover_mirrored(pkg: Package, location: str, options: Options) -> None:
    """A URL or a run archive: mirrored by ``checker.load.mirror``, then walked like a local path."""
    display = mirror.display_of(location)
    if mirror.is_archive(location):
        add_archive(pkg, location, display, options)
        return
    local = _mirror(pkg, location, display, options, shallow=options.shallow)
    if local is not None:
        add_directory(pkg, local, display, options, root_real="")  # the private mirror holds no symlinks out


def add_archive(pkg: Package, path: str, display: str, options: Options) -> None:
    """A ``.tar.gz`` run archive is a run folder; planning names it without opening it."""
    location = mirror.origin(path)
    if options.shallow:
        if not mirror.is_url(location) and not os.path.lexists(location):
            pkg.missing_paths.append(display)
            return
        rf = load_run_folder(location if mirror.is_url(location) else os.path.abspath(location), display, options)
        rf.abspath = location if mirror.is_url(location) else os.path.abspath(location)
        rf.name = mirror.archive_stem(location)
        pkg.run_folders.append(rf)
        return
    local = _mirror(pkg, location, display, options)
    if local is not None:
        pkg.run_folders.append(load_run_folder(local, display, options))


def _mirror(pkg: Package, location: str, display: str, options: Options, shallow: bool = False) -> str | None:
    """The local mirror of ``location``, or None with the reason recorded (missing, or unusable)."""
    from checker.load import mirror_build  # tarfile and the remote reader: only for an input that needs them

    try:
        return mirror_build.build(location, options.max_bytes, shallow=shallow, events=options.events)
    except mirror.MirrorError as exc:
        if exc.missing:
            pkg.missing_paths.append(display)
        else:
            pkg.unusable_paths.append((display, str(exc)))
        return None
