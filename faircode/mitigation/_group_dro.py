"""Group distributionally robust training (group DRO) for any scikit-learn estimator that takes sample weights.

fairlearn's reductions equalise a rate across groups or, with ``BoundedGroupLoss``, keep every group's loss under
a bound chosen in advance; none of them minimises the worst group's loss, and
scikit-learn has no group DRO either, so it is written here. This is the full-batch form of the exponentiated
update of Sagawa, Koh, Hashimoto and Liang (2020): each round fits the estimator with every group weighted by
``q[g]`` (spread over its rows), measures each group's mean log loss on the training rows, and raises the
weight of the groups whose loss is high, ``q[g] <- q[g] * exp(step * loss[g])``, normalised.
"""
from __future__ import annotations

import numpy as np
from sklearn.base import clone

from faircode.models import _fit_weighted


def group_log_loss(y, proba, codes, n_groups):
    """Mean log loss of each group (rows coded 0..n_groups-1), from the predicted probability of class 1."""
    p = np.clip(proba, 1e-12, 1 - 1e-12)
    loss = -(y * np.log(p) + (1 - y) * np.log(1 - p))
    return np.bincount(codes, weights=loss, minlength=n_groups) / np.bincount(codes, minlength=n_groups)


def fit_group_dro(estimator, X, y, *, sensitive_features, rounds=20, step=1.0):
    """Fit `estimator` to minimise the worst group's mean log loss on (X, y), by reweighting groups.

    Parameters
    ----------
    estimator : scikit-learn classifier
        Unfitted; it (or a Pipeline's last step) must accept ``sample_weight`` and have ``predict_proba``.
    X, y : array-like
        Training rows and 0/1 labels.
    sensitive_features : array-like
        Group of each row; at least two groups.
    rounds : int, default 20
        Number of fits (each one a reweighted fit of a fresh clone).
    step : float, default 1.0
        Step of the exponentiated update of the group weights (> 0).

    Returns
    -------
    model : the estimator fitted in the last round, with the weights ``q`` that round used.
    history : dict with ``groups`` (labels in code order), ``q`` (rounds x groups: the weights each round used)
        and ``loss`` (rounds x groups: each group's mean training log loss after that round's fit).

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> X = [[0.0], [1.0], [2.0], [3.0], [0.5], [2.5]]
    >>> model, history = fit_group_dro(LogisticRegression(), X, [0, 0, 1, 1, 1, 0],
    ...                                sensitive_features=["a", "a", "a", "a", "b", "b"], rounds=3)
    >>> history["q"].shape, [str(g) for g in history["groups"]]
    ((3, 2), ['a', 'b'])
    """
    y = np.asarray(y)
    labels, codes = np.unique(np.asarray(sensitive_features), return_inverse=True)
    if len(labels) < 2:
        raise ValueError(f"group DRO needs at least 2 groups in sensitive_features; got {labels.tolist()}")
    if len(codes) != len(y):
        raise ValueError(f"y and sensitive_features must have the same length; got {len(y)} and {len(codes)}")
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise ValueError(f"rounds must be an int >= 1; got {rounds!r}")
    if isinstance(step, bool) or not isinstance(step, (int, float, np.floating)) or not np.isfinite(step) \
            or step <= 0:
        raise ValueError(f"step must be a finite number > 0; got {step!r}")
    sizes = np.bincount(codes)
    q = np.full(len(labels), 1 / len(labels))
    qs, losses = [], []
    for _ in range(rounds):
        weights = (q / sizes)[codes] * len(y)  # a group's rows share its weight q; mean row weight 1
        model = _fit_weighted(clone(estimator), X, y, weights)
        loss = group_log_loss(y, model.predict_proba(X)[:, 1], codes, len(labels))
        qs.append(q)
        losses.append(loss)
        q = q * np.exp(step * loss)
        q = q / q.sum()
    return model, {"groups": labels, "q": np.array(qs), "loss": np.array(losses)}
