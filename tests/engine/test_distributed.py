"""The Dask executor (issue 19): byte-identical reports, a lost worker retried once then a FAIL naming the
unit, the per-unit time limit, Ctrl-C cancelling the cluster's tasks, and the usage errors without Dask."""
import json
import os
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from casefixtures import FIXTURES
from cohortfixture import build_cohort
from conftest import REPO
from daskfixture import REAL_RUNS, need, start_cluster
from golden import scrub

from checker.core.findings import Status

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


@pytest.fixture(scope="module")
def cluster():
    cluster, client = start_cluster(2)
    yield cluster, client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    return build_cohort(str(tmp_path_factory.mktemp("dask-cohort")))


def _run(paths, **kw):
    from checker.engine.pipeline import run_check

    return run_check(paths, **kw)


def _render(report, fmt="json"):
    from checker.render import render

    return scrub(render(fmt, report, tty=False))


def _dask(cluster):
    return {"executor": "dask", "scheduler": cluster[0].scheduler_address}


def test_cohort_report_is_byte_identical_to_a_local_serial_run(cluster, cohort, monkeypatch):
    monkeypatch.chdir(os.path.dirname(cohort))
    serial = _run(["cohort"], jobs=1)
    remote = _run(["cohort"], **_dask(cluster))
    for fmt in ("json", "text", "sarif"):
        assert _render(remote, fmt) == _render(serial, fmt)


def test_single_run_folder_audit_runs_on_the_cluster_with_the_same_report(cluster):
    path = os.path.join(REAL_RUNS, "var_poisson_perf")
    assert _render(_run([path], **_dask(cluster))) == _render(_run([path], jobs=1))


def test_a_worker_lost_once_is_retried_and_changes_nothing(cluster, cohort, tmp_path, monkeypatch, capsys):
    import checker.engine.cohort_units as co

    original, marker = co.check_unit, str(tmp_path / "died-once")

    def dies_once(job):
        if job[0].label == "bravo/sub-b02" and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(9)  # the worker process is lost mid-unit
        return original(job)

    serial = _render(_run([cohort], jobs=1))
    monkeypatch.setattr(co, "check_unit", dies_once)
    report = _run([cohort], **_dask(cluster))
    assert os.path.exists(marker)
    assert _render(report) == serial
    assert "bravo/sub-b02 was lost; retrying it alone" in capsys.readouterr().err


def test_a_unit_that_keeps_killing_its_worker_is_a_fail_naming_it(cluster, cohort, monkeypatch):
    import checker.engine.cohort_units as co

    original = co.check_unit
    normal = _run([cohort], jobs=1)

    def always_dies(job):
        if job[0].label == "alpha/sub-a01":
            os._exit(9)
        return original(job)

    monkeypatch.setattr(co, "check_unit", always_dies)
    report = _run([cohort], **_dask(cluster))
    crashed = [f for f in report.findings if f.rule_id == "submission-checked" and f.status is Status.FAIL]
    assert [f.subject.label() for f in crashed] == ["alpha/sub-a01"]
    assert "lost twice" in crashed[0].message and "retried once" in crashed[0].message
    assert "alpha/sub-a01" in crashed[0].message  # the unit is named by its path
    keep = lambda r: [(f.rule_id, f.subject, f.status, f.message) for f in r.findings  # noqa: E731
                      if f.subject.submission in ("bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01")
                      and f.family != "cohort"]
    assert keep(report) == keep(normal)


def test_the_per_unit_time_limit_holds_on_the_cluster(cluster, cohort, monkeypatch):
    import checker.engine.cohort_units as co

    original = co.check_unit

    def hangs(job):
        if job[0].label == "charlie/sub-c01":
            while True:  # a runaway unit (pure Python: the worker-side deadline breaks it)
                time.sleep(0.01)
        return original(job)

    monkeypatch.setattr(co, "check_unit", hangs)
    t0 = time.monotonic()
    report = _run([cohort], timeout=8, **_dask(cluster))  # a real unit stays well under it on a loaded machine
    assert time.monotonic() - t0 < 60
    crashed = [f for f in report.findings if f.rule_id == "submission-checked" and f.status is Status.FAIL]
    assert [f.subject.label() for f in crashed] == ["charlie/sub-c01"]
    assert "ItemTimeout" in crashed[0].message


def _slow(x):
    time.sleep(0.5)
    return x


def test_ctrl_c_cancels_the_runs_tasks_on_the_cluster(cluster):
    from checker.engine.executors import parse_scheduler
    from checker.engine.executors.dask_cluster import DaskExecutor

    client = cluster[1]
    ex = DaskExecutor(parse_scheduler(cluster[0].scheduler_address))

    def interrupt(i):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ex.run_units(_slow, list(range(12)), on_done=interrupt)
    ex.close()
    deadline = time.monotonic() + 20
    left = None
    while time.monotonic() < deadline:
        left = client.run_on_scheduler(
            lambda dask_scheduler: sum(1 for k in dask_scheduler.tasks if str(k).startswith("endpoints-unit-")))
        if not left:
            break
        time.sleep(0.2)
    assert left == 0


