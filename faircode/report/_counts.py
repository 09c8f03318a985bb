"""Counts first: one pass over the rows, then everything from counts, the bootstrap included.

The rows are coded once by their *fine cell* (the combination of every group column and stratum), their score (or
decision) and their label, and counted. Every table of the audit is a sum of those counts: a group column's groups,
an intersection, the (stratum, group) cells of a conditional gap and the overall row are each a *view* that maps
fine cells to its own cells, and a threshold turns each score into a decision. So the cost grows with the rows only
in that one pass.

The bootstrap is drawn once, on the counts: rows that share their fine cell, label, band of score between two
thresholds (and weight) are interchangeable for every rate at every threshold, so a resample is the multinomial
draw of how many rows of each such category it holds (``faircode.metrics._bootstrap``'s draw, which has exactly
the distribution of resampling rows with replacement, the total number of rows fixed, as fairlearn's
``MetricFrame`` resamples). The same draws give every view and threshold its resampled sums through one sparse
matrix product, so every gap, ratio and comparison between views is paired on the same resamples.
``faircode.metrics._bootstrap`` resamples one coding of the rows into cells with one decision per row; what is new
here is the map from one set of categories to many views and thresholds at once.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse

from faircode.metrics._bootstrap import SUMS, _draw, make_rng
from faircode.metrics._rates import Tallies

_DENSE_LIMIT = 2**24  # a key space up to this size is counted with bincount (no sort)


@dataclass(frozen=True)
class View:
    """A way of grouping the fine cells: ``of_fine[f]`` is the cell of fine cell ``f``, labelled ``index``."""

    name: str  # "race", "race & sex", "overall", "stratum x race"
    columns: tuple[str, ...]
    index: pd.Index
    of_fine: np.ndarray


@dataclass(frozen=True)
class Histogram:
    """Rows counted by (fine cell, score value, label), sorted in that order."""

    fine: np.ndarray
    score: np.ndarray  # position in ``values``
    label: np.ndarray
    rows: np.ndarray
    wsum: np.ndarray
    w2sum: np.ndarray
    values: np.ndarray  # the distinct score values (or decisions 0, 1), ascending


@dataclass(frozen=True)
class Categories:
    """Interchangeable rows for every rate at every threshold: (fine cell, label, band, weight)."""

    fine: np.ndarray
    label: np.ndarray
    band: np.ndarray  # number of thresholds at or below the score (the decision itself without a score)
    weight: np.ndarray
    count: np.ndarray


def _count(key: np.ndarray, size: int | None, weights=()):
    """Distinct keys (ascending) and, per key, the number of rows and the sum of each array in ``weights``;
    ``size`` bounds the keys (None: unknown, so they are factorized rather than counted in a dense array)."""
    if size is not None and size <= max(_DENSE_LIMIT, 2 * len(key)):
        rows = np.bincount(key, minlength=size)
        present = np.flatnonzero(rows)
        return present, rows[present], [np.bincount(key, weights=w, minlength=size)[present] for w in weights]
    codes, uniques = pd.factorize(key, sort=True)
    n = len(uniques)
    return uniques, np.bincount(codes, minlength=n), [np.bincount(codes, weights=w, minlength=n) for w in weights]


def fine_cells(codes: list[np.ndarray], sizes: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each row's fine cell (only the combinations that occur, in sorted order) and, per fine cell, its code in
    each column, shape (n_fine, n_columns)."""
    combined = np.ravel_multi_index(tuple(codes), tuple(sizes)) if len(codes) > 1 else codes[0]
    fine, uniques = pd.factorize(combined, sort=True)
    levels = np.column_stack(np.unravel_index(uniques, tuple(sizes)))
    return fine.astype(np.int64), levels


def histogram(fine: np.ndarray, n_fine: int, score: np.ndarray, y: np.ndarray, w: np.ndarray | None,
              m: np.ndarray | None = None) -> Histogram:
    """Count the rows by (fine cell, score value, label); ``m``: how many rows each entry stands for (counted
    rows, the Dask path), None for one each."""
    score_code, values = pd.factorize(score, sort=True)
    n_values = len(values)
    key = (fine * n_values + score_code) * 2 + y
    weights = () if w is None else (w, w * w)
    if m is not None:
        weights = (m.astype(float),) + tuple(v * m for v in weights)
    keys, rows, sums = _count(key, n_fine * n_values * 2, weights)
    if m is not None:
        rows, sums = sums[0].round().astype(np.int64), sums[1:]
    wsum, w2sum = (rows.astype(float), rows.astype(float)) if w is None else sums
    return Histogram(fine=keys // (2 * n_values), score=(keys // 2) % n_values, label=keys % 2, rows=rows,
                     wsum=wsum, w2sum=w2sum, values=np.asarray(values, float))


