"""Benchmark of the benchmark harness: the whole grid over many seeds, on one worker, two local workers and a
Dask cluster of two worker processes.

Prints ``BENCH`` lines: wall time of ``run_benchmark`` over every audit, strategy and default model with SEEDS
splits (default 20) with one local worker (``n_jobs=1``), with two (``n_jobs=2``, joblib's loky processes) and
through a Dask ``LocalCluster`` of two single-threaded worker processes on the loopback interface (the path
``python -m faircode.benchmark --scheduler`` takes); the scaling ratios (one worker's time over each two-worker
run's); the mean time per fit, overall and per strategy (from the one-worker run, where fits do not compete for
cores). The fit cache is off, so every cell is fitted. Every run must give the identical table; the script fails
if one does not. The runs alternate (1, 2, Dask) with each repeat so that they share the machine's load alike.

Run: ``make bench`` (all benchmarks), or from the repository root
``PYTHONPATH=. .venv/bin/python scripts/benchmarks/bench_harness.py [--seeds N] [--audit NAME ...]``.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time

import pandas as pd

WORKERS = 2


def _cpu_by_process():
    """CPU seconds used so far by this process and by each process under it (loky and Dask workers alike), keyed
    by (pid, start time) so that a reused pid is not taken for the same process."""
    import psutil

    me = psutil.Process()
    seconds = {}
    for process in [me, *me.children(recursive=True)]:
        try:
            with process.oneshot():
                times, started = process.cpu_times(), process.create_time()
        except psutil.NoSuchProcess:
            continue
        seconds[process.pid, started] = times.user + times.system
    return seconds


def _cpu_used(before, after):
    """CPU seconds the processes alive at the end used since ``before``, each counted from its own earlier figure
    (from 0 if it started since). A process that ended in between is left out, rather than its earlier total
    subtracted: the idle loky workers of the two-worker run time out and exit during the Dask run, and taking
    their earlier seconds off would count the Dask workers' work as almost nothing."""
    return sum(seconds - before.get(key, 0.0) for key, seconds in after.items())


def _timed_run(audits, seeds, n_jobs):
    from faircode.benchmark import run_benchmark

    seconds = collections.defaultdict(list)

    def record(done, total, cell, fit_seconds):
        seconds[cell.strategy].append(fit_seconds)

    start, cpu = time.perf_counter(), _cpu_by_process()
    results = run_benchmark(audits, seeds=seeds, n_jobs=n_jobs, progress=record)
    wall = time.perf_counter() - start
    seconds["cpu"] = [_cpu_used(cpu, _cpu_by_process())]
    return wall, results, seconds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--audit", action="append", help="limit to these audits (default: all)")
    parser.add_argument("--seeds", type=int, default=20, help="splits per cell (default 20)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each setting; the fastest counts")
    args = parser.parse_args([] if argv is None else argv)
    saved = os.environ.get("FAIRCODE_FIT_CACHE")
    os.environ["FAIRCODE_FIT_CACHE"] = "off"  # measure the fits, not the cache
    try:
        _measure(args)
    finally:
        if saved is None:
            os.environ.pop("FAIRCODE_FIT_CACHE")
        else:
            os.environ["FAIRCODE_FIT_CACHE"] = saved


def _measure(args):
    from dask.distributed import LocalCluster

    from faircode.benchmark._distributed import dask_cluster

    walls, cpus, reference, seconds = collections.defaultdict(list), collections.defaultdict(list), None, None
    with LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        for _ in range(args.repeats):
            for setting in ("one", "two", "dask"):
                if setting == "dask":
                    with dask_cluster(cluster.scheduler_address):
                        wall, results, per_strategy = _timed_run(args.audit, args.seeds, -1)
                else:
                    wall, results, per_strategy = _timed_run(args.audit, args.seeds, 1 if setting == "one" else WORKERS)
                walls[setting].append(wall)
                cpus[setting].append(per_strategy.pop("cpu")[0])
                # A line as each run ends, so a run cut short still says what it measured.
                print(f"# {setting}: {wall:.2f} s wall, {cpus[setting][-1]:.1f} CPU s", file=sys.stderr, flush=True)
                if setting == "one":
                    seconds = per_strategy
                reference = results if reference is None else reference
                pd.testing.assert_frame_equal(results, reference, check_exact=True)
    one, two, dask = (min(walls[s]) for s in ("one", "two", "dask"))
    fits = sum(len(v) for v in seconds.values())
    print(f"BENCH harness_seeds {args.seeds} splits")
    print(f"BENCH harness_fits {fits} fits")
    print(f"BENCH harness_wall_one_worker {one:.2f} s")
    print(f"BENCH harness_wall_two_workers {two:.2f} s")
    print(f"BENCH harness_wall_dask_two_workers {dask:.2f} s")
    print(f"BENCH harness_scaling_two_workers_over_one {one / two:.2f} x")
    print(f"BENCH harness_scaling_dask_over_one {one / dask:.2f} x")
    print(f"BENCH harness_dask_over_local_two_workers {dask / two:.2f} ratio")
    # CPU seconds the run's processes got over its wall time: how many cores it actually had on a shared machine.
    for setting in ("one", "two", "dask"):
        best = walls[setting].index(min(walls[setting]))
        print(f"BENCH harness_cores_used_{setting} {cpus[setting][best] / walls[setting][best]:.2f} cores")
    print(f"BENCH harness_time_per_fit {sum(sum(v) for v in seconds.values()) / fits:.3f} s")
    for strategy, values in seconds.items():
        print(f"BENCH harness_time_per_fit_{strategy} {sum(values) / len(values):.3f} s")
    sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
