"""Per-group and per-intersection rates, each with the count of rows that is its denominator."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from faircode.metrics._binomial import check_interval, clopper_pearson, wilson
from faircode._choices import check_name
from faircode.metrics._bootstrap import (
    SUMS,
    bootstrap_sums,
    categorize,
    kind_totals,
    make_rng,
    percentile_interval,
    point_sums,
)
from faircode.metrics._definitions import DEFAULT_METRICS, DEFINITIONS, METRICS, ROWS, kind_positions
from faircode.metrics._inputs import Groups, check_count, check_resampling, check_rows, encode_groups

# Columns of the sums each rate adds up: its kinds of row, weights as given or (conditioning on the label)
# scaled per label; numerator and denominator, for every metric, derived from its record.
_SUM_COLUMNS = {
    m.name: tuple([SUMS.index(f"{'L' if m.conditioning == 'label' else 'W'}_{k}") for k in kinds]
                  for kinds in (m.events, m.denominator))
    for m in DEFINITIONS.values()
}


def check_metrics(metrics) -> tuple[str, ...]:
    """Validate metric names (None means the defaults); raise listing the valid names."""
    if metrics is None:
        return DEFAULT_METRICS
    if isinstance(metrics, str):
        metrics = (metrics,)
    metrics = tuple(metrics)
    if not metrics:
        raise ValueError(f"no metric given; the metrics are: {', '.join(METRICS)}")
    for m in metrics:
        check_name(m, METRICS, "metric")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"metrics lists a name twice: {', '.join(metrics)}")
    return metrics


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den with NaN (not 0, not a warning) where den is 0."""
    num, den = np.broadcast_arrays(np.asarray(num, float), np.asarray(den, float))
    return np.divide(num, den, out=np.full(num.shape, np.nan), where=den != 0)


def rates_from_sums(sums: np.ndarray, metrics) -> np.ndarray:
    """Rates of shape (..., n_cells, n_metrics) from sums of shape (..., n_cells, len(SUMS))."""
    out = [safe_divide(*(sums[..., columns].sum(axis=-1) for columns in _SUM_COLUMNS[m])) for m in metrics]
    return np.stack(out, axis=-1)


def tally(per_kind: np.ndarray, kinds) -> np.ndarray:
    """Sum of per-kind tallies (..., len(KINDS)) over some kinds of row."""
    return per_kind[..., kind_positions(kinds)].sum(axis=-1)


def per_metric(per_kind: np.ndarray, metrics, side: str) -> np.ndarray:
    """Per-kind tallies (..., len(KINDS)) summed over each metric's ``events`` or ``denominator``:
    (..., n_metrics)."""
    return np.stack([tally(per_kind, getattr(DEFINITIONS[m], side)) for m in metrics], axis=-1)


def _overall_label(overall, index: pd.Index):
    """The label of the overall row (None for no row), checked not to clash with a cell."""
    if overall is None or overall is False:
        return None
    if overall is True:
        label = "overall"
    elif isinstance(overall, str) and overall:
        label = overall
    else:
        raise ValueError(f"overall must be True, False or a non-empty label (str); got {overall!r}")
    full = (label, *([""] * (index.nlevels - 1))) if isinstance(index, pd.MultiIndex) else label
    if full in index:
        raise ValueError(f"the overall row's label {full!r} is also a group; pass overall='<another label>'")
    return full


@dataclass(frozen=True)
class Tallies:
    """What the rates of some cells are measured from: their sums (on the data and on each resample) and their
    rows, weights and squared weights per kind of row."""

    sums: np.ndarray  # (n_cells, len(SUMS))
    boot: np.ndarray | None  # (n_boot, n_cells, len(SUMS)) or None
    rows: np.ndarray  # (n_cells, len(KINDS))
    wsum: np.ndarray
    w2sum: np.ndarray
    weighted: bool

    def pooled(self, n_outer: int, n_inner: int) -> Tallies:
        """The tallies of cells coded ``outer * n_inner + inner``, added up over the outer level (e.g. strata).

        The L_* sums of a cell are scaled by that cell's largest weight per label (see ``_bootstrap``), so they
        cannot be added across cells; the pooled ones are the W_* sums, which give the same rates.
        """
        def add_up(values, rebuild=False):
            if values is None:
                return None
            values = values.reshape(*values.shape[:-2], n_outer, n_inner, values.shape[-1]).sum(axis=-3)
            if rebuild:
                half = len(SUMS) // 2  # W_* first, L_* after, the kinds in the same order
                values[..., half:] = values[..., :half]
            return values

        return Tallies(sums=add_up(self.sums, True), boot=add_up(self.boot, True), rows=add_up(self.rows),
                       wsum=add_up(self.wsum), w2sum=add_up(self.w2sum), weighted=self.weighted)


