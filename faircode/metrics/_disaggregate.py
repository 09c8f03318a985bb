"""One call for the whole disaggregated evaluation: rates, gaps to a reference and spread, from one bootstrap."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from faircode.metrics._gaps import between_table, reference_table
from faircode.metrics._rates import check_metrics, evaluate, rates_table, select_metrics


@dataclass(frozen=True)
class Disaggregation:
    """The three tables of ``disaggregate`` (it unpacks as ``rates, gaps, spread``); ``overall_label`` is the
    label of the overall row of ``rates`` (None without one), and ``overall`` that row."""

    rates: pd.DataFrame
    gaps: pd.DataFrame
    spread: pd.DataFrame
    overall_label: object = None

    def __iter__(self):
        return iter((self.rates, self.gaps, self.spread))

    @property
    def overall(self) -> pd.DataFrame:
        """The rates over all rows, indexed by metric (like ``MetricFrame.overall``, with counts and flags)."""
        label = self.overall_label
        if label is None:
            raise ValueError("these rates have no overall row; call disaggregate(..., overall=True)")
        cells = self.rates.index.droplevel("metric")
        return self.rates[cells == label].droplevel(list(range(cells.nlevels)))


def disaggregate(y_true, y_pred, *, sensitive_features, reference=None, metrics=None, sample_weight=None,
                 min_count=30, n_boot=None, confidence=0.95, stratify=False, random_state=0, min_events=5,
                 interval="bootstrap", overall=False, gap_metrics=None) -> Disaggregation:
    """Rates per cell, gaps to a reference cell and the spread across cells, with intervals from one bootstrap.

    Equivalent to calling ``group_rates`` (with ``metrics``), ``gaps_to_reference`` and ``gaps_between_groups``
    (with ``gap_metrics``) and otherwise the same arguments (the tables are identical), but the data are
    checked and resampled once.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, metrics, sample_weight, min_count, n_boot, confidence, stratify, random_state
        As in ``group_rates``; there must be at least two groups.
    min_events, interval, overall
        As in ``group_rates``: the few-events flag, the interval on each rate (gaps always take the
        bootstrap's) and an overall row first in ``rates`` (gaps never compare against it).
    reference : label, optional
        As in ``gaps_to_reference``. Default: the group with the most rows.
    gap_metrics : sequence of str, optional
        The metrics of ``gaps`` and ``spread``, when they differ from those of ``rates``, e.g. a base rate
        shown for context but not compared. Default: ``metrics``.

    Returns
    -------
    Disaggregation
        ``rates`` (as ``group_rates``), ``gaps`` (as ``gaps_to_reference``) and ``spread`` (as
        ``gaps_between_groups``), unpacking as those three; ``overall_label`` names the overall row of
        ``rates`` and the ``overall`` property gives it. Parity: equal rates, differences of 0, ratios of 1.

    Examples
    --------
    >>> from faircode.metrics import disaggregate
    >>> result = disaggregate([1, 1, 0, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1, 0, 0],
    ...                       sensitive_features={"sex": ["f"] * 4 + ["m"] * 4},
    ...                       metrics=["base_rate", "tpr"], gap_metrics=["tpr"], reference="m", min_count=1,
    ...                       n_boot=200, overall=True)
    >>> float(result.gaps.loc[("f", "tpr"), "difference"])
    -0.5
    >>> result.spread.loc["tpr", ["max_group", "min_group"]].tolist()
    ['m', 'f']
    >>> result.overall[["rate", "count"]]  # doctest: +NORMALIZE_WHITESPACE
               rate  count
    metric
    base_rate  0.50      8
    tpr        0.75      4
    """
    metrics = check_metrics(metrics)
    gap_metrics = metrics if gap_metrics is None else check_metrics(gap_metrics)
    union = metrics + tuple(m for m in gap_metrics if m not in metrics)
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=union,
                  sample_weight=sample_weight, min_count=min_count, min_events=min_events, n_boot=n_boot,
                  confidence=confidence, interval=interval, stratify=stratify, random_state=random_state,
                  overall=overall)
    gap_ev = select_metrics(ev, gap_metrics)
    return Disaggregation(rates=rates_table(select_metrics(ev, metrics)), gaps=reference_table(gap_ev, reference),
                          spread=between_table(gap_ev),
                          overall_label=None if ev.total is None else ev.total.groups.index[0])
