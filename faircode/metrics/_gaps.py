"""Gaps between groups: each group against a reference group, and the spread (max - min) across groups."""
from __future__ import annotations

import numpy as np
import pandas as pd

from faircode.metrics._bootstrap import percentile_interval
from faircode.metrics._rates import Evaluation, evaluate, long_index, safe_divide

_SHARED_DOC = """
    Parameters
    ----------
    y_true, y_pred : array-like of 0/1
        True labels and predictions.
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        As in ``group_rates``; there must be at least two groups.
    metrics, sample_weight, min_count, n_boot, confidence, stratify, random_state, min_events
        As in ``group_rates``. With ``n_boot``, the table gains ``*_lower`` and ``*_upper`` columns: the
        percentile interval of the gap recomputed on every resample (the same resamples as ``group_rates``
        with the same seed). A gap involving a rate with few events is flagged ``few_events``: its
        bootstrap interval is unreliable (too narrow, or of zero width) and ``format_gaps`` does not show it;
        read the exact intervals of its rates in ``group_rates`` instead."""


def _check_two_groups(ev: Evaluation) -> None:
    occupied = int((ev.row_counts["n"] > 0).sum())
    if occupied < 2:
        labels = [repr(x) for x, n in zip(ev.groups.index.tolist(), ev.row_counts["n"]) if n > 0]
        raise ValueError(
            f"a gap needs at least two groups; sensitive_features has {occupied} group with rows "
            f"({', '.join(labels)})"
        )


def _with_intervals(table: pd.DataFrame, name: str, samples: np.ndarray | None, confidence: float) -> None:
    if samples is None:
        return
    lower, upper = percentile_interval(samples, confidence)
    table[f"{name}_lower"], table[f"{name}_upper"] = lower.ravel(), upper.ravel()


def gaps_to_reference(y_true, y_pred, *, sensitive_features, reference=None, metrics=None, sample_weight=None,
                      min_count=30, n_boot=None, confidence=0.95, stratify=False, random_state=0,
                      min_events=5) -> pd.DataFrame:
    """Gap of each group's rate to a reference group's: difference (absolute) and ratio (relative).

    {shared}
    reference : label, optional
        The reference group (a tuple for intersections). Default: the group with the most rows.

    Returns
    -------
    pandas.DataFrame
        One row per (non-reference cell, metric): ``difference`` (group rate minus reference rate; parity is
        0), ``ratio`` (group rate over reference rate; parity is 1, NaN when the reference rate is 0),
        ``count`` and ``reference_count`` (rows in each rate's denominator), ``denominator``, ``too_small``
        (either count under ``min_count``: the gap is not an estimate to report), ``few_events`` (either rate
        has fewer than ``min_events`` rows on one side) and ``reference``.

    Examples
    --------
    >>> from faircode.metrics import gaps_to_reference
    >>> gaps = gaps_to_reference([1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 1, 1],
    ...                          sensitive_features=["a", "a", "a", "b", "b", "b"],
    ...                          metrics=["tpr"], reference="b", min_count=1)
    >>> print(gaps[["difference", "ratio", "count", "reference_count"]].to_string())
    ... # doctest: +NORMALIZE_WHITESPACE
                                difference  ratio  count  reference_count
    sensitive_feature_0 metric
    a                   tpr             -0.5    0.5      2                2
    """
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=metrics,
                  sample_weight=sample_weight, min_count=min_count, min_events=min_events, n_boot=n_boot,
                  confidence=confidence, stratify=stratify, random_state=random_state)
    return reference_table(ev, reference)


def reference_position(ev: Evaluation, reference=None) -> int:
    """Position of the reference cell: the one named, or by default the cell with the most rows."""
    if reference is None:
        return int(np.argmax(ev.row_counts["n"].to_numpy()))
    return ev.groups.position(reference)


def reference_table(ev: Evaluation, reference=None) -> pd.DataFrame:
    """The table of ``gaps_to_reference`` from an evaluation."""
    _check_two_groups(ev)
    groups = ev.groups
    ref = reference_position(ev, reference)
    others = np.array([g for g in range(groups.n_cells) if g != ref])
    n_metrics = len(ev.metrics)

    def diff_ratio(rates):
        base = rates[..., ref:ref + 1, :]
        return (rates - base)[..., others, :], safe_divide(rates, base)[..., others, :]

    difference, ratio = diff_ratio(ev.rates)
    table = pd.DataFrame({
        "difference": difference.ravel(),
        "ratio": ratio.ravel(),
        "count": ev.counts[others].ravel(),
        "reference_count": np.tile(ev.counts[ref], len(others)),
        "denominator": np.tile(np.asarray(ev.denominators, dtype=object), len(others)),
        "too_small": (ev.too_small[others] | ev.too_small[ref][None, :]).ravel(),
        "few_events": (ev.few_events[others] | ev.few_events[ref][None, :]).ravel(),
        "reference": [groups.index[ref]] * (len(others) * n_metrics),
    }, index=long_index(groups.index[others], ev.metrics))
    if ev.boot is not None:
        boot_diff, boot_ratio = diff_ratio(ev.boot)
        _with_intervals(table, "difference", boot_diff, ev.confidence)
        _with_intervals(table, "ratio", boot_ratio, ev.confidence)
    return table[_ordered(table.columns)]


