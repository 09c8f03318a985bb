"""cross_group_auc against a direct count over every (positive, negative) pair, and its errors."""
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from faircode.metrics import cross_group_auc


def pairwise(pos, neg):
    """The definition: share of (positive, negative) pairs ranked correctly, ties one half."""
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


@pytest.fixture
def rows():
    rng = np.random.default_rng(7)
    n = 120
    group = rng.choice(["a", "b", "c"], size=n)
    y = rng.integers(0, 2, size=n)
    score = rng.integers(0, 6, size=n) + y * (group == "a")  # integer scores: many ties
    return y, score.astype(float), group


def test_every_cell_matches_the_pairwise_count(rows):
    y, score, group = rows
    table = cross_group_auc(y, score, sensitive_features=group)
    assert list(table.index) == ["a", "b", "c"] and list(table.columns) == ["a", "b", "c"]
    assert table.index.name == "positives" and table.columns.name == "negatives"
    for i in "abc":
        for j in "abc":
            expected = pairwise(score[(group == i) & (y == 1)], score[(group == j) & (y == 0)])
            assert table.loc[i, j] == pytest.approx(expected, abs=1e-12)


def test_diagonal_is_the_within_group_auc(rows):
    y, score, group = rows
    table = cross_group_auc(y, score, sensitive_features=pd.Series(group))
    for g in "abc":
        inside = group == g
        assert table.loc[g, g] == pytest.approx(roc_auc_score(y[inside], score[inside]), abs=1e-12)


def test_a_group_without_positives_gives_nan_in_its_row():
    table = cross_group_auc([0, 0, 1, 0], [0.1, 0.2, 0.9, 0.3], sensitive_features=["a", "a", "b", "b"])
    assert table.loc["a"].isna().all()
    assert table.loc["b", "a"] == 1.0 and table.loc["b", "b"] == 1.0


def test_errors_name_what_arrived():
    with pytest.raises(ValueError, match="y_score has 2 rows but y_true has 3"):
        cross_group_auc([0, 1, 1], [0.1, 0.2], sensitive_features=["a", "a", "b"])
    with pytest.raises(ValueError, match=re.escape("y_score must hold finite numbers")):
        cross_group_auc([0, 1], [0.1, np.nan], sensitive_features=["a", "b"])
    with pytest.raises(ValueError, match="y_true must hold binary labels"):
        cross_group_auc([0, 2], [0.1, 0.2], sensitive_features=["a", "b"])
    with pytest.raises(ValueError, match="y_true is empty"):
        cross_group_auc([], [], sensitive_features=[])
