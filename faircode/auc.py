"""ROC AUC with DeLong's standard error: an interval for one score, and for the difference of two on the same rows.

scikit-learn's ``roc_auc_score`` gives the AUC and nothing about its uncertainty, and scipy has no AUC at all.
DeLong, DeLong and Clarke-Pearson (1988) estimate the variance of the AUC (a Mann-Whitney statistic) from each
row's placement among the other class, and the covariance of two AUCs measured on the same rows, which makes
the paired comparison of two scores possible. The placements are computed from midranks (Sun and Xu, 2014), so
the cost is a sort, not a comparison of every positive with every negative. The intervals are Wald intervals;
one AUC's is clipped to [0, 1] (an AUC of exactly 0 or 1 has a standard error of 0 and an interval of width 0),
the interval of a difference of two AUCs is not.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import ndtr, ndtri
from scipy.stats import rankdata

__all__ = ["delong_auc", "delong_difference"]


def _placements(y_true, scores):
    """AUCs of each score column and DeLong's covariance matrix of them."""
    y = np.asarray(y_true)
    if y.ndim != 1 or not np.isin(y, (0, 1)).all():
        raise ValueError(f"y_true must be a 1-d array of 0/1; got values {np.unique(y)[:10].tolist()}")
    positive, negative = y == 1, y == 0
    m, n = int(positive.sum()), int(negative.sum())
    if m < 2 or n < 2:
        raise ValueError(f"an AUC interval needs at least two rows of each class; got {m} positive and {n} negative")
    s = np.column_stack([np.asarray(x, dtype=float) for x in scores])
    if s.shape[0] != len(y) or not np.isfinite(s).all():
        raise ValueError(f"each score must be {len(y)} finite numbers, one per row of y_true; got shape {s.shape}")
    all_ranks = rankdata(s, axis=0)
    pos_ranks = rankdata(s[positive], axis=0)
    neg_ranks = rankdata(s[negative], axis=0)
    # Share of negatives each positive outscores (ties count half), and share of positives outscoring each negative.
    v10 = (all_ranks[positive] - pos_ranks) / n
    v01 = 1 - (all_ranks[negative] - neg_ranks) / m
    auc = v10.mean(axis=0)
    cov = np.atleast_2d(np.cov(v10, rowvar=False)) / m + np.atleast_2d(np.cov(v01, rowvar=False)) / n
    return auc, cov, m, n


def delong_auc(y_true, y_score, *, confidence: float = 0.95) -> pd.Series:
    """ROC AUC of one score with DeLong's standard error and a Wald interval.

    Parameters
    ----------
    y_true : array-like of 0/1
        True classes; at least two rows of each.
    y_score : array-like of float
        Scores, higher meaning class 1 is more likely. An AUC of 0.5 is no better than chance.
    confidence : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.

    Returns
    -------
    pandas.Series
        ``auc``, ``se``, ``lower``, ``upper`` (clipped to [0, 1]), ``positives`` and ``negatives``.

    Examples
    --------
    >>> float(delong_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])["auc"])
    0.75
    """
    z = _z(confidence)
    auc, cov, m, n = _placements(y_true, [y_score])
    se = float(np.sqrt(cov[0, 0]))
    return pd.Series({"auc": auc[0], "se": se, "lower": max(0.0, auc[0] - z * se),
                      "upper": min(1.0, auc[0] + z * se), "positives": m, "negatives": n})


def delong_difference(y_true, score_a, score_b, *, confidence: float = 0.95) -> pd.Series:
    """Difference of two scores' AUCs on the same rows (a minus b), with DeLong's paired standard error.

    Returns a Series: ``auc_a``, ``auc_b``, ``difference``, ``se``, ``lower``, ``upper`` and ``p_value``
    (two-sided, normal approximation, for a difference of 0). Same parameters as ``delong_auc``.

    Examples
    --------
    >>> round(float(delong_difference([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [0.1, 0.2, 0.3, 0.4])["difference"]), 2)
    -0.25
    """
    z = _z(confidence)
    auc, cov, _, _ = _placements(y_true, [score_a, score_b])
    difference = auc[0] - auc[1]
    se = float(np.sqrt(max(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1], 0.0)))
    p_value = float(2 * ndtr(-abs(difference) / se)) if se > 0 else float(difference == 0)
    return pd.Series({"auc_a": auc[0], "auc_b": auc[1], "difference": difference, "se": se,
                      "lower": difference - z * se, "upper": difference + z * se, "p_value": p_value})


def _z(confidence) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number strictly between 0 and 1, e.g. 0.95; got {confidence!r}")
    return float(ndtri(0.5 + confidence / 2))

