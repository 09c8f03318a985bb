"""Text tables that never show a rate from a cell too small to estimate."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd


def _number(value: float, lower, upper, digits: int) -> str:
    text = f"{value:.{digits}f}"
    if lower is not None and not (math.isnan(lower) or math.isnan(upper)):
        text += f" [{lower:.{digits}f}, {upper:.{digits}f}]"
    return text


def _cell(value, lower, upper, count, denominator, too_small, digits, undefined=None, suffix="") -> str:
    if too_small:
        return f"too small ({denominator}={count})"
    if math.isnan(value):
        return undefined or f"undefined ({denominator}={count})"
    return _number(value, lower, upper, digits) + suffix


def _few_rate(row, has_ci: bool) -> str:
    """The mark of a rate with few events: its fraction of rows and, with an interval, the interval's method
    (the ``interval`` column of that row, so the mark names the method that was used)."""
    if not getattr(row, "few_events", False):
        return ""
    method = getattr(row, "interval", None) if has_ci else None
    return f" ({row.events}/{row.count}, {method})" if method else f" ({row.events}/{row.count})"


def _check(table, needed, producer):
    if not isinstance(table, pd.DataFrame) or not set(needed) <= set(table.columns):
        raise ValueError(f"expected the DataFrame returned by {producer}; it needs the columns {', '.join(needed)}")


def format_rates(table: pd.DataFrame, *, digits: int = 3) -> pd.DataFrame:
    """Show a ``group_rates`` table as text, one row per cell and one column per metric.

    Each rate reads ``0.812`` or, with intervals, ``0.812 [0.790, 0.833]``; a rate flagged ``too_small`` reads
    ``too small (positives=12)``, naming the count behind it, so it cannot be read as an estimate; a rate with
    no rows behind it (possible with ``min_count=0``) reads ``undefined (positives=0)``; a rate flagged
    ``few_events`` carries its fraction of rows and, with intervals, the method of its interval (its row's
    ``interval``: ``exact`` where the bootstrap gave way, else the method asked for):
    ``0.000 [0.000, 0.112] (0/31, exact)``. The counts of rows (n, positives, negatives, predicted positives
    or negatives: those the metrics use) come first. An overall row, if the table has one, comes first too.

    Parameters
    ----------
    table : pandas.DataFrame
        The result of ``group_rates``.
    digits : int, default 3
        Decimals shown.

    Returns
    -------
    pandas.DataFrame
        Strings for the rates, integers for the counts, indexed by cell.

    Examples
    --------
    >>> from faircode.metrics import format_rates, group_rates
    >>> table = group_rates([1, 0, 1, 1, 0, 0], [1, 0, 0, 1, 1, 0],
    ...                     sensitive_features={"sex": ["f", "f", "f", "m", "m", "m"]},
    ...                     metrics=["tpr", "fpr"], min_count=2)
    >>> print(format_rates(table, digits=2).to_string())  # doctest: +NORMALIZE_WHITESPACE
         positives  negatives                      tpr                      fpr
    sex
    f            2          1             0.50 (1/2)  too small (negatives=1)
    m            1          2  too small (positives=1)             0.50 (1/2)
    """
    _check(table, ("rate", "count", "denominator", "too_small"), "group_rates")
    has_ci = "lower" in table.columns
    metric_level = table.index.nlevels - 1
    metrics = list(dict.fromkeys(table.index.get_level_values(metric_level)))
    cells = table.index.droplevel(metric_level).unique()
    counts, texts = {}, {}
    for metric in metrics:
        part = table.xs(metric, level=metric_level)
        denominator = part["denominator"].iloc[0]
        counts.setdefault(denominator, part["count"].to_numpy())
        texts[metric] = [
            _cell(row.rate, row.lower if has_ci else None, row.upper if has_ci else None, row.count,
                  denominator, row.too_small, digits, suffix=_few_rate(row, has_ci))
            for row in part.itertuples()
        ]
    return pd.DataFrame({**counts, **texts}, index=cells)


def _strata_note(row) -> str:
    """How many of the strata a conditional gap averages over rest on small cells or few events."""
    notes = [f"{row[col]} {what}" for col, what in (("strata_too_small", "too small"),
                                                       ("strata_few_events", "with few events")) if row[col]]
    return f" ({' and '.join(notes)} of {row['strata_used']} strata)" if notes else ""


def _format_conditional(table: pd.DataFrame, digits: int) -> pd.DataFrame:
    """``format_gaps`` of a ``conditional_gaps`` table."""
    _check(table, ("pooled", "conditional", "strata_used", "strata_too_small", "strata_few_events", "count",
                   "reference_count", "denominator", "too_small", "few_events"), "conditional_gaps")
    pooled, conditional = [], []
    for _, row in table.iterrows():
        lo, hi = row.get("pooled_lower"), row.get("pooled_upper")
        suffix = ""
        if row["few_events"]:
            suffix = " (few events)" if lo is None else " (few events, no interval)"
            lo = hi = None
        count = min(row["count"], row["reference_count"])
        pooled.append(_cell(row["pooled"], lo, hi, count, row["denominator"], row["too_small"], digits,
                            suffix=suffix))
        if np.isnan(row["conditional"]):
            conditional.append("undefined (no stratum has both rates)")
        else:
            conditional.append(_number(row["conditional"], row.get("conditional_lower"),
                                       row.get("conditional_upper"), digits) + _strata_note(row))
    return pd.DataFrame({"pooled": pooled, "conditional": conditional, "strata_used": table["strata_used"],
                         "count": table["count"], "reference_count": table["reference_count"]},
                        index=table.index)


def format_gaps(table: pd.DataFrame, *, digits: int = 3) -> pd.DataFrame:
    """Show a gap table (``gaps_to_reference``, ``gaps_between_groups`` or ``conditional_gaps``) as text.

    ``difference`` and ``ratio`` become strings like ``-0.052 [-0.071, -0.033]``; a gap that involves a cell
    too small to estimate reads ``too small (positives=12)`` (the smaller of the two counts), a ratio to a
    reference rate of 0 reads ``undefined (reference rate is 0)``, a spread with fewer than two cells
    large enough reads ``too few groups (1)``, and a gap flagged ``few_events`` shows no interval, since its
    bootstrap interval is unreliable: ``-0.032 (few events, no interval)``. A ``conditional_gaps`` table
    gives ``pooled`` (as ``difference``) and ``conditional``, which says how many of the strata it averages
    over are too small or rest on few events, ``-0.077 [-0.213, 0.041] (2 too small of 3 strata)``, or
    ``undefined (no stratum has both rates)``.

    Parameters
    ----------
    table : pandas.DataFrame
        The result of ``gaps_to_reference``, ``gaps_between_groups`` or ``conditional_gaps``.
    digits : int, default 3
        Decimals shown.

    Returns
    -------
    pandas.DataFrame
        The same rows, with text gaps and the counts or groups behind them.

    Examples
    --------
    >>> from faircode.metrics import format_gaps, gaps_to_reference
    >>> gaps = gaps_to_reference([1, 1, 0, 1, 1, 0], [1, 0, 0, 1, 1, 1],
    ...                          sensitive_features={"g": ["a", "a", "a", "b", "b", "b"]},
    ...                          metrics=["tpr", "fpr"], reference="b", min_count=2)
    >>> print(format_gaps(gaps).to_string())  # doctest: +NORMALIZE_WHITESPACE
                           difference                    ratio  count  reference_count
    g metric
    a tpr         -0.500 (few events)       0.500 (few events)      2                2
      fpr     too small (negatives=1)  too small (negatives=1)      1                1
    """
    if isinstance(table, pd.DataFrame) and "conditional" in table.columns:
        return _format_conditional(table, digits)
    _check(table, ("difference", "ratio"), "gaps_to_reference, gaps_between_groups or conditional_gaps")
    out = pd.DataFrame(index=table.index)
    for name in ("difference", "ratio"):
        lower = table.get(f"{name}_lower")
        upper = table.get(f"{name}_upper")
        values = []
        for i, (_, row) in enumerate(table.iterrows()):
            lo = None if lower is None else lower.iloc[i]
            hi = None if upper is None else upper.iloc[i]
            suffix = ""
            if row.get("few_events", False):
                suffix = " (few events)" if lo is None else " (few events, no interval)"
                lo = hi = None
            if "n_groups" in table.columns:
                if row.n_groups < 2:
                    values.append(f"too few groups ({row.n_groups})")
                else:
                    values.append(_number(row[name], lo, hi, digits) + suffix)
            else:
                count = min(row["count"], row["reference_count"])
                undefined = "undefined (reference rate is 0)" if name == "ratio" and count else None
                values.append(_cell(row[name], lo, hi, count, row["denominator"], row["too_small"], digits,
                                    undefined, suffix))
        out[name] = values
    keep = ["max_group", "min_group", "n_groups"] if "n_groups" in table.columns else ["count", "reference_count"]
    for col in keep:
        out[col] = table[col]
    return out
