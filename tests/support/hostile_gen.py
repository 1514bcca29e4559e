"""Generators of hostile input for the round-two hostile tests (issue 17): hypothesis strategies over
strings, values, names, documents and file trees, plus the helpers that run the CLI in a child with
CPU/memory accounting or check a tree in-process while recording every path the process opens.

Every strategy is small and bounded (sizes, depths, example counts), so the suite stays within a few
minutes on two cores; the huge cases (a 100,000-level nesting, a 200 GB sparse tail, 8 MiB lists,
10,000 directories) are fixed examples built by the tests themselves.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import threading

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from casefixtures import FIXTURES, PLACEHOLDERS, apply_patch

CURVE = PLACEHOLDERS["{curve}"]
#: HOSTILE_SCALE=20 make test: twenty times the examples of every generator (a deeper search, same tests)
SCALE = max(1, int(os.environ.get("HOSTILE_SCALE", "1") or 1))


def examples(n: int) -> int:
    return n * SCALE


def slow(n: int):
    """Settings for a generator whose every example checks a whole tree: ``n`` examples (times
    HOSTILE_SCALE), no deadline, and no shrinking (a failing example is reported as generated: shrinking
    whole-tree checks can take many minutes)."""
    return settings(max_examples=examples(n), deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
VALID = os.path.join(FIXTURES, "valid")
REAL_RUNS = os.path.join(FIXTURES, "real-runs")
FORMATS = ("json", "text", "html", "markdown", "sarif", "junit", "github")
EXT = {"json": "json", "text": "txt", "html": "html", "markdown": "md", "sarif": "sarif", "junit": "xml",
       "github": "gh"}

# ---------------------------------------------------------------------------------------------------------
# strings and scalars a submitter (or an unlucky tool) can put anywhere


#: single characters that broke a renderer or a terminal somewhere: lone surrogates (what a non-UTF-8
#: byte in a name, or a "\ud800" in a JSON string, becomes), controls, NUL, bidi overrides, non-BMP,
#: HTML/XML/Markdown/CSV/workflow-command metacharacters, Unicode digits
NASTY_CHARS = ["\ud800", "\udcff", "\udc80", "\udfff", "\x00", "\x1b", "\r", "\n", "\t", "\x7f", "\x85",
               "\u2028", "\u202e", "\ufeff", "\U0001f4a5", "\U0010ffff", "<", ">", "&", '"', "'", "`", "|",
               "%", "::", "\\", "]]>", "${{", "²", "١", "７", "\u0301"]

nasty_text = st.lists(st.sampled_from(NASTY_CHARS) | st.text(max_size=4), max_size=8).map("".join)
#: strings a renderer must carry: short, or occasionally long
hostile_str = nasty_text | st.text(max_size=12) | st.builds(lambda c, n: c * n, st.sampled_from(NASTY_CHARS),
                                                          st.integers(100, 3000))
huge_ints = st.sampled_from([2 ** 63, -(2 ** 63) - 1, 2 ** 64, 10 ** 64 - 1, 10 ** 64, 10 ** 200])
hostile_scalars = (st.none() | st.booleans() | st.integers(-10, 10 ** 6) | huge_ints
                   | st.sampled_from([float("nan"), float("inf"), float("-inf"), -0.0, 1e308, 5e-324])
                   | hostile_str)


def deep(levels: int, leaf=None, kind: str = "list"):
    """``levels`` nested lists (or dicts), built iteratively (no recursion here either)."""
    v = leaf
    for _ in range(levels):
        v = [v] if kind == "list" else {"d": v}
    return v


def deep_json_text(levels: int, kind: str = "list") -> str:
    if kind == "list":
        return "[" * levels + "]" * levels
    return '{"d":' * levels + "null" + "}" * levels


hostile_values = st.recursive(
    hostile_scalars,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(hostile_str, c, max_size=3),
    max_leaves=8,
) | st.sampled_from(["DEEP-80", "DEEP-100000", "LIST-20000"])


class RawJSON:
    """A value written as raw JSON text (too deep for json.dumps to build): see ``dump_json``."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self):
        return f"RawJSON({len(self.text)} chars)"


def realise(value):
    """Turn the placeholder markers of ``hostile_values`` into their (big) values."""
    if value == "DEEP-80":
        return deep(80)
    if value == "DEEP-100000":
        return RawJSON(deep_json_text(100_000))
    if value == "LIST-20000":
        return list(range(20_000))
    return value


def dump_json(value) -> str:
    """JSON text of any generated value: NaN/Infinity as Python writes them, lone surrogates as \\udcxx
    escapes (ensure_ascii), ``RawJSON`` spliced in as written."""
    raws: list = []

    def default(o):
        if isinstance(o, RawJSON):
            raws.append(o.text)
            return f"@@raw{len(raws) - 1}@@"
        raise TypeError(type(o).__name__)

    if isinstance(value, RawJSON):
        return value.text
    text = json.dumps(value, ensure_ascii=True, default=default)
    for i, raw in enumerate(raws):
        text = text.replace(f'"@@raw{i}@@"', raw, 1)
    return text


def dump_yaml(value) -> str:
    """YAML text of a generated value: flow style (a JSON document is YAML 1.2), deep values iteratively."""
    return dump_json(value)


# ---------------------------------------------------------------------------------------------------------
# names


#: directory/file names as bytes: Unicode digits, non-UTF-8 bytes, controls, very long, dot names
name_bytes = st.sampled_from([
    "r²".encode(), "r١".encode(), "r７".encode(), "r8\u0301".encode(), b"r\xff", b"r\x80\x81", b"\xe9t\xe9",
    b"r" + b"9" * 200, b"r-1", b"r+8", b"r 8", b"r8\n", b"r8\x1b[2J", b"R8", b"r08", "r\u202e8".encode(),
    b"..r8", b"r" + "\U0001f4a5".encode(), b"%2e%2e", b"CON", b"nul",
])


