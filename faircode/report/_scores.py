"""What a score adds to an audit, from the counts of rows by (cell, score value, label): AUC per group, calibration
per group with exact intervals, and the rates across thresholds.

``faircode.auc.delong_auc`` takes one row per prediction; here every row with the same score and label in a group
is one entry with a count, so 10 million decile scores cost about twenty entries per group. The AUC and DeLong's
standard error are the same numbers (tested against ``delong_auc``): each positive's placement among the negatives
(ties count half) depends only on its score, so the variances of the placements are weighted by the counts.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import ndtri

from faircode.metrics._binomial import clopper_pearson
from faircode.metrics._rates import safe_divide
from faircode.report._counts import Histogram, View

MAX_VALUE_BINS = 20  # a score with at most this many distinct values is calibrated value by value
MAX_CURVE_POINTS = 60  # ... and its rates are drawn at each value up to this many; else on a regular grid


def by_cell(hist: Histogram, view: View):
    """The histogram summed into the view's cells: cell, score position, positives and negatives (rows and
    weights, squared weights), sorted by cell then score."""
    cell = view.of_fine[hist.fine]
    n_values = len(hist.values)
    key = cell * n_values + hist.score
    keys, inverse = np.unique(key, return_inverse=True)
    out = {"cell": keys // n_values, "score": keys % n_values}
    for name, values in (("rows", hist.rows), ("wsum", hist.wsum), ("w2sum", hist.w2sum)):
        for label, side in ((1, "pos"), (0, "neg")):
            out[f"{side}_{name}"] = np.bincount(inverse, weights=np.where(hist.label == label, values, 0.0),
                                                minlength=len(keys))
    return out


def auc_table(hist: Histogram, view: View, *, weighted: bool, confidence: float, min_count: int) -> pd.DataFrame:
    """AUC per cell with DeLong's Wald interval (clipped to [0, 1]); NaN with fewer than two rows of a class. With
    weights the AUC is the weighted share of (positive, negative) pairs ordered right and has no interval here.
    ``too_small`` when positives or negatives are fewer than ``min_count`` (like a rate whose denominator is): the
    estimate stays in the table, but DeLong's large-sample interval on a handful of one class is not one to read,
    and ``--fail-on`` skips the row."""
    cells = by_cell(hist, view)
    z = float(ndtri(0.5 + confidence / 2))
    rows = []
    for c, label in enumerate(view.index):
        at = cells["cell"] == c
        pos, neg = cells["pos_rows"][at], cells["neg_rows"][at]
        wpos, wneg = (cells["pos_wsum"][at], cells["neg_wsum"][at]) if weighted else (pos, neg)
        m, n = pos.sum(), neg.sum()
        record = {"group": label, "positives": int(m), "negatives": int(n), "auc": np.nan, "se": np.nan,
                  "lower": np.nan, "upper": np.nan, "too_small": bool(m < min_count or n < min_count)}
        if m >= 2 and n >= 2:
            wm, wn = wpos.sum(), wneg.sum()
            below_neg = np.cumsum(wneg) - wneg  # negatives scored strictly lower
            above_pos = wm - np.cumsum(wpos)  # positives scored strictly higher
            v10 = (below_neg + 0.5 * wneg) / wn
            v01 = (above_pos + 0.5 * wpos) / wm
            auc = float((wpos * v10).sum() / wm)
            record["auc"] = auc
            if not weighted:
                var10 = float((pos * (v10 - auc) ** 2).sum() / (m - 1))
                var01 = float((neg * (v01 - auc) ** 2).sum() / (n - 1))
                se = np.sqrt(var10 / m + var01 / n)
                record.update(se=se, lower=max(0.0, auc - z * se), upper=min(1.0, auc + z * se))
        rows.append(record)
    return pd.DataFrame(rows)


def calibration_bins(values: np.ndarray, score_range, n_bins: int) -> tuple[np.ndarray, list[str]]:
    """The bin of each distinct score value and the bins' labels: one bin per value when there are few values,
    else ``n_bins`` equal-width bins over the score's range (the last one closed)."""
    if len(values) <= MAX_VALUE_BINS:
        return np.arange(len(values)), [f"{v:g}" for v in values]
    low, high = score_range
    edges = np.linspace(low, high, n_bins + 1)
    which = np.clip(np.searchsorted(edges, values, side="right") - 1, 0, n_bins - 1)
    labels = [f"[{edges[i]:.2f}, {edges[i + 1]:.2f}{']' if i == n_bins - 1 else ')'}" for i in range(n_bins)]
    return which, labels


