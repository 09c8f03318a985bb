"""Splits: systematic sampling in blocks and folds stratified by group x label."""
import re

import numpy as np
import pandas as pd
import pytest

from faircode.splits import group_label_cells, group_label_folds, systematic_labels, systematic_split


@pytest.fixture
def rows():
    rng = np.random.default_rng(0)
    n = 1003  # 125 full blocks of 8 and a partial block of 3
    return pd.DataFrame({
        "region": rng.choice(["north", "south", "east"], n),
        "income": rng.integers(0, 5, n),
        "y": rng.integers(0, 2, n),
    }, index=pd.RangeIndex(5000, 5000 + n))


@pytest.mark.parametrize("allocation", [None, {"train": 2, "valid": 2, "test": 1}, {"a": 1, "b": 0, "c": 2}])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_full_block_gets_exactly_its_allocation(rows, allocation, seed):
    labels = systematic_labels(rows, by=["region", "income"], allocation=allocation, random_state=seed)
    expected = allocation or {"train": 4, "leaderboard": 1, "holdout": 3}
    size = sum(expected.values())
    # Walk the rows in the documented order: a stable sort on the stratifying columns.
    order = np.lexsort((rows["income"].to_numpy(), rows["region"].to_numpy()))
    walked = labels.to_numpy()[order]
    n_full = len(rows) // size
    blocks = walked[: n_full * size].reshape(n_full, size)
    for name, count in expected.items():
        assert np.all((blocks == name).sum(axis=1) == count)
    leftover = pd.Series(walked[n_full * size:]).value_counts()
    assert leftover.sum() == len(rows) % size
    assert all(leftover.get(name, 0) <= count for name, count in expected.items())
    assert list(labels.cat.categories) == list(expected)
    assert labels.index.equals(rows.index)


def test_partial_block_is_dealt_in_proportion_at_random(rows):
    """Over many seeds, the 3 leftover rows land in train, leaderboard, holdout about 4:1:3."""
    last_row_sorted_last = rows.sort_values("region", kind="stable").index[-1]
    tail = [systematic_labels(rows, by="region", random_state=s).loc[last_row_sorted_last] for s in range(400)]
    shares = pd.Series(tail).value_counts(normalize=True)
    for name, p in {"train": 4 / 8, "leaderboard": 1 / 8, "holdout": 3 / 8}.items():
        assert abs(shares[name] - p) <= 4 * np.sqrt(p * (1 - p) / 400)


def test_systematic_sets_keep_strata_shares(rows):
    train, leaderboard, holdout = systematic_split(rows, by=["region", "income"], random_state=3)
    assert len(train) + len(leaderboard) + len(holdout) == len(rows)
    assert len(np.unique(np.concatenate([train, leaderboard, holdout]))) == len(rows)
    # Each stratum is a run of consecutive rows after sorting, so each set's count is within a block of exact.
    strata = rows.groupby(["region", "income"]).size()
    for positions, share in [(train, 4 / 8), (leaderboard, 1 / 8), (holdout, 3 / 8)]:
        got = rows.iloc[positions].groupby(["region", "income"]).size()
        assert np.all(np.abs(got.reindex(strata.index, fill_value=0) - share * strata) <= 8)


def test_systematic_is_seeded(rows):
    first = systematic_labels(rows, random_state=5)
    assert first.equals(systematic_labels(rows, random_state=5))
    assert not first.equals(systematic_labels(rows, random_state=6))


@pytest.mark.parametrize("kwargs, message", [
    (dict(by="zip"), "unknown column 'zip' in by; the columns are: region, income, y"),
    (dict(block_size=10), "block_size=10 but the allocation {'train': 4, 'leaderboard': 1, 'holdout': 3} fills "
                          "blocks of 8 rows"),
    (dict(allocation={"a": -1, "b": 2}), "allocation counts must be non-negative integers; got {'a': -1}"),
    (dict(allocation={"a": 0}), "allocation assigns no rows"),
    (dict(allocation=[4, 1, 3]), "allocation must be a non-empty dict of set name -> rows per block"),
])
def test_systematic_bad_inputs(rows, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        systematic_labels(rows, **kwargs)


@pytest.fixture
def credit():
    rng = np.random.default_rng(1)
    n = 1000
    young = (rng.random(n) < 0.2).astype(int)
    y = (rng.random(n) < np.where(young == 1, 0.6, 0.72)).astype(int)
    return pd.DataFrame({"young": young, "sex": rng.choice(["f", "m"], n), "y": y})


@pytest.mark.parametrize("n_splits, n_repeats", [(5, 1), (4, 3)])
@pytest.mark.parametrize("features", [["young"], ["young", "sex"]])
def test_folds_cover_every_row_once_and_keep_cell_shares(credit, n_splits, n_repeats, features):
    folds = group_label_folds(credit["y"], sensitive_features=credit[features], n_splits=n_splits,
                              n_repeats=n_repeats, random_state=0)
    assert len(folds) == n_splits * n_repeats
    cells = group_label_cells(credit["y"], sensitive_features=credit[features]).to_numpy()
    for r in range(n_repeats):
        repeat = folds[r * n_splits:(r + 1) * n_splits]
        tested = np.concatenate([test for _, test in repeat])
        assert np.array_equal(np.sort(tested), np.arange(len(credit)))  # every row tested exactly once
        for train, test in repeat:
            assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == len(credit)
        # Each cell's count per test fold differs by at most one across folds (its share is kept).
        per_fold = pd.DataFrame([pd.Series(cells[test]).value_counts() for _, test in repeat]).fillna(0)
        assert (per_fold.max() - per_fold.min()).max() <= 1
    if n_repeats > 1:
        assert not np.array_equal(folds[0][1], folds[n_splits][1])


def test_folds_warn_naming_a_cell_smaller_than_n_splits():
    y = [0, 1] * 10 + [1, 1, 0]
    group = ["a"] * 20 + ["b"] * 3
    with pytest.warns(UserWarning, match=re.escape("fewer rows than n_splits=5, so some test folds will miss "
                                                   "them: g=b, y=0 (1 rows), g=b, y=1 (2 rows)")):
        folds = group_label_folds(y, sensitive_features={"g": group}, n_splits=5)
    assert len(folds) == 5


def test_cells_name_groups_and_labels():
    cells = group_label_cells(pd.Series([1, 0, 1], index=[7, 8, 9]),
                              sensitive_features={"race": ["x", "x", "y"], "sex": ["f", "m", "m"]})
    assert cells.tolist() == ["race=x, sex=f, y=1", "race=x, sex=m, y=0", "race=y, sex=m, y=1"]
    assert list(cells.index) == [7, 8, 9]


def test_folds_bad_inputs():
    with pytest.raises(ValueError, match="y must hold binary labels 0 and 1"):
        group_label_folds([0, 2, 1], sensitive_features=["a", "a", "b"], n_splits=2)
    with pytest.raises(ValueError, match="n_repeats must be a positive integer; got 0"):
        group_label_folds([0, 1, 1], sensitive_features=["a", "a", "b"], n_splits=2, n_repeats=0)
