"""Disaggregated table with 1,000-resample bootstrap intervals: faircode against fairlearn's MetricFrame.

Data: Benefits Denial test rows, race x sex cells, predictions of the audit's logistic regression.
faircode's ``disaggregate`` computes the rates with intervals, the gaps to the largest cell and the spread across
cells, all with 1,000 resamples. MetricFrame(n_boot=...) takes about a tenth of a second per resample here, so it is timed
with N_BOOT_FAIRLEARN resamples and once without bootstrap, and its 1,000-resample time is extrapolated
linearly from the per-resample cost (the BENCH name says so). The intervals are compared on the cells large
enough to estimate whose rates do not rest on few events (those get the exact interval, which MetricFrame does
not have), both in rate units and in Monte Carlo standard errors of the difference. Two more lines time the
additions: the overall row (as a ratio to the same call without it) and exact intervals without resampling.
"""
import time

import numpy as np
from fairlearn.metrics import MetricFrame, false_positive_rate, selection_rate, true_positive_rate
from sklearn.metrics import accuracy_score

from faircode.metrics._bootstrap import bootstrap_sums, categorize, make_rng
from faircode.metrics._inputs import encode_groups
from faircode.metrics._rates import rates_from_sums
from faircode.benchmark import load_audit
from faircode.metrics import disaggregate
from faircode.models import build_model

N_BOOT = 1000
N_BOOT_FAIRLEARN = 40
QUANTILES = (0.025, 0.975)
METRICS = {"selection_rate": selection_rate, "tpr": true_positive_rate, "fpr": false_positive_rate,
           "accuracy": accuracy_score}
REPEATS = 5


def _data():
    data = load_audit("Benefits Denial")
    model = build_model("logistic_regression", data.random_state)
    model.fit(data.X.iloc[data.idx_train], data.y.iloc[data.idx_train])
    y_pred = model.predict(data.X.iloc[data.idx_test])
    y_true = data.y.iloc[data.idx_test].to_numpy()
    cells = data.raw.iloc[data.idx_test][["race", "sex"]].reset_index(drop=True)
    return y_true, y_pred, cells


def _faircode(y_true, y_pred, cells, **options):
    args = dict(sensitive_features=cells, metrics=list(METRICS), n_boot=N_BOOT, confidence=0.95, random_state=0)
    return disaggregate(y_true, y_pred, **(args | options)).rates


def _metricframe(y_true, y_pred, cells, n_boot):
    boot = dict(n_boot=n_boot, ci_quantiles=list(QUANTILES), random_state=0) if n_boot else {}
    return MetricFrame(metrics=METRICS, y_true=y_true, y_pred=y_pred, sensitive_features=cells, **boot)


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


def _quantile_se(reps, q, n_boot):
    """Monte Carlo standard error of a bootstrap quantile: sqrt(q(1-q)/B) times the quantile function's slope."""
    h = 0.01
    lo, hi = np.nanquantile(reps, [max(q - h, 0.0), min(q + h, 1.0)], axis=0)
    return np.sqrt(q * (1 - q) / n_boot) * (hi - lo) / (min(q + h, 1.0) - max(q - h, 0.0))


def main():
    y_true, y_pred, cells = _data()
    ours_times = []
    for _ in range(REPEATS):
        seconds, rates = _timed(_faircode, y_true, y_pred, cells)
        ours_times.append(seconds)
    ours = min(ours_times)
    with_overall = min(_timed(_faircode, y_true, y_pred, cells, overall=True)[0] for _ in range(REPEATS))
    exact = min(_timed(_faircode, y_true, y_pred, cells, n_boot=None, interval="exact")[0] for _ in range(REPEATS))
    base_s, _ = _timed(_metricframe, y_true, y_pred, cells, None)
    boot_s, frame = _timed(_metricframe, y_true, y_pred, cells, N_BOOT_FAIRLEARN)
    per_resample = max(boot_s - base_s, 0.0) / N_BOOT_FAIRLEARN
    theirs = base_s + per_resample * N_BOOT

    # Agreement of the 95% interval endpoints on the cells large enough to estimate (count >= min_count).
    groups = encode_groups(cells, len(y_true))
    cats = categorize(groups.codes, y_true, y_pred, None, groups.n_cells)
    reps = rates_from_sums(bootstrap_sums(cats, N_BOOT, make_rng(0), stratify=False), list(METRICS))
    ok = ~(rates["too_small"] | rates["few_events"]).unstack("metric")[list(METRICS)].to_numpy()
    max_abs, max_z = 0.0, 0.0
    for i, column in enumerate(("lower", "upper")):
        mine = rates[column].unstack("metric")[list(METRICS)]
        fl = frame.by_group_ci[i].reindex(mine.index)[list(METRICS)].to_numpy(float)
        diff = np.abs(mine.to_numpy() - fl)
        se = np.sqrt(_quantile_se(reps, QUANTILES[i], N_BOOT_FAIRLEARN) ** 2
                     + _quantile_se(reps, QUANTILES[i], N_BOOT) ** 2)
        max_abs = max(max_abs, float(diff[ok].max()))
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.where(se > 0, diff / se, 0.0)
        max_z = max(max_z, float(z[ok].max()))

    n_cells, n_ok = groups.n_cells, int(ok.all(axis=1).sum())
    print(f"# {len(y_true)} rows, {n_cells} race x sex cells ({n_ok} with every count >= 30 and >= 5 events), "
          f"{len(METRICS)} metrics; MetricFrame {base_s:.2f} s without bootstrap, {boot_s:.2f} s with "
          f"{N_BOOT_FAIRLEARN} resamples")
    print(f"BENCH metrics_faircode_rates_gaps_boot{N_BOOT}_s {ours:.4f} s")
    print(f"BENCH metrics_metricframe_boot{N_BOOT}_extrapolated_from_{N_BOOT_FAIRLEARN}_s {theirs:.1f} s")
    print(f"BENCH metrics_speedup_vs_metricframe_boot{N_BOOT} {theirs / ours:.0f} x")
    print(f"BENCH metrics_ci95_max_abs_diff_vs_metricframe_cells_ge30 {max_abs:.4f} rate")
    print(f"BENCH metrics_ci95_max_diff_in_monte_carlo_se_cells_ge30 {max_z:.2f} se")
    print(f"BENCH metrics_overall_row_time_ratio {with_overall / ours:.2f} x")
    print(f"BENCH metrics_faircode_rates_gaps_exact_no_boot_s {exact:.4f} s")


if __name__ == "__main__":
    main()