def calibration_table(hist: Histogram, view: View, *, weighted: bool, confidence: float, score_range,
                      n_bins: int, min_count: int) -> pd.DataFrame:
    """Per cell and score bin: rows, mean score, observed positive share with its exact (Clopper-Pearson)
    interval; with weights, weighted shares and Kish's effective sample size in the exact interval."""
    cells = by_cell(hist, view)
    which, labels = calibration_bins(hist.values, score_range, n_bins)
    n_bins_used = len(labels)
    key = cells["cell"] * n_bins_used + which[cells["score"]]
    size = len(view.index) * n_bins_used
    rows = np.bincount(key, weights=cells["pos_rows"] + cells["neg_rows"], minlength=size)
    pos_rows = np.bincount(key, weights=cells["pos_rows"], minlength=size)
    wsum = np.bincount(key, weights=cells["pos_wsum"] + cells["neg_wsum"], minlength=size)
    wpos = np.bincount(key, weights=cells["pos_wsum"], minlength=size)
    w2 = np.bincount(key, weights=cells["pos_w2sum"] + cells["neg_w2sum"], minlength=size)
    value = hist.values[cells["score"]]
    wscore = np.bincount(key, weights=value * (cells["pos_wsum"] + cells["neg_wsum"]), minlength=size)
    observed = safe_divide(wpos, wsum)
    if weighted:
        n_eff = safe_divide(wsum ** 2, w2)
        n_eff = np.where(np.isnan(n_eff), 0.0, n_eff)
        lower, upper = clopper_pearson(np.nan_to_num(observed) * n_eff, n_eff, confidence)
    else:
        lower, upper = clopper_pearson(pos_rows, rows, confidence)
    table = pd.DataFrame({
        "group": np.repeat(np.asarray(view.index, dtype=object), n_bins_used),
        "bin": np.tile(np.asarray(labels, dtype=object), len(view.index)),
        "count": rows.round().astype(np.int64),
        "mean_score": safe_divide(wscore, wsum),
        "observed": observed, "lower": lower, "upper": upper,
    })
    table["too_small"] = table["count"] < min_count
    return table[table["count"] > 0].reset_index(drop=True)


def curve_points(values: np.ndarray, score_range) -> np.ndarray:
    """Thresholds at which the rates are drawn: every distinct value when few, else a regular grid."""
    if len(values) <= MAX_CURVE_POINTS:
        return values.copy()
    return np.linspace(score_range[0], score_range[1], 41)


def threshold_curve(hist: Histogram, view: View) -> pd.DataFrame:
    """Selection rate, TPR and FPR per cell at each threshold of ``curve_points`` (a score at the threshold is
    predicted positive), weighted when the rows are."""
    cells = by_cell(hist, view)
    points = curve_points(hist.values, (hist.values.min(), hist.values.max()))
    # the threshold index below which a value falls: value >= point  <=>  position >= searchsorted(values, point)
    first_positive = np.searchsorted(hist.values, points, side="left")
    records = []
    for c, label in enumerate(view.index):
        at = cells["cell"] == c
        score, wpos, wneg = cells["score"][at], cells["pos_wsum"][at], cells["neg_wsum"][at]
        for t, start in zip(points, first_positive):
            flag = score >= start
            p, n = wpos.sum(), wneg.sum()
            records.append({"group": label, "threshold": float(t),
                            "selection_rate": float(safe_divide((wpos + wneg)[flag].sum(), p + n)),
                            "tpr": float(safe_divide(wpos[flag].sum(), p)),
                            "fpr": float(safe_divide(wneg[flag].sum(), n))})
    return pd.DataFrame(records)
