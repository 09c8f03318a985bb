"""Paired bootstrap of the change in a parity gap and in accuracy between decision rules on the same rows.

scipy.stats.bootstrap (``paired=True``) computes one statistic per call and draws new resamples at every call;
comparing many rules with a baseline (a sweep of a mitigation's strength) then costs one full bootstrap per
rule and leaves the rules on different resamples. Here one matrix of resample counts is drawn once and shared
by every rule, so every change is paired with the baseline and the rules are comparable with each other, and
each rule's resampled rates are one matrix-vector product.
"""
from __future__ import annotations

import numpy as np
import pandas as pd


def resample_counts(n: int, n_boot: int, random_state=0) -> np.ndarray:
    """How often each of ``n`` rows appears in each of ``n_boot`` bootstrap resamples (``n_boot`` x ``n``).

    Resample ``b`` draws ``n`` rows with replacement, the ``b``-th row of
    ``numpy.random.default_rng(random_state).integers(0, n, size=(n_boot, n))``. Any statistic that is a ratio
    of sums over rows (a rate, a gap between two rates, an accuracy) is then, for every resample at once, a
    ratio of matrix-vector products: ``counts @ (decision * in_group) / (counts @ in_group)``. Pass the same
    matrix to every rule being compared and each comparison is paired.

    Examples
    --------
    >>> counts = resample_counts(4, 3, random_state=0)
    >>> counts.shape, counts.sum(axis=1).tolist()
    ((3, 4), [4.0, 4.0, 4.0])
    """
    for name, value in (("n", n), ("n_boot", n_boot)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number of at least 1; got {value!r}")
    draws = np.random.default_rng(random_state).integers(0, n, size=(n_boot, n))
    flat = (draws + n * np.arange(n_boot)[:, None]).ravel()
    return np.bincount(flat, minlength=n_boot * n).reshape(n_boot, n).astype(np.float32)


_RATE_ROWS = ("selection_rate", "tpr", "fpr")


def resampled_gap(counts, y_true, y_pred, in_group, metric="selection_rate") -> np.ndarray:
    """A rate's gap, the group's rate minus the rest's, in every resample of ``counts`` at once.

    ``counts`` is a matrix from :func:`resample_counts` (one row per resample; a row of ones adds the point
    estimate); ``metric`` is ``"selection_rate"`` (over every row), ``"tpr"`` (over the positives) or ``"fpr"``
    (over the negatives). The sums run in ``counts``' dtype. A resample with no row on one side has no gap (NaN).

    Examples
    --------
    >>> resampled_gap(np.ones((1, 4)), [1, 0, 1, 0], [1, 0, 0, 0], [True, True, False, False], "tpr")
    array([1.])
    """
    if metric not in _RATE_ROWS:
        raise ValueError(f"metric must be one of {list(_RATE_ROWS)}; got {metric!r}")
    y, group = np.asarray(y_true), np.asarray(in_group, dtype=bool)
    if not (y.shape == group.shape == np.shape(y_pred) == (counts.shape[1],)):
        raise ValueError(f"y_true, y_pred and in_group must hold one value per column of counts ({counts.shape[1]}); "
                         f"got {y.shape}, {np.shape(y_pred)} and {group.shape}")
    rows = {"selection_rate": np.ones(len(y), bool), "tpr": y == 1, "fpr": y == 0}[metric]
    inside, outside = (rows & group).astype(counts.dtype), (rows & ~group).astype(counts.dtype)
    p = np.asarray(y_pred).astype(counts.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        return counts @ (p * inside) / (counts @ inside) - counts @ (p * outside) / (counts @ outside)


def paired_changes(y_true, predictions, *, sensitive_features, group, base, n_boot=1000, confidence=0.95,
                   random_state=0) -> pd.DataFrame:
    """Change of each rule's parity gap and accuracy against a baseline rule, with paired percentile intervals.

    Parameters
    ----------
    y_true : array-like of 0/1
        True labels of the rows every rule decided.
    predictions : dict of label -> array-like of 0/1
        Each rule's decisions on the same rows, in the same order.
    sensitive_features : array-like
        Group of each row.
    group : label
        The group whose selection rate is compared with everyone else's: the parity gap is its selection
        rate minus the rest's.
    base : label
        The key of ``predictions`` every other rule is compared with (its own changes are 0).
    n_boot : int, default 1000
        Resamples of the rows (drawn once, shared by every rule).
    confidence : float, default 0.95
        Coverage of the percentile intervals.
    random_state : int, default 0
        Seed of the resamples.

    Returns
    -------
    pandas.DataFrame
        One row per rule: ``parity_change`` (its parity gap minus the baseline's; 0 means the rule moved
        nothing), ``accuracy_change`` (its accuracy minus the baseline's), each with ``_lower`` and ``_upper``.

    Examples
    --------
    Rule ``b`` selects the first row as well, a correct decision for a member of group ``f``:

    >>> table = paired_changes([1, 0, 1, 0], {"a": [0, 0, 1, 0], "b": [1, 0, 1, 0]},
    ...                        sensitive_features=["f", "f", "m", "m"], group="f", base="a", n_boot=50)
    >>> print(table[["parity_change", "accuracy_change"]].to_string())
       parity_change  accuracy_change
    a            0.0             0.00
    b            0.5             0.25
    """
    y = np.asarray(y_true).astype(np.float32)
    groups = np.asarray(sensitive_features)
    if base not in predictions:
        raise ValueError(f"base {base!r} is not a key of predictions; the keys are: {list(predictions)}")
    inside = groups == group
    if not inside.any() or inside.all():
        raise ValueError(f"group {group!r} must hold some rows and not all of them; the groups are: "
                         f"{np.unique(groups).tolist()}")
    decisions = {k: np.asarray(v).astype(np.float32) for k, v in predictions.items()}
    for k, d in decisions.items():
        if d.shape != y.shape or groups.shape != y.shape:
            raise ValueError(f"y_true, sensitive_features and predictions[{k!r}] must have the same length; got "
                             f"{y.shape}, {groups.shape} and {d.shape}")
    counts = resample_counts(len(y), n_boot, random_state)

    def resampled(d):
        # A resample without a row of one side has no gap (NaN); nanquantile leaves it out.
        return resampled_gap(counts, y, d, inside), counts @ (d == y).astype(np.float32) / len(y)

    exact = {k: np.asarray(v, dtype=float) for k, v in predictions.items()}
    y64 = np.asarray(y_true, dtype=float)

    def point(d):
        return d[inside].mean() - d[~inside].mean(), (d == y64).mean()

    tail = (1 - confidence) / 2
    base_gap, base_acc = resampled(decisions[base])
    base_point = point(exact[base])
    rows = {}
    for k, d in decisions.items():
        gap, acc = resampled(d)
        gap_point, acc_point = point(exact[k])
        row = {}
        for name, value, samples in (("parity", gap_point - base_point[0], gap - base_gap),
                                     ("accuracy", acc_point - base_point[1], acc - base_acc)):
            low, high = np.nanquantile(samples, [tail, 1 - tail])
            row |= {f"{name}_change": float(value), f"{name}_lower": float(low), f"{name}_upper": float(high)}
        rows[k] = row
    return pd.DataFrame.from_dict(rows, orient="index")
