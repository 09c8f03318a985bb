"""A measure repeated over runs (seeds or splits), each run with bootstrap resamples of its test rows.

Pages that simulate (thin a group, resample a class, flip labels) fit one model per seed and score it on the
whole test set and on bootstrap resamples of it. What they report is the mean of the runs' estimates and an
interval that covers both sources of spread: the percentile interval of every run's resamples pooled.
Neither fairlearn nor scikit-learn summarises runs this way, so faircode does.
"""
from __future__ import annotations

import numpy as np

__all__ = ["pooled_interval"]


def pooled_interval(estimates, samples, *, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of the runs' estimates, and the percentile interval of all runs' resamples pooled.

    Parameters
    ----------
    estimates : sequence of float
        The measure on the whole test set, one value per run.
    samples : sequence of array-like
        The measure on each run's bootstrap resamples, one 1-d array per run, in the order of ``estimates``.
        NaN values (a resample with an empty denominator) are left out of the interval.
    confidence : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.

    Returns
    -------
    tuple of float
        ``(estimate, lower, upper)``: the mean of ``estimates`` and the interval's ends.

    Examples
    --------
    >>> pooled_interval([0.25, 0.75], [[0.1, 0.2, 0.3], [0.3, 0.4, 0.5]], confidence=0.5)
    (0.5, 0.225, 0.375)
    """
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number strictly between 0 and 1, e.g. 0.95; got {confidence!r}")
    values = np.asarray(estimates, dtype=float)
    if values.ndim != 1 or len(values) == 0:
        raise ValueError(f"estimates must be a non-empty sequence of numbers, one per run; got shape {values.shape}")
    runs = [np.asarray(s, dtype=float).ravel() for s in samples]
    if len(runs) != len(values):
        raise ValueError(f"samples must hold one array per run: {len(values)} estimates but {len(runs)} sample arrays")
    pooled = np.concatenate(runs)
    if not np.isfinite(pooled).any():
        raise ValueError(f"samples hold no finite value among {len(pooled)}; nothing to take an interval of")
    lower, upper = np.nanquantile(pooled, [(1 - confidence) / 2, (1 + confidence) / 2])
    return float(values.mean()), float(lower), float(upper)
