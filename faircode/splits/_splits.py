"""Splits: systematic sampling in blocks, and folds stratified by group x label."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

from faircode.metrics._bootstrap import make_rng
from faircode.metrics._inputs import check_binary, encode_groups

DEFAULT_ALLOCATION = {"train": 4, "leaderboard": 1, "holdout": 3}


def _check_allocation(allocation, block_size):
    if not isinstance(allocation, dict) or not allocation:  # a list would lose the set names
        raise ValueError(f"allocation must be a non-empty dict of set name -> rows per block; got {allocation!r}")
    bad = {k: v for k, v in allocation.items()
           if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 0}
    if bad:
        raise ValueError(f"allocation counts must be non-negative integers; got {bad}")
    total = int(sum(allocation.values()))
    if total == 0:
        raise ValueError("allocation assigns no rows: its counts sum to 0")
    if block_size is not None and block_size != total:
        raise ValueError(
            f"block_size={block_size!r} but the allocation {dict(allocation)} fills blocks of {total} rows; "
            "they must agree (or leave block_size out)"
        )
    return total


def _sort_order(data, by) -> np.ndarray:
    """Row positions in stable sorted order of the stratifying columns."""
    if isinstance(data, pd.Series):
        frame = data.to_frame()
    elif isinstance(data, pd.DataFrame):
        frame = data
    else:
        arr = np.asarray(data)
        if arr.ndim not in (1, 2):
            raise ValueError(f"data must be a Series, DataFrame or 1-D/2-D array; got shape {arr.shape}")
        frame = pd.DataFrame(arr.reshape(len(arr), -1))
    if by is not None:
        by = [by] if isinstance(by, str) else list(by)
        missing = [c for c in by if c not in frame.columns]
        if missing:
            raise ValueError(
                f"unknown column {missing[0]!r} in by; the columns are: {', '.join(map(str, frame.columns))}"
            )
        frame = frame[by]
    if frame.shape[1] == 0:
        return np.arange(len(frame))
    positions = pd.RangeIndex(len(frame))
    ordered = frame.set_axis(positions).sort_values(list(frame.columns), kind="stable")
    return ordered.index.to_numpy()


def systematic_labels(data, *, by=None, allocation=None, block_size=None, random_state=0) -> pd.Series:
    """Assign rows to sets by systematic sampling in blocks of the rows sorted by stratifying variables.

    The rows are sorted by ``by`` (a stable sort: ties keep their order), then cut into consecutive blocks of
    ``block_size`` rows; within each block the set labels of ``allocation`` are shuffled and dealt out, so each
    full block gives exactly ``allocation[name]`` rows to each set. The last, partial block is dealt the
    first labels of a shuffled full block: each set gets its share at random, in proportion to its allocation.
    Neighbours in the sorted order are alike, so every set gets a near-exact share of every stratum, and the
    sets differ far less from one another than under plain random splitting.

    Parameters
    ----------
    data : DataFrame, Series or array-like
        The rows to split (only its length and the ``by`` columns are used).
    by : str or list of str, optional
        Stratifying columns, sorted in this order of priority. Default: every column of ``data``.
    allocation : dict of str -> int, default {"train": 4, "leaderboard": 1, "holdout": 3}
        Rows per block for each set, in the order the sets are named.
    block_size : int, optional
        Rows per block; must equal the sum of ``allocation`` (the default).
    random_state : int or numpy.random.Generator, default 0
        Seed of the shuffles within blocks.

    Returns
    -------
    pandas.Series
        Categorical set name per row, with the index of ``data`` (a RangeIndex for arrays).

    Examples
    --------
    >>> import pandas as pd
    >>> from faircode.splits import systematic_labels
    >>> rows = pd.DataFrame({"group": ["a"] * 8 + ["b"] * 8})
    >>> labels = systematic_labels(rows, by="group", random_state=1)
    >>> print(pd.crosstab(rows["group"], labels).to_string())  # doctest: +NORMALIZE_WHITESPACE
    set    train  leaderboard  holdout
    group
    a          4            1        3
    b          4            1        3
    """
    allocation = DEFAULT_ALLOCATION if allocation is None else allocation
    size = _check_allocation(allocation, block_size)
    rng = make_rng(random_state)
    order = _sort_order(data, by)
    n = len(order)
    names = list(allocation)
    pattern = np.repeat(np.arange(len(names)), list(allocation.values()))
    n_blocks = -(-n // size)
    dealt = rng.permuted(np.tile(pattern, (n_blocks, 1)), axis=1).ravel()[:n]
    codes = np.empty(n, dtype=np.int64)
    codes[order] = dealt
    index = data.index if isinstance(data, (pd.Series, pd.DataFrame)) else pd.RangeIndex(n)
    labels = pd.Categorical.from_codes(codes, categories=names)
    return pd.Series(labels, index=index, name="set")


def systematic_split(data, *, by=None, allocation=None, block_size=None, random_state=0) -> tuple:
    """Row positions of each set under systematic sampling in blocks (see ``systematic_labels``).

    Parameters
    ----------
    data, by, allocation, block_size, random_state
        As in ``systematic_labels``.

    Returns
    -------
    tuple of numpy.ndarray
        Sorted row positions (0-based) of each set, in the order of ``allocation``; with the default, the
        train, leaderboard and holdout rows.

    Examples
    --------
    >>> from faircode.splits import systematic_split
    >>> train, leaderboard, holdout = systematic_split(list(range(24)), random_state=0)
    >>> len(train), len(leaderboard), len(holdout)
    (12, 3, 9)
    """
    labels = systematic_labels(data, by=by, allocation=allocation, block_size=block_size,
                               random_state=random_state)
    codes = labels.cat.codes.to_numpy()
    return tuple(np.flatnonzero(codes == k) for k in range(len(labels.cat.categories)))


def group_label_cells(y, *, sensitive_features) -> pd.Series:
    """Name each row's group x label cell, e.g. ``"sex=1, y=0"``: the classes stratified folds balance.

    Parameters
    ----------
    y : array-like of 0/1
        Labels.
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        Group membership, as in ``faircode.metrics.group_rates``.

    Returns
    -------
    pandas.Series
        Categorical cell name per row (with the index of ``y`` when it is a Series).

    Examples
    --------
    >>> from faircode.splits import group_label_cells
    >>> group_label_cells([0, 1, 1], sensitive_features={"sex": ["f", "m", "m"]}).tolist()
    ['sex=f, y=0', 'sex=m, y=1', 'sex=m, y=1']
    """
    labels = check_binary("y", y)
    groups = encode_groups(sensitive_features, len(labels))
    codes = groups.codes * 2 + labels
    names = []
    for label in groups.index:
        parts = label if isinstance(label, tuple) else (label,)
        prefix = ", ".join(f"{name}={value}" for name, value in zip(groups.index.names, parts))
        names += [f"{prefix}, y=0", f"{prefix}, y=1"]
    index = y.index if isinstance(y, pd.Series) else pd.RangeIndex(len(labels))
    cells = pd.Categorical.from_codes(codes, categories=names)
    return pd.Series(cells, index=index, name="cell").cat.remove_unused_categories()


def group_label_folds(y, *, sensitive_features, n_splits=5, n_repeats=1, random_state=0) -> list:
    """Cross-validation folds stratified by group x label (scikit-learn's stratified splitters on the cells).

    Every test fold gets close to the data's share of each group x label cell, so a per-group TPR or FPR can
    be computed in every fold. With ``n_repeats > 1`` the folds are drawn again with different shuffles
    (``RepeatedStratifiedKFold``). A cell with fewer rows than ``n_splits`` cannot reach every fold: a
    ``UserWarning`` names it.

    Parameters
    ----------
    y : array-like of 0/1
        Labels.
    sensitive_features : Series, DataFrame, dict of arrays or array-like
        Group membership.
    n_splits : int, default 5
        Folds per repeat.
    n_repeats : int, default 1
        Repeats, each with its own shuffle.
    random_state : int, default 0
        Seed of the shuffles.

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        (train positions, test positions) per fold, repeat by repeat: usable as ``cv=`` in scikit-learn.

    Examples
    --------
    >>> from faircode.splits import group_label_folds
    >>> folds = group_label_folds([0, 1] * 10, sensitive_features=["a"] * 10 + ["b"] * 10, n_splits=2)
    >>> [len(test) for _, test in folds]
    [10, 10]
    """
    if not isinstance(n_repeats, (int, np.integer)) or n_repeats < 1:
        raise ValueError(f"n_repeats must be a positive integer; got {n_repeats!r}")
    cells = group_label_cells(y, sensitive_features=sensitive_features)
    counts = cells.value_counts(sort=False)
    small = counts[counts < n_splits]
    if len(small):
        listed = ", ".join(f"{name} ({count} rows)" for name, count in small.items())
        warnings.warn(
            f"{len(small)} group x label cell(s) have fewer rows than n_splits={n_splits}, so some test folds "
            f"will miss them: {listed}",
            UserWarning,
            stacklevel=2,
        )
    if n_repeats == 1:
        splitter = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    else:
        splitter = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=random_state)
    codes = cells.cat.codes.to_numpy()
    with warnings.catch_warnings():
        # We have already warned, naming the cells; scikit-learn's own warning only names the smallest count.
        warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
        return [(train, test) for train, test in splitter.split(np.zeros(len(codes)), codes)]
