"""Binomial intervals for rates: exact (Clopper-Pearson) and Wilson score.

The percentile bootstrap can only resample the events a cell has: with none, its interval collapses to a point;
with one or two it is far too narrow. The exact interval inverts the binomial test and never falls below nominal
coverage, which is why the bootstrap gives way to it for every rate resting on few events (an interval asked
for by name, exact or Wilson, is always the one given). scipy has the beta quantile but no vectorised binomial
interval (statsmodels has one; it is not worth a dependency for two formulas).

Weighted rates use Kish's effective sample size n_eff = (sum w)^2 / sum w^2 in place of the count and
rate * n_eff in place of the events, as Korn and Graubard (1998) do for survey proportions; without weights both
are the exact integer counts.
"""
from __future__ import annotations

import numpy as np
from scipy.special import betaincinv, ndtri

INTERVALS = ("bootstrap", "exact", "wilson")
"""Interval methods of ``group_rates`` and ``disaggregate``."""


def check_interval(interval) -> str:
    """Validate an interval method name; raise listing the valid names."""
    if not isinstance(interval, str) or interval not in INTERVALS:
        raise ValueError(f"unknown interval {interval!r}; the intervals are: {', '.join(INTERVALS)}")
    return interval


def clopper_pearson(events: np.ndarray, n: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact two-sided interval for events out of n (arrays of the same shape; NaN where n is 0)."""
    events, n = np.broadcast_arrays(np.asarray(events, float), np.asarray(n, float))
    alpha = 1.0 - confidence
    lower, upper = np.full(n.shape, np.nan), np.full(n.shape, np.nan)
    has = n > 0
    lower[has], upper[has] = 0.0, 1.0
    inner_low = has & (events > 0)
    inner_high = has & (events < n)
    x, m = events[inner_low], n[inner_low]
    lower[inner_low] = betaincinv(x, m - x + 1, alpha / 2)
    x, m = events[inner_high], n[inner_high]
    upper[inner_high] = betaincinv(x + 1, m - x, 1 - alpha / 2)
    return lower, upper


def wilson(events: np.ndarray, n: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for events out of n (NaN where n is 0)."""
    events, n = np.broadcast_arrays(np.asarray(events, float), np.asarray(n, float))
    z = ndtri(1 - (1 - confidence) / 2)
    lower, upper = np.full(n.shape, np.nan), np.full(n.shape, np.nan)
    has = n > 0
    x, m = events[has], n[has]
    centre = (x + z * z / 2) / (m + z * z)
    half = z / (m + z * z) * np.sqrt(np.maximum(x * (m - x) / m, 0.0) + z * z / 4)
    lower[has] = np.clip(centre - half, 0.0, 1.0)
    upper[has] = np.clip(centre + half, 0.0, 1.0)
    return lower, upper


def newcombe(events_a, n_a, events_b, n_b, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Interval for the difference of two independent proportions, a - b: Newcombe's hybrid score interval
    (method 10 of Newcombe 1998), built from the two Wilson intervals; it keeps its coverage with few or no
    events, where the Wald interval does not. NaN where either n is 0."""
    ea, na, eb, nb = np.broadcast_arrays(*(np.asarray(v, float) for v in (events_a, n_a, events_b, n_b)))
    la, ua = wilson(ea, na, confidence)
    lb, ub = wilson(eb, nb, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        pa, pb = ea / na, eb / nb
    d = pa - pb
    return d - np.sqrt((pa - la) ** 2 + (ub - pb) ** 2), d + np.sqrt((ua - pa) ** 2 + (pb - lb) ** 2)
