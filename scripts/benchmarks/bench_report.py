"""faircode.audit at scale (issue 23 item 4): rows per second at 1M and 10M rows, against fairlearn's MetricFrame.

Data: synthetic predictions (a 0/1 label, a score in steps of 0.01, a race column of four groups and a sex column
of two), generated in memory, so the figures time the audit and not a disk. faircode.audit computes the two
columns' rates (8 each), gaps and ratios to the reference with 1,000-resample paired bootstrap intervals, AUC and
calibration per group; MetricFrame computes the same 8 rates per race x sex cell without any interval
(``n_boot`` = 0: its bootstrap recomputes every metric on every resample, so at these sizes it is timed at 1M rows
on N_BOOT_FAIRLEARN resamples and extrapolated linearly to 1,000, the BENCH name says so). Peak memory is
tracemalloc's peak during a second, untimed call of the audit (numpy's and pandas' allocations are traced), next
to the size of the columns read. Another line times the command line on a 1M-row CSV file, reading included.
The Dask lines time ``audit(folder)`` on the same kind of rows written as a Parquet folder of 1M-row files (written
a file at a time, so no process holds all the rows), reading included, in a fresh process with Dask's default
local (threaded) scheduler: the workers count rows per distinct (label, score, race, sex) and the bootstrap runs on
those counts. Its peak memory is the whole process's peak resident size (driver and workers), and tracemalloc's
peak of a second, untimed call; at 1M rows the JSON is also compared with the pandas engine's on the same folder.
BENCH_REPORT_SIZES=1000000 runs the 1M-row lines only.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np
import pandas as pd
from fairlearn.metrics import (MetricFrame, false_negative_rate, false_positive_rate, selection_rate,
                               true_positive_rate)
from sklearn.metrics import accuracy_score, precision_score

from faircode.report import audit

SIZES = tuple(int(s) for s in os.environ.get("BENCH_REPORT_SIZES", "1000000,10000000").split(","))
N_BOOT = 1000
N_BOOT_FAIRLEARN = 2
METRICS = {"selection_rate": selection_rate, "tpr": true_positive_rate, "fpr": false_positive_rate,
           "fnr": false_negative_rate, "precision": lambda t, p: precision_score(t, p, zero_division=0.0),
           "accuracy": accuracy_score, "base_rate": lambda t, p: float(np.mean(t)),
           "npv": lambda t, p: float(np.mean(np.asarray(t)[np.asarray(p) == 0] == 0))}


def _data(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    race = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), n, p=[0.5, 0.3, 0.15, 0.05])
    y = rng.binomial(1, 0.35, n).astype(np.int8)
    p = np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0, 1).round(2)
    return pd.DataFrame({"y": y, "p": p, "race": race, "sex": rng.choice(np.array(["f", "m"], dtype=object), n)})


def _parquet_folder(folder: str, n: int, per_file: int = 1_000_000) -> None:
    """``n`` rows like ``_data``'s, as Parquet files of ``per_file`` rows (4 files at 1M rows)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    per_file = min(per_file, max(n // 4, 1))
    os.makedirs(folder)
    for i, start in enumerate(range(0, n, per_file)):
        chunk = _data(min(per_file, n - start), seed=i)
        pq.write_table(pa.Table.from_pandas(chunk, preserve_index=False), os.path.join(folder, f"part.{i:03d}.parquet"))


def _dask_child(folder: str, n: int) -> None:
    """Run in a fresh process: the Dask audit of ``folder``, its time, memory and (at 1M rows) agreement."""
    label = f"{n // 1_000_000}M"
    seconds, report = _timed(lambda: _audit(folder))
    assert report.meta["rows_used"] == n
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"BENCH report_dask_{label}_rows_parquet_folder_boot{N_BOOT}_s {seconds:.2f} s", flush=True)
    print(f"BENCH report_dask_{label}_rows_per_s {n / seconds:.3g} rows/s", flush=True)
    print(f"BENCH report_dask_{label}_peak_rss {rss / 2**20:.0f} MiB", flush=True)
    print(f"BENCH report_dask_{label}_peak_memory {_peak(lambda: _audit(folder)) / 2**20:.0f} MiB", flush=True)
    if n <= 1_000_000:
        same = _audit(folder).to_json() == audit(folder, label="y", score="p", threshold=0.5, groups=["race", "sex"],
                                                 n_boot=N_BOOT, engine="pandas").to_json()
        print(f"BENCH report_dask_{label}_json_identical_to_pandas {int(same)} bool", flush=True)


