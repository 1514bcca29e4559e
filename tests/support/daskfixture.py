"""Helpers of the distributed tests: optional extras (required under CI), a small LocalCluster, an S3 server.

Under ``CI=true`` a missing extra fails the test instead of skipping it: ``make test`` installs
``.[test,dask,dask-test]``, so a skip there would hide a broken install.
"""
from __future__ import annotations

import importlib
import os
import shutil
import tarfile

import pytest

from casefixtures import FIXTURES

REAL_RUNS = os.path.join(FIXTURES, "real-runs")


def need(module: str):
    """Import an optional extra; skip without it, except in CI where it must be installed."""
    if os.environ.get("CI") == "true":
        return importlib.import_module(module)
    return pytest.importorskip(module)


def start_cluster(workers: int = 2):
    """A LocalCluster of single-threaded worker processes on 127.0.0.1, configured like ``local:N``.

    The configuration stays set for the rest of the test process (as ``local:N`` keeps it while its cluster
    lives): ``distributed.deploy.lost-worker-timeout`` is read each time a worker is lost."""
    need("distributed")
    import logging

    import dask
    from distributed import Client, LocalCluster

    from checker.engine.executors.dask_cluster import LOCAL_CLUSTER_CONFIG

    dask.config.set(LOCAL_CLUSTER_CONFIG)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
    return cluster, Client(cluster, set_as_default=False)


def archive(src: str, dest: str) -> str:
    """``dest`` (.tar.gz) holding the directory ``src`` under its own name, as a run is uploaded."""
    with tarfile.open(dest, "w:gz") as tf:
        tf.add(src, arcname=os.path.basename(src))
    return dest


def mixed_cohort(root: str) -> str:
    """Two organisations' submissions, two run archives and one plain run folder (no special files)."""
    from casefixtures import apply_patch
    from cohortfixture import PATCHES

    cohort = os.path.join(root, "mixed")
    for label in ("alpha/sub-a01", "bravo/sub-b01"):
        dest = os.path.join(cohort, label)
        shutil.copytree(os.path.join(FIXTURES, "valid"), dest)
        for op in PATCHES.get(label, []):
            apply_patch(dest, op)
    runs = os.path.join(cohort, "runs")
    os.makedirs(runs)
    for name in ("var_poisson_perf", "echo_accuracy_only"):
        archive(os.path.join(REAL_RUNS, name), os.path.join(runs, name + ".tar.gz"))
    plain = "var_concurrency_allchunks"
    shutil.copytree(os.path.join(REAL_RUNS, plain), os.path.join(runs, plain))
    return cohort
