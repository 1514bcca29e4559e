"""A three-organisation cohort built from fixtures/valid plus patches (nothing big is committed).

    cohort/alpha/sub-a01   valid
    cohort/bravo/sub-b01   failing: an unknown seed set on one point, a stray file, a point.yaml
                           field of the wrong type
    cohort/bravo/sub-b02   the same system as sub-b01, described with twice the host memory
    cohort/charlie/sub-c01 hostile: an alias bomb in a point.yaml, a FIFO where a summary belongs,
                           an accuracy file symlinked out of the package, Latin-1 bytes in a system_desc.json
"""
from __future__ import annotations

import os
import shutil

from casefixtures import FIXTURES, apply_patch

ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8))

PATCHES = {
    "bravo/sub-b01": [
        {"set": {"file": "{curve}/r64/point.yaml", "path": ["seed_set"], "value": "B"}},
        {"set": {"file": "{curve}/r8/point.yaml", "path": ["concurrency"], "value": "eight"}},
        {"write": {"file": "notes.txt", "text": "left over\n"}},
    ],
    "bravo/sub-b02": [
        {"set": {"file": f"{{curve}}/r{c}/system_desc.json", "path": ["node_types", 0, "host_memory_capacity"],
                 "value": "4 TB"}} for c in (1, 4, 8, 32, 64, 256, 1024, 13368)
    ],
    "charlie/sub-c01": [
        {"write": {"file": "{curve}/r4/point.yaml", "text": ALIAS_BOMB}},
        {"mkfifo": "{curve}/r8/result_summary.json"},
        {"symlink": {"link": "{curve}/r1/accuracy_results.json", "target": "/etc/passwd"}},
        {"append": {"file": "{curve}/r32/system_desc.json", "bytes_hex": "0a2fe92f0a"}},
    ],
}


def build_cohort(root: str, name: str = "cohort") -> str:
    """Write the cohort under ``root/name`` and return its path."""
    cohort = os.path.join(root, name)
    for label in ("alpha/sub-a01", "bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01"):
        dest = os.path.join(cohort, label)
        shutil.copytree(os.path.join(FIXTURES, "valid"), dest, symlinks=True)
        for op in PATCHES.get(label, []):
            apply_patch(dest, op)
    return cohort
