"""Everything that touches the file system: the package as read, bounded and typed.

file_kinds.py (every kind of file read whole: where it sits, its model, how it is treated) and layout.py (the
on-disk shape: the file tables, what a run folder or submission root is, --exclude, the walk's Options) are read
by every loader module, so none imports another to learn the shape. discovery.py decides what a PATH holds
(a URL or archive is mirrored first: mirror.py, mirror_build.py, archive.py, remote.py) and calls
submission.py (one submission root, its bounds and budget) or run_folder_files.py (one run folder);
placement.py (a PATH at the wrong level), carried.py (entries carried but never opened), planned.py (client
configs to pre-flight), bundle.py and bundle_tree.py (the bundle a set of run folders becomes). The bounded
readers: reader.py (size cap, special files, symlink escapes, UTF-8; ``Reads``, the check's overlay and parse
cache, passed in), yaml_reader.py and yaml_scalars.py (YAML 1.2 from parse events, every bound), json_reader.py,
text_check.py, parse_cache.py; every bound is listed in docs/robustness.md. models/ holds the typed model of
each file kind (attach.py validates, lenient.py collects every problem). package_tree.py is the loaded tree;
events*.py and sample_map.py stream a run's logs; cohort_digest.py, config_file.py (the configuration file).
"""