@dataclass(frozen=True)
class Evaluation:
    """Everything the public tables are built from, for the cells (and, in ``total``, for all rows together)."""

    groups: Groups
    metrics: tuple[str, ...]
    rates: np.ndarray  # (n_cells, n_metrics)
    counts: np.ndarray  # (n_cells, n_metrics) rows in each rate's denominator
    events: np.ndarray  # (n_cells, n_metrics) rows in each rate's numerator
    too_small: np.ndarray  # (n_cells, n_metrics) count < min_count
    few_events: np.ndarray  # (n_cells, n_metrics) events or count - events < min_events (count > 0)
    row_counts: pd.DataFrame
    boot: np.ndarray | None  # (n_boot, n_cells, n_metrics) or None
    lower: np.ndarray | None  # (n_cells, n_metrics) interval on each rate, or None without intervals
    upper: np.ndarray | None
    method: np.ndarray | None  # (n_cells, n_metrics) interval method of each rate: bootstrap, exact or wilson
    confidence: float
    min_count: int
    min_events: int
    interval: str
    tallies: Tallies
    total: Evaluation | None = None  # the overall row: the same quantities over all rows

    @property
    def denominators(self) -> list[str]:
        return [DEFINITIONS[m].among for m in self.metrics]


def select_metrics(ev: Evaluation, metrics) -> Evaluation:
    """The evaluation restricted to some of its metrics, in the order given."""
    pos = [ev.metrics.index(m) for m in metrics]
    cols = {name: getattr(ev, name)[..., pos] for name in
            ("rates", "counts", "events", "too_small", "few_events", "boot", "lower", "upper", "method")
            if getattr(ev, name) is not None}
    total = None if ev.total is None else select_metrics(ev.total, metrics)
    return replace(ev, metrics=tuple(metrics), total=total, **cols)


def measure(groups: Groups, metrics, tallies: Tallies, *, min_count, min_events, interval,
            confidence) -> Evaluation:
    """Rates, counts, flags and intervals of some cells from their tallies."""
    sums, boot_sums, rows, wsum, w2sum = tallies.sums, tallies.boot, tallies.rows, tallies.wsum, tallies.w2sum
    rates = rates_from_sums(sums, metrics)
    counts = per_metric(rows, metrics, "denominator")
    events = per_metric(rows, metrics, "events")
    few = (counts > 0) & ((events < min_events) | (counts - events < min_events))
    boot = None if boot_sums is None else rates_from_sums(boot_sums, metrics)
    lower = upper = method = None
    if boot is not None or interval != "bootstrap":
        if tallies.weighted:  # Kish's effective sample size of the denominator's rows, and the rate's share of it
            den_w = per_metric(wsum, metrics, "denominator")
            den_w2 = per_metric(w2sum, metrics, "denominator")
            n_eff = safe_divide(den_w ** 2, den_w2)
            n_eff = np.where(np.isnan(n_eff), 0.0, n_eff)
            x_eff = np.where(np.isnan(rates), 0.0, rates) * n_eff
        else:
            n_eff, x_eff = counts, events
        if interval == "exact":
            lower, upper = clopper_pearson(x_eff, n_eff, confidence)
            method = np.full(rates.shape, "exact", dtype=object)
        elif interval == "wilson":
            lower, upper = wilson(x_eff, n_eff, confidence)
            method = np.full(rates.shape, "wilson", dtype=object)
        else:
            # The caller's binomial choice is always honoured; only the percentile bootstrap, which can only
            # resample the events a cell has (none: an interval of zero width), gives way on few events, to the
            # exact interval, and the ``interval`` column says so rate by rate.
            exact = clopper_pearson(x_eff, n_eff, confidence)
            lower, upper = percentile_interval(boot, confidence)
            lower, upper = np.where(few, exact[0], lower), np.where(few, exact[1], upper)
            method = np.where(few, "exact", "bootstrap").astype(object)
    row_counts = pd.DataFrame({name: tally(rows, kinds) for name, kinds in ROWS.items()}, index=groups.index)
    return Evaluation(groups=groups, metrics=tuple(metrics), rates=rates, counts=counts, events=events,
                      too_small=counts < min_count, few_events=few, row_counts=row_counts, boot=boot,
                      lower=lower, upper=upper, method=method, confidence=float(confidence),
                      min_count=min_count, min_events=min_events, interval=interval, tallies=tallies)


