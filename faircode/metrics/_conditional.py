"""Conditional (standardised) gaps: each group against a reference within strata of a legitimate factor.

fairlearn's ``MetricFrame(control_features=...)`` gives the rates within each stratum but no average of the
within-stratum gaps, nor intervals on it. It is computed here through the same evaluation as every other table:
the rows are coded by (stratum, group) cell and evaluated once (the same checks, counts, too-small and few-events
flags, and resamples); the pooled evaluation of the groups adds those cells' tallies up over the strata, so the
pooled and the conditional gap are recomputed on the same resamples (and the stratum weights with them), and
the pooled gap is ``gaps_to_reference``'s table of that pooled evaluation.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from faircode.metrics._bootstrap import SUMS, percentile_interval
from faircode._choices import check_name
from faircode.metrics._gaps import reference_position, reference_table
from faircode.metrics._inputs import Groups, check_rows, encode_groups
from faircode.metrics._rates import check_options, evaluate_cells, measure, safe_divide

CONDITIONAL_WEIGHTS = ("stratum", "group", "reference")
"""How ``conditional_gaps`` weights the strata: share of all rows, of the compared group's, of the reference's."""


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


def _share(sums, ref, how):
    """Weight of each stratum, (..., n_strata, n_groups), from the sums per cell (..., n_strata, n_groups,
    len(SUMS)): its weighted rows (the W_* sums over every kind of row)."""
    n_rows = sums[..., :len(SUMS) // 2].sum(axis=-1)
    if how == "stratum":
        per_stratum = n_rows.sum(axis=-1, keepdims=True)
        return np.broadcast_to(per_stratum, n_rows.shape)
    if how == "reference":
        return np.broadcast_to(n_rows[..., ref:ref + 1], n_rows.shape)
    return n_rows


def conditional_gaps(y_true, y_pred, *, sensitive_features, strata, reference=None, metrics=("selection_rate",),
                     weights="stratum", sample_weight=None, min_count=30, n_boot=None, confidence=0.95,
                     random_state=0, min_events=5) -> pd.DataFrame:
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
        ``strata_too_small``: the conditional gap averages over noisy cells there. The pooled gap is flagged
        ``too_small`` as in ``gaps_to_reference``.
    min_events : int, default 5
        As in ``group_rates``: a stratum used in which either side's rate has fewer than this many rows on one
        side of its numerator is counted in ``strata_few_events``; the pooled gap is flagged ``few_events``.
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
        undefined), ``strata_too_small``, ``strata_few_events``, ``count`` and ``reference_count`` (rows in each
        pooled rate's denominator), ``denominator``, the pooled gap's ``too_small`` and ``few_events`` flags,
        ``weights`` (how the strata were weighted) and ``reference``; with ``n_boot``, the intervals right after
        each gap. ``format_gaps`` shows it as text.

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
    rows = check_rows(y_true, y_pred, sample_weight)
    options = check_options(metrics, min_count=min_count, min_events=min_events, n_boot=n_boot,
                            confidence=confidence, interval="bootstrap")
    weights = check_name(weights, CONDITIONAL_WEIGHTS, "weights", plural="weightings")
    groups = encode_groups(sensitive_features, len(rows[0]))
    layers = _check_strata(strata, len(rows[0]))
    n_groups, n_strata = groups.n_cells, layers.n_cells
    metrics = options["metrics"]

    # One evaluation of the (stratum, group) cells; the groups' pooled evaluation adds its tallies over strata.
    cells = Groups(codes=layers.codes * n_groups + groups.codes, index=pd.RangeIndex(n_strata * n_groups))
    within = evaluate_cells(cells, *rows, **options, random_state=random_state)
    measured = {k: options[k] for k in ("min_count", "min_events", "interval", "confidence")}
    pooled = measure(groups, metrics, within.tallies.pooled(n_strata, n_groups), **measured)
    table = reference_table(pooled, reference).drop(columns=["ratio", "ratio_lower", "ratio_upper"],
                                                    errors="ignore")
    table = table.rename(columns=lambda c: c.replace("difference", "pooled"))
    ref = reference_position(pooled, reference)
    others = np.array([g for g in range(n_groups) if g != ref])

    def conditional(rates, sums):
        per_cell = rates.reshape(*rates.shape[:-2], n_strata, n_groups, len(metrics))
        share = _share(sums.reshape(*sums.shape[:-2], n_strata, n_groups, len(SUMS)), ref, weights)
        return _conditional(per_cell, share, ref, others)

    gap, used = conditional(within.rates, within.tallies.sums)
    grid = (n_strata, n_groups, len(metrics))
    defined = ~np.isnan(within.rates.reshape(grid)[:, others] - within.rates.reshape(grid)[:, [ref]])

    def strata_with(flag):
        flag = flag.reshape(grid)
        return (defined & (flag[:, others] | flag[:, [ref]])).sum(axis=0).ravel()

    at = table.columns.get_loc("count")
    for name, values in (("conditional", gap.ravel()), ("strata_used", used.ravel()),
                         ("strata_left_out", (n_strata - used).ravel()),
                         ("strata_too_small", strata_with(within.too_small)),
                         ("strata_few_events", strata_with(within.few_events))):
        table.insert(at, name, values)
        at += 1
    if within.boot is not None:
        boot_gap, _ = conditional(within.boot, within.tallies.boot)
        lower, upper = percentile_interval(boot_gap, options["confidence"])
        at = table.columns.get_loc("conditional") + 1
        table.insert(at, "conditional_lower", lower.ravel())
        table.insert(at + 1, "conditional_upper", upper.ravel())
    table.insert(table.columns.get_loc("reference"), "weights", weights)
    return table
