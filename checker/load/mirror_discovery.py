"""Discovery of inputs read through a mirror: URLs (``s3://``, ``gs://``, ...) and ``.tar.gz`` run archives.

The location is mirrored by ``checker.load.mirror`` and the mirror is walked by the ordinary
discovery, so a remote cohort is classified exactly like a local one. A run archive is a run folder:
cohort planning names it without opening it (the worker that checks it reads it once).
"""
from __future__ import annotations

import os

from checker.load import mirror
from checker.load.discovery import add_directory
from checker.load.submission import Options
from checker.load.package_tree import Package
from checker.load.run_folder_files import load_run_folder


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
    try:
        return mirror.build(location, options.max_bytes, shallow=shallow, events=options.events)
    except mirror.MirrorError as exc:
        if exc.missing:
            pkg.missing_paths.append(display)
        else:
            pkg.unusable_paths.append((display, str(exc)))
        return None
