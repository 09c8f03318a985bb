"""The harness on Dask distributed: the German Credit benchmark run through a local cluster of two worker
processes on the loopback interface gives exactly the table of a local run. Deselect with -m "not distributed"."""
import pandas as pd
import pytest

from faircode.benchmark import format_results, run_benchmark
from faircode.benchmark.__main__ import main

AUDIT = "German Credit Lending"
GRID = dict(strategies=["S2", "S3", "S4"], models=["logistic_regression"], seeds=2, n_boot=100)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        yield local


@pytest.fixture(autouse=True)
def _no_fit_cache(monkeypatch):
    monkeypatch.setenv("FAIRCODE_FIT_CACHE", "off")  # both runs compute every cell


@pytest.mark.distributed
def test_the_cluster_gives_the_local_table(cluster):
    from faircode.benchmark._distributed import dask_cluster

    local = run_benchmark([AUDIT], n_jobs=1, **GRID)
    with dask_cluster(cluster.scheduler_address) as client:
        remote = run_benchmark([AUDIT], n_jobs=-1, **GRID)
        workers = client.scheduler_info()["workers"]
    assert len(workers) == 2
    pd.testing.assert_frame_equal(remote, local, check_exact=True)
    assert format_results(remote) == format_results(local)


@pytest.mark.distributed
def test_the_command_line_runs_on_the_scheduler(cluster, capsys):
    argv = ["--audit", AUDIT, "--strategy", "S2", "--model", "logistic_regression", "--bootstrap", "50", "--quiet"]
    assert main(argv + ["--scheduler", cluster.scheduler_address]) == 0
    remote = capsys.readouterr().out
    assert main(argv + ["--jobs", "1"]) == 0
    assert remote == capsys.readouterr().out
    assert "German Credit Lending" in remote


@pytest.mark.distributed
def test_an_address_without_a_scheduler_is_a_clear_error(capsys, monkeypatch):
    pytest.importorskip("dask.distributed")
    from faircode.benchmark import _distributed

    monkeypatch.setattr(_distributed, "CONNECT_TIMEOUT", 1)
    with pytest.raises(SystemExit) as stop:
        main(["--audit", AUDIT, "--strategy", "S2", "--quiet", "--scheduler", "tcp://127.0.0.1:9"])
    assert stop.value.code == 2
    assert "cannot connect to a Dask scheduler at 'tcp://127.0.0.1:9'" in capsys.readouterr().err
