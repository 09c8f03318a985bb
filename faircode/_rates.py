"""Per-group and per-intersection rates, each with the count of rows that is its denominator."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from faircode._bootstrap import (
    SUMS,
    bootstrap_sums,
    categorize,
    make_rng,
    percentile_interval,
    point_sums,
)
from faircode._inputs import Groups, check_binary, check_weights, encode_groups

_C = {name: i for i, name in enumerate(SUMS)}

# metric -> (numerator, denominator) as columns of the sums, and the name of the rows its denominator counts.
_DEFINITIONS = {
    "selection_rate": ("W_PP", "W_N", "n"),
    "tpr": ("L_TP", "L_P", "positives"),
    "fpr": ("L_FP", "L_N", "negatives"),
    "fnr": (("L_P", "L_TP"), "L_P", "positives"),
    "tnr": (("L_N", "L_FP"), "L_N", "negatives"),
    "precision": ("W_TP", "W_PP", "predicted positives"),
    "accuracy": ("W_CORRECT", "W_N", "n"),
    "base_rate": ("W_P", "W_N", "n"),
}
METRICS = tuple(_DEFINITIONS)
"""Names of the rates faircode computes, in the order tables show them."""

DEFAULT_METRICS = ("selection_rate", "tpr", "fpr", "fnr", "precision", "accuracy")
_COUNT_NAMES = ("n", "positives", "negatives", "predicted positives")


def check_metrics(metrics) -> tuple[str, ...]:
    """Validate metric names (None means the defaults); raise listing the valid names."""
    if metrics is None:
        return DEFAULT_METRICS
    if isinstance(metrics, str):
        metrics = (metrics,)
    metrics = tuple(metrics)
    unknown = [m for m in metrics if m not in _DEFINITIONS]
    if unknown or not metrics:
        what = f"unknown metric {unknown[0]!r}" if unknown else "no metric given"
        raise ValueError(f"{what}; the metrics are: {', '.join(METRICS)}")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"metrics lists a name twice: {', '.join(metrics)}")
    return metrics


def _column(sums: np.ndarray, spec) -> np.ndarray:
    if isinstance(spec, tuple):  # a difference of two sums (false negatives, true negatives)
        return sums[..., _C[spec[0]]] - sums[..., _C[spec[1]]]
    return sums[..., _C[spec]]


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with NaN (not 0, not a warning) where den is 0."""
    num, den = np.broadcast_arrays(np.asarray(num, float), np.asarray(den, float))
    return np.divide(num, den, out=np.full(num.shape, np.nan), where=den != 0)


def rates_from_sums(sums: np.ndarray, metrics) -> np.ndarray:
    """Rates of shape (..., n_cells, n_metrics) from sums of shape (..., n_cells, len(SUMS))."""
    out = [safe_divide(_column(sums, _DEFINITIONS[m][0]), _column(sums, _DEFINITIONS[m][1])) for m in metrics]
    return np.stack(out, axis=-1)


def _row_counts(groups: Groups, y, y_pred, w) -> pd.DataFrame:
    """Rows (with positive weight) per cell: n, positives, negatives, predicted positives."""
    present = np.ones(len(y), bool) if w is None else w > 0
    cols = {
        "n": present,
        "positives": present & (y == 1),
        "negatives": present & (y == 0),
        "predicted positives": present & (y_pred == 1),
    }
    data = {k: np.bincount(groups.codes, weights=v, minlength=groups.n_cells).astype(np.int64)
            for k, v in cols.items()}
    return pd.DataFrame(data, index=groups.index)


@dataclass(frozen=True)
class Evaluation:
    """Everything the public tables are built from."""

    groups: Groups
    metrics: tuple[str, ...]
    rates: np.ndarray  # (n_cells, n_metrics)
    counts: np.ndarray  # (n_cells, n_metrics) rows in each rate's denominator
    too_small: np.ndarray  # (n_cells, n_metrics) count < min_count
    row_counts: pd.DataFrame
    boot: np.ndarray | None  # (n_boot, n_cells, n_metrics) or None
    confidence: float
    min_count: int

    @property
    def denominators(self) -> list[str]:
        return [_DEFINITIONS[m][2] for m in self.metrics]


def evaluate(y_true, y_pred, *, sensitive_features, metrics=None, sample_weight=None, min_count=30,
             n_boot=None, confidence=0.95, stratify=False, random_state=0) -> Evaluation:
    """Check the inputs, compute the rates and (if n_boot) their bootstrap replicates."""
    y = check_binary("y_true", y_true)
    n = len(y)
    if n == 0:
        raise ValueError("y_true is empty; there are no rows to evaluate")
    y_hat = check_binary("y_pred", y_pred, n)
    w = check_weights(sample_weight, n)
    metrics = check_metrics(metrics)
    if not isinstance(min_count, (int, np.integer)) or isinstance(min_count, bool) or min_count < 0:
        raise ValueError(f"min_count must be a non-negative integer; got {min_count!r}")
    if n_boot is not None and (not isinstance(n_boot, (int, np.integer)) or isinstance(n_boot, bool)
                               or n_boot < 1):
        raise ValueError(f"n_boot must be a positive integer or None; got {n_boot!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1; got {confidence!r}")
    groups = encode_groups(sensitive_features, n)
    cats = categorize(groups.codes, y, y_hat, w, groups.n_cells)
    rates = rates_from_sums(point_sums(cats), metrics)
    row_counts = _row_counts(groups, y, y_hat, w)
    counts = np.column_stack([row_counts[_DEFINITIONS[m][2]].to_numpy() for m in metrics])
    boot = None
    if n_boot is not None:
        rng = make_rng(random_state)
        boot = rates_from_sums(bootstrap_sums(cats, int(n_boot), rng, bool(stratify)), metrics)
    return Evaluation(groups=groups, metrics=metrics, rates=rates, counts=counts,
                      too_small=counts < min_count, row_counts=row_counts, boot=boot,
                      confidence=float(confidence), min_count=int(min_count))


