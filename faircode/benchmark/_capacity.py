"""Decisions at a fixed capacity: a programme that can take a fixed share of the people it ranks.

A hospital's care-management programme has room for, say, a tenth of the patients discharged; it takes the
highest-risk ones, whatever their scores are. A decision at a probability threshold (0.5) answers another
question: with a base rate of 9% a well-calibrated model flags almost nobody at 0.5. Here the decision is
``top_share``: each row being decided is ranked by its score and the top ``capacity`` share of the rows is flagged.

For per-group decisions at the same total capacity (the harness's S4 on an audit that decides at a capacity),
:func:`group_shares` chooses the share of each group to flag so that a fairness constraint holds on held-out
rows while the total stays at the capacity. fairlearn's ThresholdOptimizer optimises accuracy (or another
objective) under the constraint at whatever share of people that leaves flagged; it has no way to hold the total
share fixed, hence this module.
"""
from __future__ import annotations

import numpy as np

__all__ = ["CAPACITY_CONSTRAINTS", "check_capacity", "group_shares", "top_share", "top_share_by_group"]

#: The constraints :func:`group_shares` can meet at a fixed total capacity without randomising decisions.
CAPACITY_CONSTRAINTS = ("demographic_parity", "true_positive_rate_parity")


def check_capacity(capacity) -> float:
    """``capacity`` as a float strictly between 0 and 1, or a ValueError saying what arrived."""
    if isinstance(capacity, bool) or not isinstance(capacity, (int, float)) or not 0 < capacity < 1:
        raise ValueError(f"capacity must be the share of rows flagged, strictly between 0 and 1; got {capacity!r}")
    return float(capacity)


def _count(n: int, share: float) -> int:
    """How many of ``n`` rows a share flags: rounded to the nearest row (half up)."""
    return int(np.floor(share * n + 0.5))


def _ranked(scores, random_state) -> np.ndarray:
    """Row positions from the highest score down, rows with equal scores in a random order seeded by `random_state`.

    Ties are broken at random, not by row order: a data file's row order often carries something (Healthcare
    Readmission's rows are in encounter order, which tracks the readmission rate and the patients' mix), and a
    model with few distinct scores ties thousands of rows at a cut, so row order would decide who gets a place.
    """
    keys = np.random.default_rng(random_state).random(len(scores))
    return np.lexsort((keys, -scores))


def top_share(scores, capacity: float, *, random_state: int = 0) -> np.ndarray:
    """0/1 flags for the ``capacity`` share of rows with the highest scores.

    The number flagged is ``capacity * n`` rounded to the nearest row; rows with equal scores at the cut are taken
    in a random order seeded by ``random_state`` (see ``_ranked``), so the result is deterministic.

    Examples
    --------
    >>> top_share([0.1, 0.9, 0.5, 0.7], 0.5).tolist()
    [0, 1, 0, 1]
    """
    capacity = check_capacity(capacity)
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 1 or np.isnan(scores).any():
        raise ValueError(f"scores must be a 1-d array without NaN; got shape {scores.shape}")
    flags = np.zeros(len(scores), dtype=int)
    flags[_ranked(scores, random_state)[:_count(len(scores), capacity)]] = 1
    return flags


def top_share_by_group(scores, groups, shares: dict, *, random_state: int = 0) -> np.ndarray:
    """0/1 flags: in each group ``g``, the ``shares[g]`` share of its rows with the highest scores (ties broken at
    random, seeded by ``random_state``, as in ``top_share``)."""
    scores, groups = np.asarray(scores, dtype=float), np.asarray(groups)
    flags = np.zeros(len(scores), dtype=int)
    for group, share in shares.items():
        rows = np.flatnonzero(groups == group)
        order = rows[_ranked(scores[rows], random_state)]
        flags[order[:_count(len(rows), share)]] = 1
    unknown = sorted(set(_key(g) for g in np.unique(groups)) - set(shares), key=str)
    if unknown:
        raise ValueError(f"groups {unknown} have no share; the shares were fitted for {sorted(shares)}")
    return flags


def _key(value):
    """A group label as a plain Python value (numpy scalars as their Python type; strings and objects as they are)."""
    return value.item() if isinstance(value, np.generic) else value


def _share_at_tpr(scores, positive, tpr: float) -> float:
    """The share of a group's rows flagged by the threshold that flags the top ``tpr`` of its positives."""
    ranked = np.sort(scores[positive])[::-1]
    k = int(np.ceil(tpr * len(ranked) - 1e-12))
    if k == 0:
        return 0.0
    return float(np.mean(scores >= ranked[k - 1]))


def group_shares(scores, y, groups, capacity: float, constraint: str) -> dict:
    """The share of each group to flag so that ``constraint`` holds at a total share of ``capacity``.

    Fitted on held-out rows (their scores, labels and groups):

    - ``demographic_parity``: every group gets the capacity share;
    - ``true_positive_rate_parity``: a common true positive rate ``t`` is found by bisection such that, when each
      group flags the rows scoring at least its own ``t``-quantile of its positives' scores, the share flagged
      over all rows is the capacity; each group's share at that ``t`` is returned.

    Equalized odds would need a second rate held equal at the same time, which needs randomised decisions in
    general; it is refused.
    """
    capacity = check_capacity(capacity)
    if constraint not in CAPACITY_CONSTRAINTS:
        raise ValueError(f"at a fixed capacity the per-group shares can meet {list(CAPACITY_CONSTRAINTS)}; got "
                         f"{constraint!r} (equalized odds needs randomised decisions)")
    scores, y, groups = np.asarray(scores, dtype=float), np.asarray(y).astype(int), np.asarray(groups)
    names = np.unique(groups)
    if constraint == "demographic_parity":
        return {_key(g): capacity for g in names}
    for g in names:
        if not y[groups == g].any():
            raise ValueError(f"group {_key(g)!r} has no positive row to fit a true positive rate on")
    weights = {_key(g): float(np.mean(groups == g)) for g in names}

    def shares_at(tpr):
        return {_key(g): _share_at_tpr(scores[groups == g], y[groups == g] == 1, tpr) for g in names}

    low, high = 0.0, 1.0
    for _ in range(60):  # the total share grows with the common rate; bisect to well below one row
        middle = (low + high) / 2
        total = sum(weights[g] * s for g, s in shares_at(middle).items())
        low, high = (middle, high) if total < capacity else (low, middle)
    return shares_at(high)
