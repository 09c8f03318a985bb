"""Reject option classification (Kamiran, Karim and Zhang, 2012): relabel the uncertain rows by group.

Neither fairlearn nor scikit-learn has this post-processing rule (fairlearn's ThresholdOptimizer picks its own
thresholds by a grid search over each group's ROC convex hull; it cannot be told to move both groups by the same
band), and AIF360's ``RejectOptionClassification`` needs its own dataset classes and is not in this project's
lock, so the rule is written here; it is a few lines of numpy, tested against a row-by-row computation.
"""
from __future__ import annotations

import math

import numpy as np


def reject_option_predict(scores, *, sensitive_features, deprived, width, threshold=0.5, favourable=1):
    """Decisions of the reject option rule: inside the band around the threshold, decide by group.

    A row whose score lies strictly inside the band ``threshold - width < score < threshold + width`` (the
    "critical region", where the model is least sure) gets the favourable label when it belongs to the
    ``deprived`` group and the unfavourable label otherwise; every other row gets the usual decision, 1 when
    ``score > threshold`` and 0 otherwise. ``width=0`` leaves every decision as the threshold makes it.

    Parameters
    ----------
    scores : array-like of shape (n,)
        The model's scores, e.g. ``predict_proba(X)[:, 1]``; finite numbers.
    sensitive_features : array-like of shape (n,)
        The group of each row.
    deprived : label
        The group that receives the favourable label inside the band; one of the values of
        ``sensitive_features``. Every other group receives the unfavourable label there.
    width : float
        Half-width of the band, a finite number >= 0. Kamiran et al. write the band as
        ``max(p, 1 - p) <= theta`` with the threshold at 0.5, which is ``width = theta - 0.5``.
    threshold : float, default 0.5
        The cut-off the model's decisions use.
    favourable : {0, 1}, default 1
        The label that benefits the person (1 on Benefits Denial and German Credit Lending; 0 on the Pretrial
        Risk Assessment audit, whose positive label is "charged again").

    Returns
    -------
    numpy.ndarray of int, shape (n,)
        0/1 decisions. The rule changes no decision outside the band; parity between groups is not promised,
        only moved towards as the band widens.

    Examples
    --------
    >>> reject_option_predict([0.45, 0.55, 0.45, 0.55, 0.9], sensitive_features=["a", "a", "b", "b", "b"],
    ...                       deprived="a", width=0.1).tolist()
    [1, 1, 0, 0, 1]
    """
    s = np.asarray(scores, dtype=float)
    groups = np.asarray(sensitive_features)
    if s.ndim != 1 or groups.shape != s.shape:
        raise ValueError(f"scores and sensitive_features must be 1-d and of equal length; got shapes {s.shape} "
                         f"and {groups.shape}")
    if not np.all(np.isfinite(s)):
        raise ValueError(f"scores must be finite numbers; got {int((~np.isfinite(s)).sum())} NaN or infinite")
    in_group = groups == deprived
    if not in_group.any():
        present = np.unique(groups).tolist()
        raise ValueError(f"deprived group {deprived!r} is not among the groups of sensitive_features: {present}")
    if isinstance(width, bool) or not isinstance(width, (int, float, np.integer, np.floating)) \
            or not math.isfinite(width) or width < 0:
        raise ValueError(f"width must be a finite number >= 0; got {width!r}")
    if favourable not in (0, 1):
        raise ValueError(f"favourable must be 0 or 1; got {favourable!r}")
    decisions = (s > threshold).astype(int)
    band = np.abs(s - threshold) < width
    decisions[band & in_group] = favourable
    decisions[band & ~in_group] = 1 - favourable
    return decisions
