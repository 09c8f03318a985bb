"""Conditional (standardised) gaps: each group against a reference within strata of a legitimate factor.

fairlearn has no conditional gap. It is written here on the same machinery as the other gaps: the rows are
coded by (stratum, group) cell, the per-cell sums come from ``categorize``/``point_sums`` and, for intervals,
from the multinomial ``bootstrap_sums``, so the pooled and the conditional gap are recomputed on the same
resamples (and the stratum weights with them).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from faircode._bootstrap import (
    SUMS,
    bootstrap_sums,
    categorize,
    kind_totals,
    make_rng,
    percentile_interval,
    point_sums,
)
from faircode._inputs import check_count, check_resampling, check_rows, encode_groups
from faircode._rates import _KINDS, check_metrics, long_index, rates_from_sums, safe_divide

CONDITIONAL_WEIGHTS = ("stratum", "group", "reference")
"""How ``conditional_gaps`` weights the strata: share of all rows, of the compared group's, of the reference's."""

_C = {name: i for i, name in enumerate(SUMS)}


def _pooled(cells: np.ndarray) -> np.ndarray:
    """Sums over the strata, (..., n_groups, len(SUMS)), from the sums per (stratum, group) cell.

    The L_* sums of a cell are scaled by that cell's largest weight per label (see ``_bootstrap``), so they
    cannot be added across strata; they are rebuilt from the W_* sums, which give the same rates.
    """
    w = {name: cells[..., _C[name]] for name in ("W_N", "W_PP", "W_TP", "W_P")}
    rebuilt = cells.copy()
    rebuilt[..., _C["L_P"]], rebuilt[..., _C["L_TP"]] = w["W_P"], w["W_TP"]
    rebuilt[..., _C["L_N"]], rebuilt[..., _C["L_FP"]] = w["W_N"] - w["W_P"], w["W_PP"] - w["W_TP"]
    return rebuilt.sum(axis=-3)


def _check_strata(strata, n: int):
    """Encode the strata, with errors that name ``strata`` (not a sensitive feature)."""
    return encode_groups(
        strata, n, what=lambda name, n_columns: "strata" if n_columns == 1 else f"strata column {name!r}",
        empty="strata is empty; give one stratum label per row (or several columns of them)",
        remedy="give every row a stratum or drop those rows")


def _conditional(rates, share, ref, others):
    """Weighted mean over strata of rate[s, g] - rate[s, ref] where both are defined.

    ``rates``: (..., n_strata, n_groups, n_metrics); ``share``: (..., n_strata, n_groups) the weight of each
    stratum for each compared group. Returns the mean and the number of strata used, (..., len(others),
    n_metrics) each.
    """
    within = rates[..., others, :] - rates[..., ref:ref + 1, :]
    used = ~np.isnan(within)
    weight = np.where(used, share[..., others][..., None], 0.0)
    total = np.where(used, within * weight, 0.0).sum(axis=-3)
    return safe_divide(total, weight.sum(axis=-3)), used.sum(axis=-3)


def _share(n_rows, ref, how):
    """Weight of each stratum, (..., n_strata, n_groups), from the weighted rows per cell (..., n_strata,
    n_groups)."""
    if how == "stratum":
        per_stratum = n_rows.sum(axis=-1, keepdims=True)
        return np.broadcast_to(per_stratum, n_rows.shape)
    if how == "reference":
        return np.broadcast_to(n_rows[..., ref:ref + 1], n_rows.shape)
    return n_rows


def conditional_gaps(y_true, y_pred, *, sensitive_features, strata, reference=None, metrics=("selection_rate",),
                     weights="stratum", sample_weight=None, min_count=30, n_boot=None, confidence=0.95,
                     random_state=0) -> pd.DataFrame:
    """Pooled gap of each group to a reference group, and the same gap conditional on strata.

    The conditional (standardised) gap is the difference ``rate(group) - rate(reference)`` computed within
    each stratum and averaged over the strata, each weighted by its share of the rows. It answers whether a
    group still differs from the reference among people alike on the strata; the pooled gap answers how
    differently the groups are treated overall. The two can differ, even in sign (Simpson's paradox), when the
    groups are spread differently over the strata.

    Parameters
    ----------
    y_true, y_pred : array-like of 0/1
        True labels and predictions (booleans are accepted).
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        As in ``group_rates``: one feature, or several (their intersections are the groups).
    strata : Series, Categorical, DataFrame, dict of arrays or array-like
        The stratum of each row (several columns: their combinations are the strata), e.g. bands of a factor
        that may legitimately bear on the decision. No missing values.
    reference : label, optional
        The reference group (a tuple for intersections). Default: the group with the most rows.
    metrics : sequence of str, default ("selection_rate",)
        Names from ``METRICS``.
    weights : {"stratum", "group", "reference"}, default "stratum"
        Weight of each stratum: its share of all rows; or its share of the compared group's rows
        (standardised to the group's mix); or of the reference group's rows. With ``sample_weight``, shares of
        the weights. A stratum is left out of a comparison (and the weights of the others rescaled to sum to
        1) when either side's rate is undefined there, e.g. when one of the two groups has no row in it.
    sample_weight : array-like, optional
        Non-negative row weights.
    min_count : int, default 30
        A stratum used in a comparison in which either side's rate rests on fewer rows than this is counted in
        ``strata_too_small``: the conditional gap averages over noisy cells there.
    n_boot : int, optional
        Number of bootstrap resamples of all rows; when given, the table gains ``*_lower`` and ``*_upper``
        percentile intervals of both gaps, recomputed (weights included) on the same resamples. The same seed
        gives the same resamples as ``group_rates`` and ``gaps_to_reference`` only for the same cells, so the
        pooled intervals differ slightly from ``gaps_to_reference``'s.
    confidence : float, default 0.95
        Coverage of the intervals.
    random_state : int or numpy.random.Generator, default 0
        Seed of the resampling.

    Returns
    -------
    pandas.DataFrame
        One row per (non-reference group, metric): ``pooled`` (rate of the group minus rate of the reference
        over all rows), ``conditional`` (the weighted mean of the within-stratum differences, NaN when no
        stratum has both rates), ``strata_used`` and ``strata_left_out`` (strata where either rate is
        undefined), ``strata_too_small``, ``count`` and ``reference_count`` (rows in each pooled rate's
        denominator) and ``reference``; with ``n_boot``, the intervals right after each gap.

    Examples
    --------
    Women are selected less often overall, but more often within each of the two strata, because most of them
    are in the stratum where everyone is selected less often:

    >>> from faircode.metrics import conditional_gaps
    >>> sex = ["f"] * 10 + ["m"] * 10
    >>> band = ["low"] * 8 + ["high"] * 2 + ["low"] * 2 + ["high"] * 8
    >>> selected = [1, 1, 0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 1, 1, 1, 1, 1, 1, 0, 0]
    >>> gaps = conditional_gaps(selected, selected, sensitive_features={"sex": sex}, strata=band,
    ...                         reference="m", min_count=1)
    >>> print(gaps[["pooled", "conditional", "strata_used", "strata_left_out"]].to_string())
    ... # doctest: +NORMALIZE_WHITESPACE
                    pooled  conditional  strata_used  strata_left_out
    sex metric
    f   selection_rate    -0.2         0.25            2                0
    """
    y, y_hat, w = check_rows(y_true, y_pred, sample_weight)
    n = len(y)
    metrics = check_metrics(metrics)
    if weights not in CONDITIONAL_WEIGHTS:
        raise ValueError(f"weights must be one of {', '.join(map(repr, CONDITIONAL_WEIGHTS))}; got {weights!r}")
    min_count = check_count("min_count", min_count)
    n_boot = check_resampling(n_boot, confidence)
    groups = encode_groups(sensitive_features, n)
    layers = _check_strata(strata, n)
    n_groups, n_strata = groups.n_cells, layers.n_cells
    group_rows = np.bincount(groups.codes, minlength=n_groups)
    if (group_rows > 0).sum() < 2:
        present = ", ".join(repr(g) for g, k in zip(groups.index.tolist(), group_rows) if k > 0)
        raise ValueError(f"a gap needs at least two groups; sensitive_features has 1 group with rows ({present})")
    ref = int(np.argmax(group_rows)) if reference is None else groups.position(reference)
    others = np.array([g for g in range(n_groups) if g != ref])

    # One cell per (stratum, group); the sums of a resample have shape (n_strata * n_groups, len(SUMS)).
    cats = categorize(layers.codes * n_groups + groups.codes, y, y_hat, w, n_strata * n_groups)

    def gaps(sums):
        cells = sums.reshape(*sums.shape[:-2], n_strata, n_groups, len(SUMS))
        pooled_rates = rates_from_sums(_pooled(cells), metrics)
        pooled = pooled_rates[..., others, :] - pooled_rates[..., ref:ref + 1, :]
        share = _share(cells[..., _C["W_N"]], ref, weights)
        conditional, used = _conditional(rates_from_sums(cells, metrics), share, ref, others)
        return pooled, conditional, used

    sums = point_sums(cats)
    pooled, conditional, used = gaps(sums)
    rows = kind_totals(cats)[0].reshape(n_strata, n_groups, 4)
    counts = np.stack([rows[..., list(_KINDS[m][1])].sum(axis=-1) for m in metrics], axis=-1)
    within = rates_from_sums(sums.reshape(n_strata, n_groups, len(SUMS)), metrics)
    defined = ~np.isnan(within[:, others, :] - within[:, ref:ref + 1, :])
    small = (counts[:, others, :] < min_count) | (counts[:, ref:ref + 1, :] < min_count)
    pooled_counts = counts.sum(axis=0)
    table = pd.DataFrame({
        "pooled": pooled.ravel(),
        "conditional": conditional.ravel(),
        "strata_used": used.ravel(),
        "strata_left_out": (n_strata - used).ravel(),
        "strata_too_small": (defined & small).sum(axis=0).ravel(),
        "count": pooled_counts[others].ravel(),
        "reference_count": np.tile(pooled_counts[ref], len(others)),
        "reference": [groups.index[ref]] * (len(others) * len(metrics)),
    }, index=long_index(groups.index[others], metrics))
    if n_boot is not None:
        boot_pooled, boot_conditional, _ = gaps(bootstrap_sums(cats, n_boot, make_rng(random_state), False))
        for name, samples in (("pooled", boot_pooled), ("conditional", boot_conditional)):
            lower, upper = percentile_interval(samples, confidence)
            table.insert(table.columns.get_loc(name) + 1, f"{name}_lower", lower.ravel())
            table.insert(table.columns.get_loc(name) + 2, f"{name}_upper", upper.ravel())
    table.attrs.update(confidence=float(confidence), weights=weights, n_strata=n_strata, min_count=int(min_count))
    return table
