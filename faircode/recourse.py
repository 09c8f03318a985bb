"""Recourse for a linear classifier: the cheapest change of the actionable features that turns a refusal into an
approval (Ustun, Spangher and Liu, 2019), for a weighted L1 cost with bounds, computed exactly.

Written here because no maintained library returns it: actionable-recourse, the authors' own package, was last
released in 2020 and needs an external integer-programming solver; DiCE and similar libraries search for
counterfactuals (at random, by a genetic search or by gradient descent) and do not promise the cheapest one. For a linear score and
continuous features the problem is small and has a closed form. Minimise sum_k w_k |d_k| subject to
sum_k c_k d_k >= need and each feature staying within its bounds: every unit of score bought through feature k
costs w_k / |c_k|, so the optimum spends the need on the features in increasing order of that price, each as far
as its bound allows (the continuous knapsack; tested against scipy's linear-programming solver and a brute-force
search in ``tests/test_recourse.py``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["linear_recourse"]


def _vector(name, values, m) -> np.ndarray:
    out = np.asarray(values, dtype=float).reshape(-1)
    if out.shape != (m,):
        raise ValueError(f"{name} must hold one value per actionable feature ({m}); got {out.shape[0]}")
    return out


def _bounds(name, values, shape) -> np.ndarray:
    out = np.asarray(values, dtype=float)
    if out.ndim == 1 and out.shape == (shape[1],):
        out = np.broadcast_to(out, shape)
    if out.shape != shape:
        raise ValueError(f"{name} must hold one bound per actionable feature ({shape[1]},) or one row of them per "
                         f"person {shape}; got shape {out.shape}")
    if np.isnan(out).any():
        raise ValueError(f"{name} must not hold NaN (use -inf or inf for no bound)")
    return out


def linear_recourse(scores, features, *, coef, weights, lower, upper, threshold=0.0):
    """Cheapest weighted-L1 change of the actionable features that lifts each score to the threshold.

    Parameters
    ----------
    scores : array-like of shape (n,)
        Each person's current score (a linear model's decision function, its log-odds for a logistic
        regression); a person is approved when the score is at least ``threshold``.
    features : array-like of shape (n, m)
        Each person's current values of the m actionable features (every other feature stays as it is).
    coef : array-like of shape (m,)
        The score's coefficient on each actionable feature, in the units of ``features``.
    weights : array-like of shape (m,)
        Cost of moving each feature by one unit (positive; e.g. one over the feature's standard deviation, so
        that cost is counted in standard deviations).
    lower, upper : array-like of shape (m,) or (n, m)
        Bounds each feature must stay within after the change, the same for everyone or one row per person
        (``-inf``/``inf`` for none). A feature that may only increase has ``lower`` equal to the person's
        current values; the cheapest change only ever moves a feature in the direction that raises the score.
    threshold : float, default 0.0
        The score at which a person is approved (0 for a logistic regression's 0.5 probability).

    Returns
    -------
    pandas.DataFrame
        One row per person: ``cost`` (0 for a person already approved, ``inf`` where no change within the bounds
        reaches the threshold) and one column per actionable feature with its change (NaN where infeasible).

    Examples
    --------
    One feature with coefficient 2 and unit cost: a score of -3 needs a change of 1.5.

    >>> linear_recourse([-3.0, 1.0], [[0.0], [0.0]], coef=[2.0], weights=[1.0], lower=[0.0], upper=[10.0])
       cost   f0
    0   1.5  1.5
    1   0.0  0.0
    """
    s = np.asarray(scores, dtype=float).reshape(-1)
    x = np.asarray(features, dtype=float)
    if x.ndim != 2 or x.shape[0] != s.shape[0]:
        raise ValueError(f"features must be a 2-D array with one row per score ({s.shape[0]} rows); got shape "
                         f"{x.shape}")
    m = x.shape[1]
    c, w = _vector("coef", coef, m), _vector("weights", weights, m)
    lo, hi = _bounds("lower", lower, x.shape), _bounds("upper", upper, x.shape)
    if not (np.all(np.isfinite(w)) and np.all(w > 0)):
        raise ValueError(f"weights must be positive and finite; got {w.tolist()}")
    if np.any(lo > hi):
        rows, cols = np.nonzero(lo > hi)
        raise ValueError(f"each lower bound must be at most its upper bound; row {rows[0]}, feature {cols[0]} has "
                         f"lower {lo[rows[0], cols[0]]} and upper {hi[rows[0], cols[0]]}")
    if np.isnan(s).any() or np.isnan(x).any():
        raise ValueError("scores and features must not hold NaN")
    outside = (x < lo) | (x > hi)
    if outside.any():
        rows, cols = np.nonzero(outside)
        raise ValueError(f"every current value must lie within its bounds; row {rows[0]}, feature {cols[0]} is "
                         f"{x[rows[0], cols[0]]}, outside [{lo[rows[0], cols[0]]}, {hi[rows[0], cols[0]]}]")
    need = np.maximum(threshold - s, 0.0)
    change = np.zeros_like(x)
    cost = np.zeros_like(s)
    # Cheapest score first: a unit of score through feature k costs w_k / |c_k|.
    for k in sorted(np.flatnonzero(c != 0), key=lambda k: w[k] / abs(c[k])):
        room = np.clip(hi[:, k] - x[:, k], 0, None) if c[k] > 0 else np.clip(x[:, k] - lo[:, k], 0, None)
        bought = np.minimum(need, abs(c[k]) * room)  # score gained through this feature
        step = bought / abs(c[k])
        change[:, k] = np.sign(c[k]) * step
        cost += w[k] * step
        need = need - bought
    # A rounding remainder of a feasible person is far below this; an infeasible one lacks whole units.
    infeasible = need > 1e-9 * np.maximum(1.0, np.abs(s))
    cost[infeasible] = np.inf
    change[infeasible] = np.nan
    table = pd.DataFrame(change, columns=[f"f{k}" for k in range(m)])
    table.insert(0, "cost", cost)
    return table
