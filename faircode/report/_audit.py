"""``faircode.audit``: rates, gaps and ratios per group with intervals from one bootstrap on counts.

Everything is computed by faircode's own evaluation (``faircode.metrics._rates.measure``: rates, counts, too-small
and few-event flags, percentile intervals giving way to exact ones on few events; ``faircode.metrics._gaps``: gaps
and ratios to a reference and the spread, on the same resamples), fed with the tallies of ``_counts``. What is new
here:

- the views and thresholds of one audit share one set of resamples (``_counts``);
- a gap involving a rate with few events gets an interval all the same, from the two rates' exact intervals
  (``_exact_gap``), where ``faircode.metrics.format_gaps`` shows none;
- a p-value per gap (large-sample, free of the bootstrap's seed, without weights) and Holm's flags over the
  distinct gaps compared (a TPR gap and its FNR gap are one), and the count of those comparisons;
- the four-fifths reading of the selection ratio, AUC and calibration per group, conditional gaps over strata.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd

from faircode.metrics._binomial import clopper_pearson
from faircode.metrics._conditional import _conditional, _share
from faircode.metrics._gaps import between_table, reference_table
from faircode.metrics._inputs import Groups
from faircode.metrics._multiplicity import holm as _holm
from faircode.metrics._rates import measure, per_metric, rates_table, safe_divide
from faircode.report import _counts, _read, _scores
from faircode.report._errors import AuditInputError, closest, listed
from faircode.report._result import AuditReport

RATE_METRICS = ("selection_rate", "base_rate", "tpr", "fpr", "fnr", "precision", "npv", "accuracy")
"""The rates of every group, in the order tables show them (``precision`` is the positive predictive value)."""
GAP_METRICS = ("selection_rate", "tpr", "fpr", "fnr", "precision", "npv", "accuracy")
"""The rates compared between groups (the base rate is the data's, not the model's: shown, not compared)."""
BOOTSTRAP = ("multinomial draw of the counts of rows per (group cell, label, score band, weight), the total number "
             "of rows fixed: the distribution of resampling rows with replacement")
OVERALL = "overall"
JOIN = " & "


def _check_options(score, decision, threshold, score_range, n_boot, confidence, min_count, min_events,
                   calibration_bins):
    if (score is None) == (decision is None):
        raise AuditInputError("give either score= (a column of scores, with threshold=) or decision= (a column "
                              f"of 0/1 decisions); got score={score!r}, decision={decision!r}")
    if decision is not None and threshold is not None:
        raise AuditInputError(f"threshold= applies to a score; decision={decision!r} is already 0/1")
    thresholds = None
    if score is not None:
        if threshold is None:
            raise AuditInputError(f"a score needs a threshold (a row whose score is at or above it is predicted "
                                  f"positive): pass threshold=0.5 (--threshold 0.5), or several")
        values = [threshold] if isinstance(threshold, numbers.Real) else list(threshold)
        if not values or not all(isinstance(t, numbers.Real) and not isinstance(t, bool) and np.isfinite(t)
                                 for t in values):
            raise AuditInputError(f"threshold must be a number or a list of numbers; got {threshold!r}")
        thresholds = np.unique(np.asarray(values, float))
        low, high = score_range
        if thresholds.min() < low or thresholds.max() > high:
            hint = ""
            if score_range == (0.0, 1.0) or tuple(score_range) == (0, 1):
                hint = (f"; if the scores are on another scale, say so: score_range=(0, 100), --score-range 0 100 "
                        f"(or the scale's own ends)")
            raise AuditInputError(f"thresholds {listed(thresholds.tolist())} must lie within the score range "
                                  f"[{low:g}, {high:g}]{hint}")
    if n_boot is not None and (isinstance(n_boot, bool) or not isinstance(n_boot, numbers.Integral) or n_boot < 0):
        raise AuditInputError(f"n_boot must be a whole number of resamples (0 for none); got {n_boot!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise AuditInputError(f"confidence must lie strictly between 0 and 1, e.g. 0.95; got {confidence!r}")
    for name, value in (("min_count", min_count), ("min_events", min_events), ("calibration_bins", calibration_bins)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < (1 if name == "calibration_bins" else 0):
            raise AuditInputError(f"{name} must be a whole number (at least 1 for calibration_bins); got {value!r}")
    return thresholds


def column_names(value, what) -> tuple[str, ...]:
    if value is None:
        return ()
    names = (value,) if isinstance(value, str) else tuple(value)
    if not all(isinstance(n, str) for n in names):
        raise AuditInputError(f"{what} must be column names (str); got {value!r}")
    return names


def references_by_column(reference, groups: tuple[str, ...]) -> dict:
    """The reference group asked for, per column (None: the largest group)."""
    if reference is None:
        return {}
    if not isinstance(reference, dict):
        if len(groups) != 1:
            raise AuditInputError(f"with several group columns ({listed(groups)}) give reference as a dict "
                                  f"{{column: group}} (--reference column=group); got {reference!r}")
        return {groups[0]: reference}
    for column in reference:
        if column not in groups and column != JOIN.join(groups):
            raise AuditInputError(f"reference names column {column!r}, which is not a group column"
                                  f"{closest(column, groups)}; the group columns are: {listed(groups)}")
    return dict(reference)


def reference_position(column: str, index, reference, rows: np.ndarray) -> int:
    """The reference group of a column whose groups are ``index``: the one named (an error naming the closest if
    it does not exist), else the largest (``rows`` per group; the first of equals)."""
    labels = [str(x) for x in index]
    if reference is None:
        return int(np.argmax(rows))
    wanted = JOIN.join(map(str, reference)) if isinstance(reference, tuple) else str(reference)
    if wanted not in labels:
        raise AuditInputError(f"reference group {wanted!r} does not exist in column {column!r}"
                              f"{closest(wanted, labels)}; its groups are: {listed(labels)}")
    return labels.index(wanted)


def _exact_bounds(ev, level: float):
    """Clopper-Pearson bounds of every rate at ``level`` (with weights, on Kish's effective n: an approximation)."""
    if ev.tallies.weighted:
        den_w = per_metric(ev.tallies.wsum, ev.metrics, "denominator")
        n_eff = np.nan_to_num(safe_divide(den_w ** 2, per_metric(ev.tallies.w2sum, ev.metrics, "denominator")))
        x_eff = np.nan_to_num(ev.rates) * n_eff
    else:
        n_eff, x_eff = ev.counts, ev.events
    return clopper_pearson(x_eff, n_eff, level)


def _exact_gap(ev, ref: int, confidence: float):
    """Intervals for the difference and ratio of each cell's rate to the reference's from the two rates' exact
    intervals, each at sqrt(confidence): the rows of two groups are disjoint, so both intervals cover together
    with probability at least ``confidence``, and so does the range of differences (ratios) they allow. Used for
    gaps involving a rate with few events, where the percentile bootstrap collapses."""
    low, high = _exact_bounds(ev, float(np.sqrt(confidence)))
    d_low, d_high = low - high[ref], high - low[ref]
    with np.errstate(divide="ignore", invalid="ignore"):
        r_low = np.where(high[ref] > 0, low / high[ref], np.nan)
        r_high = np.where(low[ref] > 0, high / low[ref], np.inf)
    return d_low, d_high, r_low, r_high


def _p_values(ev, ref: int) -> np.ndarray:
    """Two-sided p-value of each cell's gap to the reference (difference 0) on a normal scale, 2 * (1 - Phi(|z|)).

    Without weights, z is the gap over its large-sample standard error, sqrt(p1 (1 - p1) / n1 + p0 (1 - p0) / n0)
    (the rows of two groups of a column are disjoint), so the p-value, and with it Holm's flags, does not depend
    on the bootstrap's seed: with the SD of 1,000 paired resamples (about 2% Monte Carlo error) a gap on Holm's
    edge passed under some seeds and failed under others. With weights, z is the gap over the standard deviation
    of its paired resamples. Not a count of resamples beyond 0, whose smallest value, 2 / (n_boot + 1), is too
    coarse for Holm's correction over hundreds of comparisons. NaN when the gap is undefined or has no spread."""
    from scipy.stats import norm

    gap = ev.rates - ev.rates[ref:ref + 1, :]
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a gap undefined in every resample: NaN
        if not ev.tallies.weighted:
            variance = safe_divide(ev.rates * (1 - ev.rates), ev.counts)
            se = np.sqrt(variance + variance[ref:ref + 1, :])
        elif ev.boot is not None and ev.boot.shape[0] > 1:
            diff = ev.boot - ev.boot[:, ref:ref + 1, :]
            valid = ~np.isnan(diff)
            se = np.nanstd(np.where(valid, diff, np.nan), axis=0, ddof=1)
            se = np.where(valid.sum(axis=0) > 1, se, np.nan)
        else:
            return np.full(gap.shape, np.nan)
        z = gap / se
    p = 2 * norm.sf(np.abs(z))
    return np.where(se > 0, p, np.nan)


FOUR_FIFTHS_DIRECTIONS = (
    ("positive favourable", "selection rate"),
    ("positive unfavourable", "rate of not being selected (1 - selection rate)"))


def _four_fifths_rows(view, ev, threshold, confidence) -> pd.DataFrame:
    """The four-fifths ratio as 29 CFR 1607.4(D) defines it: each group's rate over the HIGHEST group's (among
    groups that are not too small), whatever the reference group of the gaps tables. Written twice: for a
    favourable positive decision on the selection rate, and for an unfavourable one (flagged as high risk) on the
    favourable outcome's rate, 1 - selection rate (the rule is about the favourable rate; the flag rate's ratio
    above 1.25 is not the same condition). The interval is the paired percentile bootstrap of the ratio to that
    named group (recomputed in each resample, the comparator held fixed as chosen on the data: not an interval
    for a maximum over groups), or the combined exact interval when either rate has few events. It does not
    account for the comparator being chosen as the highest on the same data: with 5 groups of 500 rows and equal
    true rates, 83% of the 95% intervals (160 in 40 simulations) held the true ratio 1; the caveat says so."""
    s = ev.rates[:, 0]
    eligible = ~ev.too_small[:, 0] & ~np.isnan(s)
    low, high = _exact_bounds(ev, float(np.sqrt(confidence)))
    low, high = low[:, 0], high[:, 0]
    few = ev.few_events[:, 0]
    parts = []
    for direction, rate_name in FOUR_FIFTHS_DIRECTIONS:
        favourable = direction == "positive favourable"
        r = s if favourable else 1 - s
        r_low, r_high = (low, high) if favourable else (1 - high, 1 - low)
        boot = None
        if ev.boot is not None:
            boot = ev.boot[:, :, 0] if favourable else 1 - ev.boot[:, :, 0]
        top = int(np.flatnonzero(eligible)[np.argmax(r[eligible])]) if eligible.sum() >= 1 else None
        rows = []
        for g in range(len(view.index)):
            row = {"column": view.name, "threshold": threshold, "direction": direction, "rate_compared": rate_name,
                   "group": str(view.index[g]), "comparator": None if top is None else str(view.index[top]),
                   "rate": float(r[g]), "comparator_rate": np.nan if top is None else float(r[top]),
                   "ratio": np.nan, "ratio_lower": np.nan, "ratio_upper": np.nan, "interval": "none",
                   "count": int(ev.counts[g, 0]), "comparator_count": 0 if top is None else int(ev.counts[top, 0]),
                   "too_small": bool(ev.too_small[g, 0]), "few_events": bool(few[g] or (top is not None and few[top])),
                   "is_comparator": g == top}
            if top is not None and not row["too_small"] and not np.isnan(r[g]) and r[top] > 0:
                row["ratio"] = float(r[g] / r[top])
                if g == top:
                    row["interval"] = "comparator"
                elif row["few_events"] or boot is None:
                    row["ratio_lower"] = float(r_low[g] / r_high[top]) if r_high[top] > 0 else np.nan
                    row["ratio_upper"] = float(r_high[g] / r_low[top]) if r_low[top] > 0 else np.inf
                    row["interval"] = "exact (combined)"
                else:
                    from faircode.metrics._bootstrap import percentile_interval

                    with np.errstate(divide="ignore", invalid="ignore"):
                        ratio = boot[:, g] / boot[:, top]
                    lo, hi = percentile_interval(ratio[:, None], confidence)
                    row["ratio_lower"], row["ratio_upper"] = float(lo[0]), float(hi[0])
                    row["interval"] = "bootstrap (paired)"
            row["below_four_fifths"] = bool(row["ratio"] < 0.8)
            rows.append(row)
        parts.append(pd.DataFrame(rows))
    return pd.concat(parts, ignore_index=True)


def _gap_rows(view, ev, ref, threshold, confidence):
    """The gaps table of one view at one threshold, with interval methods, p-values and ratios."""
    table = reference_table(ev, ev.groups.index[ref]).reset_index()
    table = table.rename(columns={table.columns[0]: "group"})
    others = [g for g in range(len(view.index)) if g != ref]
    d_low, d_high, r_low, r_high = _exact_gap(ev, ref, confidence)
    few = table["few_events"].to_numpy()
    metric_pos = [ev.metrics.index(m) for m in table["metric"]]
    cell_pos = np.repeat(others, len(ev.metrics))
    exact = {"difference_lower": d_low, "difference_upper": d_high, "ratio_lower": r_low, "ratio_upper": r_high}
    has_boot = "difference_lower" in table.columns
    for column, values in exact.items():
        picked = values[cell_pos, metric_pos]
        table[column] = np.where(few, picked, table[column]) if has_boot else picked
    table["interval"] = np.where(few | (not has_boot), "exact (combined)", "bootstrap (paired)")
    table["p_value"] = _p_values(ev, ref)[cell_pos, metric_pos]
    table.loc[few, "p_value"] = np.nan
    table.insert(0, "threshold", threshold)
    table.insert(0, "column", view.name)
    table["reference"] = str(view.index[ref])
    return table


def audit(data, *, label: str, groups, score: str | None = None, decision: str | None = None, threshold=None,
          reference=None, intersections: bool = False, strata=None, sample_weight: str | None = None,
          positive_label=None, score_range=(0.0, 1.0), dropna: bool = False, min_count: int = 30,
          min_events: int = 5, n_boot: int = 1000, confidence: float = 0.95, random_state: int = 0,
          calibration_bins: int = 10, sep: str = ",", encoding: str = "utf-8", engine: str = "auto") -> AuditReport:
    """Audit a table of predictions: rates per group with intervals, gaps and ratios to a reference group with
    paired intervals, the four-fifths selection ratio, and with a score AUC and calibration per group.

    Parameters
    ----------
    data : pandas.DataFrame, dask.dataframe.DataFrame or path
        The predictions, one row each: a DataFrame, a CSV file (plain or compressed: ``.gz``, ``.bz2``, ``.zip``,
        ``.xz``, ``.zst``), a Parquet file or folder, or a glob of Parquet files. Only the columns named below are
        read. Data larger than memory: a Dask DataFrame or Parquet folder (see ``engine``).
    label : str
        The true outcome: 0/1 or True/False, or two values of which ``positive_label`` is the positive one.
    groups : str or list of str
        Group columns; each is audited on its own, every group against its reference.
    score, decision : str
        Either a score column (with ``threshold``) or a column of 0/1 decisions.
    threshold : float or list of float
        A row whose score is at or above the threshold is predicted positive; several thresholds give one set of
        tables each, from the same resamples.
    reference : label or dict, optional
        The reference group, or ``{column: group}`` per column. Default: each column's largest group.
    intersections : bool, default False
        Also audit the combinations of all group columns (cells under ``min_count`` rows are marked too small).
    strata : str or list of str, optional
        Columns of a legitimate factor: adds each gap conditional on them (the within-stratum gaps averaged
        with each stratum's share of rows as weight, as ``faircode.metrics.conditional_gaps``).
    sample_weight : str, optional
        A column of non-negative row weights (rows of weight 0 are left out). Counts stay counts of rows.
    positive_label : optional
        The positive value of a label column that is not 0/1.
    score_range : (float, float), default (0, 1)
        The scale of the score; a score outside it is an error (deciles: ``(1, 10)``).
    dropna : bool, default False
        Drop rows with a missing value in a column read (their number is reported) instead of raising.
    min_count : int, default 30
        A rate whose denominator has fewer rows is flagged ``too_small``: not an estimate to report.
    min_events : int, default 5
        A rate with fewer rows than this on either side of its numerator is flagged ``few_events`` and gets an
        exact (Clopper-Pearson) interval; a gap involving it gets the combined exact interval.
    n_boot : int, default 1000
        Resamples of the one bootstrap (0: exact intervals on rates, combined exact intervals on gaps).
    confidence : float, default 0.95
        Coverage of every interval.
    random_state : int, default 0
        Seed of the bootstrap; the same input and seed give byte-identical reports.
    calibration_bins : int, default 10
        Equal-width score bins of the calibration table (a score with at most 20 values gets one bin per value).
    sep, encoding : str
        The CSV file's delimiter and encoding.
    engine : {"auto", "pandas", "dask"}, default "auto"
        How the rows are read. "pandas" reads the columns into memory. "dask" reads them with Dask, one
        partition at a time, and the workers compute only the number of rows of each distinct combination of the
        columns read (a groupby over label, score or decision, groups, strata and weight); the audit then runs
        on those counts, with the same bootstrap and tables, so the report is byte-identical to the pandas
        path's on the same rows (with ``sample_weight``, sums of weights may differ in the last bits, being
        added in another order). Memory is bounded by one partition of the columns read plus the distinct
        combinations: a score with few distinct values (deciles, steps of 0.01) is exact and small; a
        continuous score is still exact (AUC and calibration come from the counts per distinct score value, as
        in memory: no binning), but has about one combination per row, so round it first when the rows do not
        fit. "auto": Dask for a ``dask.dataframe.DataFrame``, a Parquet folder or a glob of Parquet files
        (``"preds/part-*.parquet"``), pandas otherwise. A bad input gets the same error on both paths (values of
        equal counts in a list of a column's values may come in another order); the first row with a bad
        value is found by a second pass over the data, made only for the error.

    Returns
    -------
    AuditReport
        Tables ``rates``, ``gaps``, ``four_fifths``, ``auc``, ``calibration``, ``curves``, ``conditional``; the
        number of comparisons; ``to_json()``, ``to_markdown()``, ``to_html()`` and ``check(conditions)``. Parity
        is equal rates: a difference of 0, a ratio of 1.

    Examples
    --------
    >>> import pandas as pd
    >>> from faircode import audit
    >>> df = pd.DataFrame({"y": [1, 0, 1, 0] * 10, "p": [0.9, 0.2, 0.4, 0.6] * 10,
    ...                    "sex": ["f"] * 20 + ["m"] * 20})
    >>> report = audit(df, label="y", score="p", threshold=0.5, groups="sex", n_boot=200, min_count=5)
    >>> print(report.rates.query("metric == 'tpr'")[["column", "group", "estimate", "count"]].to_string(index=False))
     column group  estimate  count
    overall   all       0.5     20
        sex     f       0.5     10
        sex     m       0.5     10
    """
    group_cols = column_names(groups, "groups")
    if not group_cols:
        raise AuditInputError("groups must name at least one group column")
    strata_cols = column_names(strata, "strata")
    thresholds = _check_options(score, decision, threshold, score_range, n_boot, confidence, min_count,
                                min_events, calibration_bins)
    references = references_by_column(reference, group_cols)
    columns = _read.Columns(label=label, groups=group_cols, score=score, decision=decision, weight=sample_weight,
                            strata=strata_cols)
    table = _read.read_table(data, columns, sep=sep, encoding=encoding, engine=engine)
    _read.drop_missing(table, columns, dropna)
    y = _read.binary(table, label, "label", positive_label)
    if score is not None:
        values = _read.numeric(table, score, "score")
        _read.check_range(table, score, values, score_range)
    else:
        values = _read.binary(table, decision, "decision").astype(float)
    w = None if sample_weight is None else _read.check_weights(table, sample_weight)
    zero_weight = 0
    m = table.count
    coded = [_read.group_codes(table, c) for c in group_cols]
    coded += [_read.group_codes(table, c, "strata") for c in strata_cols]
    if w is not None and (w == 0).any():
        keep = w > 0
        zero_weight = int(table.rows()[~keep].sum())
        y, values, w = y[keep], values[keep], w[keep]
        m = None if m is None else m[keep]
        coded = [(codes[keep], index) for codes, index in coded]
        for name, (codes, index) in zip(group_cols, coded):
            present = np.unique(codes)
            if len(present) < 2:
                only = str(index[present[0]])
                raise AuditInputError(
                    f"the weight column {sample_weight!r} is 0 in every row of the group column {name!r} except "
                    f"those of group {only!r}: with rows of weight 0 left out there is no other group to compare "
                    f"it with ({zero_weight} rows of weight 0)")
    fine, levels = _counts.fine_cells([c for c, _ in coded], [len(i) for _, i in coded])
    n_fine = len(levels)
    hist = _counts.histogram(fine, n_fine, values, y, w, m)
    cats = _counts.categories(hist, thresholds, fine=fine, score=values, y=y, w=w, m=m)

    views = [_counts.View(OVERALL, (), pd.Index(["all"], name=OVERALL), np.zeros(n_fine, np.int64))]
    for i, name in enumerate(group_cols):
        views.append(_counts.View(name, (name,), coded[i][1], levels[:, i]))
    if intersections and len(group_cols) > 1:
        part = levels[:, :len(group_cols)]
        combos, of_fine = np.unique(part, axis=0, return_inverse=True)
        labels = [JOIN.join(str(coded[i][1][c]) for i, c in enumerate(row)) for row in combos]
        views.append(_counts.View(JOIN.join(group_cols), group_cols, pd.Index(labels, name=JOIN.join(group_cols)),
                                  of_fine.ravel()))
    n_strata = 1
    if strata_cols:
        s_part = levels[:, len(group_cols):]
        s_combos, s_code = np.unique(s_part, axis=0, return_inverse=True)
        s_code = s_code.ravel()
        n_strata = len(s_combos)
        for i, name in enumerate(group_cols):
            n_g = len(coded[i][1])
            views.append(_counts.View(f"strata x {name}", (name,), pd.RangeIndex(n_strata * n_g),
                                      s_code * n_g + levels[:, i]))

    n_thresholds = 1 if thresholds is None else len(thresholds)
    tallies = _counts.tallies(cats, views, n_thresholds, n_boot=n_boot or None, random_state=random_state)
    interval = "bootstrap" if n_boot else "exact"
    options = dict(min_count=min_count, min_events=min_events, interval=interval, confidence=float(confidence))

    rate_parts, gap_parts, spread_parts, cond_parts, ff_parts = [], [], [], [], []
    for view in views:
        if view.name.startswith("strata x "):
            continue
        for j in range(n_thresholds):
            t = None if thresholds is None else float(thresholds[j])
            ev = measure(Groups(codes=np.empty(0, np.int64), index=view.index), RATE_METRICS,
                         tallies[(view.name, j)], **options)
            rates = rates_table(ev).reset_index()
            rates = rates.rename(columns={rates.columns[0]: "group", "rate": "estimate"})
            rates.insert(0, "threshold", t)
            rates.insert(0, "column", view.name)
            rate_parts.append(rates)
            if view.name == OVERALL:
                continue
            gap_ev = _select(ev, GAP_METRICS)
            ref = reference_position(view.name, view.index, references.get(view.name),
                                     ev.row_counts["n"].to_numpy())
            gap_parts.append(_gap_rows(view, gap_ev, ref, t, float(confidence)))
            ff_parts.append(_four_fifths_rows(view, _select(ev, ("selection_rate",)), t, float(confidence)))
            # max - min and min / max over groups: point values only. A percentile bootstrap of a minimum over a
            # maximum does not cover (5 groups of equal rates: 0 of 40 intervals held ratio 1), so none is given.
            spread = between_table(_select(ev, ("selection_rate",))).reset_index()
            spread = spread.drop(columns=[c for c in spread.columns if c.endswith(("_lower", "_upper"))])
            spread.insert(0, "threshold", t)
            spread.insert(0, "column", view.name)
            spread_parts.append(spread)
            if strata_cols and len(view.columns) == 1:
                cond_parts.append(_conditional_rows(view, tallies[(f"strata x {view.name}", j)], n_strata, ref,
                                                    t, options))
    rates = pd.concat(rate_parts, ignore_index=True)
    gaps = pd.concat(gap_parts, ignore_index=True)
    four_fifths = pd.concat(ff_parts, ignore_index=True)
    _say_what_was_computed(rates, gaps, four_fifths, weighted=w is not None)
    _holm_flags(gaps, 1 - float(confidence))
    report_views = [v for v in views if not v.name.startswith("strata x ")]
    score_tables = {}
    if score is not None:
        weighted = w is not None
        score_tables["auc"] = pd.concat([_scores.auc_table(hist, v, weighted=weighted, confidence=float(confidence),
                                                           min_count=min_count)
                                         .assign(column=v.name) for v in report_views], ignore_index=True)
        score_tables["calibration"] = pd.concat(
            [_scores.calibration_table(hist, v, weighted=weighted, confidence=float(confidence),
                                       score_range=score_range, n_bins=calibration_bins, min_count=min_count)
             .assign(column=v.name) for v in report_views], ignore_index=True)
        score_tables["curves"] = pd.concat([_scores.threshold_curve(hist, v).assign(column=v.name)
                                            for v in report_views], ignore_index=True)
    meta = {
        "source": table.source, "rows_read": table.rows_read, "rows_dropped_missing": table.rows_dropped,
        "dropped_by_column": table.dropped_by_column, "rows_zero_weight": zero_weight,
        "rows_used": int(len(y) if m is None else m.sum()), "label": label, "positive_label": None if positive_label is None else str(positive_label),
        "score": score, "decision": decision,
        "thresholds": None if thresholds is None else [float(t) for t in thresholds],
        "score_range": [float(score_range[0]), float(score_range[1])], "groups": list(group_cols),
        "intersections": bool(intersections and len(group_cols) > 1), "strata": list(strata_cols),
        "sample_weight": sample_weight, "n_boot": int(n_boot or 0), "confidence": float(confidence),
        "random_state": random_state, "min_count": min_count, "min_events": min_events,
        "bootstrap": BOOTSTRAP if n_boot else None,
        "references": {g["column"]: g["reference"] for g in gaps[["column", "reference"]].drop_duplicates().to_dict("records")},
    }
    return AuditReport(meta=meta, rates=rates, gaps=gaps, spread=pd.concat(spread_parts, ignore_index=True),
                       four_fifths=four_fifths,
                       conditional=pd.concat(cond_parts, ignore_index=True) if cond_parts else None,
                       **score_tables)


SAME_AS = {"fnr": "tpr"}
"""Gaps that repeat another one: FNR = 1 - TPR, so a group's FNR gap is minus its TPR gap (same p-value)."""


def _holm_flags(gaps: pd.DataFrame, alpha: float) -> None:
    """Holm's correction over the distinct gaps compared (``counted``): every gap of a group that is not too
    small, except those that repeat another one (``SAME_AS``), which take the flag of the gap they repeat. Counting
    a TPR gap and its FNR gap twice would make Holm stricter, and the count of comparisons larger, for nothing."""
    estimable = ~gaps["too_small"] & gaps["difference"].notna()
    gaps["counted"] = estimable & ~gaps["metric"].isin(list(SAME_AS))
    gaps["holm"] = False
    gaps.loc[gaps["counted"], "holm"] = _holm(gaps.loc[gaps["counted"], "p_value"].to_numpy(), alpha)
    key = gaps["column"].astype(str) + "\n" + gaps["threshold"].astype(str) + "\n" + gaps["group"].astype(str)
    for repeat, original in SAME_AS.items():
        flags = dict(zip(key[gaps["metric"] == original], gaps.loc[gaps["metric"] == original, "holm"]))
        at = (gaps["metric"] == repeat) & estimable
        if at.any():
            gaps.loc[at, "holm"] = [bool(flags.get(k, False)) for k in key[at]]


KISH = "Kish effective n"


def _say_what_was_computed(rates, gaps, four_fifths, *, weighted: bool) -> None:
    """The ``interval`` labels name what was computed: "none" where no interval exists (an undefined rate or gap;
    ``faircode.metrics._rates`` labels those with the method it would have used), and with weights the Clopper-Pearson
    intervals on Kish's effective n, an approximation, are not called plain "exact"."""
    rates.loc[rates["estimate"].isna(), "interval"] = "none"
    gaps.loc[gaps["difference"].isna(), "interval"] = "none"
    if weighted:
        rates.loc[rates["interval"] == "exact", "interval"] = f"exact ({KISH})"
        for table in (gaps, four_fifths):
            table.loc[table["interval"] == "exact (combined)", "interval"] = f"exact (combined, {KISH})"


def _select(ev, metrics):
    from faircode.metrics._rates import select_metrics

    return select_metrics(ev, metrics)


def _conditional_rows(view, tallies, n_strata, ref, threshold, options) -> pd.DataFrame:
    """The gap of each group to the reference conditional on the strata (``faircode.metrics._conditional``'s weighted
    mean of the within-stratum gaps, each stratum weighted by its share of all rows), with its interval from the
    same resamples."""
    n_groups = len(view.index)
    index = pd.RangeIndex(n_strata * n_groups)
    ev = measure(Groups(codes=np.empty(0, np.int64), index=index), GAP_METRICS, tallies, **options)
    others = np.array([g for g in range(n_groups) if g != ref])
    grid = (n_strata, n_groups, len(GAP_METRICS))

    def conditional(rates, sums):
        share = _share(sums.reshape(*sums.shape[:-2], n_strata, n_groups, sums.shape[-1]), ref, "stratum")
        return _conditional(rates.reshape(*rates.shape[:-2], *grid), share, ref, others)

    gap, used = conditional(ev.rates, tallies.sums)
    flag = ev.too_small.reshape(grid)
    defined = ~np.isnan(ev.rates.reshape(grid)[:, others] - ev.rates.reshape(grid)[:, [ref]])
    small = (defined & (flag[:, others] | flag[:, [ref]])).sum(axis=0)
    # A conditional gap is flagged too small like a pooled one: when the group's (or the reference's) rows in the
    # rate's denominator, over all strata, are under min_count, or every stratum it averages is too small. It then
    # gets no interval: a resample that misses a 1-row group leaves the gap undefined and the percentile interval
    # would show only the reference's noise (a 1-row group read +0.526 [0.517, 0.535]).
    pooled = ev.counts.reshape(grid).sum(axis=0)
    too_small = ((pooled[others] < options["min_count"]) | (pooled[[ref]] < options["min_count"])
                 | ((small == used) & (used > 0)))
    table = pd.DataFrame({
        "column": view.name, "threshold": threshold,
        "group": np.repeat([str(view.index[g]) for g in others], len(GAP_METRICS)),
        "metric": np.tile(GAP_METRICS, len(others)), "conditional": gap.ravel(),
        "strata_used": used.ravel(), "strata_too_small": small.ravel(), "too_small": too_small.ravel(),
        "reference": str(view.index[ref])})
    if ev.boot is not None:
        from faircode.metrics._bootstrap import percentile_interval

        boot_gap, _ = conditional(ev.boot, tallies.boot)
        lower, upper = percentile_interval(boot_gap, options["confidence"])
        table.insert(5, "lower", np.where(too_small, np.nan, lower).ravel())
        table.insert(6, "upper", np.where(too_small, np.nan, upper).ravel())
    return table
