"""The writing side of issue 38, in process: every byte to a non-blocking descriptor, the SARIF log streamed
with the same bytes, the spool of worker-encoded findings, an HTML folder that fails half-built."""
import errno
import json
import os
import threading
import time

import pytest

from casefixtures import FIXTURES

from checker.cli import folder
from checker.core import scratch
from checker.core.spool import TextSpool
from checker.core.writing import write_all


def test_write_all_waits_on_a_non_blocking_pipe_and_loses_nothing():
    r, w = os.pipe()
    os.set_blocking(w, False)
    got = bytearray()

    def slow_reader():
        while True:
            chunk = os.read(r, 1000)
            if not chunk:
                return
            got.extend(chunk)
            time.sleep(0.0002)

    reader = threading.Thread(target=slow_reader)
    reader.start()
    data = [bytes([i % 251]) * 70_001 for i in range(12)]
    write_all(w, iter(data))
    os.close(w)
    reader.join()
    os.close(r)
    assert bytes(got) == b"".join(data)


def test_write_all_says_when_the_reader_is_gone():
    r, w = os.pipe()
    os.close(r)
    with pytest.raises(BrokenPipeError):
        write_all(w, b"x" * 10)
    os.close(w)


def test_the_sarif_log_streamed_is_json_dumps_of_the_whole_log(monkeypatch):
    import json as stdjson

    from checker.engine.catalogue import complete_rules
    from checker.engine.pipeline import run_check
    from checker.render import sarif

    report = run_check([os.path.join(FIXTURES, "official-corpus")], jobs=1)
    rules = sorted(complete_rules(report.rules), key=lambda r: r.id)
    results = list(sarif._results(report, {r.id: i for i, r in enumerate(rules)}))
    assert len(results) > 300
    whole = stdjson.dumps(sarif._log(report, rules, results), indent=2, ensure_ascii=False) + "\n"
    monkeypatch.setattr(sarif, "BATCH", 7)
    monkeypatch.setattr(sarif, "CHUNK", 5000)
    pieces = list(sarif.render_chunks(report))
    assert len(pieces) > 10 and "".join(pieces) == whole
    report.findings = [f for f in report.findings if f.status.value != "FAIL"]
    assert "".join(sarif.render_chunks(report)) == stdjson.dumps(
        sarif._log(report, rules, []), indent=2, ensure_ascii=False) + "\n"


def test_the_spool_gives_back_every_text_and_keeps_it_in_memory_when_it_cannot_write(monkeypatch):
    spool = TextSpool()
    texts = ['{"a": "\ud800"}', "é" * 10_000, ""]
    handles = [spool.add(t) for t in texts]
    assert [str(h) for h in handles] == texts
    broken = TextSpool()

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")

    import tempfile

    monkeypatch.setattr(tempfile, "TemporaryFile", full)
    assert broken.add("kept") == "kept"


def _old_folder(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    for name in ("index.html", "001-a.html", "002-b.html"):
        (site / name).write_text(f"old {name}\n")
    return site


def test_a_folder_that_cannot_be_built_whole_leaves_the_old_one_as_it_was(tmp_path, monkeypatch):
    """Before: with the disk full, the new index.html linked to the old pages without saying so."""
    site = _old_folder(tmp_path)
    import checker.cli.folder as fmod

    calls = []

    def full_disk(fd, data):
        calls.append(fd)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        os.write(fd, data)

    monkeypatch.setattr(fmod, "write_all", full_disk)
    with pytest.raises(OSError):
        folder.stage(str(site) + "/", {f"{i:03d}-x.html": b"new\n" for i in range(5)})
    assert {n: (site / n).read_text() for n in os.listdir(site)} == {n: f"old {n}\n" for n in
                                                                      ("index.html", "001-a.html", "002-b.html")}
    assert [n for n in os.listdir(tmp_path) if n != "site"] == []


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2-exchange", "renamed-aside"])
def test_a_folder_is_swapped_whole(tmp_path, monkeypatch, exchange):
    site = _old_folder(tmp_path)
    if not exchange:
        monkeypatch.setattr(folder, "_exchange", lambda a, b: False)
    pair, removed = folder.stage(str(site) + "/", {"index.html": b"new index\n", "001-c.html": b"new c\n"})
    assert removed == [] and os.path.isdir(pair[0]) and sorted(os.listdir(site)) == ["001-a.html", "002-b.html",
                                                                                        "index.html"]
    folder.commit(pair)
    assert sorted(os.listdir(site)) == ["001-c.html", "index.html"]
    assert (site / "index.html").read_text() == "new index\n"
    assert sorted(os.listdir(tmp_path)) == ["site"]
    assert not scratch._LIVE


def test_the_cohort_folder_report_says_the_problem_and_exits_2(tmp_path, monkeypatch):
    """A page that cannot be written: one error line, exit 2, the old folder untouched (the CLI in process)."""
    from click.testing import CliRunner

    from checker.cli.main import main
    import checker.cli.folder as fmod

    site = _old_folder(tmp_path)

    def full_disk(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fmod, "write_all", full_disk)
    out = tmp_path / "r.json"
    result = CliRunner().invoke(main, ["check", os.path.join(FIXTURES, "valid"), "-f", "html", "-o", f"{site}/",
                                       "-f", "json", "-o", str(out)])
    assert result.exit_code == 2
    assert f"error: cannot write the html report to {site}/: No space left on device" in result.output
    assert json.loads(out.read_text())["summary"]["exit_code"] == 2
    assert sorted(os.listdir(site)) == ["001-a.html", "002-b.html", "index.html"]
    assert sorted(os.listdir(tmp_path)) == ["r.json", "site"]
