"""Input checking shared by the metrics and splits: binary labels, sensitive features, sample weights."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd


def _as_1d(name: str, values) -> np.ndarray:
    """Return ``values`` as a 1-D numpy array or raise naming the argument and the shape that arrived."""
    arr = values.to_numpy() if isinstance(values, (pd.Series, pd.Index)) else np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got an array of shape {arr.shape}")
    return arr


def check_rows(y_true, y_pred, sample_weight):
    """Labels, predictions and weights checked against each other: ``(y, y_hat, w)``, ``w`` None without weights."""
    y = check_binary("y_true", y_true)
    if len(y) == 0:
        raise ValueError("y_true is empty; there are no rows to evaluate")
    return y, check_binary("y_pred", y_pred, len(y)), check_weights(sample_weight, len(y))


def check_count(name: str, value) -> int:
    """Return ``value`` as an int, or raise if it is not a non-negative integer (``min_count``, ``min_events``)."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer; got {value!r}")
    return int(value)


def check_resampling(n_boot, confidence) -> int | None:
    """Return ``n_boot`` as an int (or None), after checking it and the intervals' ``confidence``."""
    if n_boot is not None and (not isinstance(n_boot, (int, np.integer)) or isinstance(n_boot, bool)
                               or n_boot < 1):
        raise ValueError(f"n_boot must be a positive integer or None; got {n_boot!r}")
    if not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1; got {confidence!r}")
    return None if n_boot is None else int(n_boot)


def check_binary(name: str, values, n: int | None = None) -> np.ndarray:
    """Return 0/1 labels as an int8 array; raise if anything other than 0 and 1 (or booleans) arrived."""
    arr = _as_1d(name, values)
    if n is not None and len(arr) != n:
        raise ValueError(f"{name} has {len(arr)} rows but y_true has {n}; they must have the same length")
    if arr.dtype == bool:
        return arr.astype(np.int8)
    found = pd.unique(arr)
    if not np.issubdtype(arr.dtype, np.number) or not set(found.tolist()) <= {0, 1}:
        shown = sorted(map(repr, found.tolist()))[:10]
        raise ValueError(
            f"{name} must hold binary labels 0 and 1 (or True/False); found the values {', '.join(shown)}"
        )
    return arr.astype(np.int8)


def check_weights(sample_weight, n: int) -> np.ndarray | None:
    """Return finite non-negative weights as float64 (None stays None), or raise saying what is wrong."""
    if sample_weight is None:
        return None
    w = _as_1d("sample_weight", sample_weight).astype(float)
    if len(w) != n:
        raise ValueError(f"sample_weight has {len(w)} rows but y_true has {n}; they must have the same length")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("sample_weight must be finite and non-negative; found negative, NaN or infinite values")
    if not np.any(w > 0):
        raise ValueError("sample_weight is zero for every row; at least one row needs a positive weight")
    return w


def _column(name: str, values):
    """One sensitive feature as a 1-D array; a categorical one stays a Categorical, so that its cells come out in
    the order of its categories (age bands youngest first) instead of sorted by label."""
    if isinstance(values, pd.Categorical):
        return values
    if isinstance(values, (pd.Series, pd.Index)) and isinstance(values.dtype, pd.CategoricalDtype):
        return values.array
    return _as_1d(name, values)


def _feature_columns(sensitive_features) -> dict:
    """Split ``sensitive_features`` into named 1-D columns, naming unnamed ones as fairlearn does."""
    if isinstance(sensitive_features, pd.Series):
        name = sensitive_features.name if sensitive_features.name is not None else "sensitive_feature_0"
        return {name: _column(str(name), sensitive_features)}
    if isinstance(sensitive_features, pd.DataFrame):
        return {col: _column(str(col), sensitive_features[col]) for col in sensitive_features.columns}
    if isinstance(sensitive_features, pd.Categorical):
        return {"sensitive_feature_0": sensitive_features}
    if isinstance(sensitive_features, dict):
        return {key: _column(f"sensitive_features[{key!r}]", col) for key, col in sensitive_features.items()}
    arr = np.asarray(sensitive_features)
    if arr.ndim == 1:
        return {"sensitive_feature_0": arr}
    if arr.ndim == 2:
        return {f"sensitive_feature_{i}": arr[:, i] for i in range(arr.shape[1])}
    raise ValueError(
        "sensitive_features must be a Series, a DataFrame, a dict of arrays, or a 1-D or 2-D array; "
        f"got an array of shape {arr.shape}"
    )


@dataclass(frozen=True)
class Groups:
    """Rows coded by cell: ``codes[i]`` is the position of row i's cell in ``index``."""

    codes: np.ndarray
    index: pd.Index  # one entry per cell: every combination of the features' values, sorted (categories: in order)

    @property
    def n_cells(self) -> int:
        return len(self.index)

    def position(self, label) -> int:
        """Position of a cell label, or a ValueError listing the valid labels."""
        try:
            pos = self.index.get_loc(label)
        except (KeyError, TypeError):
            pos = None
        if not isinstance(pos, (int, np.integer)):
            valid = ", ".join(repr(x) for x in self.index.tolist())
            raise ValueError(f"unknown group {label!r}; the groups are: {valid}")
        return int(pos)


def encode_groups(sensitive_features, n: int, *, what=None, empty="sensitive_features is empty; give at least one "
                  "feature", remedy="fill or drop those rows") -> Groups:
    """Code each row by the combination of its sensitive features (all combinations, like fairlearn).

    ``what(name, n_columns)`` names a column in errors (default ``sensitive feature 'name'``); ``empty`` and
    ``remedy`` are the messages for no column and for missing values, so other row labels (strata) reuse it.
    """
    columns = _feature_columns(sensitive_features)
    if not columns:
        raise ValueError(empty)
    what = what or (lambda name, _: f"sensitive feature {name!r}")
    codes_per_feature, levels = [], []
    for name, values in columns.items():
        if len(values) != n:
            raise ValueError(f"{what(name, len(columns))} has {len(values)} rows but y_true has {n}; "
                             "they must have the same length")
        missing = int(pd.isna(values).sum())
        if missing:
            raise ValueError(f"{what(name, len(columns))} has {missing} missing values; {remedy}")
        codes, uniques = pd.factorize(values, sort=True)
        codes_per_feature.append(codes.astype(np.int64))
        levels.append(pd.Index(uniques, name=name))
    if len(levels) == 1:
        return Groups(codes=codes_per_feature[0], index=levels[0])
    shape = tuple(len(level) for level in levels)
    codes = np.ravel_multi_index(tuple(codes_per_feature), shape)
    index = pd.MultiIndex.from_product(levels, names=[level.name for level in levels])
    return Groups(codes=codes, index=index)