# ---------------------------------------------------------------------------------------------------------
# trees


def copy_valid(dest: str, base: str = VALID) -> str:
    shutil.copytree(base, dest, symlinks=True)
    return dest


def build(dest: str, patches: list, base: str = VALID) -> str:
    copy_valid(dest, base)
    for op in patches:
        apply_patch(dest, op)
    return dest


def data_paths(value, prefix=()):
    """Every (path, value) of a parsed document, containers included (the fields a generator may hit)."""
    out = [(prefix, value)]
    stack = [(prefix, value)]
    while stack:
        p, v = stack.pop()
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in items:
            out.append((p + (k,), x))
            if isinstance(x, (dict, list)):
                stack.append((p + (k,), x))
    return out


def set_path(doc, path, value):
    if not path:
        return value
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return doc


# ---------------------------------------------------------------------------------------------------------
# running the checker


#: run the CLI and, at exit, record the process's own peak RSS (VmHWM belongs to the exec'd image;
#: ru_maxrss would also count the pytest parent's pages the child had before exec); the CLI's quick
#: exit (os._exit, checker.cli.entry) skips atexit, so it records first
_WRAPPER = ("import atexit, os, runpy, sys\n"
            "hwm = sys.argv.pop(1)\n"
            "def peak():\n"
            "    with open('/proc/self/status') as fh:\n"
            "        kb = [ln.split()[1] for ln in fh if ln.startswith('VmHWM:')]\n"
            "    with open(hwm, 'w') as out:\n"
            "        out.write(kb[0] if kb else '0')\n"
            "atexit.register(peak)\n"
            "_exit = os._exit\n"
            "os._exit = lambda code: (peak(), _exit(code))\n"
            "sys.argv[0] = 'endpoints-checker'\n"
            "runpy.run_module('checker', run_name='__main__')\n")


#: run a child with the file-permission capabilities dropped, so permission bits apply to root too (tests
#: run as root here; the bounding set is inherited by the exec'd interpreter)
NO_DAC = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]


def can_drop_dac() -> bool:
    """True when NO_DAC works here (setpriv present and allowed to drop from the bounding set)."""
    import subprocess

    if not shutil.which("setpriv"):
        return False
    try:
        return subprocess.run(NO_DAC + ["true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def run_cli(args, cwd=None, timeout=60, env=None, preexec_fn=None, stdout_path=None, wrap=()):
    """Run the CLI in a child: (rc, stdout, stderr, CPU seconds, peak RSS MB); ``wrap``: a command prefix
    (``NO_DAC``).

    CPU time rather than wall time, so a loaded machine cannot fail a test; the wall-clock ``timeout``
    still catches a hang (a blocked open or read uses no CPU)."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        hwm = os.path.join(tmp, "hwm")
        out_path = stdout_path or os.path.join(tmp, "out")
        with open(out_path, "w+b") as out, open(os.path.join(tmp, "err"), "w+b") as err:
            full_env = dict(os.environ, PYTHONPATH=os.path.dirname(FIXTURES))
            full_env.update(env or {})
            proc = subprocess.Popen([*wrap, sys.executable, "-c", _WRAPPER, hwm, *args], stdout=out, stderr=err, cwd=cwd,
                                    env=full_env, preexec_fn=preexec_fn)
            timer = threading.Timer(timeout, proc.kill)
            timer.start()
            try:
                _pid, status, usage = os.wait4(proc.pid, 0)
            finally:
                timer.cancel()
            rc = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        peak_kb = int(open(hwm).read() or 0) if os.path.exists(hwm) else 0
    assert rc != -9, f"killed after {timeout} s (hang): {args}"
    assert rc < 0 or peak_kb > 0, f"the child's peak memory was not recorded: {args}"  # a bound never checked passes
    return rc, stdout, stderr, usage.ru_utime + usage.ru_stime, peak_kb / 1024


def internal_errors(findings) -> list:
    """Findings that are a handling strategy of last resort (an exception turned into a FAIL)."""
    out = []
    for f in findings:
        d = f if isinstance(f, dict) else f.as_dict()
        if "internal error" in d["message"] or d.get("reason") == "rule-error":
            out.append((d["rule_id"], d["message"][:200]))
    return out


class OpenRecorder:
    """Every path this process opens, lists or scans while ``active`` (a ``sys.addaudithook`` hook: hooks
    cannot be removed, so one is installed once and switched on around each check)."""

    _installed = False
    active = False
    paths: list = []

    @classmethod
    def install(cls):
        if not cls._installed:
            sys.addaudithook(cls._hook)
            cls._installed = True

    @classmethod
    def _hook(cls, event, args):
        if not cls.active:
            return
        if event in ("open", "os.scandir", "os.listdir") and args:
            p = args[0]
            if isinstance(p, bytes):
                p = os.fsdecode(p)
            if isinstance(p, str):
                cls.paths.append(os.path.abspath(p))

    def __enter__(self):
        self.install()
        OpenRecorder.paths = []
        OpenRecorder.active = True
        return self

    def __exit__(self, *exc):
        OpenRecorder.active = False
        return False

    def under(self, directory: str) -> list:
        real = os.path.realpath(directory)
        return [p for p in OpenRecorder.paths
                if p == directory or p.startswith(directory + os.sep) or os.path.realpath(p).startswith(real + os.sep)
                or os.path.realpath(p) == real]