def bands(values: np.ndarray, thresholds: np.ndarray | None) -> np.ndarray:
    """The band of each score value: how many thresholds lie at or below it (a score at a threshold is
    predicted positive); without thresholds the value is the decision itself."""
    if thresholds is None:
        return values.astype(np.int64)
    return np.searchsorted(thresholds, values, side="right").astype(np.int64)


def categories(hist: Histogram, thresholds, *, fine=None, score=None, y=None, w=None, m=None) -> Categories:
    """The bootstrap's categories: from the histogram without weights, from the rows with them (rows of one
    category must share their weight; ``m``: how many rows each stands for, None for one each)."""
    band_of_value = bands(hist.values, thresholds)
    n_bands = int(band_of_value.max()) + 1
    if w is None:
        key = (hist.fine * n_bands + band_of_value[hist.score]) * 2 + hist.label
        n_fine = int(hist.fine.max()) + 1
        keys, _, (count,) = _count(key, n_fine * n_bands * 2, (hist.rows.astype(float),))
        weight = np.ones(len(keys))
    else:
        row_band = bands(score, thresholds)
        key = (fine * n_bands + row_band) * 2 + y
        w_code, w_values = pd.factorize(w, sort=True)
        pairs, count, sums = _count(key * len(w_values) + w_code, None, () if m is None else (m.astype(float),))
        count = count if m is None else sums[0]
        keys, weight = pairs // len(w_values), np.asarray(w_values, float)[pairs % len(w_values)]
    return Categories(fine=keys // (2 * n_bands), label=keys % 2, band=(keys // 2) % n_bands, weight=weight,
                      count=np.asarray(count).round().astype(np.int64))


def _layout(cats: Categories, views: list[View], n_thresholds: int):
    """Per (view, threshold): the cell and kind of row of every category, and the contribution matrix columns."""
    blocks, offset = [], 0
    for view in views:
        cell = view.of_fine[cats.fine]
        n_cells = len(view.index)
        scale = np.zeros(n_cells * 2)
        np.maximum.at(scale, cell * 2 + cats.label, cats.weight)
        for j in range(n_thresholds):
            kind = cats.label * 2 + (cats.band > j)
            blocks.append((view, j, cell, kind, scale[cell * 2 + cats.label], offset))
            offset += n_cells * len(SUMS)
    return blocks, offset


def tallies(cats: Categories, views: list[View], n_thresholds: int, *, n_boot: int | None,
            random_state) -> dict[tuple[str, int], Tallies]:
    """The tallies (sums, resampled sums, rows and weights per kind) of every view at every threshold, the
    resampled sums all from one draw of the categories' counts."""
    blocks, width = _layout(cats, views, n_thresholds)
    half = len(SUMS) // 2
    rows_i, cols_i, vals_i = [], [], []
    k = np.arange(len(cats.count))
    for _, _, cell, kind, scale, offset in blocks:
        base = offset + cell * len(SUMS) + kind
        rows_i += [k, k]
        cols_i += [base, base + half]
        vals_i += [cats.weight, cats.weight / scale]
    matrix = scipy.sparse.csr_matrix((np.concatenate(vals_i), (np.concatenate(rows_i), np.concatenate(cols_i))),
                                     shape=(len(k), width))
    point = cats.count @ matrix
    boot = None
    if n_boot:
        boot = np.zeros((n_boot, width))
        rng = make_rng(random_state)
        for start, draws in _draw(rng, int(cats.count.sum()), cats.count, n_boot):
            boot[start:start + len(draws)] = np.asarray(matrix.T @ draws.T.astype(float)).T
    out = {}
    for view, j, cell, kind, _, offset in blocks:
        n_cells = len(view.index)
        at = slice(offset, offset + n_cells * len(SUMS))
        per_kind = [np.bincount(cell * 4 + kind, weights=cats.count * cats.weight ** p,
                                minlength=n_cells * 4).reshape(n_cells, 4) for p in (0, 1, 2)]
        out[(view.name, j)] = Tallies(
            sums=point[at].reshape(n_cells, len(SUMS)),
            boot=None if boot is None else boot[:, at].reshape(n_boot, n_cells, len(SUMS)),
            rows=per_kind[0].round().astype(np.int64), wsum=per_kind[1], w2sum=per_kind[2],
            weighted=not np.all(cats.weight == 1.0))
    return out