def _dask_line(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "predictions")
        _parquet_folder(folder, n)
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--dask-child", folder, str(n)],
                             check=True, capture_output=True, text=True)
        sys.stdout.write(out.stdout)
        sys.stdout.flush()


def _timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def _peak(fn) -> int:
    """Peak traced memory of a second call (tracemalloc slows allocation-heavy code, so never while timing)."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def _audit(df):
    return audit(df, label="y", score="p", threshold=0.5, groups=["race", "sex"], n_boot=N_BOOT)


def _metricframe(df, n_boot=None):
    boot = dict(n_boot=n_boot, ci_quantiles=[0.025, 0.975], random_state=0) if n_boot else {}
    return MetricFrame(metrics=METRICS, y_true=df["y"], y_pred=(df["p"] >= 0.5).astype(int),
                       sensitive_features=df[["race", "sex"]], **boot)


def main():
    for n in SIZES:
        df = _data(n)
        label = f"{n // 1_000_000}M"
        columns_mb = df.memory_usage(deep=True).sum() / 2**20
        _audit(df.head(1000))  # imports and first-call costs out of the timing
        seconds, report = _timed(lambda: _audit(df))
        theirs, frame = _timed(lambda: _metricframe(df))
        peak = _peak(lambda: _audit(df))
        # the same numbers: faircode's race x sex cells are not computed here, so compare the race column's rates
        check = report.rates[report.rates["column"] == "race"].pivot(index="group", columns="metric", values="estimate")
        flagged = (df["p"] >= 0.5).astype(int)
        by_race = MetricFrame(metrics={"tpr": true_positive_rate, "fpr": false_positive_rate}, y_true=df["y"],
                              y_pred=flagged, sensitive_features=df["race"]).by_group
        diff = float(np.abs(check[["tpr", "fpr"]].to_numpy() - by_race[["tpr", "fpr"]].to_numpy()).max())
        print(f"BENCH report_audit_{label}_rows_boot{N_BOOT}_s {seconds:.2f} s", flush=True)
        print(f"BENCH report_audit_{label}_rows_per_s {n / seconds:.3g} rows/s", flush=True)
        print(f"BENCH report_audit_{label}_peak_memory {peak / 2**20:.0f} MiB", flush=True)
        print(f"BENCH report_columns_{label}_in_memory {columns_mb:.0f} MiB", flush=True)
        print(f"BENCH report_metricframe_{label}_rows_no_boot_s {theirs:.2f} s", flush=True)
        print(f"BENCH report_metricframe_{label}_rows_per_s {n / theirs:.3g} rows/s", flush=True)
        print(f"BENCH report_audit_{label}_max_abs_diff_vs_metricframe_tpr_fpr {diff:.1e} rate", flush=True)
        if n == SIZES[0]:
            per_boot, _ = _timed(lambda: _metricframe(df, N_BOOT_FAIRLEARN))
            extrapolated = theirs + (per_boot - theirs) / N_BOOT_FAIRLEARN * N_BOOT
            print(f"BENCH report_metricframe_{label}_rows_boot{N_BOOT}_extrapolated_from_{N_BOOT_FAIRLEARN}_s "
                  f"{extrapolated:.0f} s", flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                path = os.path.join(tmp, "predictions.csv")
                df.to_csv(path, index=False)
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "faircode", "audit", path, "--label", "y", "--score", "p",
                                "--threshold", "0.5", "--group", "race", "--group", "sex", "--json",
                                os.path.join(tmp, "r.json"), "--html", os.path.join(tmp, "r.html")], check=True,
                               capture_output=True)
                print(f"BENCH report_cli_{label}_row_csv_to_json_html_s {time.perf_counter() - start:.2f} s", flush=True)
        del df, report, frame
        _dask_line(n)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dask-child"]:
        _dask_child(sys.argv[2], int(sys.argv[3]))
    else:
        main()