def long_index(groups_index: pd.Index, metrics) -> pd.MultiIndex:
    """Index with one entry per (cell, metric), cells outer."""
    n_cells, n_metrics = len(groups_index), len(metrics)
    cell_part = groups_index.repeat(n_metrics)
    if isinstance(cell_part, pd.MultiIndex):
        arrays = [cell_part.get_level_values(i) for i in range(cell_part.nlevels)]
        names = list(cell_part.names)
    else:
        arrays, names = [cell_part], [cell_part.name]
    metric_part = np.tile(np.asarray(metrics, dtype=object), n_cells)
    return pd.MultiIndex.from_arrays([*arrays, metric_part], names=[*names, "metric"])


def group_rates(y_true, y_pred, *, sensitive_features, metrics=None, sample_weight=None, min_count=30,
                n_boot=None, confidence=0.95, stratify=False, random_state=0) -> pd.DataFrame:
    """Rates per group or per intersection of groups, each with the count behind it.

    Parameters
    ----------
    y_true, y_pred : array-like of 0/1
        True labels and predictions (booleans are accepted).
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        One feature gives one row per group; several (DataFrame columns or dict entries) give one row per
        combination of their values, empty combinations included (their rates are NaN).
    metrics : sequence of str, optional
        Names from ``METRICS``: ``selection_rate`` (share predicted positive), ``tpr``, ``fpr``, ``fnr``,
        ``tnr``, ``precision`` (positive predictive value), ``accuracy``, ``base_rate`` (share truly
        positive). Default: selection_rate, tpr, fpr, fnr, precision, accuracy.
    sample_weight : array-like, optional
        Non-negative row weights. Counts stay counts of rows (with positive weight).
    min_count : int, default 30
        A rate whose denominator counts fewer rows than this is flagged ``too_small``: it is not an estimate
        to report (see ``format_rates``).
    n_boot : int, optional
        Number of bootstrap resamples; when given, the table gains ``lower`` and ``upper`` columns.
    confidence : float, default 0.95
        Coverage of the percentile interval.
    stratify : bool, default False
        Resample within each cell (cell sizes fixed) instead of from all rows (fairlearn's scheme).
    random_state : int or numpy.random.Generator, default 0
        Seed of the resampling; the same seed gives the same resamples in ``group_rates`` and the gap
        functions, so their intervals come from the same replicates.

    Returns
    -------
    pandas.DataFrame
        One row per (cell, metric), indexed by the feature names and ``metric``; columns ``rate`` (NaN when
        its denominator is zero, never 0), ``count`` (rows in the denominator), ``denominator`` (what the
        count counts: n, positives, negatives or predicted positives), ``too_small`` and, with ``n_boot``,
        ``lower`` and ``upper``. Parity between groups means equal ``rate`` values.

    Examples
    --------
    >>> from faircode.metrics import group_rates
    >>> table = group_rates([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 0],
    ...                     sensitive_features={"sex": ["f", "f", "f", "m", "m", "m"]},
    ...                     metrics=["tpr", "fpr"], min_count=1)
    >>> print(table[["rate", "count", "denominator"]].to_string())  # doctest: +NORMALIZE_WHITESPACE
                rate  count denominator
    sex metric
    f   tpr        0.5      2   positives
        fpr        0.0      1   negatives
    m   tpr        1.0      1   positives
        fpr        0.5      2   negatives
    """
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=metrics,
                  sample_weight=sample_weight, min_count=min_count, n_boot=n_boot, confidence=confidence,
                  stratify=stratify, random_state=random_state)
    return rates_table(ev)


def rates_table(ev: Evaluation) -> pd.DataFrame:
    """The long table of ``group_rates`` from an evaluation."""
    n_cells = ev.groups.n_cells
    table = pd.DataFrame({
        "rate": ev.rates.ravel(),
        "count": ev.counts.ravel(),
        "denominator": np.tile(np.asarray(ev.denominators, dtype=object), n_cells),
        "too_small": ev.too_small.ravel(),
    }, index=long_index(ev.groups.index, ev.metrics))
    if ev.boot is not None:
        lower, upper = percentile_interval(ev.boot, ev.confidence)
        table["lower"], table["upper"] = lower.ravel(), upper.ravel()
    table.attrs.update(min_count=ev.min_count, confidence=ev.confidence)
    return table
