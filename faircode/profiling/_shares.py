"""Shares of rows with exact intervals, and differences of shares with Newcombe's interval: group sizes, base
rates, missing values by group, and the change of each between two files.

Every share here is events out of rows of one group (or one file), so its interval is the exact (Clopper-Pearson)
one; every difference compares rows that are not shared (two groups of one column, or two files), so it is a
difference of two independent proportions and gets Newcombe's hybrid score interval (``faircode.metrics._binomial``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from faircode.metrics._binomial import clopper_pearson, newcombe


def shares(events, counts, confidence: float) -> pd.DataFrame:
    """``events`` out of ``counts`` (arrays) as a share with its exact interval (NaN where a count is 0)."""
    events, counts = np.asarray(events, float), np.asarray(counts, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(counts > 0, events / np.where(counts > 0, counts, 1), np.nan)
    lower, upper = clopper_pearson(events, counts, confidence)
    return pd.DataFrame({"share": share, "lower": lower, "upper": upper})


def gaps_to_reference(events, counts, ref: int, confidence: float) -> pd.DataFrame:
    """Each group's share minus the reference group's, with Newcombe's interval; NaN in the reference's row."""
    events, counts = np.asarray(events, float), np.asarray(counts, float)
    diff_lo, diff_hi = newcombe(events, counts, events[ref], counts[ref], confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = events / counts - events[ref] / counts[ref]
    out = pd.DataFrame({"difference": diff, "difference_lower": diff_lo, "difference_upper": diff_hi})
    out.iloc[ref] = np.nan
    return out


def changes(events, counts, events_before, counts_before, confidence: float) -> pd.DataFrame:
    """The share in one file minus the share in another (two independent samples), with Newcombe's interval."""
    a = [np.asarray(v, float) for v in (events, counts, events_before, counts_before)]
    lower, upper = newcombe(*a, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        change = a[0] / a[1] - a[2] / a[3]
    return pd.DataFrame({"change": change, "change_lower": lower, "change_upper": upper})