def evaluate(y_true, y_pred, *, sensitive_features, metrics=None, sample_weight=None, min_count=30,
             min_events=5, n_boot=None, confidence=0.95, interval="bootstrap", stratify=False, random_state=0,
             overall=False) -> Evaluation:
    """Check the inputs, compute the rates, their flags and (if asked for) their intervals."""
    rows = check_rows(y_true, y_pred, sample_weight)
    options = check_options(metrics, min_count=min_count, min_events=min_events, n_boot=n_boot,
                            confidence=confidence, interval=interval)
    groups = encode_groups(sensitive_features, len(rows[0]))
    return evaluate_cells(groups, *rows, **options, stratify=stratify, random_state=random_state,
                          overall=_overall_label(overall, groups.index))


def check_options(metrics, *, min_count, min_events, n_boot, confidence, interval) -> dict:
    """The evaluation's options, checked: metric names, thresholds, resampling and interval method."""
    return dict(metrics=check_metrics(metrics), min_count=check_count("min_count", min_count),
                min_events=check_count("min_events", min_events), n_boot=check_resampling(n_boot, confidence),
                confidence=float(confidence), interval=check_interval(interval))


def evaluate_cells(groups: Groups, y, y_hat, w, *, metrics, min_count, min_events, n_boot, confidence, interval,
                   stratify=False, random_state=0, overall=None) -> Evaluation:
    """The evaluation of checked rows coded by cell; ``overall``, if not None, labels an overall row."""
    total = overall is not None
    cats = categorize(groups.codes, y, y_hat, w, groups.n_cells)
    sums = point_sums(cats, total=total)
    boot = None
    if n_boot is not None:
        boot = bootstrap_sums(cats, n_boot, make_rng(random_state), bool(stratify), total=total)
    rows, wsum, w2sum = kind_totals(cats)
    options = dict(min_count=min_count, min_events=min_events, interval=interval, confidence=confidence)
    cells = slice(0, groups.n_cells)
    tallies = Tallies(sums=sums[cells], boot=None if boot is None else boot[:, cells], rows=rows, wsum=wsum,
                      w2sum=w2sum, weighted=w is not None)
    ev = measure(groups, metrics, tallies, **options)
    if not total:
        return ev
    if isinstance(groups.index, pd.MultiIndex):
        index = pd.MultiIndex.from_tuples([overall], names=groups.index.names)
    else:
        index = pd.Index([overall], name=groups.index.name)
    everyone = Groups(codes=np.zeros(len(y), np.int64), index=index)
    total_tallies = Tallies(sums=sums[-1:], boot=None if boot is None else boot[:, -1:],
                            rows=rows.sum(axis=0, keepdims=True), wsum=wsum.sum(axis=0, keepdims=True),
                            w2sum=w2sum.sum(axis=0, keepdims=True), weighted=w is not None)
    return replace(ev, total=measure(everyone, metrics, total_tallies, **options))


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
                n_boot=None, confidence=0.95, stratify=False, random_state=0, min_events=5, interval="bootstrap",
                overall=False) -> pd.DataFrame:
    """Rates per group or per intersection of groups, each with the count behind it.

    Parameters
    ----------
    y_true, y_pred : array-like of 0/1
        True labels and predictions (booleans are accepted).
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        One feature gives one row per group; several (DataFrame columns or dict entries) give one row per
        combination of their values, empty combinations included (their rates are NaN). Cells are sorted by
        value, except that a categorical feature (``pd.Categorical``, or a Series of that dtype, such as
        ``pd.cut`` returns) keeps the order of its categories.
    metrics : sequence of str, optional
        Names from ``METRICS``: ``selection_rate`` (share predicted positive), ``tpr``, ``fpr``, ``fnr``,
        ``tnr``, ``precision`` (positive predictive value), ``npv`` (negative predictive value: the share truly
        negative among those predicted negative), ``accuracy``, ``base_rate`` (share truly positive).
        Default: selection_rate, tpr, fpr, fnr, precision, accuracy.
    sample_weight : array-like, optional
        Non-negative row weights. Counts stay counts of rows (with positive weight).
    min_count : int, default 30
        A rate whose denominator counts fewer rows than this is flagged ``too_small``: it is not an estimate
        to report (see ``format_rates``).
    n_boot : int, optional
        Number of bootstrap resamples; when given, the table gains ``lower``, ``upper`` and ``interval``
        columns.
    confidence : float, default 0.95
        Coverage of the intervals.
    stratify : bool, default False
        Resample within each cell (cell sizes fixed) instead of from all rows (fairlearn's scheme).
    random_state : int or numpy.random.Generator, default 0
        Seed of the resampling; the same seed gives the same resamples in ``group_rates`` and the gap
        functions, so their intervals come from the same replicates.
    min_events : int, default 5
        A rate is flagged ``few_events`` when fewer than this many rows of its denominator are on either side:
        in its numerator (events: the false positives of an FPR, the correct predictions of an accuracy) or
        not (count - events). With so few events the percentile bootstrap collapses (0 events out of 31 gives
        [0, 0]) or is far too narrow, so under ``interval="bootstrap"`` such a rate gets the exact interval
        instead (its ``interval`` column says ``exact``). An exact or Wilson interval asked for is always the
        one given.
    interval : {"bootstrap", "exact", "wilson"}, default "bootstrap"
        The interval on each rate: the percentile bootstrap (needs ``n_boot``; without it there are no
        intervals), the exact Clopper-Pearson binomial interval or the Wilson score interval (neither needs
        ``n_boot``). With weights, exact and Wilson intervals use Kish's effective sample size of the
        denominator's rows. Gap intervals are always the bootstrap's (see ``gaps_to_reference``).
    overall : bool or str, default False
        Add a first row computed over all rows, like fairlearn's ``MetricFrame.overall``, with its counts,
        flags and interval (from the same resamples). ``True`` labels it ``overall`` (first level of an
        intersection, the other levels empty); a string gives another label.

    Returns
    -------
    pandas.DataFrame
        One row per (cell, metric), indexed by the feature names and ``metric``; columns ``rate`` (NaN when
        its denominator is zero, never 0), ``count`` (rows in the denominator), ``events`` (rows in the
        numerator), ``denominator`` (what the count counts: n, positives, negatives, predicted positives or
        predicted negatives),
        ``too_small``, ``few_events`` and, with intervals, ``lower``, ``upper`` and ``interval`` (the method
        used for that row: the one asked for, except ``exact`` for a few-events rate under the bootstrap).
        Parity between groups means equal ``rate`` values.

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

    No error among 31 negatives: the exact interval, not a bootstrap interval of zero width.

    >>> table = group_rates([0] * 31, [0] * 31, sensitive_features=["a"] * 31, metrics=["fpr"], n_boot=200)
    >>> print(table.round(3).to_string())  # doctest: +NORMALIZE_WHITESPACE
                                rate  count  events denominator  too_small  few_events  lower  upper interval
    sensitive_feature_0 metric
    a                   fpr      0.0     31       0   negatives      False        True    0.0  0.112    exact
    """
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=metrics,
                  sample_weight=sample_weight, min_count=min_count, min_events=min_events, n_boot=n_boot,
                  confidence=confidence, interval=interval, stratify=stratify, random_state=random_state,
                  overall=overall)
    return rates_table(ev)


def rates_table(ev: Evaluation) -> pd.DataFrame:
    """The long table of ``group_rates`` from an evaluation, the overall row first if there is one."""
    n_cells = ev.groups.n_cells
    table = pd.DataFrame({
        "rate": ev.rates.ravel(),
        "count": ev.counts.ravel(),
        "events": ev.events.ravel(),
        "denominator": np.tile(np.asarray(ev.denominators, dtype=object), n_cells),
        "too_small": ev.too_small.ravel(),
        "few_events": ev.few_events.ravel(),
    }, index=long_index(ev.groups.index, ev.metrics))
    if ev.lower is not None:
        table["lower"], table["upper"] = ev.lower.ravel(), ev.upper.ravel()
        table["interval"] = ev.method.ravel()
    if ev.total is not None:
        table = pd.concat([rates_table(ev.total), table])
    return table