def _ordered(columns) -> list[str]:
    """Put each gap's interval right after it."""
    order = ["difference", "difference_lower", "difference_upper", "ratio", "ratio_lower", "ratio_upper"]
    return [c for c in order if c in columns] + [c for c in columns if c not in order]


def gaps_between_groups(y_true, y_pred, *, sensitive_features, metrics=None, sample_weight=None, min_count=30,
                        n_boot=None, confidence=0.95, stratify=False, random_state=0,
                        min_events=5) -> pd.DataFrame:
    """Spread of each rate across groups: max minus min (absolute) and min over max (relative).

    {shared}

    Returns
    -------
    pandas.DataFrame
        One row per metric: ``difference`` (largest rate minus smallest; parity is 0, as fairlearn's
        ``MetricFrame.difference()``), ``ratio`` (smallest over largest; parity is 1, as fairlearn's
        ``ratio()``), ``max_group`` and ``min_group``, and ``n_groups``, the number of cells compared: only
        cells whose count reaches ``min_count`` take part (set ``min_count=0`` to compare every non-empty
        cell, as fairlearn does). NaN when fewer than two cells take part. ``few_events`` flags a spread
        when any cell taking part has a rate with few events. Note that a max-minus-min gap is
        biased upwards by noise: with many small groups it is large even when the true rates are equal.

    Examples
    --------
    >>> from faircode.metrics import gaps_between_groups
    >>> gaps = gaps_between_groups([1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 1, 1],
    ...                            sensitive_features=["a", "a", "a", "b", "b", "b"],
    ...                            metrics=["tpr", "selection_rate"], min_count=1)
    >>> print(gaps[["difference", "ratio", "max_group", "min_group", "n_groups"]].round(3).to_string())
    ... # doctest: +NORMALIZE_WHITESPACE
                    difference  ratio max_group min_group  n_groups
    metric
    tpr                  0.500  0.500         b         a         2
    selection_rate       0.667  0.333         b         a         2
    """
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=metrics,
                  sample_weight=sample_weight, min_count=min_count, min_events=min_events, n_boot=n_boot,
                  confidence=confidence, stratify=stratify, random_state=random_state)
    return between_table(ev)


def _spread(rates: np.ndarray, eligible: np.ndarray):
    """Max - min and min / max over eligible cells (axis -2), ignoring NaN, without warnings."""
    masked = np.where(eligible, rates, np.nan)
    high = np.fmax.reduce(masked, axis=-2)
    low = np.fmin.reduce(masked, axis=-2)
    return high - low, safe_divide(low, high)


def between_table(ev: Evaluation) -> pd.DataFrame:
    """The table of ``gaps_between_groups`` from an evaluation."""
    _check_two_groups(ev)
    eligible = ~ev.too_small & ~np.isnan(ev.rates)
    n_groups = eligible.sum(axis=0)
    difference, ratio = _spread(ev.rates, eligible)
    enough = n_groups >= 2
    labels = ev.groups.index.tolist()
    masked = np.where(eligible, ev.rates, np.nan)
    max_group = [labels[int(np.nanargmax(masked[:, j]))] if enough[j] else None for j in range(len(ev.metrics))]
    min_group = [labels[int(np.nanargmin(masked[:, j]))] if enough[j] else None for j in range(len(ev.metrics))]
    table = pd.DataFrame({
        "difference": np.where(enough, difference, np.nan),
        "ratio": np.where(enough, ratio, np.nan),
        "max_group": max_group,
        "min_group": min_group,
        "n_groups": n_groups,
        "few_events": (eligible & ev.few_events).any(axis=0),
    }, index=pd.Index(ev.metrics, name="metric"))
    if ev.boot is not None:
        boot_diff, boot_ratio = _spread(ev.boot, eligible[None])
        keep = enough[None]
        _with_intervals(table, "difference", np.where(keep, boot_diff, np.nan), ev.confidence)
        _with_intervals(table, "ratio", np.where(keep, boot_ratio, np.nan), ev.confidence)
    return table[_ordered(table.columns)]


gaps_to_reference.__doc__ = gaps_to_reference.__doc__.replace("{shared}", _SHARED_DOC.strip())
gaps_between_groups.__doc__ = gaps_between_groups.__doc__.replace("{shared}", _SHARED_DOC.strip())