def test_results_come_back_in_order_with_errors_isolated(cluster):
    from checker.engine.executors import parse_scheduler
    from checker.engine.executors.dask_cluster import DaskExecutor

    ex = DaskExecutor(parse_scheduler(cluster[0].scheduler_address))
    seen = []
    try:
        out = ex.run_units(_double_or_fail, [1, 2, "x", 3], on_result=lambda i, ok, v: seen.append(i))
    finally:
        ex.close()
    assert out[0] == (True, 2) and out[1] == (True, 4) and out[3] == (True, 6)
    assert out[2][0] is False and out[2][1].startswith("internal error: TypeError")
    assert sorted(seen) == [0, 1, 2, 3]


def _double_or_fail(x):
    if isinstance(x, str):
        raise TypeError("not a number")
    return x * 2


def test_cli_local_cluster_matches_the_serial_run(cohort):
    need("distributed")
    outs = []
    for extra in (["--jobs", "1"], ["--scheduler", "local:2"]):
        p = subprocess.run([sys.executable, "-m", "checker", "check", "cohort", "-f", "json", *extra],
                           cwd=os.path.dirname(cohort), capture_output=True, text=True, timeout=300)
        assert p.returncode == 1, p.stderr[-2000:]
        assert p.stderr == ""  # no progress, no cluster chatter when stderr is not a terminal
        outs.append(scrub(p.stdout))
    assert outs[0] == outs[1]
    json.loads(outs[1])


def test_without_dask_the_flag_is_a_usage_error_saying_what_to_install(monkeypatch):
    from checker.cli.main import main

    monkeypatch.setitem(sys.modules, "dask", None)
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = CliRunner().invoke(main, ["check", os.path.join(FIXTURES, "valid"), "--executor", "dask"])
    assert result.exit_code == 2
    assert "pip install 'endpoints-checker[dask]'" in result.output


@pytest.mark.parametrize("args,why", [
    (["--executor", "local", "--scheduler", "local:2"], "--scheduler needs --executor dask"),
    (["--scheduler", "local:x"], "local:N"),
    (["--scheduler", "local:0"], "N >= 1"),
    (["--scheduler", "tcp://a b"], "neither local:N nor a scheduler address"),
])
def test_bad_scheduler_options_are_usage_errors(args, why):
    from checker.cli.main import main

    result = CliRunner().invoke(main, ["check", os.path.join(FIXTURES, "valid"), *args])
    assert result.exit_code == 2 and why in result.output


def test_an_unreachable_scheduler_is_a_usage_error(cohort, monkeypatch):
    need("distributed")
    import checker.engine.executors.dask_cluster as dc
    from checker.cli.main import main

    monkeypatch.setattr(dc, "CONNECT_TIMEOUT", "2s")
    result = CliRunner().invoke(main, ["check", cohort, "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


def test_a_local_check_imports_neither_dask_nor_fsspec():
    paths = [os.path.join(FIXTURES, "valid"), os.path.join(REAL_RUNS, "var_poisson_perf")]
    code = ("import sys; from checker.engine.pipeline import run_check; "
            f"run_check({paths!r}, jobs=1);"
            "bad = [m for m in ('dask', 'distributed', 'fsspec', 's3fs') if m in sys.modules]; "
            "assert not bad, bad")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]


def test_a_local_cluster_never_closes_the_nanny_of_a_lost_worker():
    """``local:N`` holds LOCAL_CLUSTER_CONFIG while its cluster lives: Dask's default closes a lost worker's
    nanny when no worker of its name is back 15 s later (read at each loss), which under load took a
    restarting nanny down with the unit its new worker was given (an innocent unit reported as killing
    its worker). Closing the executor gives the process its configuration back."""
    need("distributed")
    import dask
    from dask.utils import parse_timedelta

    from checker.engine.executors.dask_cluster import LOCAL_CLUSTER_CONFIG, DaskExecutor

    key = "distributed.deploy.lost-worker-timeout"
    with dask.config.set({key: "15s"}):  # Dask's default (the cluster fixture of this module sets ours)
        ex = DaskExecutor(("local", 1))
        try:
            assert ex.run_units(str, [1, 2]) == [(True, "1"), (True, "2")]
            assert parse_timedelta(dask.config.get(key)) >= 365 * 86400
            assert dask.config.get(key) == LOCAL_CLUSTER_CONFIG[key]
        finally:
            ex.close()
        assert dask.config.get(key) == "15s"
