"""One call for the whole disaggregated evaluation: rates, gaps to a reference and spread, from one bootstrap."""
from __future__ import annotations

from typing import NamedTuple

import pandas as pd

from faircode._gaps import between_table, reference_table
from faircode._rates import evaluate, rates_table


class Disaggregation(NamedTuple):
    """The three tables of ``disaggregate``."""

    rates: pd.DataFrame
    gaps: pd.DataFrame
    spread: pd.DataFrame


def disaggregate(y_true, y_pred, *, sensitive_features, reference=None, metrics=None, sample_weight=None,
                 min_count=30, n_boot=None, confidence=0.95, stratify=False, random_state=0) -> Disaggregation:
    """Rates per cell, gaps to a reference cell and the spread across cells, with intervals from one bootstrap.

    Equivalent to calling ``group_rates``, ``gaps_to_reference`` and ``gaps_between_groups`` with the same
    arguments (the tables are identical), but the data are checked and resampled once.

    Parameters
    ----------
    y_true, y_pred, sensitive_features, metrics, sample_weight, min_count, n_boot, confidence, stratify, random_state
        As in ``group_rates``; there must be at least two groups.
    reference : label, optional
        As in ``gaps_to_reference``. Default: the group with the most rows.

    Returns
    -------
    Disaggregation
        Named tuple of ``rates`` (as ``group_rates``), ``gaps`` (as ``gaps_to_reference``) and ``spread`` (as
        ``gaps_between_groups``). Parity: equal rates, differences of 0, ratios of 1.

    Examples
    --------
    >>> from faircode.metrics import disaggregate
    >>> result = disaggregate([1, 1, 0, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 1, 0, 0],
    ...                       sensitive_features={"sex": ["f"] * 4 + ["m"] * 4},
    ...                       metrics=["tpr"], reference="m", min_count=1, n_boot=200)
    >>> float(result.gaps.loc[("f", "tpr"), "difference"])
    -0.5
    >>> result.spread.loc["tpr", ["max_group", "min_group"]].tolist()
    ['m', 'f']
    """
    ev = evaluate(y_true, y_pred, sensitive_features=sensitive_features, metrics=metrics,
                  sample_weight=sample_weight, min_count=min_count, n_boot=n_boot, confidence=confidence,
                  stratify=stratify, random_state=random_state)
    return Disaggregation(rates=rates_table(ev), gaps=reference_table(ev, reference), spread=between_table(ev))
