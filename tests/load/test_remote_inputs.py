"""Inputs by URL (issue 19): a cohort served by an S3-compatible server on 127.0.0.1 (moto's server mode),
checked by ``s3://`` URL, run archives included, in-process and on a 2-worker LocalCluster whose
workers read their units from storage themselves."""
import os

import pytest

from daskfixture import mixed_cohort, need, start_cluster
from golden import scrub

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

BUCKET = "reviews"
URL = f"s3://{BUCKET}/mixed"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    need("moto")
    s3fs = need("s3fs")
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    mp = pytest.MonkeyPatch()
    for key, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                       "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://{host}:{port}"}.items():
        mp.setenv(key, value)
    root = mixed_cohort(str(tmp_path_factory.mktemp("s3-cohort")))
    s3fs.S3FileSystem.clear_instance_cache()
    fs = s3fs.S3FileSystem()
    fs.mkdir(BUCKET)
    fs.put(root + "/", f"{BUCKET}/mixed/", recursive=True)
    yield root
    s3fs.S3FileSystem.clear_instance_cache()
    mp.undo()
    server.stop()


@pytest.fixture(scope="module")
def cluster(s3):
    cluster, client = start_cluster(2)  # started after the S3 settings, so its workers inherit them
    yield cluster
    client.close()
    cluster.close()


def _json(paths, **kw):
    from checker.engine.pipeline import run_check
    from checker.render import render

    return scrub(render("json", run_check(paths, **kw)))


@pytest.mark.parametrize("max_bytes", [8 << 20, 3000])
def test_an_s3_cohort_reads_like_the_same_tree_on_disk(s3, max_bytes):
    local = _json([s3], jobs=1, max_bytes=max_bytes).replace(s3, URL)
    assert _json([URL], jobs=1, max_bytes=max_bytes) == local
    assert '"file-too-large"' in local or max_bytes > 3000
    assert "runs/var_poisson_perf.tar.gz" in local  # the archives were checked as run folders


def test_workers_read_their_units_from_storage_themselves(s3, cluster, monkeypatch):
    import checker.load.remote as remote

    serial = _json([URL], jobs=1)

    def not_on_the_client(*a, **kw):
        raise AssertionError("the client read a unit's files")

    monkeypatch.setattr(remote, "_fetch_batch", not_on_the_client)
    monkeypatch.setattr(remote, "open_url", not_on_the_client)
    assert _json([URL], executor="dask", scheduler=cluster.scheduler_address) == serial


def test_one_archive_and_one_submission_by_url(s3):
    run = _json([f"{URL}/runs/var_poisson_perf.tar.gz"], jobs=1)
    assert run == _json([os.path.join(s3, "runs", "var_poisson_perf.tar.gz")], jobs=1).replace(s3, URL)
    sub = _json([f"{URL}/alpha/sub-a01"], jobs=1)
    assert sub == _json([os.path.join(s3, "alpha", "sub-a01")], jobs=1).replace(s3, URL)


def test_a_missing_url_is_a_missing_path(s3):
    from checker.engine.pipeline import run_check

    report = run_check([f"s3://{BUCKET}/no-such-prefix"], jobs=1)
    assert report.input_error and report.package.missing_paths == [f"s3://{BUCKET}/no-such-prefix"]
    assert report.exit_code() == 2


def test_a_protocol_without_its_package_says_what_to_install():
    from checker.engine.pipeline import run_check

    need("fsspec")
    try:
        import gcsfs  # noqa: F401
        pytest.skip("gcsfs is installed")
    except ImportError:
        pass
    report = run_check(["gs://bucket/cohort"], jobs=1)
    assert report.input_error
    ((path, why),) = report.package.unusable_paths
    assert path == "gs://bucket/cohort" and "gcsfs" in why


def test_mirrors_are_removed_after_the_check(s3, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    _json([URL], jobs=1)
    _json([f"{URL}/runs/echo_accuracy_only.tar.gz"], jobs=1)
    assert not [p for p in os.listdir(tmp_path) if p.startswith("endpoints-mirror-")]


def test_a_file_url_is_read_as_the_local_path():
    from casefixtures import FIXTURES

    valid = os.path.join(FIXTURES, "valid")
    assert _json([f"file://{valid}"], jobs=1).replace(f"file://{valid}", valid) == _json([valid], jobs=1)
