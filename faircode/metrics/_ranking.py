"""Cross-group ranking: the AUC of one group's positives against another group's negatives (xAUC).

scikit-learn's ``roc_auc_score`` and fairlearn's ``MetricFrame`` give the AUC within each group; neither compares
the positives of one group with the negatives of another, which is what xAUC (Kallus and Zhou, 2019) asks: when
one group's positives are ranked below the other group's negatives, the score favours one group however the
threshold is set. Written here because no maintained library already in the project has it.
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from faircode.metrics._inputs import _as_1d, check_binary, encode_groups


def _pair_auc(positive_scores: np.ndarray, negative_scores: np.ndarray) -> float:
    """P(positive score > negative score) + half P(tie), by the Mann-Whitney rank sum; NaN if a side is empty."""
    n_pos, n_neg = len(positive_scores), len(negative_scores)
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    ranks = rankdata(np.concatenate([positive_scores, negative_scores]))  # ties get their mean rank
    return float((ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def cross_group_auc(y_true, y_score, *, sensitive_features) -> pd.DataFrame:
    """AUC of every group's positives against every group's negatives (xAUC); within-group AUC on the diagonal.

    Parameters
    ----------
    y_true : array-like of 0/1
        True labels.
    y_score : array-like of float
        Scores, higher meaning more likely positive (finite numbers).
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        Group of each row, as for ``group_rates``.

    Returns
    -------
    pandas.DataFrame
        Rows: the group whose positives are ranked; columns: the group whose negatives they are ranked against.
        Each value is the probability that a random positive of the row's group scores above a random negative of
        the column's group, ties counting one half. Parity across groups: ``xauc[a, b] == xauc[b, a]`` for every
        pair, in which case neither group's positives are ranked systematically lower against the other's
        negatives. NaN where a group has no positives (its row) or no negatives (its column).

    Examples
    --------
    >>> from faircode.metrics import cross_group_auc
    >>> table = cross_group_auc([1, 0, 1, 0], [0.9, 0.2, 0.4, 0.6], sensitive_features=["a", "a", "b", "b"])
    >>> print(table.to_string())  # doctest: +NORMALIZE_WHITESPACE
    negatives    a    b
    positives
    a          1.0  1.0
    b          1.0  0.0
    """
    y = check_binary("y_true", y_true)
    if len(y) == 0:
        raise ValueError("y_true is empty; there are no rows to rank")
    score = _as_1d("y_score", y_score)
    if len(score) != len(y):
        raise ValueError(f"y_score has {len(score)} rows but y_true has {len(y)}; they must have the same length")
    if not np.issubdtype(score.dtype, np.number) or not np.all(np.isfinite(score.astype(float))):
        raise ValueError("y_score must hold finite numbers (scores, higher meaning more likely positive)")
    score = score.astype(float)
    groups = encode_groups(sensitive_features, len(y))
    values = np.full((groups.n_cells, groups.n_cells), np.nan)
    for i in range(groups.n_cells):
        positives = score[(groups.codes == i) & (y == 1)]
        for j in range(groups.n_cells):
            values[i, j] = _pair_auc(positives, score[(groups.codes == j) & (y == 0)])
    if isinstance(groups.index, pd.MultiIndex):  # intersections keep their features' names on both axes
        return pd.DataFrame(values, index=groups.index, columns=groups.index)
    return pd.DataFrame(values, index=groups.index.rename("positives"),
                        columns=groups.index.rename("negatives"))
